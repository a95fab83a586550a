# RV32IMC (no A extension: no atomic instructions), soft-float ilp32: the
# ESP32-C3 class. GCC 12 maps it to the rv32im/ilp32 multilib, whose code
# runs unchanged on an RV32IMC core.
set(FFI_CORE_TOOLCHAIN_CPU rv32imc)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-march=rv32imc -mabi=ilp32")
include(${CMAKE_CURRENT_LIST_DIR}/riscv32-unknown-elf-common.cmake)

# RV32IMAC (atomics, compressed; no FPU), soft-float ilp32: ESP32-C6, GD32VF103,
# CH32V30x, SiFive E31. Multilib: rv32imac/ilp32.
set(FFI_CORE_TOOLCHAIN_CPU rv32imac)
set(FFI_CORE_TOOLCHAIN_CPU_FLAGS "-march=rv32imac -mabi=ilp32")
include(${CMAKE_CURRENT_LIST_DIR}/riscv32-unknown-elf-common.cmake)

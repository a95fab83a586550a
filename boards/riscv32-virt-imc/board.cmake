# RV32IMC (the ESP32-C3 class) on QEMU virt (riscv32) with the A extension
# switched off, so an atomic instruction would trap; same memory map as
# riscv32-virt, whose linker script it reuses.
set(FFI_CORE_BOARD riscv32-virt-imc)
set(FFI_CORE_BOARD_CPU rv32imc)
set(FFI_CORE_QEMU_MACHINE virt)
set(FFI_CORE_QEMU_CPU "rv32,a=off,f=off,d=off")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/../riscv32-virt/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 0)
set(FFI_CORE_BOARD_COMMON riscv_common)
set(FFI_CORE_BOARD_PORT riscv32_imc)  # no A: mstatus.MIE sections
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")
# Debian ships libstdc++'s headers for riscv64-unknown-elf, not its compiled
# library (iostreams, locale) that doctest needs: the unit tests build with
# the stand-in runner in tests/support/freestanding_doctest.
set(FFI_CORE_BOARD_NO_CXX_LIBRARY ON)

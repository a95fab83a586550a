# RV32IMAC on QEMU virt (riscv32): ns16550 UART, CLINT timer, test finisher.
set(FFI_CORE_BOARD riscv32-virt)
set(FFI_CORE_BOARD_CPU rv32imac)
set(FFI_CORE_QEMU_MACHINE virt)
set(FFI_CORE_QEMU_CPU "rv32,f=off,d=off")  # QEMU's rv32 has an FPU: this build has none
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 0)  # the CLINT timer is all the boards use
set(FFI_CORE_BOARD_COMMON riscv_common)
set(FFI_CORE_BOARD_PORT riscv32)  # AMO and LR/SC reference counts
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")
# Debian ships libstdc++'s headers for riscv64-unknown-elf, not its compiled
# library (iostreams, locale) that doctest needs: the unit tests build with
# the stand-in runner in tests/support/freestanding_doctest.
set(FFI_CORE_BOARD_NO_CXX_LIBRARY ON)

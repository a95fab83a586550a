# Cortex-M33 on QEMU mps2-an505 (armv8-m.main, Secure state, single-precision FPU).
set(FFI_CORE_BOARD mps2-an505)
set(FFI_CORE_BOARD_CPU cortex-m33)
set(FFI_CORE_QEMU_MACHINE mps2-an505)
set(FFI_CORE_QEMU_CPU "")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 96)
set(FFI_CORE_BOARD_PORT cortex_m)  # LDREX/STREX reference counts
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")

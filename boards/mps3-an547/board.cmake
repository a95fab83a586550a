# Cortex-M55 on QEMU mps3-an547 (armv8.1-m.main + MVE, Secure state, double-precision FPU).
set(FFI_CORE_BOARD mps3-an547)
set(FFI_CORE_BOARD_CPU cortex-m55)
set(FFI_CORE_QEMU_MACHINE mps3-an547)
set(FFI_CORE_QEMU_CPU "")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 96)
set(FFI_CORE_BOARD_PORT cortex_m)  # LDREX/STREX reference counts
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")

# Cortex-M7 on QEMU mps2-an500 (armv7e-m, double-precision FPU).
set(FFI_CORE_BOARD mps2-an500)
set(FFI_CORE_BOARD_CPU cortex-m7)
set(FFI_CORE_QEMU_MACHINE mps2-an500)
set(FFI_CORE_QEMU_CPU "")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 32)
set(FFI_CORE_BOARD_PORT cortex_m)  # LDREX/STREX reference counts
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")

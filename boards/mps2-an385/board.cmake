# Cortex-M3 on QEMU mps2-an385 (armv7-m, no FPU).
set(FFI_CORE_BOARD mps2-an385)
set(FFI_CORE_BOARD_CPU cortex-m3)
set(FFI_CORE_QEMU_MACHINE mps2-an385)
set(FFI_CORE_QEMU_CPU "")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 32)
set(FFI_CORE_BOARD_PORT cortex_m)  # LDREX/STREX reference counts
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")

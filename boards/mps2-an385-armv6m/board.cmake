# Cortex-M0+ build (armv6-m) on QEMU mps2-an385. QEMU fixes that machine's CPU
# at Cortex-M3, which runs armv6-m code unchanged; this gives the armv6-m build
# the 4 MB + 4 MB memory the full test suite needs. Same memory map as
# mps2-an385, so its linker script is reused.
set(FFI_CORE_BOARD mps2-an385-armv6m)
set(FFI_CORE_BOARD_CPU cortex-m0plus)
set(FFI_CORE_QEMU_MACHINE mps2-an385)
set(FFI_CORE_QEMU_CPU "")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/../mps2-an385/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 32)
set(FFI_CORE_BOARD_PORT cortex_m0)  # armv6-m: PRIMASK sections
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")

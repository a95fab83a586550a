# Cortex-M0+ build (armv6-m) on QEMU microbit (nRF51, a real Cortex-M0 core):
# 256 KB flash / 16 KB RAM, for small programs. The full test suite runs on
# mps2-an385-armv6m instead.
set(FFI_CORE_BOARD microbit)
set(FFI_CORE_BOARD_CPU cortex-m0plus)
set(FFI_CORE_QEMU_MACHINE microbit)
set(FFI_CORE_QEMU_CPU "")
set(FFI_CORE_BOARD_LINKER_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/linker.ld")
set(FFI_CORE_BOARD_NUM_IRQS 32)
set(FFI_CORE_BOARD_PORT cortex_m0)  # armv6-m: PRIMASK sections
# 16 KB of RAM: half the command-line buffer (the ELF's path and a few
# arguments fit in 256 bytes).
set(FFI_CORE_BOARD_CMDLINE_MAX 256)
include("${CMAKE_CURRENT_LIST_DIR}/../common/board-common.cmake")
# The doctest suite (~400 KB) does not fit in 256 KB of flash; the armv6-m
# suite runs on mps2-an385-armv6m instead.
set(FFI_CORE_BOARD_SKIP_UNIT_SUITE ON)
# 16 KB of RAM: a Relax VM keeps nothing between calls (tvm_backend).
set(FFI_CORE_TVM_VM_KEPT_STORAGES 0 CACHE STRING "")

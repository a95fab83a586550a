# Sources shared by the bare-metal ports (cortex_m, cortex_m0, riscv32, riscv32_imc,
# single_thread).
set(FFI_CORE_BARE_METAL_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Context storage, weak hooks, no system heap: every bare-metal port.
set(FFI_CORE_BARE_METAL_SOURCES "${FFI_CORE_BARE_METAL_DIR}/bare_metal.cc")
# The reference counts on two 32-bit halves, their word operations and the
# interrupt-masked sections, which each port's inline port_atomics.h builds on.
set(FFI_CORE_BARE_METAL_INCLUDE_DIR "${FFI_CORE_BARE_METAL_DIR}/include")
# GlobalLock/GlobalUnlock as an interrupt-masked section: PRIMASK on
# Cortex-M, mstatus.MIE on RISC-V.
set(FFI_CORE_IRQ_MASK_LOCK_SOURCES "${FFI_CORE_BARE_METAL_DIR}/irq_mask_lock.cc")
# The 64-bit __atomic helpers: RISC-V ports; the 32-bit ones too where there
# is no A extension.
set(FFI_CORE_ATOMIC_HELPERS_8_SOURCES "${FFI_CORE_BARE_METAL_DIR}/atomic_helpers_8.c")
set(FFI_CORE_ATOMIC_HELPERS_4_SOURCES "${FFI_CORE_BARE_METAL_DIR}/atomic_helpers_4.c")

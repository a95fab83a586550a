# Sources shared by the bare-metal ports (cortex_m, cortex_m0, riscv32, riscv32_imc,
# single_thread).
set(FFI_CORE_BARE_METAL_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Context storage, weak hooks, no system heap: every bare-metal port.
set(FFI_CORE_BARE_METAL_SOURCES "${FFI_CORE_BARE_METAL_DIR}/bare_metal.cc")
# The reference counts on two 32-bit halves and the PRIMASK sections, which
# each port's inline port_atomics.h builds on.
set(FFI_CORE_BARE_METAL_INCLUDE_DIR "${FFI_CORE_BARE_METAL_DIR}/include")
# GlobalLock/GlobalUnlock as a PRIMASK critical section: Cortex-M ports.
set(FFI_CORE_PRIMASK_LOCK_SOURCES "${FFI_CORE_BARE_METAL_DIR}/primask_lock.cc")
# GlobalLock/GlobalUnlock as an mstatus.MIE critical section and the 64-bit
# __atomic helpers: RISC-V ports; the 32-bit helpers too where there is no A.
set(FFI_CORE_MSTATUS_LOCK_SOURCES "${FFI_CORE_BARE_METAL_DIR}/mstatus_lock.cc"
    "${FFI_CORE_BARE_METAL_DIR}/atomic_helpers_8.c")
set(FFI_CORE_ATOMIC_HELPERS_4_SOURCES "${FFI_CORE_BARE_METAL_DIR}/atomic_helpers_4.c")

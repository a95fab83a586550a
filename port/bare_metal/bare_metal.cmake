# Sources shared by the bare-metal ports (cortex_m, cortex_m0, single_thread).
set(FFI_CORE_BARE_METAL_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Context storage, weak hooks, no system heap: every bare-metal port.
set(FFI_CORE_BARE_METAL_SOURCES "${FFI_CORE_BARE_METAL_DIR}/bare_metal.cc")
# The reference counts on two 32-bit halves and the PRIMASK sections, which
# each port's inline port_atomics.h builds on.
set(FFI_CORE_BARE_METAL_INCLUDE_DIR "${FFI_CORE_BARE_METAL_DIR}/include")
# GlobalLock/GlobalUnlock as a PRIMASK critical section: Cortex-M ports.
set(FFI_CORE_PRIMASK_LOCK_SOURCES "${FFI_CORE_BARE_METAL_DIR}/primask_lock.cc")

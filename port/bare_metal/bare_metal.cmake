# Sources shared by the bare-metal ports (cortex_m, cortex_m0, single_thread).
set(FFI_CORE_BARE_METAL_DIR "${CMAKE_CURRENT_LIST_DIR}")
# Error slot, weak hooks, no default allocator: every bare-metal port.
set(FFI_CORE_BARE_METAL_SOURCES "${FFI_CORE_BARE_METAL_DIR}/bare_metal.cc")
# GlobalLock/GlobalUnlock as a PRIMASK critical section: Cortex-M ports.
set(FFI_CORE_PRIMASK_LOCK_SOURCES "${FFI_CORE_BARE_METAL_DIR}/primask_lock.cc")

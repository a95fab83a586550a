// Hooks a bare-metal firmware may supply (cortex_m, cortex_m0 and
// single_thread ports). Each has a weak default in the port; defining a
// function with the same name and C linkage in the firmware replaces it.
//
// Define overrides in an object file that is linked anyway (not only in a
// static library nothing else pulls in), or the weak default stays.
#ifndef FFI_CORE_PORT_HOOKS_H_
#define FFI_CORE_PORT_HOOKS_H_

#ifdef __cplusplus
namespace ffi_core {
namespace port {
struct ContextStorage;
}  // namespace port
}  // namespace ffi_core
extern "C" {
#endif

// A broken invariant (e.g. a reference count underflow) that ffi-core cannot
// report as an error. `message` is a static string. Should not return (reset,
// or print and halt); if it does, ffi-core spins forever. Default: passes
// `message` to ffi_core_log, then executes an undefined instruction (UDF), so
// the fault handler sees it.
void ffi_core_fatal(const char* message);

// Diagnostic text sink (one NUL-terminated line, no trailing newline).
// Default: discards it.
void ffi_core_log(const char* message);

#ifdef __cplusplus
// The storage of the calling context: its pending error and its env stream
// table. Default: one static, zero-filled block for the whole program. A
// context holds only the pending error's pointer; the error objects come
// from the pool shared by every context (FFI_CORE_ERROR_POOL_SIZE, claimed
// atomically), so an error a context moved out stays valid after the context
// is gone, until its last reference is released (anywhere).
//
// Every context that may raise while another is between raising and taking
// its error needs storage of its own, or it replaces that pending error:
//  - RTOS tasks: return the running task's storage (e.g. kept in task-local
//    storage or the task control block). It must start zero-filled; when the
//    task ends, call ffi_core::port::ReleaseContext on it.
//  - Interrupts: return storage per handler, or per priority level (nested
//    handlers of different priorities must not share one), chosen by the
//    active exception number (IPSR != 0 means handler mode). A handler should
//    take or release its error before returning.
// tests/target/irq_error_slot.cc is an example. Must not return NULL.
ffi_core::port::ContextStorage* ffi_core_port_context(void);
}  // extern "C"
#endif

// After the hooks: port.h's bare-metal context lookup calls the hook above.
#ifdef __cplusplus
#include <ffi_core/port.h>
#endif

#endif  // FFI_CORE_PORT_HOOKS_H_

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
struct ErrorSlot;   // core/include/ffi_core/error_slot.h
struct EnvContext;  // core/include/ffi_core/env_context.h
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
// The error slot of the calling context. Default: one static, zero-filled
// slot for the whole program. A slot is only the pending error's pointer;
// the error objects come from the pool shared by every context
// (FFI_CORE_ERROR_POOL_SIZE, claimed atomically), so giving a context its
// own slot costs one pointer, and an error it moved out stays valid after
// the context is gone, until its last reference is released (anywhere).
//
// Every context that may raise while another is between raising and taking
// its error needs a slot of its own, or it replaces that pending error:
//  - RTOS tasks: return the running task's slot (e.g. kept in task-local
//    storage or the task control block). A task's slot must start
//    zero-filled; when the task ends, release its pending error, if any.
//  - Interrupts: return a slot per handler, or per priority level (nested
//    handlers of different priorities must not share one), chosen by the
//    active exception number (IPSR != 0 means handler mode). A handler should
//    take or release its error before returning.
// tests/target/irq_error_slot.cc is an example. Must not be NULL.
ffi_core::ErrorSlot* ffi_core_port_error_slot(void);

// The environment context (streams, tensor allocator) of the calling
// context. Default: one static, zero-filled context. Overridden like, and
// usually together with, ffi_core_port_error_slot. Must not be NULL.
ffi_core::EnvContext* ffi_core_port_env_context(void);
}  // extern "C"
#endif

#endif  // FFI_CORE_PORT_HOOKS_H_

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
// slot for the whole program. An RTOS with several tasks calling ffi-core
// returns a per-task slot (e.g. from task-local storage): it must start
// zero-filled and outlive the task's use of ffi-core. Must not be NULL.
ffi_core::ErrorSlot* ffi_core_port_error_slot(void);

// The environment context (streams, tensor allocator) of the calling
// context. Default: one static, zero-filled context. Overridden like, and
// usually together with, ffi_core_port_error_slot. Must not be NULL.
ffi_core::EnvContext* ffi_core_port_env_context(void);
}  // extern "C"
#endif

#endif  // FFI_CORE_PORT_HOOKS_H_

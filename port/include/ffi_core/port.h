// The seam between ffi-core's target-independent core and a target.
//
// core/ calls only these functions for anything that differs between targets:
// how reference counts are updated atomically, where the calling context's
// error slot lives, how global tables are locked, and what happens on a fatal
// error. Each port/<name>/ folder implements this header once; CMake's
// FFI_CORE_PORT picks one.
#ifndef FFI_CORE_PORT_H_
#define FFI_CORE_PORT_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

struct ErrorSlot;   // defined in core/include/ffi_core/error_slot.h
struct EnvContext;  // defined in core/include/ffi_core/env_context.h
struct Allocator;   // defined in core/include/ffi_core/allocator.h

namespace port {

// ---- reference counts on TVMFFIObject::combined_ref_count ----
// Strong count in the low 32 bits, weak count in the high 32 bits. Ports may
// update the two halves separately (32-bit targets have no 64-bit atomics),
// so core never relies on reading both halves in one atomic step.

// Adds one strong reference.
void RefIncStrong(TVMFFIObject* obj);
// Adds one weak reference.
void RefIncWeak(TVMFFIObject* obj);
// Takes a strong reference only if the strong count is still non-zero.
bool RefTryPromoteWeak(TVMFFIObject* obj);

// What dropping a strong reference left behind.
enum class StrongRelease : uint8_t {
  kAlive,          // other strong references remain
  kLastBoth,       // strong and weak both reached zero: destroy and free
  kLastStrongOnly  // strong reached zero, weak references remain: destroy only
};
// Drops one strong reference. On kLastStrongOnly the caller destroys the
// payload and then calls RefDecWeak to drop the weak reference that the
// strong references held together.
StrongRelease RefDecStrong(TVMFFIObject* obj);
// Drops one weak reference; true when it was the last (free the storage).
bool RefDecWeak(TVMFFIObject* obj);
// Current strong count (a snapshot, for tests and diagnostics).
uint32_t RefStrongCount(const TVMFFIObject* obj);
// Current weak count (a snapshot, for tests and diagnostics).
uint32_t RefWeakCount(const TVMFFIObject* obj);

// ---- claim flags (entries of the shared error pool) ----
// Any context (thread, task, interrupt) may claim a free entry at any time,
// and a release may come from any other context.
// Sets *flag from 0 to 1 in one atomic step with acquire ordering; false
// when it was not 0.
bool FlagTryClaim(uint32_t* flag);
// Sets *flag to 0 with release ordering: all writes before it are seen by
// the next context that claims the flag.
void FlagRelease(uint32_t* flag);

// ---- the error slot ----
// The slot of the calling context: per thread on the host, one static slot
// on bare metal unless an RTOS overrides ffi_core_port_error_slot() to give
// each task its own.
ErrorSlot* CurrentErrorSlot();

// The environment context (streams, tensor allocator) of the calling
// context, placed like the error slot; an RTOS may override
// ffi_core_port_env_context().
EnvContext* CurrentEnvContext();

// ---- global tables (function registry, system library) ----
// A short critical section around table updates and look-ups. It nests:
// the thread (or context) holding it may take it again.
void GlobalLock();
void GlobalUnlock();

// ---- memory ----
// The allocator objects come from until the user installs one: malloc on the
// host, none on bare metal (every allocation then fails with MemoryError).
Allocator* DefaultAllocator();

// ---- dynamic libraries ----
// Opens a shared library; NULL with an error raised on failure (bare-metal
// ports raise NotImplementedError).
void* LibraryOpen(const char* path);
// The address of `name` in the library, or NULL.
void* LibrarySymbol(void* library, const char* name);
void LibraryClose(void* library);

// ---- fatal errors and logging ----
// Called only for broken invariants that cannot be reported as an error
// (e.g. a reference count underflow). Never returns.
[[noreturn]] void Fatal(const char* message);
// Optional diagnostic sink; a no-op unless the target provides one.
void Log(const char* message);

}  // namespace port
}  // namespace ffi_core

// A port may define the reference-count operations above inline in
// <ffi_core/port_ref_count.h> (the host does, so an incref costs no call);
// the others define them out of line in their sources.
#if __has_include(<ffi_core/port_ref_count.h>)
#include <ffi_core/port_ref_count.h>
#endif

#endif  // FFI_CORE_PORT_H_

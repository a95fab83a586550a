// The seam between ffi-core's target-independent core and a target.
//
// A port supplies primitives only, and includes nothing of core: word
// atomics on reference counts and claim flags, the storage of the calling
// context, the table lock, the system heap, library loading with a message,
// and fatal errors and logging. Each port/<name>/ folder implements this
// header once; CMake's FFI_CORE_PORT picks one. Core calls back into the
// port's users only through ReleaseContext, declared here.
#ifndef FFI_CORE_PORT_H_
#define FFI_CORE_PORT_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

// Words of one calling context's storage; the build derives it from the
// stream table's capacity (core/CMakeLists.txt) and core checks its state fits.
#ifndef FFI_CORE_CONTEXT_WORDS
#error "FFI_CORE_CONTEXT_WORDS is set by the build (target ffi_core_headers)"
#endif

namespace ffi_core {
namespace port {

// ---- the processor ----
// Every port defines in its <ffi_core/port_cpu.h> (included below):
//   constexpr bool kUnalignedAccess;
// true when a word load or store at any address is one instruction, so core
// may copy bytes a word at a time from any address (ARMv6-M faults instead).

// ---- reference counts on TVMFFIObject::combined_ref_count ----
// Strong count in the low 32 bits, weak count in the high 32 bits. Ports may
// update the two halves separately (32-bit targets have no 64-bit atomics),
// so core never relies on reading both halves in one atomic step. Every port
// defines these inline in its <ffi_core/port_atomics.h> (included below), so
// an increment costs no call.

// What dropping a strong reference left behind.
enum class StrongRelease : uint8_t {
  kAlive,          // other strong references remain
  kLastBoth,       // strong and weak both reached zero: destroy and free
  kLastStrongOnly  // strong reached zero, weak references remain: destroy only
};

// Adds one strong reference.
inline void RefIncStrong(TVMFFIObject* obj);
// Adds one weak reference.
inline void RefIncWeak(TVMFFIObject* obj);
// Takes a strong reference only if the strong count is still non-zero.
inline bool RefTryPromoteWeak(TVMFFIObject* obj);
// Drops one strong reference. On kLastStrongOnly the caller destroys the
// payload and then calls RefDecWeak to drop the weak reference that the
// strong references held together.
inline StrongRelease RefDecStrong(TVMFFIObject* obj);
// Drops one weak reference; true when it was the last (free the storage).
inline bool RefDecWeak(TVMFFIObject* obj);
// Current counts (snapshots, for tests and diagnostics).
inline uint32_t RefStrongCount(const TVMFFIObject* obj);
inline uint32_t RefWeakCount(const TVMFFIObject* obj);

// ---- claim flags (entries of core's shared pools) ----
// Any context (thread, task, interrupt) may claim a free entry at any time,
// and a release may come from any other context.
// Sets *flag from 0 to 1 in one atomic step with acquire ordering; false
// when it was not 0.
inline bool FlagTryClaim(uint32_t* flag);
// Sets *flag to 0 with release ordering: all writes before it are seen by
// the next context that claims the flag.
inline void FlagRelease(uint32_t* flag);

// ---- handles set once (TVMFFIHandleInitOnce) ----
// Reads *slot with acquire ordering, so a handle set by PublishHandle is
// seen with everything written before it: a set handle is read without the
// global lock.
inline void* LoadHandle(void* const* slot);
// Sets *slot to `handle` with release ordering (under the global lock).
inline void PublishHandle(void** slot, void* handle);

// ---- the calling context ----
// Core keeps its per-context state (the pending error, the env stream table)
// in storage the port places and never looks into: one block per thread on
// the host; one static block on bare metal unless the firmware overrides
// ffi_core_port_context() (port_hooks.h) for RTOS tasks or interrupts.
// All-zero is an empty context, so the storage needs no constructor.
struct ContextStorage {
  void* words[FFI_CORE_CONTEXT_WORDS];
};
// The calling context's storage; never NULL. Inline, from the port's
// <ffi_core/port_context.h> (included below): every raise and every take of
// an error looks it up.
inline ContextStorage* CurrentContext();
// Implemented by core: releases what a context holds (its pending error) and
// empties it. The host port calls it when a thread exits; firmware when a
// task whose context it placed ends.
void ReleaseContext(ContextStorage* context);

// ---- global tables (function registry, system library) ----
// A short critical section around table updates and look-ups. It nests:
// the thread (or context) holding it may take it again.
TVM_FFI_DLL void GlobalLock();
TVM_FFI_DLL void GlobalUnlock();

// ---- the system heap ----
// Where objects come from until the firmware installs an allocator: the C
// library's heap on the host. Bare-metal ports have none and return NULL
// (allocations then fail with a MemoryError). `alignment` is a power of two
// (else NULL). SystemFree gets the size and alignment the block was asked
// with; SystemFree(NULL, ...) does nothing. Inline, from the port's
// <ffi_core/port_heap.h> (included below): every object on the host comes
// from here. The port also defines `constexpr bool kSystemHeap`: false when
// SystemAllocate always returns NULL, so core keeps no fast path for it.
inline void* SystemAllocate(size_t size, size_t alignment);
inline void SystemFree(void* ptr, size_t size, size_t alignment);

// ---- dynamic libraries ----
// Opens a shared library. On failure returns NULL and writes why into
// why[0, why_size), NUL-terminated and cut to fit.
void* LibraryOpen(const char* path, char* why, size_t why_size);
// The address of `name` in the library, or NULL.
void* LibrarySymbol(void* library, const char* name);
void LibraryClose(void* library);

// ---- native frames, for error backtraces ----
// Visits the calling thread's native frames, innermost first, with each
// frame's function name (demangled) where the port can tell it, else NULL,
// until visit returns false. A port without an unwinder visits none.
using NativeFrameVisitor = bool (*)(const char* function, void* context);
void VisitNativeFrames(NativeFrameVisitor visit, void* context);

// ---- fatal errors and logging ----
// Called only for broken invariants that cannot be reported as an error
// (e.g. a reference count underflow). Never returns.
[[noreturn]] void Fatal(const char* message);
// Diagnostic sink for one line of text; a no-op unless the target has one.
void Log(const char* message);

}  // namespace port
}  // namespace ffi_core

// The port's processor facts, inline reference counts and claim flags,
// context lookup and heap.
#include <ffi_core/port_atomics.h>
#include <ffi_core/port_context.h>
#include <ffi_core/port_cpu.h>
#include <ffi_core/port_heap.h>

#endif  // FFI_CORE_PORT_H_

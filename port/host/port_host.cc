// Host port: 64-bit atomics on the whole combined count, in the same way
// upstream's runtime updates it, so objects can cross between the two
// runtimes in one process; one error slot per thread; a mutex for tables.
#include <dlfcn.h>
#include <ffi_core/allocator.h>
#include <ffi_core/env_context.h>
#include <ffi_core/error.h>
#include <ffi_core/error_slot.h>
#include <ffi_core/object.h>
#include <ffi_core/port.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ffi_core {
namespace port {
namespace {

constexpr uint64_t kStrongOne = 1;
constexpr uint64_t kWeakOne = uint64_t{1} << 32;
constexpr uint64_t kStrongMask = kWeakOne - 1;

// Releases a pending error when its thread ends. Errors the thread moved out
// live in the shared pool (error.cc), not here, so they outlive the thread.
struct ThreadErrorSlot {
  ErrorSlot slot;
  ~ThreadErrorSlot() {
    if (slot.pending != nullptr) ObjectDecRef(slot.pending);
  }
};
thread_local ThreadErrorSlot t_slot;
thread_local EnvContext t_env;

// Recursive: GlobalLock nests on every port (TVMFFIHandleInitOnce holds it
// while its init function looks functions up).
std::recursive_mutex g_lock;

}  // namespace

void RefIncStrong(TVMFFIObject* obj) {
  __atomic_fetch_add(&obj->combined_ref_count, kStrongOne, __ATOMIC_RELAXED);
}

void RefIncWeak(TVMFFIObject* obj) {
  __atomic_fetch_add(&obj->combined_ref_count, kWeakOne, __ATOMIC_RELAXED);
}

bool RefTryPromoteWeak(TVMFFIObject* obj) {
  uint64_t old = __atomic_load_n(&obj->combined_ref_count, __ATOMIC_RELAXED);
  while ((old & kStrongMask) != 0) {
    if (__atomic_compare_exchange_n(&obj->combined_ref_count, &old, old + kStrongOne, true,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      return true;
    }
  }
  return false;
}

// A decrement publishes the holder's writes (release); the one that drops the
// last reference must also see every other holder's before destroying
// (acquire). Normally an acquire fence on that path only, as upstream does;
// ThreadSanitizer cannot see fences, so its build orders every decrement
// acq_rel instead (FFI_CORE_TSAN_ORDERING, port/host/CMakeLists.txt).
namespace {
#if FFI_CORE_TSAN_ORDERING
constexpr int kDecrementOrder = __ATOMIC_ACQ_REL;
void AcquireAfterLastDecrement() {}
#else
constexpr int kDecrementOrder = __ATOMIC_RELEASE;
void AcquireAfterLastDecrement() { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
#endif
}  // namespace

StrongRelease RefDecStrong(TVMFFIObject* obj) {
  const uint64_t before = __atomic_fetch_sub(&obj->combined_ref_count, kStrongOne, kDecrementOrder);
  if ((before & kStrongMask) == 0) Fatal("ffi-core: strong reference count underflow");
  if (before == (kWeakOne | kStrongOne)) {
    AcquireAfterLastDecrement();
    return StrongRelease::kLastBoth;
  }
  if ((before & kStrongMask) == kStrongOne) {
    AcquireAfterLastDecrement();
    return StrongRelease::kLastStrongOnly;
  }
  return StrongRelease::kAlive;
}

bool RefDecWeak(TVMFFIObject* obj) {
  const uint64_t before = __atomic_fetch_sub(&obj->combined_ref_count, kWeakOne, kDecrementOrder);
  if ((before >> 32) == 0) Fatal("ffi-core: weak reference count underflow");
  if (before == kWeakOne) {
    AcquireAfterLastDecrement();
    return true;
  }
  return false;
}

bool FlagTryClaim(uint32_t* flag) {
  uint32_t expected = 0;
  return __atomic_compare_exchange_n(flag, &expected, 1u, /*weak=*/false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

void FlagRelease(uint32_t* flag) { __atomic_store_n(flag, 0u, __ATOMIC_RELEASE); }

uint32_t RefStrongCount(const TVMFFIObject* obj) {
  return static_cast<uint32_t>(__atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) &
                               kStrongMask);
}

uint32_t RefWeakCount(const TVMFFIObject* obj) {
  return static_cast<uint32_t>(__atomic_load_n(&obj->combined_ref_count, __ATOMIC_ACQUIRE) >> 32);
}

ErrorSlot* CurrentErrorSlot() { return &t_slot.slot; }
EnvContext* CurrentEnvContext() { return &t_env; }

void* LibraryOpen(const char* path) {
  // RTLD_LOCAL keeps each kernel library's own symbols private; its
  // undefined TVMFFI* symbols bind to whichever runtime the process has.
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib != nullptr) return lib;
  const char* why = dlerror();
  if (why == nullptr) why = "unknown dlopen failure";
  // The whole text goes to the log; the error puts the reason (e.g. the
  // undefined symbol) before the path, so a cut message keeps it.
  Log(why);
  const size_t path_size = std::strlen(path);
  if (std::strncmp(why, path, path_size) == 0 && std::strncmp(why + path_size, ": ", 2) == 0) {
    why += path_size + 2;
  }
  // The port contract is NULL plus a raised error; the Status adds nothing.
  static_cast<void>(RaiseError(ErrorKind::kRuntimeError, {why, " (loading '", path, "')"}));
  return nullptr;
}
void* LibrarySymbol(void* library, const char* name) { return dlsym(library, name); }
void LibraryClose(void* library) { dlclose(library); }

void GlobalLock() { g_lock.lock(); }
void GlobalUnlock() { g_lock.unlock(); }

Allocator* DefaultAllocator() { return MallocAllocator(); }

void Fatal(const char* message) {
  std::fprintf(stderr, "%s\n", message);
  std::abort();
}

void Log(const char* message) { std::fprintf(stderr, "%s\n", message); }

}  // namespace port
}  // namespace ffi_core

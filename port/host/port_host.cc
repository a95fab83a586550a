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

// Releases a pending error when its thread ends.
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

StrongRelease RefDecStrong(TVMFFIObject* obj) {
  const uint64_t before =
      __atomic_fetch_sub(&obj->combined_ref_count, kStrongOne, __ATOMIC_RELEASE);
  if ((before & kStrongMask) == 0) Fatal("ffi-core: strong reference count underflow");
  if (before == (kWeakOne | kStrongOne)) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return StrongRelease::kLastBoth;
  }
  if ((before & kStrongMask) == kStrongOne) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return StrongRelease::kLastStrongOnly;
  }
  return StrongRelease::kAlive;
}

bool RefDecWeak(TVMFFIObject* obj) {
  const uint64_t before = __atomic_fetch_sub(&obj->combined_ref_count, kWeakOne, __ATOMIC_RELEASE);
  if ((before >> 32) == 0) Fatal("ffi-core: weak reference count underflow");
  if (before == kWeakOne) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return true;
  }
  return false;
}

void RefClear(TVMFFIObject* obj) {
  __atomic_store_n(&obj->combined_ref_count, 0, __ATOMIC_RELEASE);
}

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
  if (lib == nullptr) {
    const char* why = dlerror();
    if (why == nullptr) why = "unknown dlopen failure";
    // The whole text goes to the log; the error puts the reason (e.g. the
    // undefined symbol) before the path, so a cut message keeps it.
    Log(why);
    const size_t path_size = std::strlen(path);
    if (std::strncmp(why, path, path_size) == 0 && std::strncmp(why + path_size, ": ", 2) == 0) {
      why += path_size + 2;
    }
    RaiseError(ErrorKind::kRuntimeError, {why, " (loading '", path, "')"});
  }
  return lib;
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

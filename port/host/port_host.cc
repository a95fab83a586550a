// Host port: one error slot per thread; a mutex for tables. The reference
// counts are inline, in include/ffi_core/port_ref_count.h.
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

bool FlagTryClaim(uint32_t* flag) {
  uint32_t expected = 0;
  return __atomic_compare_exchange_n(flag, &expected, 1u, /*weak=*/false, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

void FlagRelease(uint32_t* flag) { __atomic_store_n(flag, 0u, __ATOMIC_RELEASE); }

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

// Host port: one calling context per thread, a mutex for tables, the C
// library's heap, dlopen. The reference counts are inline, in
// include/ffi_core/port_atomics.h.
#include <dlfcn.h>
#include <ffi_core/port.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ffi_core {
namespace port {
namespace {

// Releases what the thread's context holds when the thread ends. Errors it
// moved out live in core's shared pool, not here, so they outlive the thread.
struct ThreadContext {
  ContextStorage storage;
  ~ThreadContext() { ReleaseContext(&storage); }
};
thread_local ThreadContext t_context;

// Recursive: GlobalLock nests on every port (TVMFFIHandleInitOnce holds it
// while its init function looks functions up).
std::recursive_mutex g_lock;

// Copies text into why[0, why_size), cut to fit.
void WriteWhy(char* why, size_t why_size, const char* text) {
  if (why_size == 0) return;
  std::snprintf(why, why_size, "%s", text);
}

}  // namespace

ContextStorage* CurrentContext() { return &t_context.storage; }

void GlobalLock() { g_lock.lock(); }
void GlobalUnlock() { g_lock.unlock(); }

void* SystemAllocate(size_t size, size_t alignment) {
  // aligned_alloc wants a multiple of the alignment, and at least a pointer's.
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  if (size > SIZE_MAX - alignment) return nullptr;
  // malloc already aligns to max_align_t and is the cheaper call.
  if (alignment <= alignof(std::max_align_t)) return std::malloc(size == 0 ? 1 : size);
  return std::aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

void SystemFree(void* ptr) { std::free(ptr); }

void* LibraryOpen(const char* path, char* why, size_t why_size) {
  // RTLD_LOCAL keeps each kernel library's own symbols private; its
  // undefined TVMFFI* symbols bind to whichever runtime the process has.
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (lib != nullptr) return lib;
  const char* reason = dlerror();
  if (reason == nullptr) reason = "unknown dlopen failure";
  // The whole text goes to the log; the reason leaves out dlerror's leading
  // "<path>: ", since the caller names the path after it.
  Log(reason);
  const size_t path_size = std::strlen(path);
  if (std::strncmp(reason, path, path_size) == 0 &&
      std::strncmp(reason + path_size, ": ", 2) == 0) {
    reason += path_size + 2;
  }
  WriteWhy(why, why_size, reason);
  return nullptr;
}
void* LibrarySymbol(void* library, const char* name) { return dlsym(library, name); }
void LibraryClose(void* library) { dlclose(library); }

void Fatal(const char* message) {
  std::fprintf(stderr, "%s\n", message);
  std::abort();
}

void Log(const char* message) { std::fprintf(stderr, "%s\n", message); }

}  // namespace port
}  // namespace ffi_core

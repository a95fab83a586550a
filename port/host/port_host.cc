// Host port: one calling context per thread, a mutex for tables, the C
// library's heap, dlopen. The reference counts are inline, in
// include/ffi_core/port_atomics.h.
#include <dlfcn.h>
#include <ffi_core/port.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ffi_core {
namespace port {
namespace {

// The thread's context. Trivial and initial-exec, so an access is one
// %fs-relative address with no call. What it holds is released when the
// thread exits, through a pthread key (a thread_local destructor would put a
// guarded, __tls_get_addr-using init function on every access). Errors the
// thread moved out live in core's shared pool, not here: they outlive it.
__attribute__((tls_model("initial-exec"))) thread_local ContextStorage t_context;
__attribute__((tls_model("initial-exec"))) thread_local bool t_release_armed;
pthread_key_t g_release_key;
pthread_once_t g_release_key_once = PTHREAD_ONCE_INIT;

void ReleaseAtExit(void* storage) { ReleaseContext(static_cast<ContextStorage*>(storage)); }
void CreateReleaseKey() {
  if (pthread_key_create(&g_release_key, &ReleaseAtExit) != 0) {
    Fatal("ffi-core: no pthread key for the calling context");
  }
}

[[gnu::cold, gnu::noinline]] void ArmRelease() {
  pthread_once(&g_release_key_once, &CreateReleaseKey);
  // Any non-NULL value makes the key's destructor run at thread exit.
  if (pthread_setspecific(g_release_key, &t_context) != 0) {
    Fatal("ffi-core: cannot arm the calling context's release");
  }
  t_release_armed = true;
}

// Recursive: GlobalLock nests on every port (TVMFFIHandleInitOnce holds it
// while its init function looks functions up).
std::recursive_mutex g_lock;

// Copies text into why[0, why_size), cut to fit.
void WriteWhy(char* why, size_t why_size, const char* text) {
  if (why_size == 0) return;
  std::snprintf(why, why_size, "%s", text);
}

}  // namespace

ContextStorage* CurrentContext() {
  if (__builtin_expect(!t_release_armed, 0)) ArmRelease();
  return &t_context;
}

void GlobalLock() { g_lock.lock(); }
void GlobalUnlock() { g_lock.unlock(); }

void* SystemAllocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
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

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

// Freed small blocks kept per thread, one list per 16-byte size class up to
// 256 bytes, at most 16 blocks each (under 35 KB a thread): creating and
// releasing an object is then mostly a pop and a push, not malloc and free.
// A block freed by another thread than the one that took it simply joins
// that thread's lists. Off under AddressSanitizer and ThreadSanitizer, which
// must see every malloc and free to do their work.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr size_t kCachedClasses = 0;
#else
constexpr size_t kCachedClasses = 16;
#endif
constexpr size_t kClassBytes = 16;
constexpr uint32_t kCacheDepth = 16;
constexpr size_t kMallocAlignment = alignof(std::max_align_t);

struct FreeBlock {
  FreeBlock* next;
};
struct BlockCache {
  FreeBlock* head[kCachedClasses + 1];  // + 1: never an empty array
  uint32_t count[kCachedClasses + 1];
};
__attribute__((tls_model("initial-exec"))) thread_local BlockCache t_cache;

// The size class of a block the cache may keep, or kCachedClasses if none.
size_t CacheClass(size_t size, size_t alignment) {
  if (size == 0 || size > kCachedClasses * kClassBytes || alignment > kMallocAlignment ||
      alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return kCachedClasses;
  }
  return (size - 1) / kClassBytes;
}

void DrainCache() {
  for (size_t c = 0; c < kCachedClasses; ++c) {
    while (FreeBlock* b = t_cache.head[c]) {
      t_cache.head[c] = b->next;
      std::free(b);
    }
    t_cache.count[c] = 0;
  }
}

pthread_key_t g_release_key;
pthread_once_t g_release_key_once = PTHREAD_ONCE_INIT;

// At thread exit: what the context holds, then the thread's cached blocks.
void ReleaseAtExit(void* storage) {
  ReleaseContext(static_cast<ContextStorage*>(storage));
  DrainCache();
}
void CreateReleaseKey() {
  if (pthread_key_create(&g_release_key, &ReleaseAtExit) != 0) {
    Fatal("ffi-core: no pthread key for the calling context");
  }
}

}  // namespace

// The thread's context (port_context.h). What it holds is released when the
// thread exits, through a pthread key (a thread_local destructor would put a
// guarded, __tls_get_addr-using init function on every access). Errors the
// thread moved out live in core's shared pool, not here: they outlive it.
namespace host {
__attribute__((tls_model("initial-exec"))) __thread ContextStorage t_context;
__attribute__((tls_model("initial-exec"))) __thread bool t_release_armed;

void ArmRelease() {
  pthread_once(&g_release_key_once, &CreateReleaseKey);
  // Any non-NULL value makes the key's destructor run at thread exit.
  if (pthread_setspecific(g_release_key, &t_context) != 0) {
    Fatal("ffi-core: cannot arm the calling context's release");
  }
  t_release_armed = true;
}
}  // namespace host

namespace {

// Recursive: GlobalLock nests on every port (TVMFFIHandleInitOnce holds it
// while its init function looks functions up).
std::recursive_mutex g_lock;

// Copies text into why[0, why_size), cut to fit.
void WriteWhy(char* why, size_t why_size, const char* text) {
  if (why_size == 0) return;
  std::snprintf(why, why_size, "%s", text);
}

void CacheBlock(void* ptr, size_t c) {
  FreeBlock* b = static_cast<FreeBlock*>(ptr);
  b->next = t_cache.head[c];
  t_cache.head[c] = b;
  ++t_cache.count[c];
}

// The rest of SystemFree: a full list, a large block, or a thread's first
// block (which arms the drain at its exit).
[[gnu::noinline]] void FreeUncached(void* ptr, size_t c) {
  if (ptr == nullptr) return;
  if (c < kCachedClasses && t_cache.count[c] < kCacheDepth) {
    if (!host::t_release_armed) host::ArmRelease();
    CacheBlock(ptr, c);
    return;
  }
  std::free(ptr);
}

}  // namespace

void GlobalLock() { g_lock.lock(); }
void GlobalUnlock() { g_lock.unlock(); }

void* SystemAllocate(size_t size, size_t alignment) {
  const size_t c = CacheClass(size, alignment);
  if (c < kCachedClasses) {
    FreeBlock* b = t_cache.head[c];
    if (b != nullptr) {
      t_cache.head[c] = b->next;
      --t_cache.count[c];
      return b;
    }
    // The whole class, so the block can serve any size of it later.
    return std::malloc((c + 1) * kClassBytes);
  }
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  // malloc already aligns to max_align_t and is the cheaper call.
  if (alignment <= kMallocAlignment) return std::malloc(size == 0 ? 1 : size);
  if (size > SIZE_MAX - alignment) return nullptr;
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

void SystemFree(void* ptr, size_t size, size_t alignment) {
  const size_t c = CacheClass(size, alignment);
  // The common case, with no call: a block joins the lists of a thread whose
  // lists are already drained at its exit.
  if (ptr != nullptr && c < kCachedClasses && t_cache.count[c] < kCacheDepth &&
      host::t_release_armed) {
    CacheBlock(ptr, c);
    return;
  }
  FreeUncached(ptr, c);
}

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

// Host port: one calling context per thread, a mutex for tables, the C
// library's heap, dlopen. The reference counts, the context lookup and the
// heap's cache of freed blocks are inline, in include/ffi_core/.
#include <cxxabi.h>
#include <dlfcn.h>
#include <ffi_core/port.h>
#include <link.h>
#include <pthread.h>
#include <unwind.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace ffi_core {
namespace port {
namespace host {
// The cache of freed blocks (port_heap.h); drained and closed at thread exit.
__attribute__((tls_model("initial-exec"))) __thread BlockCache t_cache;
}  // namespace host

namespace {

using host::kCachedClasses;
using host::t_cache;

void DrainCache() {
  for (size_t c = 0; c < kCachedClasses; ++c) {
    while (host::FreeBlock* b = t_cache.head[c]) {
      t_cache.head[c] = b->next;
      std::free(b);
    }
    t_cache.room[c] = 0;
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
  for (size_t c = 0; c < kCachedClasses; ++c) t_cache.room[c] = kCacheDepth;
}
}  // namespace host

namespace {

// Recursive: GlobalLock nests on every port (TVMFFIHandleInitOnce holds it
// while its init function looks functions up). An uncontended take is one
// atomic compare-exchange and a give one atomic exchange; a thread that
// finds it held sleeps on a condition variable. g_state: 0 free, 1 held, 2 held and perhaps waited
// for (the holder then wakes the waiters when it gives it back). The holder's address and depth sit
// beside it: only a thread writes its own address to g_owner, so a thread reads its own address
// there exactly when it holds the lock.
std::atomic<uint32_t> g_state{0};
std::mutex g_wait_mutex;
std::condition_variable g_wait;
std::atomic<const void*> g_owner{nullptr};
uint32_t g_depth = 0;  // the holder's alone

[[gnu::noinline]] void WaitForLock() {
  std::unique_lock<std::mutex> guard(g_wait_mutex);
  // Marking it waited-for under the wait mutex: the holder's wake-up takes
  // that mutex first, so it cannot fall between this test and the wait.
  while (g_state.exchange(2, std::memory_order_acquire) != 0) g_wait.wait(guard);
}
[[gnu::noinline]] void WakeWaiters() {
  { std::lock_guard<std::mutex> guard(g_wait_mutex); }
  g_wait.notify_all();
}

// Copies text into why[0, why_size), cut to fit.
void WriteWhy(char* why, size_t why_size, const char* text) {
  if (why_size == 0) return;
  std::snprintf(why, why_size, "%s", text);
}

}  // namespace

void GlobalLock() {
  const void* self = &host::t_context;
  if (g_owner.load(std::memory_order_relaxed) == self) {
    ++g_depth;
    return;
  }
  uint32_t expected = 0;
  if (!g_state.compare_exchange_strong(expected, 1, std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
    WaitForLock();
  }
  g_owner.store(self, std::memory_order_relaxed);
  g_depth = 1;
}
void GlobalUnlock() {
  if (--g_depth != 0) return;
  g_owner.store(nullptr, std::memory_order_relaxed);
  if (g_state.exchange(0, std::memory_order_release) == 2) WakeWaiters();
}

namespace host {

void* AllocateUncached(size_t size, size_t alignment, size_t size_class) {
  // The whole class, so the block can serve any size of it later.
  if (size_class < kCachedClasses) return std::malloc((size_class + 1) * kClassBytes);
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) return nullptr;
  // malloc already aligns to max_align_t and is the cheaper call.
  if (alignment <= kMallocAlignment) return std::malloc(size == 0 ? 1 : size);
  if (size > SIZE_MAX - alignment) return nullptr;
  // aligned_alloc wants a size that is a multiple of the alignment.
  return std::aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

// A full list, a large block, or a thread's first block (which arms the
// drain at its exit).
void FreeUncached(void* ptr, size_t size_class) {
  if (ptr == nullptr) return;
  if (size_class < kCachedClasses && !t_release_armed) {
    ArmRelease();
    CacheBlock(ptr, size_class);
    return;
  }
  std::free(ptr);
}

}  // namespace host

namespace {

// A library linked with a static libstdc++ (a toolchain that ships no shared
// one) carries a copy of its own. The dynamic linker binds that copy's
// STB_GNU_UNIQUE symbols, the locale facets' ids among them, to the first
// definition in the process, RTLD_LOCAL or not, and keeps the rest of it
// private: a second such library reads facets by another copy's ids, and
// with GCC 13's a stream's first number calls into the wrong facet
// (SIGSEGV). Upstream's libtvm_ffi.so needs libstdc++.so.6, so the
// libraries it loads bind those symbols to that one shared copy. Module
// libraries meet the same process here, whatever libstdc++ this runtime
// was linked with; where the system has none, there is none to share.
void ShareCxxRuntime() {
  static void* const cxx_runtime = dlopen("libstdc++.so.6", RTLD_NOW | RTLD_GLOBAL);
  (void)cxx_runtime;
}

}  // namespace

void* LibraryOpen(const char* path, char* why, size_t why_size) {
  ShareCxxRuntime();
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

namespace {

struct Walk {
  NativeFrameVisitor visit;
  void* context;
};

// A frame's function: the dynamic symbol that really contains the address
// (dladdr alone gives the nearest one below it, often another function's).
_Unwind_Reason_Code VisitFrame(_Unwind_Context* unwind, void* arg) {
  const Walk& walk = *static_cast<Walk*>(arg);
  uintptr_t pc = _Unwind_GetIP(unwind);
  if (pc == 0) return _URC_END_OF_STACK;
  --pc;  // inside the call, not after it
  Dl_info info;
  void* entry = nullptr;  // the ElfW(Sym) of the symbol found
  const char* name = nullptr;
  char* demangled = nullptr;
  if (dladdr1(reinterpret_cast<void*>(pc), &info, &entry, RTLD_DL_SYMENT) != 0 &&
      entry != nullptr && info.dli_sname != nullptr &&
      pc < reinterpret_cast<uintptr_t>(info.dli_saddr) +
               static_cast<const ElfW(Sym)*>(entry)->st_size) {
    int status = -1;
    demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
    name = status == 0 ? demangled : info.dli_sname;
  }
  const bool more = walk.visit(name, walk.context);
  std::free(demangled);
  return more ? _URC_NO_REASON : _URC_END_OF_STACK;
}

}  // namespace

void VisitNativeFrames(NativeFrameVisitor visit, void* context) {
  Walk walk{visit, context};
  _Unwind_Backtrace(&VisitFrame, &walk);
}

void Fatal(const char* message) {
  std::fprintf(stderr, "%s\n", message);
  std::abort();
}

void Log(const char* message) { std::fprintf(stderr, "%s\n", message); }

}  // namespace port
}  // namespace ffi_core

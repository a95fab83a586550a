// Host port: the system heap of port.h, the C library's, behind a per-thread
// cache of freed small blocks. The cache's pop and push are inline, so
// creating and releasing an object costs no call into the heap; the rest
// (malloc, free, a full list, a thread's first block) is out of line in
// port_host.cc.
#ifndef FFI_CORE_PORT_HOST_PORT_HEAP_H_
#define FFI_CORE_PORT_HOST_PORT_HEAP_H_

#include <ffi_core/port.h>
#include <ffi_core/port_context.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace port {
namespace host {

// One list per 16-byte size class up to 256 bytes, at most 16 blocks each
// (under 35 KB a thread). A block freed by another thread than the one that
// took it simply joins that thread's lists. Off under AddressSanitizer and
// ThreadSanitizer, which must see every malloc and free to do their work.
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
  // Blocks each list may still take: 0 until the thread's exit is armed to
  // drain it (ArmRelease), and again once drained, so one test says both.
  uint32_t room[kCachedClasses + 1];
};
// Defined in port_host.cc; trivial and initial-exec, like the context.
extern __attribute__((tls_model("initial-exec"))) __thread BlockCache t_cache;

// The size class of a block the cache may keep, or kCachedClasses if none.
constexpr size_t CacheClass(size_t size, size_t alignment) {
  return size == 0 || size > kCachedClasses * kClassBytes || alignment > kMallocAlignment ||
                 alignment == 0 || (alignment & (alignment - 1)) != 0
             ? kCachedClasses
             : (size - 1) / kClassBytes;
}

inline void CacheBlock(void* ptr, size_t size_class) {
  FreeBlock* b = static_cast<FreeBlock*>(ptr);
  b->next = t_cache.head[size_class];
  t_cache.head[size_class] = b;
  --t_cache.room[size_class];
}

// What the inline paths leave to the C library (port_host.cc).
void* AllocateUncached(size_t size, size_t alignment, size_t size_class);
void FreeUncached(void* ptr, size_t size_class);

}  // namespace host

constexpr bool kSystemHeap = true;

inline void* SystemAllocate(size_t size, size_t alignment) {
  const size_t c = host::CacheClass(size, alignment);
  if (c < host::kCachedClasses) {
    host::FreeBlock* b = host::t_cache.head[c];
    if (__builtin_expect(b != nullptr, 1)) {
      host::t_cache.head[c] = b->next;
      ++host::t_cache.room[c];
      return b;
    }
  }
  return host::AllocateUncached(size, alignment, c);
}

inline void SystemFree(void* ptr, size_t size, size_t alignment) {
  const size_t c = host::CacheClass(size, alignment);
  if (ptr != nullptr && c < host::kCachedClasses && host::t_cache.room[c] != 0) {
    host::CacheBlock(ptr, c);
    return;
  }
  host::FreeUncached(ptr, c);
}

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_HOST_PORT_HEAP_H_

// ArenaAllocator: a bump allocator over a caller-provided buffer (typically
// static storage). Freeing individual blocks only updates the counters; the
// space comes back with Reset(), once nothing allocated from it is alive.
#ifndef FFI_CORE_ARENA_ALLOCATOR_H_
#define FFI_CORE_ARENA_ALLOCATOR_H_

#include <ffi_core/allocator.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

class ArenaAllocator : public AllocatorBase<ArenaAllocator> {
 public:
  ArenaAllocator(void* buffer, size_t size);

  // Rewinds to empty. Only valid when live_blocks() == 0.
  bool Reset();

  size_t capacity() const { return size_; }
  size_t used_bytes() const { return offset_; }
  size_t live_blocks() const { return live_blocks_; }
  size_t failed_allocations() const { return failed_; }

 private:
  friend class AllocatorBase<ArenaAllocator>;
  static void* AllocateBlock(void* context, size_t size, size_t alignment);
  static void DeallocateBlock(void* context, void* ptr, size_t size, size_t alignment);

  uint8_t* base_;
  size_t size_;
  size_t offset_ = 0;
  size_t live_blocks_ = 0;
  size_t failed_ = 0;
};

// An arena that owns its buffer, for `static StaticArena<4096> arena;`.
template <size_t kBytes>
using StaticArena = BufferOwner<ArenaAllocator, kBytes, alignof(std::max_align_t)>;

}  // namespace ffi_core

#endif  // FFI_CORE_ARENA_ALLOCATOR_H_

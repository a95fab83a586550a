// HeapAllocator: blocks of any size from a caller-provided buffer, with
// freed neighbours merged. For memory whose sizes vary and whose lifetimes
// do not nest (a model's storage and tensors); the pool and the arena suit
// fixed sizes and all-at-once release better. Large blocks are first fit
// from the bottom, small ones (kSmallBlock and less) from the top, so the
// small objects that live long do not split the space large ones need.
#ifndef FFI_CORE_HEAP_ALLOCATOR_H_
#define FFI_CORE_HEAP_ALLOCATOR_H_

#include <ffi_core/allocator.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

class TVM_FFI_DLL HeapAllocator : public AllocatorBase<HeapAllocator> {
 public:
  // Every block starts at this alignment (two pointers: 8 bytes on a 32-bit
  // core, 16 on the host); larger ones, up to kMaxAlignment, cost padding.
  static constexpr size_t kGranule = 2 * sizeof(void*);
  static constexpr size_t kMaxAlignment = 256;
  static constexpr size_t kSmallBlock = 128;

  HeapAllocator(void* buffer, size_t size);

  size_t capacity() const { return capacity_; }
  // Bytes held by live blocks, their headers and padding included.
  size_t used_bytes() const { return used_; }
  size_t peak_bytes() const { return peak_; }
  size_t live_blocks() const { return live_blocks_; }
  size_t failed_allocations() const { return failed_; }
  // Starts the peak over from what is in use now.
  void ResetPeak() { peak_ = used_; }

 private:
  friend class AllocatorBase<HeapAllocator>;
  struct Block;
  static void* AllocateBlock(void* context, size_t size, size_t alignment);
  static void DeallocateBlock(void* context, void* ptr, size_t size, size_t alignment);
  void* Allocate(size_t size, size_t alignment);
  Block* CarveFromBottom(size_t body, size_t alignment);
  Block* CarveFromTop(size_t body, size_t alignment);
  static Block* SplitAt(Block* b, size_t offset);
  void Deallocate(void* ptr);

  Block* first_ = nullptr;  // blocks in address order, free or not
  size_t capacity_ = 0;
  size_t used_ = 0;
  size_t peak_ = 0;
  size_t live_blocks_ = 0;
  size_t failed_ = 0;
};

// A heap that owns its storage: `static StaticHeap<16384> heap;`.
template <size_t kBytes>
using StaticHeap = BufferOwner<HeapAllocator, kBytes, HeapAllocator::kGranule>;

}  // namespace ffi_core

#endif  // FFI_CORE_HEAP_ALLOCATOR_H_

// PoolAllocator: fixed-size blocks from a caller-provided buffer, kept on a
// free list. Allocation and release are O(1) and never fragment, which suits
// firmware that creates and drops small objects (strings, functions, errors)
// at a steady rate. Requests larger than the block size fail.
#ifndef FFI_CORE_POOL_ALLOCATOR_H_
#define FFI_CORE_POOL_ALLOCATOR_H_

#include <ffi_core/align.h>
#include <ffi_core/allocator.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

class TVM_FFI_DLL PoolAllocator : public AllocatorBase<PoolAllocator> {
 public:
  // Block size is rounded up to kBlockAlignment; blocks start at
  // kBlockAlignment boundaries within the buffer.
  static constexpr size_t kBlockAlignment = alignof(std::max_align_t);

  PoolAllocator(void* buffer, size_t buffer_size, size_t block_size);

  size_t block_size() const { return block_size_; }
  size_t block_count() const { return block_count_; }
  size_t live_blocks() const { return live_blocks_; }
  size_t peak_blocks() const { return peak_blocks_; }
  size_t failed_allocations() const { return failed_; }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  friend class AllocatorBase<PoolAllocator>;
  static void* AllocateBlock(void* context, size_t size, size_t alignment);
  static void DeallocateBlock(void* context, void* ptr, size_t size, size_t alignment);

  FreeBlock* free_list_ = nullptr;
  uint8_t* begin_ = nullptr;
  size_t block_size_;
  size_t block_count_ = 0;
  size_t live_blocks_ = 0;
  size_t peak_blocks_ = 0;
  size_t failed_ = 0;
};

// A pool that owns its storage: `static StaticPool<64, 16> pool;` gives
// 16 blocks of 64 bytes.
template <size_t kBlockSize, size_t kBlocks>
class StaticPool : public BufferOwner<PoolAllocator,
                                      AlignUp(kBlockSize, PoolAllocator::kBlockAlignment) * kBlocks,
                                      PoolAllocator::kBlockAlignment> {
 public:
  StaticPool() : StaticPool::BufferOwner(kBlockSize) {}
};

}  // namespace ffi_core

#endif  // FFI_CORE_POOL_ALLOCATOR_H_

#include <ffi_core/align.h>
#include <ffi_core/pool_allocator.h>

#include <cstdint>

namespace ffi_core {

PoolAllocator::PoolAllocator(void* buffer, size_t buffer_size, size_t block_size)
    : block_size_(AlignUp(block_size, kBlockAlignment)) {
  if (block_size_ < sizeof(FreeBlock)) block_size_ = kBlockAlignment;
  const uintptr_t raw = reinterpret_cast<uintptr_t>(buffer);
  const uintptr_t first = AlignUp(raw, kBlockAlignment);
  const size_t skipped = static_cast<size_t>(first - raw);
  if (buffer == nullptr || skipped > buffer_size) return;
  begin_ = reinterpret_cast<uint8_t*>(first);
  block_count_ = (buffer_size - skipped) / block_size_;
  // Thread the free list so that the lowest block is handed out first.
  for (size_t i = block_count_; i > 0; --i) {
    FreeBlock* b = reinterpret_cast<FreeBlock*>(begin_ + (i - 1) * block_size_);
    b->next = free_list_;
    free_list_ = b;
  }
}

void* PoolAllocator::AllocateBlock(size_t size, size_t alignment) {
  if (size > block_size_ || alignment > kBlockAlignment || free_list_ == nullptr) {
    ++failed_;
    return nullptr;
  }
  FreeBlock* b = free_list_;
  free_list_ = b->next;
  if (++live_blocks_ > peak_blocks_) peak_blocks_ = live_blocks_;
  return b;
}

void PoolAllocator::DeallocateBlock(void* ptr, size_t, size_t) {
  if (ptr == nullptr) return;
  FreeBlock* b = static_cast<FreeBlock*>(ptr);
  b->next = free_list_;
  free_list_ = b;
  --live_blocks_;
}

}  // namespace ffi_core

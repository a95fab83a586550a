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

void* PoolAllocator::AllocateBlock(void* context, size_t size, size_t alignment) {
  PoolAllocator* p = Self(context);
  if (size > p->block_size_ || alignment > kBlockAlignment || p->free_list_ == nullptr) {
    ++p->failed_;
    return nullptr;
  }
  FreeBlock* b = p->free_list_;
  p->free_list_ = b->next;
  if (++p->live_blocks_ > p->peak_blocks_) p->peak_blocks_ = p->live_blocks_;
  return b;
}

void PoolAllocator::DeallocateBlock(void* context, void* ptr, size_t, size_t) {
  if (ptr == nullptr) return;
  PoolAllocator* p = Self(context);
  FreeBlock* b = static_cast<FreeBlock*>(ptr);
  b->next = p->free_list_;
  p->free_list_ = b;
  --p->live_blocks_;
}

}  // namespace ffi_core

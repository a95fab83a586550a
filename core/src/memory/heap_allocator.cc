#include <ffi_core/align.h>
#include <ffi_core/heap_allocator.h>
#include <ffi_core/port.h>

#include <cstdint>

namespace ffi_core {

// In front of every block, free or not; blocks tile the buffer in address
// order, so a block's neighbours are `next` and the one whose next it is.
// Two words (one granule): a small object's block costs it 8 bytes on a
// 32-bit core.
struct HeapAllocator::Block {
  Block* next;
  size_t size : sizeof(size_t) * 8 - 1;  // bytes from this header to the next block (or the end)
  size_t free : 1;
};

namespace {
constexpr size_t kHeader = AlignUp(sizeof(void*) * 2, HeapAllocator::kGranule);
}  // namespace

HeapAllocator::HeapAllocator(void* buffer, size_t size) {
  static_assert(kHeader >= sizeof(Block), "header too small");
  const uintptr_t begin = AlignUp(reinterpret_cast<uintptr_t>(buffer), kGranule);
  const uintptr_t end = AlignDown(reinterpret_cast<uintptr_t>(buffer) + size, kGranule);
  if (buffer == nullptr || end <= begin || end - begin <= kHeader) return;
  first_ = reinterpret_cast<Block*>(begin);
  *first_ = Block{nullptr, static_cast<size_t>(end - begin), true};
  capacity_ = static_cast<size_t>(end - begin);
}

void* HeapAllocator::AllocateBlock(void* context, size_t size, size_t alignment) {
  return Self(context)->Allocate(size, alignment);
}

void HeapAllocator::DeallocateBlock(void* context, void* ptr, size_t, size_t) {
  Self(context)->Deallocate(ptr);
}

void* HeapAllocator::Allocate(size_t size, size_t alignment) {
  if (!IsPowerOfTwo(alignment) || alignment > kMaxAlignment || size > capacity_) {
    ++failed_;
    return nullptr;
  }
  const size_t body = AlignUp(size == 0 ? size_t{1} : size, kGranule);
  Block* b = body <= kSmallBlock ? CarveFromTop(body, alignment) : CarveFromBottom(body, alignment);
  if (b == nullptr) {
    ++failed_;
    return nullptr;
  }
  b->free = false;
  used_ += b->size;
  if (used_ > peak_) peak_ = used_;
  ++live_blocks_;
  return reinterpret_cast<char*>(b) + kHeader;
}

// First fit from the bottom, for large blocks.
HeapAllocator::Block* HeapAllocator::CarveFromBottom(size_t body, size_t alignment) {
  for (Block* b = first_; b != nullptr; b = b->next) {
    if (!b->free) continue;
    // Room in front of an over-aligned payload becomes a free block of its
    // own, so it must hold a header and a granule.
    const uintptr_t start = reinterpret_cast<uintptr_t>(b);
    uintptr_t payload = AlignUp(start + kHeader, alignment);
    while (payload - kHeader != start && payload - kHeader - start < kHeader + kGranule) {
      payload += alignment;
    }
    const size_t lead = static_cast<size_t>(payload - kHeader - start);
    if (b->size < lead + kHeader + body) continue;
    if (lead != 0) b = SplitAt(b, lead);
    if (b->size - (kHeader + body) > kHeader) SplitAt(b, kHeader + body);
    return b;
  }
  return nullptr;
}

// From the end of the highest free block that fits, for small blocks: the
// long-lived small objects (functions, caches) then gather at the top,
// away from the large blocks that come and go at the bottom.
HeapAllocator::Block* HeapAllocator::CarveFromTop(size_t body, size_t alignment) {
  Block* best = nullptr;
  size_t best_offset = 0;
  for (Block* b = first_; b != nullptr; b = b->next) {
    if (!b->free || b->size < kHeader + body) continue;
    const uintptr_t start = reinterpret_cast<uintptr_t>(b);
    // The payload as high as it goes; what is left in front stays free when
    // it can hold a block, else the whole block is taken.
    const uintptr_t payload = AlignDown(start + b->size - body, alignment);
    if (payload < start + kHeader) continue;
    size_t offset = static_cast<size_t>(payload - kHeader - start);
    if (offset != 0 && offset < kHeader + kGranule) {
      if ((start + kHeader) % alignment != 0) continue;
      offset = 0;
    }
    best = b;
    best_offset = offset;
  }
  if (best == nullptr) return nullptr;
  return best_offset != 0 ? SplitAt(best, best_offset) : best;
}

// Splits free block `b` at `offset` bytes; returns the free block after it.
HeapAllocator::Block* HeapAllocator::SplitAt(Block* b, size_t offset) {
  Block* rest = reinterpret_cast<Block*>(reinterpret_cast<char*>(b) + offset);
  *rest = Block{b->next, b->size - offset, true};
  b->next = rest;
  b->size = offset;
  return rest;
}

void HeapAllocator::Deallocate(void* ptr) {
  if (ptr == nullptr) return;
  Block* target = reinterpret_cast<Block*>(static_cast<char*>(ptr) - kHeader);
  Block* prev = nullptr;
  Block* b = first_;
  while (b != nullptr && b != target) {
    prev = b;
    b = b->next;
  }
  if (b == nullptr || b->free) port::Fatal("ffi-core: HeapAllocator freed a block it does not own");
  b->free = true;
  used_ -= b->size;
  --live_blocks_;
  if (b->next != nullptr && b->next->free) {
    b->size += b->next->size;
    b->next = b->next->next;
  }
  if (prev != nullptr && prev->free) {
    prev->size += b->size;
    prev->next = b->next;
  }
}

}  // namespace ffi_core

#include <ffi_core/heap_allocator.h>
#include <ffi_core/port.h>

#include <cstdint>

namespace ffi_core {

// In front of every block, free or not; blocks tile the buffer in address
// order, so a block's neighbours are `next` and the one whose next it is.
struct HeapAllocator::Block {
  Block* next;
  size_t size;  // bytes from this header to the next block (or the end)
  bool free;
};

namespace {
constexpr size_t kHeader =
    (sizeof(void*) * 3 + HeapAllocator::kGranule - 1) & ~(HeapAllocator::kGranule - 1);

uintptr_t AlignUp(uintptr_t x, size_t a) { return (x + a - 1) & ~uintptr_t{a - 1}; }
}  // namespace

HeapAllocator::HeapAllocator(void* buffer, size_t size)
    : allocator_{&AllocateThunk, &DeallocateThunk, this} {
  static_assert(kHeader >= sizeof(Block), "header too small");
  const uintptr_t begin = AlignUp(reinterpret_cast<uintptr_t>(buffer), kGranule);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(buffer) + size) & ~uintptr_t{kGranule - 1};
  if (buffer == nullptr || end <= begin || end - begin <= kHeader) return;
  first_ = reinterpret_cast<Block*>(begin);
  *first_ = Block{nullptr, static_cast<size_t>(end - begin), true};
  capacity_ = static_cast<size_t>(end - begin);
}

void* HeapAllocator::AllocateThunk(void* self, size_t size, size_t alignment) {
  return static_cast<HeapAllocator*>(self)->Allocate(size, alignment);
}

void HeapAllocator::DeallocateThunk(void* self, void* ptr, size_t, size_t) {
  static_cast<HeapAllocator*>(self)->Deallocate(ptr);
}

void* HeapAllocator::Allocate(size_t size, size_t alignment) {
  if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment > kMaxAlignment ||
      size > capacity_) {
    ++failed_;
    return nullptr;
  }
  const size_t body = AlignUp(size == 0 ? 1 : size, kGranule);
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
    if (lead != 0) {
      Block* moved = reinterpret_cast<Block*>(start + lead);
      *moved = Block{b->next, b->size - lead, true};
      b->next = moved;
      b->size = lead;
      b = moved;
    }
    // Split off the rest when it can hold a block of its own.
    const size_t need = kHeader + body;
    if (b->size - need > kHeader) {
      Block* rest = reinterpret_cast<Block*>(reinterpret_cast<char*>(b) + need);
      *rest = Block{b->next, b->size - need, true};
      b->next = rest;
      b->size = need;
    }
    b->free = false;
    used_ += b->size;
    if (used_ > peak_) peak_ = used_;
    ++live_blocks_;
    return reinterpret_cast<char*>(b) + kHeader;
  }
  ++failed_;
  return nullptr;
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

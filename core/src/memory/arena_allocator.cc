#include <ffi_core/align.h>
#include <ffi_core/arena_allocator.h>

#include <cstdint>

namespace ffi_core {

ArenaAllocator::ArenaAllocator(void* buffer, size_t size)
    : base_(static_cast<uint8_t*>(buffer)), size_(size) {}

bool ArenaAllocator::Reset() {
  if (live_blocks_ != 0) return false;
  offset_ = 0;
  return true;
}

void* ArenaAllocator::AllocateBlock(void* context, size_t size, size_t alignment) {
  ArenaAllocator* a = Self(context);
  if (!IsPowerOfTwo(alignment)) {
    ++a->failed_;
    return nullptr;
  }
  // Align the address, not the offset: the buffer itself may be less aligned.
  const uintptr_t start = reinterpret_cast<uintptr_t>(a->base_) + a->offset_;
  const uintptr_t aligned = AlignUp(start, alignment);
  const size_t new_offset = static_cast<size_t>(aligned - reinterpret_cast<uintptr_t>(a->base_));
  if (new_offset > a->size_ || size > a->size_ - new_offset) {
    ++a->failed_;
    return nullptr;
  }
  a->offset_ = new_offset + size;
  ++a->live_blocks_;
  return reinterpret_cast<void*>(aligned);
}

void ArenaAllocator::DeallocateBlock(void* context, void* ptr, size_t, size_t) {
  if (ptr != nullptr) --Self(context)->live_blocks_;
}

}  // namespace ffi_core

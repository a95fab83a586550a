#include <ffi_core/counting_allocator.h>

namespace ffi_core {

void* CountingAllocator::AllocateBlock(size_t size, size_t alignment) {
  if (fail_after_ == 0) return nullptr;
  if (fail_after_ > 0) --fail_after_;
  void* p = Allocate(*inner_, size, alignment);
  if (p != nullptr) {
    ++live_blocks_;
    live_bytes_ += size;
    ++total_;
  }
  return p;
}

void CountingAllocator::DeallocateBlock(void* ptr, size_t size, size_t alignment) {
  if (ptr == nullptr) return;
  --live_blocks_;
  live_bytes_ -= size;
  Deallocate(*inner_, ptr, size, alignment);
}

}  // namespace ffi_core

#include <ffi_core/counting_allocator.h>

namespace ffi_core {

void* CountingAllocator::AllocateBlock(void* context, size_t size, size_t alignment) {
  CountingAllocator* c = Self(context);
  if (c->fail_after_ == 0) return nullptr;
  if (c->fail_after_ > 0) --c->fail_after_;
  void* p = Allocate(*c->inner_, size, alignment);
  if (p != nullptr) {
    ++c->live_blocks_;
    c->live_bytes_ += size;
    ++c->total_;
  }
  return p;
}

void CountingAllocator::DeallocateBlock(void* context, void* ptr, size_t size, size_t alignment) {
  if (ptr == nullptr) return;
  CountingAllocator* c = Self(context);
  --c->live_blocks_;
  c->live_bytes_ -= size;
  Deallocate(*c->inner_, ptr, size, alignment);
}

}  // namespace ffi_core

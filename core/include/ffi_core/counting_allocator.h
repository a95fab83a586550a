// CountingAllocator: forwards to another allocator and counts what is
// outstanding, so tests and firmware can prove that every block came back.
#ifndef FFI_CORE_COUNTING_ALLOCATOR_H_
#define FFI_CORE_COUNTING_ALLOCATOR_H_

#include <ffi_core/allocator.h>

#include <cstddef>

namespace ffi_core {

class CountingAllocator : public AllocatorBase<CountingAllocator> {
 public:
  explicit CountingAllocator(Allocator* inner) : inner_(inner) {}

  size_t live_blocks() const { return live_blocks_; }
  size_t live_bytes() const { return live_bytes_; }
  size_t total_allocations() const { return total_; }
  // When set, the next `n` allocations succeed and later ones fail, to drive
  // out-of-memory paths in tests. Negative means never fail.
  void FailAfter(long n) { fail_after_ = n; }

 private:
  friend class AllocatorBase<CountingAllocator>;
  static void* AllocateBlock(void* context, size_t size, size_t alignment);
  static void DeallocateBlock(void* context, void* ptr, size_t size, size_t alignment);

  Allocator* inner_;
  size_t live_blocks_ = 0;
  size_t live_bytes_ = 0;
  size_t total_ = 0;
  long fail_after_ = -1;
};

}  // namespace ffi_core

#endif  // FFI_CORE_COUNTING_ALLOCATOR_H_

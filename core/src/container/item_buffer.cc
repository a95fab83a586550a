#include "container/item_buffer.h"

#include <ffi_core/align.h>
#include <ffi_core/allocator.h>
#include <ffi_core/any.h>
#include <ffi_core/error.h>

#include <cstdint>
#include <new>

namespace ffi_core {
namespace detail {
namespace {

struct BufferHead {
  Allocator* allocator;
  size_t bytes;  // the whole block, head included
};
constexpr size_t kHeadBytes = AlignUp(sizeof(BufferHead), alignof(Any));

}  // namespace

void* NewItemBuffer(size_t count, size_t item_size, const char* who) {
  Allocator* allocator = GetAllocator();
  const bool fits = item_size != 0 && count <= (SIZE_MAX - kHeadBytes) / item_size;
  const size_t bytes = fits ? kHeadBytes + count * item_size : 0;
  void* block = fits && allocator != nullptr ? Allocate(*allocator, bytes, alignof(Any)) : nullptr;
  if (block == nullptr) {
    static_cast<void>(
        RaiseError(ErrorKind::kMemoryError, {who, ": no memory for ", count, " items"}));
    return nullptr;
  }
  new (block) BufferHead{allocator, bytes};
  return static_cast<char*>(block) + kHeadBytes;
}

void FreeItemBuffer(void* items) {
  auto* head = reinterpret_cast<BufferHead*>(static_cast<char*>(items) - kHeadBytes);
  Deallocate(*head->allocator, head, head->bytes, alignof(Any));
}

}  // namespace detail
}  // namespace ffi_core

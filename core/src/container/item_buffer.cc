#include "container/item_buffer.h"

#include <ffi_core/allocator.h>
#include <ffi_core/any.h>
#include <ffi_core/error.h>

#include <cstdint>

namespace ffi_core {
namespace detail {

void* NewItemBuffer(size_t count, size_t item_size, const char* who) {
  const bool fits = item_size != 0 && count <= SIZE_MAX / item_size;
  void* items = fits ? AllocateBuffer(count * item_size, alignof(Any)) : nullptr;
  if (items == nullptr) {
    static_cast<void>(
        RaiseError(ErrorKind::kMemoryError, {who, ": no memory for ", count, " items"}));
  }
  return items;
}

}  // namespace detail
}  // namespace ffi_core

// Internal: a container's items in a buffer apart from its object (List,
// Dict), from AllocateBuffer. The cell's data_deleter is FreeBuffer, which
// needs only the items' address, whoever calls it.
#ifndef FFI_CORE_SRC_CONTAINER_ITEM_BUFFER_H_
#define FFI_CORE_SRC_CONTAINER_ITEM_BUFFER_H_

#include <cstddef>

namespace ffi_core {
namespace detail {

// Room for `count` items of `item_size` bytes (aligned as Any), or NULL with
// a MemoryError raised naming `who`.
void* NewItemBuffer(size_t count, size_t item_size, const char* who);

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_CONTAINER_ITEM_BUFFER_H_

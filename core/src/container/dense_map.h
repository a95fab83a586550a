// Internal: the dense form of Map and Dict, upstream's hashed layout, so
// that a map built here is found into, walked and changed by upstream's
// header code, and one built there by ffi-core. A key's list starts at the
// slot its AnyHash maps to (Fibonacci hashing); each slot's metadata byte
// says empty, protected, head or not, and the jump to the next slot of its
// list as an index into a fixed table of distances.
#ifndef FFI_CORE_SRC_CONTAINER_DENSE_MAP_H_
#define FFI_CORE_SRC_CONTAINER_DENSE_MAP_H_

#include <ffi_core/container/map.h>
#include <ffi_core/status.h>

namespace ffi_core {
namespace detail {

// Where the small form ends, as upstream's (kMaxSize).
inline constexpr uint64_t kSmallMapMaxSize = 4;

// Turns a small map (all its pairs, distinct keys) into a dense one with
// room for `capacity`; a MemoryError leaves it small and as it was.
Status DenseFromSmall(MapObj* m, uint64_t capacity, const char* who);
// The pair of `key`, or NULL.
MapPair* DenseFind(const MapObj* m, const AnyView& key);
// Sets `key` to `value` (a new key goes last in order), growing the table
// when it must; a failed growth leaves the map as it was.
Status DenseSet(MapObj* m, Any key, Any value, const char* who);
// Removes the pair of `key`; false if there was none.
bool DenseErase(MapObj* m, const AnyView& key);
// Destroys every entry (the table stays, empty).
void DenseClear(MapObj* m);

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_CONTAINER_DENSE_MAP_H_

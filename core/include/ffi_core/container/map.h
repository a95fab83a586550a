// Map (immutable, kTVMFFIMap) and Dict (mutable and shared, kTVMFFIDict):
// key-value containers in the layout of upstream's small map, its
// MapBaseObj (header, data, size, slots with the small tag in its top bit,
// data_deleter) with the (key, value) pairs at `data`, in insertion order.
// Upstream's headers read such a map inline whatever its size (a linear
// search, with upstream's key equality, AnyEqual); ffi-core never switches
// to upstream's hashed form, which firmware-sized maps do not need.
#ifndef FFI_CORE_CONTAINER_MAP_H_
#define FFI_CORE_CONTAINER_MAP_H_

#include <ffi_core/any.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>
#include <ffi_core/status.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

struct MapPair {
  Any key;
  Any value;
};

struct MapObj {
  TVMFFIObject header;
  void* data;  // MapPair[capacity]
  uint64_t size;
  uint64_t slots;  // capacity | kSmallMapTag
  void (*data_deleter)(void*);
  ~MapObj();
};
inline constexpr uint64_t kSmallMapTag = uint64_t{1} << 63;

namespace detail {
// What Map and Dict share: reading the pairs.
template <typename Derived>
class MapAccessors {
 public:
  size_t size() const { return obj() ? static_cast<size_t>(obj()->size) : 0; }
  const MapPair* begin() const {
    return obj() ? static_cast<const MapPair*>(obj()->data) : nullptr;
  }
  const MapPair* end() const { return begin() + size(); }
  // The pair whose key equals `key` (AnyEqual), or NULL.
  const MapPair* Find(const AnyView& key) const;
  // The value of `key`, or a KeyError.
  Expected<AnyView> At(const AnyView& key) const;

 private:
  const MapObj* obj() const { return static_cast<const Derived*>(this)->object().get(); }
};
// Builds a map object of `type_index` from 2 * n views (key, value, ...);
// a repeated key keeps its first place and its last value.
Expected<ObjectPtr<MapObj>> NewMapObj(int32_t type_index, const AnyView* pairs, size_t n);
}  // namespace detail

class Map : public ObjectRef<MapObj>, public detail::MapAccessors<Map> {
 public:
  using ObjectRef::ObjectRef;
  static Expected<Map> FromPairs(const AnyView* pairs, size_t n);
};

class Dict : public ObjectRef<MapObj>, public detail::MapAccessors<Dict> {
 public:
  using ObjectRef::ObjectRef;
  static Expected<Dict> FromPairs(const AnyView* pairs, size_t n);
  // Sets `key` (a new key goes last); a failed growth is a MemoryError and
  // leaves the dict as it was.
  [[nodiscard]] Status Set(const AnyView& key, const AnyView& value);
  // Removes `key`, or a KeyError.
  [[nodiscard]] Status Erase(const AnyView& key);
  void Clear();
};

// The object a "get or missing" look-up returns for an absent key (upstream's
// ffi.GetInvalidObject, which the Python package compares by identity): one
// ffi.Object that lives as long as the program.
Any MissingObject();

template <>
struct TypeTraits<Map> : detail::ObjectRefTraits<Map, kTVMFFIMap> {
  static constexpr const char* kName = "Map";
};
template <>
struct TypeTraits<Dict> : detail::ObjectRefTraits<Dict, kTVMFFIDict> {
  static constexpr const char* kName = "Dict";
};

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_MAP_H_

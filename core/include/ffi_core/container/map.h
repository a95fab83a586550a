// Map (immutable, kTVMFFIMap) and Dict (mutable and shared, kTVMFFIDict):
// key-value containers in the layouts of upstream's map, whose headers read
// and change them inline. Up to 4 entries the small form: upstream's
// MapBaseObj (header, data, size, slots with the small tag in its top bit,
// data_deleter), the (key, value) pairs at `data` in insertion order. Above
// that the dense form (container/dense_map.cc): a power-of-two table of
// slots in blocks, found by AnyHash, chained in insertion order. Both iterate
// in insertion order; keys compare with AnyEqual.
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
  void* data;  // small: MapPair[capacity]; dense: the blocks of slots
  uint64_t size;
  uint64_t slots;  // small: capacity | kSmallMapTag; dense: slots, a power of two
  void (*data_deleter)(void*);
  // The dense form's own fields, as upstream's DenseMapBaseObj adds them.
  uint32_t fib_shift;
  uint64_t iter_head;  // slot of the first entry in insertion order
  uint64_t iter_tail;
  ~MapObj();
};
inline constexpr uint64_t kSmallMapTag = uint64_t{1} << 63;

namespace detail {
// The dense form's storage, as upstream lays it out: blocks of 16 slots,
// 16 metadata bytes then 16 items.
struct DenseItem {
  MapPair pair;
  uint64_t prev;  // neighbours in insertion order, or kDenseEnd
  uint64_t next;
};
inline constexpr uint64_t kDenseEnd = UINT64_MAX;
inline constexpr size_t kDenseBlockSlots = 16;
inline constexpr size_t kDenseBlockBytes = kDenseBlockSlots * (1 + sizeof(DenseItem));
inline DenseItem* DenseItemAt(const MapObj* m, uint64_t slot) {
  char* block = static_cast<char*>(m->data) + (slot / kDenseBlockSlots) * kDenseBlockBytes;
  return reinterpret_cast<DenseItem*>(block + kDenseBlockSlots) + slot % kDenseBlockSlots;
}
inline bool IsSmallMap(const MapObj* m) { return (m->slots & kSmallMapTag) != 0; }
}  // namespace detail

// Walks a map's pairs in insertion order, either form.
class MapIterator {
 public:
  MapIterator(const MapObj* m, uint64_t at) : m_(m), at_(at) {}
  const MapPair& operator*() const {
    return detail::IsSmallMap(m_) ? static_cast<const MapPair*>(m_->data)[at_]
                                  : detail::DenseItemAt(m_, at_)->pair;
  }
  const MapPair* operator->() const { return &**this; }
  MapIterator& operator++() {
    at_ = detail::IsSmallMap(m_) ? at_ + 1 : detail::DenseItemAt(m_, at_)->next;
    return *this;
  }
  bool operator==(const MapIterator& o) const { return at_ == o.at_; }
  bool operator!=(const MapIterator& o) const { return at_ != o.at_; }

 private:
  const MapObj* m_;
  uint64_t at_;  // small: pair index; dense: slot, kDenseEnd past the last
};

namespace detail {
// What Map and Dict share: reading the pairs.
template <typename Derived>
class MapAccessors {
 public:
  size_t size() const { return obj() ? static_cast<size_t>(obj()->size) : 0; }
  MapIterator begin() const {
    const MapObj* m = obj();
    if (m == nullptr) return MapIterator(nullptr, 0);
    return MapIterator(m, IsSmallMap(m) ? 0 : m->iter_head);
  }
  MapIterator end() const {
    const MapObj* m = obj();
    if (m == nullptr) return MapIterator(nullptr, 0);
    return MapIterator(m, IsSmallMap(m) ? m->size : kDenseEnd);
  }
  // The pair whose key equals `key` (AnyEqual), or NULL.
  const MapPair* Find(const AnyView& key) const;
  // The value of `key`, or a KeyError.
  Expected<AnyView> At(const AnyView& key) const;

 private:
  const MapObj* obj() const { return static_cast<const Derived*>(this)->object().get(); }
};
// Builds a map object of `type_index` from 2 * n views (key, value, ...);
// a repeated key keeps its last value, and (as upstream's) its first place
// while the map is small, its last once it is dense.
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

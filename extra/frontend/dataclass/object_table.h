// A table keyed by object identity, for the walks over object graphs that
// must remember what they met: a shared object's hash (computed once) or
// its deep copy (so sharing and cycles survive the copy). Open addressing,
// storage from the installed allocator; insertion can fail with a
// MemoryError, never silently. The table holds a reference to each key, so
// an address cannot be freed and reused while it is remembered.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_OBJECT_TABLE_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_OBJECT_TABLE_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>

namespace ffi_core {
namespace frontend {

class ObjectTable {
 public:
  struct Entry {
    const TVMFFIObject* key;
    Any value;
  };

  ObjectTable() = default;
  ObjectTable(const ObjectTable&) = delete;
  ObjectTable& operator=(const ObjectTable&) = delete;
  ~ObjectTable();

  // The value kept for `key`, or NULL.
  Any* Find(const TVMFFIObject* key) const;
  // Keeps `value` for `key`, replacing any earlier value.
  [[nodiscard]] Status Put(const TVMFFIObject* key, Any value);

  size_t size() const { return size_; }
  // The entries, in no particular order; a NULL key marks an empty slot.
  Entry* begin() const { return slots_; }
  Entry* end() const { return slots_ + capacity_; }

 private:
  [[nodiscard]] Status Grow();
  Entry* Slot(const TVMFFIObject* key) const;

  Entry* slots_ = nullptr;
  size_t capacity_ = 0;  // a power of two, or 0
  size_t size_ = 0;
};

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_OBJECT_TABLE_H_

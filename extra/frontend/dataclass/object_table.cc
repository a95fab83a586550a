#include "dataclass/object_table.h"

#include <ffi_core/allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>

#include <cstdint>
#include <new>

namespace ffi_core {
namespace frontend {

ObjectTable::~ObjectTable() {
  if (slots_ == nullptr) return;
  for (Entry& e : *this) {
    if (e.key != nullptr) ObjectDecRef(const_cast<TVMFFIObject*>(e.key));
    e.~Entry();
  }
  FreeBuffer(slots_);
}

// The key's slot, or the empty slot where it would go.
ObjectTable::Entry* ObjectTable::Slot(const TVMFFIObject* key) const {
  // Objects are at least 8-byte aligned: drop the low bits, then mix.
  uint64_t h = (reinterpret_cast<uintptr_t>(key) >> 3) * 0x9E3779B97F4A7C15ull;
  size_t i = static_cast<size_t>(h >> 17) & (capacity_ - 1);
  while (slots_[i].key != nullptr && slots_[i].key != key) i = (i + 1) & (capacity_ - 1);
  return &slots_[i];
}

Any* ObjectTable::Find(const TVMFFIObject* key) const {
  if (capacity_ == 0) return nullptr;
  Entry* e = Slot(key);
  return e->key != nullptr ? &e->value : nullptr;
}

Status ObjectTable::Grow() {
  const size_t capacity = capacity_ == 0 ? 16 : capacity_ * 2;
  if (capacity > SIZE_MAX / sizeof(Entry)) {
    return RaiseError(ErrorKind::kMemoryError, {"object table too large"});
  }
  auto* slots = static_cast<Entry*>(AllocateBuffer(capacity * sizeof(Entry), alignof(Entry)));
  if (slots == nullptr) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"out of memory for a table of ", capacity, " objects"});
  }
  for (size_t i = 0; i < capacity; ++i) new (&slots[i]) Entry{nullptr, Any()};
  Entry* old = slots_;
  const size_t old_capacity = capacity_;
  slots_ = slots;
  capacity_ = capacity;
  for (size_t i = 0; i < old_capacity; ++i) {
    if (old[i].key != nullptr) {
      Entry* e = Slot(old[i].key);
      e->key = old[i].key;
      e->value = std::move(old[i].value);
    }
    old[i].~Entry();
  }
  FreeBuffer(old);
  return Status::Ok();
}

Status ObjectTable::Put(const TVMFFIObject* key, Any value) {
  if (Any* kept = Find(key)) {
    *kept = std::move(value);
    return Status::Ok();
  }
  // At most half full, so probes stay short.
  if ((size_ + 1) * 2 > capacity_) FFI_CORE_RETURN_IF_ERROR(Grow());
  Entry* e = Slot(key);
  e->key = key;
  e->value = std::move(value);
  ObjectIncRef(const_cast<TVMFFIObject*>(key));
  ++size_;
  return Status::Ok();
}

}  // namespace frontend
}  // namespace ffi_core

// List: a mutable sequence of Any as a kTVMFFIList object in upstream's
// layout (header, TVMFFISeqCell). Its items live in a separate buffer from the
// installed allocator, which the cell's data_deleter frees, so it can grow;
// every holder sees each change (a list is shared, not copied on write).
#ifndef FFI_CORE_CONTAINER_LIST_H_
#define FFI_CORE_CONTAINER_LIST_H_

#include <ffi_core/any.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>
#include <ffi_core/status.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

struct ListObj {
  TVMFFIObject header;
  TVMFFISeqCell cell;
  ~ListObj();
};

class List : public ObjectRef<ListObj> {
 public:
  using ObjectRef::ObjectRef;
  static Expected<List> FromViews(const AnyView* items, size_t size);

  size_t size() const { return obj_ ? static_cast<size_t>(obj_->cell.size) : 0; }
  const Any* begin() const { return obj_ ? static_cast<const Any*>(obj_->cell.data) : nullptr; }
  const Any* end() const { return begin() + size(); }

  // Indices are 0 <= index < size() (an IndexError otherwise); Insert also
  // takes size(), ranges are 0 <= begin <= end <= size(). A failed growth
  // is a MemoryError and leaves the list as it was.
  Expected<AnyView> At(int64_t index) const;
  [[nodiscard]] Status Set(int64_t index, const AnyView& value);
  [[nodiscard]] Status Append(const AnyView& value);
  [[nodiscard]] Status Insert(int64_t index, const AnyView& value);
  Expected<Any> Pop(int64_t index);
  [[nodiscard]] Status EraseRange(int64_t begin, int64_t end);
  // Items [begin, end) replaced by `count` items (which may view this list).
  [[nodiscard]] Status ReplaceRange(int64_t begin, int64_t end, const AnyView* items, size_t count);
  [[nodiscard]] Status Reserve(int64_t capacity);
  void Clear();
  void Reverse();

 private:
  Any* items() const { return static_cast<Any*>(obj_->cell.data); }
};

template <>
struct TypeTraits<List> : detail::ObjectRefTraits<List, kTVMFFIList> {
  static constexpr const char* kName = "List";
};

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_LIST_H_

// Array: an immutable sequence of Any as a kTVMFFIArray object in
// upstream's layout (header, TVMFFISeqCell, then the items in place, the
// cell's data_deleter NULL), so kernels built against upstream's headers read
// it inline. Built once from its items; a change makes a new array.
#ifndef FFI_CORE_CONTAINER_ARRAY_H_
#define FFI_CORE_CONTAINER_ARRAY_H_

#include <ffi_core/any.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

struct ArrayObj {
  TVMFFIObject header;
  TVMFFISeqCell cell;
  ~ArrayObj();
};

class Array : public ObjectRef<ArrayObj> {
 public:
  using ObjectRef::ObjectRef;
  // An array holding the owned form of each view (Any::FromView).
  TVM_FFI_DLL static Expected<Array> FromViews(const AnyView* items, size_t size);

  size_t size() const { return obj_ ? static_cast<size_t>(obj_->cell.size) : 0; }
  const Any* begin() const { return obj_ ? static_cast<const Any*>(obj_->cell.data) : nullptr; }
  const Any* end() const { return begin() + size(); }
  // The item at `index`, or an IndexError.
  Expected<AnyView> At(int64_t index) const;
};

template <>
struct TypeTraits<Array> : detail::ObjectRefTraits<Array, kTVMFFIArray> {
  static constexpr const char* kName = "Array";
};

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_ARRAY_H_

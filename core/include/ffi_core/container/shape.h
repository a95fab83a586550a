// Shape: an immutable list of int64 dimensions as a kTVMFFIShape object
// (header, TVMFFIShapeCell, then the values).
#ifndef FFI_CORE_CONTAINER_SHAPE_H_
#define FFI_CORE_CONTAINER_SHAPE_H_

#include <ffi_core/any.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

struct ShapeObj {
  TVMFFIObject header;
  TVMFFIShapeCell cell;
};

class Shape : public ObjectRef<ShapeObj> {
 public:
  using ObjectRef::ObjectRef;
  TVM_FFI_DLL static Expected<Shape> FromDims(const int64_t* dims, size_t ndim);

  size_t size() const { return obj_ ? obj_->cell.size : 0; }
  const int64_t* data() const { return obj_ ? obj_->cell.data : nullptr; }
  int64_t operator[](size_t i) const { return obj_->cell.data[i]; }
};

template <>
struct TypeTraits<Shape> : detail::ObjectRefTraits<Shape, kTVMFFIShape> {
  static constexpr const char* kName = "Shape";
};

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_SHAPE_H_

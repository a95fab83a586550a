#include <ffi_core/object.h>
#include <ffi_core/shape.h>

#include <cstring>

namespace ffi_core {

Expected<Shape> Shape::FromDims(const int64_t* dims, size_t ndim) {
  if (dims == nullptr && ndim != 0) return RaiseError(ErrorKind::kValueError, {"Shape: NULL dims"});
  FFI_CORE_ASSIGN_OR_RETURN(ShapeObj * obj,
                            NewObject<ShapeObj>(kTVMFFIShape, ndim * sizeof(int64_t)));
  int64_t* data = TrailingOf<int64_t>(obj);
  if (ndim != 0) std::memcpy(data, dims, ndim * sizeof(int64_t));
  obj->cell = TVMFFIShapeCell{data, ndim};
  return Shape(ObjectPtr<ShapeObj>::Adopt(obj));
}

}  // namespace ffi_core

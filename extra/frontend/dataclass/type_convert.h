// "__ffi_convert__" of the core object types (ffi.Object, ffi.Function,
// ffi.Error, ffi.String, ffi.Bytes, ffi.Array, ffi.List, ffi.Map, ffi.Dict,
// ffi.Shape, ffi.Tensor): the type attribute upstream's Python type
// converter calls to turn a value into the type, with upstream's fallbacks
// (an Array from a List and back, a Map from a Dict and back, a Shape from
// an Array or List of integers).
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_TYPE_CONVERT_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_TYPE_CONVERT_H_

#include <ffi_core/status.h>

namespace ffi_core {
namespace frontend {

Status RegisterConvertAttrs();

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_TYPE_CONVERT_H_

// "ffi.EnumState": the C++-defined type upstream's Python package builds its
// enums on (tvm_ffi.dataclasses.enum), registered with its three fields
// (entries: List, indexes: Dict, attrs: Dict) and an "__ffi_init__" that
// makes it with all three empty.
#ifndef FFI_CORE_EXTRA_FRONTEND_ENUM_STATE_H_
#define FFI_CORE_EXTRA_FRONTEND_ENUM_STATE_H_

#include <ffi_core/status.h>

namespace ffi_core {
namespace frontend {

Status RegisterEnumState();

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_ENUM_STATE_H_

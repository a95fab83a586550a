// Types defined in Python (upstream's tvm_ffi.dataclasses.py_class): the
// field getters and setters the package registers for each field, and the
// "__ffi_new__", "__ffi_init__" and "__ffi_shallow_copy__" attributes it
// asks the runtime to make, as the "ffi.MakeFieldGetter",
// "ffi.MakeFieldSetter" and "ffi._PyClassRegisterTypeAttrColumns" globals;
// and "ffi.MakeObjectFromPackedArgs", which builds any reflected type by
// field name through the same setters.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_PY_CLASS_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_PY_CLASS_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace frontend {

// Registers the globals; `kwargs` is the sentinel that separates positional
// from keyword arguments in a call to "__ffi_init__".
Status RegisterPyClassGlobals(const TVMFFIObject* kwargs);

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_PY_CLASS_H_

// Whether a module object is one of ffi-core's, for code that cannot include
// the rest of ffi-core's headers: the C++ API layer built with upstream's
// headers (extra/cxx_api) hands a module ffi-core did not make to its
// tvm::ffi::ModuleObj virtuals instead of ffi-core's module globals.
#ifndef FFI_CORE_CORE_MODULE_H_
#define FFI_CORE_CORE_MODULE_H_

#include <tvm/ffi/c_api.h>

namespace ffi_core {

// Whether `obj`, a kTVMFFIModule object, is one of ffi-core's modules. A
// tvm::ffi::ModuleObj made in C++ with upstream's headers (extra/cxx_api's
// LoadFromFile, a library's own module classes such as Apache TVM's
// executables) has the same type index but another layout: a vtable pointer
// before the header.
TVM_FFI_DLL bool IsCoreModule(const TVMFFIObject* obj);

// TVMFFIEnvModLookupFromImports for a library context ffi-core did not make.
// Upstream's library context is a C++ tvm::ffi::ModuleObj* (its vtable
// pointer first, the object header after it), which a module made in C++
// writes into the code it generates (Apache TVM's LLVM JIT does); ffi-core's
// own modules write their header's address. The C++ API layer, where there
// is one, installs the look-up for the former; without it they are refused.
using CxxModuleLookup = int (*)(void* library_ctx, const char* func_name, TVMFFIObjectHandle* out);
TVM_FFI_DLL void SetCxxModuleLookup(CxxModuleLookup lookup);

}  // namespace ffi_core

#endif  // FFI_CORE_CORE_MODULE_H_

// The demo's kernel library (see kernels.cc).
#ifndef FFI_CORE_APPS_DEMO_KERNELS_H_
#define FFI_CORE_APPS_DEMO_KERNELS_H_

#include <ffi_core/module.h>
#include <tvm/ffi/c_api.h>

extern "C" {
int __tvm_ffi_add_one(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result);
int __tvm_ffi_dot_i8(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result);
}

namespace demo {
// Adds the kernels to the system library.
ffi_core::Status RegisterKernels();
}  // namespace demo

#endif  // FFI_CORE_APPS_DEMO_KERNELS_H_

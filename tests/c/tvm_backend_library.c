/* What TVM's C and LLVM code generators put in a shared library that needs a
 * workspace: a context variable the loading runtime fills with the backend's
 * function, and a kernel that calls through it. */
#include <stddef.h>
#include <stdint.h>
#include <tvm/ffi/c_api.h>

typedef void* (*AllocWorkspace)(int device_type, int device_id, uint64_t nbytes, int dtype_code,
                                int dtype_bits);
TVM_FFI_DLL_EXPORT AllocWorkspace __TVMBackendAllocWorkspace = NULL;

TVM_FFI_DLL_EXPORT int __tvm_ffi_workspace_is_bound(void* self, const TVMFFIAny* args,
                                                    int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)num_args;
  result->type_index = kTVMFFIBool;
  result->zero_padding = 0;
  result->v_int64 = __TVMBackendAllocWorkspace != NULL;
  return 0;
}

/*
 * ffi-core: the TVM-FFI environment C API: per-context streams, the DLPack
 * tensor allocator kernels use for outputs, signal checks, frontend hooks
 * and the system library. Same names and signatures as apache-tvm-ffi's
 * tvm/ffi/extra/c_env_api.h.
 */
#ifndef TVM_FFI_EXTRA_C_ENV_API_H_
#define TVM_FFI_EXTRA_C_ENV_API_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A device stream (e.g. a cudaStream_t); NULL is the default stream. */
typedef void* TVMFFIStreamHandle;

/* Sets the calling context's stream for a device; the previous one is
 * written to opt_out_original_stream when that is not NULL. Per thread on
 * the host, one fixed-size table on bare metal. */
TVM_FFI_DLL int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id,
                                   TVMFFIStreamHandle stream,
                                   TVMFFIStreamHandle* opt_out_original_stream);
/* The stream set for a device, or NULL. */
TVM_FFI_DLL TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id);

/* Sets the allocator TVMFFIEnvTensorAlloc uses: for the calling context, and
 * also process-wide when write_to_global_context is non-zero.
 * opt_out_original_allocator receives the context's previous one. */
TVM_FFI_DLL int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator);
/* The context's allocator, else the process-wide one, else NULL. */
TVM_FFI_DLL DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void);
/* Allocates a Tensor shaped like prototype (shape, dtype, device) with that
 * allocator. */
TVM_FFI_DLL int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out);

/* Lets a frontend run pending signal handlers (e.g. Ctrl-C in Python); -1
 * when one raised. 0 when no frontend registered PyErr_CheckSignals. */
TVM_FFI_DLL int TVMFFIEnvCheckSignals(void);
/* Registers a frontend function by name: "PyErr_CheckSignals",
 * "PyGILState_Ensure", "PyGILState_Release". */
TVM_FFI_DLL int TVMFFIEnvRegisterCAPI(const char* name, void* symbol);

/* Adds a symbol (e.g. "__tvm_ffi_add_one") to the system library, the module
 * that "ffi.SystemLib" returns. */
TVM_FFI_DLL int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);

/* For generated code: the function func_name from the imports of the module
 * library_ctx (the value its __tvm_ffi__library_ctx received), else from the
 * global registry. *out is borrowed: the module keeps it alive. */
TVM_FFI_DLL int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                              TVMFFIObjectHandle* out);

/* Registers a value that every library loaded afterwards receives in its
 * variable called name (e.g. "__TVMBackendAllocWorkspace"). name must stay
 * valid for the life of the program. */
TVM_FFI_DLL int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TVM_FFI_EXTRA_C_ENV_API_H_ */

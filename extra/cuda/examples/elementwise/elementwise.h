// An example CUDA kernel library on ffi-core: two float32 elementwise ops,
// exported with TVM-FFI's one C calling convention as __tvm_ffi_<name>.
//
//   add_one_cuda(x, y)              y = x + 1       on the stream TVMFFIEnvGetStream(kDLCUDA,
//   scale_cuda(x, y, factor)        y = x * factor  x's device) returns, under a DeviceGuard
//   add_one_cuda_alloc(x) -> y      as above, y allocated with Tensor::FromEnvAlloc
//   scale_cuda_alloc(x, factor) -> y
//   add_one_cpu, scale_cpu, add_one_cpu_alloc, scale_cpu_alloc: the CPU
//     reference, with the same checks and bit-identical results
//
// x and y are tensors (DLTensor* or Tensor objects) and may be the same
// tensor. Every check runs before any CUDA call:
//   TypeError   a dtype other than float32 (or a non-tensor argument)
//   ValueError  a tensor on the wrong kind of device, y on another device
//               than x, shapes that differ, a non-contiguous tensor
// The launch itself fails with a RuntimeError carrying the CUDA text.
#ifndef FFI_CORE_CUDA_EXAMPLES_ELEMENTWISE_H_
#define FFI_CORE_CUDA_EXAMPLES_ELEMENTWISE_H_

#include <tvm/ffi/c_api.h>

#ifdef __cplusplus
extern "C" {
#endif

TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one_cuda(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_scale_cuda(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one_cuda_alloc(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_scale_cuda_alloc(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one_cpu(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_scale_cpu(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_add_one_cpu_alloc(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);
TVM_FFI_DLL_EXPORT int __tvm_ffi_scale_cpu_alloc(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // FFI_CORE_CUDA_EXAMPLES_ELEMENTWISE_H_

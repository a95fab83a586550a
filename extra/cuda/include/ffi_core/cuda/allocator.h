// CUDA memory for ffi-core tensors, two ways:
//
//  - CudaNDAlloc, for Tensor::FromNDAlloc: cudaMalloc/cudaFree on the
//    tensor's device under a DeviceGuard. The free code belongs to whoever
//    links this library, so that code must outlive the tensors.
//
//      auto t = Tensor::FromNDAlloc(cuda::CudaNDAlloc{}, shape, dtype, DLDevice{kDLCUDA, 0});
//
//  - DLPackTensorAlloc, a DLPackManagedTensorAllocator. Installed with
//    TVMFFIEnvSetDLPackManagedTensorAllocator, it is what kernels'
//    Tensor::FromEnvAlloc (and TVMFFIEnvTensorAlloc) allocate outputs with:
//    CPU memory from ffi-core's installed allocator (malloc when none is),
//    CUDA memory from cudaMalloc, pinned host memory from cudaMallocHost.
//    Failures go through the SetError callback, never the error slot.
#ifndef FFI_CORE_CUDA_ALLOCATOR_H_
#define FFI_CORE_CUDA_ALLOCATOR_H_

#include <ffi_core/expected.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>

namespace ffi_core {
namespace cuda {

// Alignment of CPU data from DLPackTensorAlloc (cudaMalloc gives >= 256).
inline constexpr size_t kCpuDataAlignment = 64;

// Bytes a tensor's elements occupy: the extent its shape and strides (in
// elements; NULL means compact) reach, times the element size, rounded up
// to whole bytes; 0 when a dimension is 0. False when that overflows size_t
// or a stride is negative.
bool ComputeDataBytes(const DLTensor& tensor, size_t* bytes);
// As ComputeDataBytes; a ValueError when it returns false.
Expected<size_t> DataBytes(const DLTensor& tensor);

// The NDAlloc contract of Tensor::FromNDAlloc(Strided). A device other than
// kDLCUDA is a ValueError, an unusable device a RuntimeError, a failed
// cudaMalloc a MemoryError, each with the CUDA text. Empty tensors get no
// memory (NULL data).
struct CudaNDAlloc {
  Status AllocData(DLTensor* tensor);
  void FreeData(DLTensor* tensor);
};

// DLPackManagedTensorAllocator for kDLCPU, kDLCUDA and kDLCUDAHost. Uses the
// prototype's ndim, shape, dtype and device; the result is compact, with
// byte_offset 0, and its deleter frees everything. On failure *out is NULL,
// set_error(error_ctx, kind, message) was called and -1 is returned.
int DLPackTensorAlloc(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                      void (*set_error)(void* error_ctx, const char* kind, const char* message));

}  // namespace cuda
}  // namespace ffi_core

#endif  // FFI_CORE_CUDA_ALLOCATOR_H_

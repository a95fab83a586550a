// CUDA runtime failures as ffi-core errors: the message names what failed
// and carries cudaGetErrorString's text and the error's name, e.g.
//   "CudaNDAlloc: cudaMalloc(4096) on CUDA device 0: out of memory (cudaErrorMemoryAllocation)"
// Reporting also clears the runtime's last error, so a later launch check
// (cudaGetLastError) does not report the same failure again.
#ifndef FFI_CORE_CUDA_CHECK_H_
#define FFI_CORE_CUDA_CHECK_H_

#include <cuda_runtime_api.h>
#include <ffi_core/config.h>
#include <ffi_core/error.h>

#include <cstddef>
#include <initializer_list>

namespace ffi_core {
namespace cuda {

// Room for one formatted message: what the error slot keeps anyway.
inline constexpr size_t kMessageCapacity = FFI_CORE_ERROR_MESSAGE_CAPACITY;

// Writes the parts into buf, NUL-terminated and cut at cap; returns the length.
size_t FormatMessage(char* buf, size_t cap, std::initializer_list<MessagePart> parts);
// Writes "<context>: <error string> (<error name>)" and clears the last error.
size_t FormatCudaError(char* buf, size_t cap, std::initializer_list<MessagePart> context,
                       cudaError_t error);

// Raises `kind` with FormatCudaError's text; returns the failed Status.
Status RaiseCudaError(ErrorKind kind, std::initializer_list<MessagePart> context,
                      cudaError_t error);

// Ok for cudaSuccess, else RaiseCudaError.
inline Status CheckCuda(cudaError_t error, ErrorKind kind,
                        std::initializer_list<MessagePart> context) {
  return error == cudaSuccess ? Status::Ok() : RaiseCudaError(kind, context, error);
}

}  // namespace cuda
}  // namespace ffi_core

#endif  // FFI_CORE_CUDA_CHECK_H_

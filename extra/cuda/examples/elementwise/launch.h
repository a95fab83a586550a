// The device code's entry points (launch.cu, built by nvcc). Plain C++ with
// CUDA runtime types only, so nvcc never has to compile ffi-core's headers.
#ifndef FFI_CORE_CUDA_EXAMPLES_LAUNCH_H_
#define FFI_CORE_CUDA_EXAMPLES_LAUNCH_H_

#include <cuda_runtime_api.h>

#include <cstdint>

namespace ffi_core {
namespace cuda {
namespace examples {

// Enqueue y[i] = x[i] + 1 (resp. x[i] * factor) for i < n on `stream` on
// the current device; x == y is allowed. Returns the launch's error; n <= 0
// launches nothing.
cudaError_t LaunchAddOneF32(const float* x, float* y, int64_t n, cudaStream_t stream);
cudaError_t LaunchScaleF32(const float* x, float* y, float factor, int64_t n, cudaStream_t stream);

}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core

#endif  // FFI_CORE_CUDA_EXAMPLES_LAUNCH_H_

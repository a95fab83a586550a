#include "launch.h"

namespace ffi_core {
namespace cuda {
namespace examples {
namespace {

constexpr unsigned kThreads = 256;
// Grid-stride loops cover any n, so the grid stays within every device's
// limit on gridDim.x and each thread does a few elements for large n.
constexpr int64_t kMaxBlocks = 65535;

unsigned Blocks(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

// No __restrict__: x and y may be the same buffer (in-place use).
__global__ void AddOneKernel(const float* x, float* y, int64_t n) {
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    y[i] = x[i] + 1.0f;
  }
}

__global__ void ScaleKernel(const float* x, float* y, float factor, int64_t n) {
  const int64_t stride = static_cast<int64_t>(blockDim.x) * gridDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    y[i] = x[i] * factor;
  }
}

}  // namespace

cudaError_t LaunchAddOneF32(const float* x, float* y, int64_t n, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  AddOneKernel<<<Blocks(n), kThreads, 0, stream>>>(x, y, n);
  return cudaGetLastError();
}

cudaError_t LaunchScaleF32(const float* x, float* y, float factor, int64_t n, cudaStream_t stream) {
  if (n <= 0) return cudaSuccess;
  ScaleKernel<<<Blocks(n), kThreads, 0, stream>>>(x, y, factor, n);
  return cudaGetLastError();
}

}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core

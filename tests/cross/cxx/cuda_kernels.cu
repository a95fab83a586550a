// An upstream-style CUDA kernel library: tvm/ffi headers, TensorView
// arguments, the environment's stream, TVM_FFI_DLL_EXPORT_TYPED_FUNC, built by
// nvcc with the flags tvm-ffi-config prints. Loaded by ffi-core's runtime and by
// the wheel's (tests/cross/CMakeLists.txt, cuda_kernel_loader.c).
#include <cuda_runtime.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/extra/cuda/device_guard.h>
#include <tvm/ffi/tvm_ffi.h>

namespace {

namespace ffi = tvm::ffi;

constexpr int kThreads = 128;
// Grid-stride loops: any n fits in a bounded grid.
constexpr int64_t kMaxBlocks = 4096;

__global__ void AddOneF32(const float* x, float* y, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    y[i] = x[i] + 1.0f;
  }
}

__global__ void ScaleF32(const float* x, float* y, float factor, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    y[i] = x[i] * factor;
  }
}

// Everything is checked before any CUDA call, so a wrong argument is a clean
// error even on a machine without a GPU.
void CheckVectors(const char* name, const ffi::TensorView& x, const ffi::TensorView& y) {
  TVM_FFI_CHECK(x.device().device_type == kDLCUDA, ValueError)
      << name << ": x must be a CUDA tensor, got device type " << x.device().device_type;
  TVM_FFI_CHECK(y.device().device_type == kDLCUDA, ValueError)
      << name << ": y must be a CUDA tensor, got device type " << y.device().device_type;
  TVM_FFI_CHECK(x.device().device_id == y.device().device_id, ValueError)
      << name << ": x and y are on different devices";
  DLDataType f32{kDLFloat, 32, 1};
  TVM_FFI_CHECK(x.dtype() == f32 && y.dtype() == f32, TypeError) << name << ": expects float32";
  TVM_FFI_CHECK(x.ndim() == 1 && y.ndim() == 1, ValueError) << name << ": expects vectors";
  TVM_FFI_CHECK(x.size(0) == y.size(0), ValueError) << name << ": sizes differ";
  TVM_FFI_CHECK(x.is_contiguous() && y.is_contiguous(), ValueError)
      << name << ": expects contiguous vectors";
}

// The caller's stream for the tensor's device (null: the default stream).
cudaStream_t StreamOf(const ffi::TensorView& x) {
  return static_cast<cudaStream_t>(
      TVMFFIEnvGetStream(x.device().device_type, x.device().device_id));
}

int Blocks(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<int>(blocks < kMaxBlocks ? blocks : kMaxBlocks);
}

void AddOne(ffi::TensorView x, ffi::TensorView y) {
  CheckVectors("add_one", x, y);
  const int64_t n = x.size(0);
  if (n == 0) return;  // a zero-block launch is an error
  ffi::CUDADeviceGuard guard(x.device().device_id);
  AddOneF32<<<Blocks(n), kThreads, 0, StreamOf(x)>>>(static_cast<const float*>(x.data_ptr()),
                                                     static_cast<float*>(y.data_ptr()), n);
  TVM_FFI_CHECK_CUDA_ERROR(cudaGetLastError());
}

void Scale(ffi::TensorView x, ffi::TensorView y, double factor) {
  CheckVectors("scale", x, y);
  const int64_t n = x.size(0);
  if (n == 0) return;
  ffi::CUDADeviceGuard guard(x.device().device_id);
  ScaleF32<<<Blocks(n), kThreads, 0, StreamOf(x)>>>(static_cast<const float*>(x.data_ptr()),
                                                    static_cast<float*>(y.data_ptr()),
                                                    static_cast<float>(factor), n);
  TVM_FFI_CHECK_CUDA_ERROR(cudaGetLastError());
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(scale, Scale);

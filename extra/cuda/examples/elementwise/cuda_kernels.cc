// The CUDA kernels' TVM-FFI side: argument checks, then a launch on the
// caller's stream for x's device, with that device current.
#include <ffi_core/cuda/check.h>
#include <ffi_core/cuda/device_guard.h>
#include <ffi_core/export.h>
#include <ffi_core/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "checks.h"
#include "elementwise.h"
#include "launch.h"

namespace ffi_core {
namespace cuda {
namespace examples {
namespace {

// x and y are already checked: contiguous float32 on one CUDA device.
Status Launch(const char* func, Op op, TensorView x, TensorView y, float factor) {
  const int32_t device = x.device().device_id;
  FFI_CORE_ASSIGN_OR_RETURN(DeviceGuard guard, DeviceGuard::Create(device));
  // The stream the caller (e.g. a framework's current stream) set for this
  // device; NULL is the default stream.
  cudaStream_t stream = static_cast<cudaStream_t>(TVMFFIEnvGetStream(kDLCUDA, device));
  const float* xp = static_cast<const float*>(x.data_with_offset());
  float* yp = static_cast<float*>(y.data_with_offset());
  const cudaError_t error = op == Op::kAddOne ? LaunchAddOneF32(xp, yp, x.numel(), stream)
                                              : LaunchScaleF32(xp, yp, factor, x.numel(), stream);
  return CheckCuda(error, ErrorKind::kRuntimeError,
                   {func, ": kernel launch on CUDA device ", device});
}

Status Run(const char* func, Op op, TensorView x, TensorView y, float factor) {
  FFI_CORE_RETURN_IF_ERROR(CheckInput(func, x, kDLCUDA));
  FFI_CORE_RETURN_IF_ERROR(CheckOutput(func, x, y));
  return Launch(func, op, x, y, factor);
}

Status AddOneCuda(TensorView x, TensorView y) {
  return Run("add_one_cuda", Op::kAddOne, x, y, 0.0f);
}
Status ScaleCuda(TensorView x, TensorView y, float factor) {
  return Run("scale_cuda", Op::kScale, x, y, factor);
}
Expected<Tensor> AddOneCudaAlloc(TensorView x) {
  return RunIntoEnvOutput("add_one_cuda_alloc", Op::kAddOne, x, 0.0f, kDLCUDA, &Run);
}
Expected<Tensor> ScaleCudaAlloc(TensorView x, float factor) {
  return RunIntoEnvOutput("scale_cuda_alloc", Op::kScale, x, factor, kDLCUDA, &Run);
}

}  // namespace
}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core

FFI_CORE_DLL_EXPORT_TYPED_FUNC(add_one_cuda, ffi_core::cuda::examples::AddOneCuda);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(scale_cuda, ffi_core::cuda::examples::ScaleCuda);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(add_one_cuda_alloc, ffi_core::cuda::examples::AddOneCudaAlloc);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(scale_cuda_alloc, ffi_core::cuda::examples::ScaleCudaAlloc);

// The CPU reference: the same ops and checks as the CUDA kernels, so tests
// can compare results bit for bit and exercise the checks without a GPU.
#include <ffi_core/export.h>
#include <ffi_core/tensor.h>

#include "checks.h"
#include "elementwise.h"

namespace ffi_core {
namespace cuda {
namespace examples {
namespace {

void Compute(Op op, const float* x, float* y, float factor, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = op == Op::kAddOne ? x[i] + 1.0f : x[i] * factor;
}

Status Run(const char* func, Op op, TensorView x, TensorView y, float factor) {
  FFI_CORE_RETURN_IF_ERROR(CheckInput(func, x, kDLCPU));
  FFI_CORE_RETURN_IF_ERROR(CheckOutput(func, x, y));
  Compute(op, static_cast<const float*>(x.data_with_offset()),
          static_cast<float*>(y.data_with_offset()), factor, x.numel());
  return Status::Ok();
}

Status AddOneCpu(TensorView x, TensorView y) { return Run("add_one_cpu", Op::kAddOne, x, y, 0.0f); }
Status ScaleCpu(TensorView x, TensorView y, float factor) {
  return Run("scale_cpu", Op::kScale, x, y, factor);
}
Expected<Tensor> AddOneCpuAlloc(TensorView x) {
  return RunIntoEnvOutput("add_one_cpu_alloc", Op::kAddOne, x, 0.0f, kDLCPU, &Run);
}
Expected<Tensor> ScaleCpuAlloc(TensorView x, float factor) {
  return RunIntoEnvOutput("scale_cpu_alloc", Op::kScale, x, factor, kDLCPU, &Run);
}

}  // namespace
}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core

FFI_CORE_DLL_EXPORT_TYPED_FUNC(add_one_cpu, ffi_core::cuda::examples::AddOneCpu);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(scale_cpu, ffi_core::cuda::examples::ScaleCpu);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(add_one_cpu_alloc, ffi_core::cuda::examples::AddOneCpuAlloc);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(scale_cpu_alloc, ffi_core::cuda::examples::ScaleCpuAlloc);

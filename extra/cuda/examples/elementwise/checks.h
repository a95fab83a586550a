// Argument checks shared by the CPU and CUDA kernels of the example.
#ifndef FFI_CORE_CUDA_EXAMPLES_CHECKS_H_
#define FFI_CORE_CUDA_EXAMPLES_CHECKS_H_

#include <ffi_core/status.h>
#include <ffi_core/tensor.h>

namespace ffi_core {
namespace cuda {
namespace examples {

enum class Op { kAddOne, kScale };

// x: a contiguous float32 tensor on a device of `device_type`.
Status CheckInput(const char* func, TensorView x, int32_t device_type);
// y: the same checks as x, on x's very device, with x's shape.
Status CheckOutput(const char* func, TensorView x, TensorView y);

// A kernel writing op(x) into y (it runs its own checks).
using RunFn = Status (*)(const char* func, Op op, TensorView x, TensorView y, float factor);
// The allocating form of a kernel: checks x, allocates y like x through the
// environment's allocator (Tensor::FromEnvAlloc), runs `run` into it.
Expected<Tensor> RunIntoEnvOutput(const char* func, Op op, TensorView x, float factor,
                                  int32_t device_type, RunFn run);

}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core

#endif  // FFI_CORE_CUDA_EXAMPLES_CHECKS_H_

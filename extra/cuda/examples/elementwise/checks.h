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

}  // namespace examples
}  // namespace cuda
}  // namespace ffi_core

#endif  // FFI_CORE_CUDA_EXAMPLES_CHECKS_H_

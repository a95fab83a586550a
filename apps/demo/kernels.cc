// The demo's kernel library: what a compiler would emit for an MCU, written
// with ffi-core's typed export macro. Each kernel is a `__tvm_ffi_<name>`
// symbol with the one C signature, checking its DLTensor arguments.
#include "kernels.h"

#include <ffi_core/export.h>
#include <ffi_core/tensor.h>

namespace demo {
namespace {

using ffi_core::ErrorKind;
using ffi_core::RaiseError;
using ffi_core::Status;
using ffi_core::TensorView;

Status CheckVector(const char* kernel, const char* arg, const TensorView& t, uint8_t code,
                   uint8_t bits) {
  if (t.device().device_type != kDLCPU) {
    return RaiseError(ErrorKind::kValueError, {kernel, ": ", arg, " must be on the CPU"});
  }
  if (t.dim() != 1) {
    return RaiseError(ErrorKind::kValueError,
                      {kernel, ": ", arg, " must be 1-D, got ", t.dim(), "-D"});
  }
  if (t.dtype().code != code || t.dtype().bits != bits || t.dtype().lanes != 1) {
    return RaiseError(ErrorKind::kTypeError, {kernel, ": ", arg, " has the wrong dtype"});
  }
  if (!t.is_contiguous())
    return RaiseError(ErrorKind::kValueError, {kernel, ": ", arg, " is strided"});
  return Status::Ok();
}

Status AddOne(TensorView x, TensorView y) {
  FFI_CORE_RETURN_IF_ERROR(CheckVector("add_one", "x", x, kDLFloat, 32));
  FFI_CORE_RETURN_IF_ERROR(CheckVector("add_one", "y", y, kDLFloat, 32));
  if (x.numel() != y.numel()) {
    return RaiseError(ErrorKind::kValueError,
                      {"add_one: x has ", x.numel(), " elements, y has ", y.numel()});
  }
  const float* in = static_cast<const float*>(x.data_with_offset());
  float* out = static_cast<float*>(y.data_with_offset());
  for (int64_t i = 0; i < x.numel(); ++i) out[i] = in[i] + 1.0f;
  return Status::Ok();
}

ffi_core::Expected<int64_t> DotI8(TensorView a, TensorView b) {
  FFI_CORE_RETURN_IF_ERROR(CheckVector("dot_i8", "a", a, kDLInt, 8));
  FFI_CORE_RETURN_IF_ERROR(CheckVector("dot_i8", "b", b, kDLInt, 8));
  if (a.numel() != b.numel()) {
    return RaiseError(ErrorKind::kValueError,
                      {"dot_i8: a has ", a.numel(), " elements, b has ", b.numel()});
  }
  const int8_t* pa = static_cast<const int8_t*>(a.data_with_offset());
  const int8_t* pb = static_cast<const int8_t*>(b.data_with_offset());
  int64_t sum = 0;
  for (int64_t i = 0; i < a.numel(); ++i) sum += int64_t{pa[i]} * pb[i];
  return sum;
}

}  // namespace
}  // namespace demo

FFI_CORE_DLL_EXPORT_TYPED_FUNC(add_one, demo::AddOne);
FFI_CORE_DLL_EXPORT_TYPED_FUNC(dot_i8, demo::DotI8);

namespace demo {

ffi_core::Status RegisterKernels() {
  FFI_CORE_RETURN_IF_ERROR(ffi_core::RegisterSystemLibSymbol(
      "__tvm_ffi_add_one", reinterpret_cast<void*>(&__tvm_ffi_add_one)));
  return ffi_core::RegisterSystemLibSymbol("__tvm_ffi_dot_i8",
                                           reinterpret_cast<void*>(&__tvm_ffi_dot_i8));
}

}  // namespace demo

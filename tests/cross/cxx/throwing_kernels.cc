// An upstream-style kernel that throws C++ exceptions; the export macro turns
// them into errors with a kind and a message at the C ABI.
#include <tvm/ffi/tvm_ffi.h>

#include <stdexcept>

namespace {

int64_t CheckedDiv(int64_t a, int64_t b) {
  if (b == 0) TVM_FFI_THROW(ValueError) << "checked_div: division of " << a << " by zero";
  return a / b;
}

int64_t At(int64_t index) {
  if (index < 0 || index >= 3)
    TVM_FFI_THROW(IndexError) << "at: index " << index << " not in [0, 3)";
  return index * 10;
}

// A standard exception, not a tvm::ffi::Error.
int64_t Std(int64_t x) {
  if (x < 0) throw std::runtime_error("std: negative input");
  return x;
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(checked_div, CheckedDiv);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(at, At);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(std_throw, Std);

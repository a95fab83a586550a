// Upstream-style typed kernels: tvm/ffi headers, TVM_FFI_DLL_EXPORT_TYPED_FUNC,
// built with the flags tvm-ffi-config prints. Loaded by ffi-core's runtime and
// by the wheel's (tests/cross/CMakeLists.txt).
// With metadata: each export also gets __tvm_ffi__metadata_<name>, and
// TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC a __tvm_ffi__doc_<name>.
#define TVM_FFI_DLL_EXPORT_INCLUDE_METADATA 1
#include <tvm/ffi/tvm_ffi.h>

#include <string>

namespace {

namespace ffi = tvm::ffi;

// y[i] = x[i] + 1 over float32 vectors.
void AddOne(ffi::TensorView x, ffi::TensorView y) {
  TVM_FFI_CHECK(x.ndim() == 1 && y.ndim() == 1, ValueError) << "add_one: expects vectors";
  TVM_FFI_CHECK(x.size(0) == y.size(0), ValueError) << "add_one: sizes differ";
  DLDataType f32{kDLFloat, 32, 1};
  TVM_FFI_CHECK(x.dtype() == f32 && y.dtype() == f32, TypeError) << "add_one: expects float32";
  const float* in = static_cast<const float*>(x.data_ptr());
  float* out = static_cast<float*>(y.data_ptr());
  for (int64_t i = 0; i < x.size(0); ++i) out[i] = in[i] + 1.0f;
}

double MulAdd(int64_t a, int64_t b, double c) { return static_cast<double>(a * b) + c; }

ffi::String Greet(ffi::String name, int64_t times) {
  std::string out;
  for (int64_t i = 0; i < times; ++i) out += "hello " + std::string(name) + ";";
  return ffi::String(out);
}

}  // namespace

TVM_FFI_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(mul_add, MulAdd);
TVM_FFI_DLL_EXPORT_TYPED_FUNC_DOC(mul_add, "a * b + c, as a float");
TVM_FFI_DLL_EXPORT_TYPED_FUNC(greet, Greet);

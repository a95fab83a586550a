// Shared by the CUDA extra's tests: calling exported kernels the way a
// frontend does, and describing test-owned memory as tensors.
#ifndef FFI_CORE_TESTS_CUDA_TEST_SUPPORT_H_
#define FFI_CORE_TESTS_CUDA_TEST_SUPPORT_H_

#include <elementwise/elementwise.h>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>

#include "test_support.h"

namespace ffi_core_test {

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDataType kF64{kDLFloat, 64, 1};
constexpr DLDevice kCPU{kDLCPU, 0};

using SafeCall = int (*)(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);

// Calls an exported kernel with borrowed views of the arguments; an owned
// result lands in *result (or is released when result is NULL).
template <typename... Args>
int Call(SafeCall f, ffi_core::Any* result, const Args&... args) {
  const TVMFFIAny packed[] = {ffi_core::AnyView(args).raw()...};
  TVMFFIAny out = ffi_core::NoneAny();
  const int rc = f(nullptr, packed, static_cast<int32_t>(sizeof...(Args)), &out);
  ffi_core::Any owned = ffi_core::Any::AdoptRaw(out);
  if (result != nullptr) *result = std::move(owned);
  return rc;
}

// A DLTensor over memory the test owns, placed on whatever device the test
// claims: kernels must refuse a wrong placement before touching the data.
class TensorDesc {
 public:
  TensorDesc(void* data, std::initializer_list<int64_t> dims, DLDevice device,
             DLDataType dtype = kF32) {
    int32_t n = 0;
    for (int64_t d : dims) shape_[n++] = d;
    t_.data = data;
    t_.device = device;
    t_.ndim = n;
    t_.dtype = dtype;
    t_.shape = shape_;
  }
  TensorDesc(const TensorDesc&) = delete;  // t_ points into this object
  TensorDesc& operator=(const TensorDesc&) = delete;

  void SetStrides(std::initializer_list<int64_t> strides) {
    int32_t n = 0;
    for (int64_t s : strides) strides_[n++] = s;
    t_.strides = strides_;
  }
  DLTensor* get() { return &t_; }

 private:
  int64_t shape_[4] = {};
  int64_t strides_[4] = {};
  DLTensor t_{};
};

// Exact comparison: the same bits (so -0 differs from +0).
inline bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

}  // namespace ffi_core_test

#endif  // FFI_CORE_TESTS_CUDA_TEST_SUPPORT_H_

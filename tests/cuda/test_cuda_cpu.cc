// The CUDA extra without a GPU: the CPU reference kernels, the checks the
// CUDA kernels run before touching a device, and the allocators' and the
// device guard's failures. Passes on machines with and without a GPU.
#include <ffi_core/cuda/allocator.h>
#include <ffi_core/cuda/device_guard.h>

#include <string>

#include "cuda_test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

constexpr int kNoSuchDevice = 1 << 20;

// Collects what DLPackTensorAlloc reports through SetError.
struct Reported {
  std::string kind;
  std::string message;
  int calls = 0;
};
void Record(void* ctx, const char* kind, const char* message) {
  Reported* r = static_cast<Reported*>(ctx);
  r->kind = kind;
  r->message = message;
  ++r->calls;
}

}  // namespace

TEST_CASE("the CPU reference kernels compute y = x + 1 and y = x * factor") {
  AllocatorScope scope;
  float x[6] = {0.0f, -1.5f, 2.25f, 1e30f, -0.0f, 1e-40f};
  float y[6] = {};
  TensorDesc xt(x, {2, 3}, kCPU);
  TensorDesc yt(y, {2, 3}, kCPU);

  Any result = Any(int64_t{7});
  REQUIRE(Call(__tvm_ffi_add_one_cpu, &result, xt.get(), yt.get()) == 0);
  CHECK(result.raw().type_index == kTVMFFINone);
  for (int i = 0; i < 6; ++i) CHECK(SameBits(y[i], x[i] + 1.0f));

  REQUIRE(Call(__tvm_ffi_scale_cpu, nullptr, xt.get(), yt.get(), 0.75) == 0);
  for (int i = 0; i < 6; ++i) CHECK(SameBits(y[i], x[i] * 0.75f));

  // In place: x is also the output.
  REQUIRE(Call(__tvm_ffi_add_one_cpu, nullptr, xt.get(), xt.get()) == 0);
  CHECK(x[1] == -0.5f);
}

TEST_CASE("the alloc variants return a tensor from the environment's allocator") {
  AllocatorScope scope;
  float x[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  TensorDesc xt(x, {4}, kCPU);

  DLPackManagedTensorAllocator previous = nullptr;
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, &previous) == 0);
  CHECK(Call(__tvm_ffi_add_one_cpu_alloc, nullptr, xt.get()) != 0);
  TakenError e = TakeError();
  CHECK(e.kind == "RuntimeError");
  CHECK(Contains(e.message, "no allocator"));

  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&cuda::DLPackTensorAlloc, 0, nullptr) == 0);
  {
    Any result;
    REQUIRE(Call(__tvm_ffi_add_one_cpu_alloc, &result, xt.get()) == 0);
    Expected<Tensor> y = result.As<Tensor>();
    REQUIRE(y.ok());
    CHECK(y->device().device_type == kDLCPU);
    CHECK(y->ndim() == 1);
    CHECK(y->shape()[0] == 4);
    CHECK(reinterpret_cast<uintptr_t>(y->data_ptr()) % cuda::kCpuDataAlignment == 0);
    const float* yp = static_cast<const float*>(y->data_ptr());
    for (int i = 0; i < 4; ++i) CHECK(yp[i] == x[i] + 1.0f);
    // The DLPack struct and the data come from the installed allocator.
    CHECK(scope.counter().live_blocks() >= 2);

    REQUIRE(Call(__tvm_ffi_scale_cpu_alloc, &result, xt.get(), -2.0) == 0);
    y = result.As<Tensor>();
    REQUIRE(y.ok());
    yp = static_cast<const float*>(y->data_ptr());
    for (int i = 0; i < 4; ++i) CHECK(yp[i] == x[i] * -2.0f);
  }
  // AllocatorScope checks that the deleter gave every block back.
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(previous, 0, nullptr) == 0);
}

TEST_CASE("DLPackTensorAlloc reports failures through SetError, not the error slot") {
  AllocatorScope scope;
  int64_t shape[2] = {2, 3};
  DLTensor proto{};
  proto.device = kCPU;
  proto.ndim = 2;
  proto.dtype = kF32;
  proto.shape = shape;
  // Not NULL to start with: a failure must reset it.
  DLManagedTensorVersioned* out = reinterpret_cast<DLManagedTensorVersioned*>(&proto);

  Reported r;
  proto.device = DLDevice{kDLVulkan, 0};
  CHECK(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == -1);
  CHECK(out == nullptr);
  CHECK(r.kind == "ValueError");
  CHECK(Contains(r.message, "unsupported device type 7"));

  proto.device = DLDevice{kDLCUDA, kNoSuchDevice};
  CHECK(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == -1);
  CHECK(r.kind == "RuntimeError");
  CHECK(Contains(r.message, "DLPackTensorAlloc: cannot use CUDA device 1048576: "));
  MESSAGE("no such device: ", doctest::String(r.message.c_str()));

  proto.device = kCPU;
  shape[1] = -3;
  CHECK(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == -1);
  CHECK(r.message == "DLPackTensorAlloc: negative size -3 at axis 1");
  shape[1] = 3;
  proto.ndim = FFI_CORE_TENSOR_MAX_NDIM + 1;
  CHECK(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == -1);
  CHECK(Contains(r.message, "ndim"));
  proto.ndim = 2;
  proto.dtype = DLDataType{kDLFloat, 0, 1};
  CHECK(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == -1);
  CHECK(Contains(r.message, "zero bits"));
  proto.dtype = kF32;
  CHECK(r.calls == 5);
  CHECK_FALSE(HasPendingError());

  // Empty and zero-dimensional tensors.
  shape[0] = 0;
  REQUIRE(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == 0);
  CHECK(out->dl_tensor.data == nullptr);
  CHECK(out->dl_tensor.shape[0] == 0);
  out->deleter(out);
  proto.ndim = 0;
  REQUIRE(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == 0);
  CHECK(out->dl_tensor.data != nullptr);
  out->deleter(out);

  // With no ffi-core allocator installed, CPU memory comes from the C library.
  SetAllocator(nullptr);
  proto.ndim = 2;
  shape[0] = 2;
  REQUIRE(cuda::DLPackTensorAlloc(&proto, &out, &r, &Record) == 0);
  CHECK(reinterpret_cast<uintptr_t>(out->dl_tensor.data) % cuda::kCpuDataAlignment == 0);
  CHECK(out->version.major == DLPACK_MAJOR_VERSION);
  CHECK(out->dl_tensor.strides == nullptr);
  static_cast<float*>(out->dl_tensor.data)[5] = 1.0f;
  out->deleter(out);
  SetAllocator(scope.counter().allocator());
  CHECK(r.calls == 5);
  CHECK(scope.counter().live_blocks() == 0);
}

TEST_CASE("the CUDA kernels refuse bad arguments before touching a device") {
  AllocatorScope scope;
  float a[6] = {1, 2, 3, 4, 5, 6};
  float b[6] = {};
  double d[6] = {};
  TensorDesc cpu_x(a, {2, 3}, kCPU);
  TensorDesc cuda_x(a, {2, 3}, DLDevice{kDLCUDA, 0});
  TensorDesc cuda_y(b, {2, 3}, DLDevice{kDLCUDA, 0});
  TensorDesc cuda_y1(b, {2, 3}, DLDevice{kDLCUDA, 1});
  TensorDesc cuda_yt(b, {3, 2}, DLDevice{kDLCUDA, 0});
  TensorDesc cuda_f64(d, {2, 3}, DLDevice{kDLCUDA, 0}, kF64);
  TensorDesc vulkan_x(a, {2, 3}, DLDevice{kDLVulkan, 0});
  TensorDesc cuda_strided(a, {2, 3}, DLDevice{kDLCUDA, 0});
  cuda_strided.SetStrides({1, 2});

  struct Case {
    SafeCall f;
    DLTensor* x;
    DLTensor* y;
    const char* kind;
    const char* message;
  };
  const Case cases[] = {
      {__tvm_ffi_add_one_cuda, cpu_x.get(), cuda_y.get(), "ValueError",
       "add_one_cuda: x must be a CUDA tensor, got one on cpu:0"},
      {__tvm_ffi_add_one_cuda, cuda_x.get(), cpu_x.get(), "ValueError",
       "add_one_cuda: y must be a CUDA tensor, got one on cpu:0"},
      {__tvm_ffi_add_one_cuda, vulkan_x.get(), cuda_y.get(), "ValueError",
       "add_one_cuda: x must be a CUDA tensor, got one on device type 7:0"},
      {__tvm_ffi_add_one_cuda, cuda_f64.get(), cuda_y.get(), "TypeError",
       "add_one_cuda: x must be float32, got float64"},
      {__tvm_ffi_add_one_cuda, cuda_x.get(), cuda_f64.get(), "TypeError",
       "add_one_cuda: y must be float32, got float64"},
      {__tvm_ffi_add_one_cuda, cuda_x.get(), cuda_yt.get(), "ValueError",
       "add_one_cuda: y has shape [3, 2], x has shape [2, 3]"},
      {__tvm_ffi_add_one_cuda, cuda_x.get(), cuda_y1.get(), "ValueError",
       "add_one_cuda: y is on cuda:1, x on cuda:0"},
      {__tvm_ffi_add_one_cuda, cuda_strided.get(), cuda_y.get(), "ValueError",
       "add_one_cuda: x must be contiguous"},
      {__tvm_ffi_add_one_cpu, cuda_x.get(), cpu_x.get(), "ValueError",
       "add_one_cpu: x must be a CPU tensor, got one on cuda:0"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    CHECK(Call(c.f, nullptr, c.x, c.y) != 0);
    TakenError e = TakeError();
    CHECK(e.kind == c.kind);
    CHECK(e.message == c.message);
  }
  CHECK(Call(__tvm_ffi_scale_cuda, nullptr, cuda_x.get(), cuda_yt.get(), 2.0) != 0);
  CHECK(TakeError().message == "scale_cuda: y has shape [3, 2], x has shape [2, 3]");
  CHECK(Call(__tvm_ffi_scale_cuda, nullptr, cuda_x.get(), cuda_y.get(), "two") != 0);
  TakenError e = TakeError();
  CHECK(e.kind == "TypeError");
  CHECK(e.message == "scale_cuda: argument #2: expected float, got const char*");
  CHECK(Call(__tvm_ffi_add_one_cuda, nullptr, cuda_x.get()) != 0);
  CHECK(TakeError().message == "add_one_cuda: expected 2 arguments, got 1");
  CHECK(Call(__tvm_ffi_add_one_cuda_alloc, nullptr, cpu_x.get()) != 0);
  CHECK(TakeError().message == "add_one_cuda_alloc: x must be a CUDA tensor, got one on cpu:0");
  CHECK(Call(__tvm_ffi_scale_cuda_alloc, nullptr, cuda_f64.get(), 1.0) != 0);
  CHECK(TakeError().kind == "TypeError");
  for (float v : b) CHECK(v == 0.0f);  // nothing ran
}

TEST_CASE("DeviceGuard and CudaNDAlloc fail as values") {
  AllocatorScope scope;
  Expected<cuda::DeviceGuard> g = cuda::DeviceGuard::Create(-1);
  CHECK_FALSE(g.ok());
  TakenError e = TakeError();
  CHECK(e.kind == "ValueError");
  CHECK(e.message == "DeviceGuard: negative CUDA device id -1");

  g = cuda::DeviceGuard::Create(kNoSuchDevice);
  CHECK_FALSE(g.ok());
  e = TakeError();
  CHECK(e.kind == "RuntimeError");
  CHECK(Contains(e.message, "DeviceGuard: cannot make CUDA device 1048576 current: "));
  MESSAGE("no such device: ",
          doctest::String(e.message.data(), static_cast<unsigned>(e.message.size())));

  {
    cuda::DeviceGuard quiet = cuda::DeviceGuard::Quiet(kNoSuchDevice);
    CHECK_FALSE(quiet.ok());
    CHECK(quiet.error() != cudaSuccess);
    CHECK_FALSE(HasPendingError());
  }

  const int64_t shape[] = {4, 5};
  Expected<Tensor> t = Tensor::FromNDAlloc(cuda::CudaNDAlloc{}, IntSpan{shape, 2}, kF32, kCPU);
  CHECK_FALSE(t.ok());
  e = TakeError();
  CHECK(e.kind == "ValueError");
  CHECK(e.message == "CudaNDAlloc: device type 1 is not kDLCUDA (2)");

  t = Tensor::FromNDAlloc(cuda::CudaNDAlloc{}, IntSpan{shape, 2}, kF32,
                          DLDevice{kDLCUDA, kNoSuchDevice});
  CHECK_FALSE(t.ok());
  CHECK(TakeError().kind == "RuntimeError");
}

TEST_CASE("DataBytes covers strides, sub-byte types, empty tensors and overflow") {
  int64_t shape[2] = {2, 3};
  int64_t strides[2] = {8, 1};
  DLTensor t{};
  t.ndim = 2;
  t.dtype = kF32;
  t.shape = shape;
  CHECK(cuda::DataBytes(t).value() == 24);
  t.strides = strides;  // rows 8 apart: 1 + 8 + 2 elements
  CHECK(cuda::DataBytes(t).value() == 44);
  strides[0] = 1;
  strides[1] = 2;  // column-major
  CHECK(cuda::DataBytes(t).value() == 24);
  t.strides = nullptr;
  t.dtype = DLDataType{kDLInt, 4, 1};
  CHECK(cuda::DataBytes(t).value() == 3);
  shape[0] = 0;
  CHECK(cuda::DataBytes(t).value() == 0);
  shape[0] = int64_t{1} << 62;
  t.dtype = kF32;
  CHECK_FALSE(cuda::DataBytes(t).ok());
  CHECK(TakeError().kind == "ValueError");
  size_t bytes = 0;
  shape[0] = 2;
  strides[0] = -1;
  t.strides = strides;
  CHECK_FALSE(cuda::ComputeDataBytes(t, &bytes));
}

// The CUDA extra on a GPU: kernels on a caller-set stream, compared bit for
// bit with the CPU reference; the device guard; both allocators; argument
// errors with real device tensors. gpu_main.cc skips all of it without one.
#include <cuda_runtime_api.h>
#include <ffi_core/cuda/allocator.h>
#include <ffi_core/cuda/device_guard.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "cuda_test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

constexpr int kDevice = 0;
constexpr DLDevice kGPU{kDLCUDA, kDevice};

// Deterministic inputs: special values, then random bit patterns, so
// subnormals, +-0, +-inf and huge values all occur. No NaN: the two sides
// may canonicalize its payload differently.
std::vector<float> Inputs(int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  const float special[] = {0.0f,
                           -0.0f,
                           1.0f,
                           -1.0f,
                           1e-45f,
                           -1e-45f,
                           1.17549435e-38f,
                           3.4028235e38f,
                           -3.4028235e38f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           16777216.0f,
                           0.1f};
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (int64_t i = 0; i < n; ++i) {
    if (i < static_cast<int64_t>(sizeof(special) / sizeof(special[0]))) {
      v[i] = special[i];
      continue;
    }
    uint32_t bits = 0;
    do {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      bits = static_cast<uint32_t>(state >> 32);
    } while ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0);
    std::memcpy(&v[i], &bits, sizeof(bits));
  }
  return v;
}

Tensor DeviceTensor(std::initializer_list<int64_t> dims, DLDataType dtype = kF32) {
  std::vector<int64_t> shape(dims);
  Expected<Tensor> t = Tensor::FromNDAlloc(
      cuda::CudaNDAlloc{}, IntSpan{shape.data(), static_cast<int32_t>(shape.size())}, dtype, kGPU);
  REQUIRE(t.ok());
  return t.value();
}

void Upload(const Tensor& t, const std::vector<float>& v) {
  REQUIRE(static_cast<size_t>(t.numel()) == v.size());
  if (v.empty()) return;  // an empty tensor has NULL data
  REQUIRE(cudaMemcpy(t.data_ptr(), v.data(), v.size() * sizeof(float), cudaMemcpyHostToDevice) ==
          cudaSuccess);
  // A copy from pageable memory may still be in flight when cudaMemcpy
  // returns, and kernels run on a non-blocking stream: wait for it.
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}

std::vector<float> Download(const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  if (v.empty()) return v;
  REQUIRE(cudaMemcpy(v.data(), t.data_ptr(), v.size() * sizeof(float), cudaMemcpyDeviceToHost) ==
          cudaSuccess);
  return v;
}

// Element for element, bit for bit; reports the first difference.
void CheckSame(const std::vector<float>& gpu, const std::vector<float>& cpu,
               const std::vector<float>& x) {
  REQUIRE(gpu.size() == cpu.size());
  size_t mismatches = 0;
  size_t first = 0;
  for (size_t i = 0; i < gpu.size(); ++i) {
    if (!SameBits(gpu[i], cpu[i])) {
      if (mismatches++ == 0) first = i;
    }
  }
  if (mismatches != 0) {
    MESSAGE("first mismatch at ", first, ": x=", x[first], " gpu=", gpu[first],
            " cpu=", cpu[first]);
  }
  CHECK(mismatches == 0);
}

// Runs the CPU reference on host copies.
std::vector<float> CpuRef(SafeCall f, std::vector<float>& x, bool scale, double factor) {
  std::vector<float> y(x.size());
  TensorDesc xt(x.data(), {static_cast<int64_t>(x.size())}, kCPU);
  TensorDesc yt(y.data(), {static_cast<int64_t>(y.size())}, kCPU);
  const int rc =
      scale ? Call(f, nullptr, xt.get(), yt.get(), factor) : Call(f, nullptr, xt.get(), yt.get());
  REQUIRE(rc == 0);
  return y;
}

// A non-blocking stream installed as the environment's CUDA stream for
// kDevice for one scope.
class StreamScope {
 public:
  StreamScope() {
    REQUIRE(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) == cudaSuccess);
    REQUIRE(TVMFFIEnvSetStream(kDLCUDA, kDevice, stream_, &previous_) == 0);
  }
  ~StreamScope() {
    CHECK(TVMFFIEnvSetStream(kDLCUDA, kDevice, previous_, nullptr) == 0);
    CHECK(cudaStreamDestroy(stream_) == cudaSuccess);
  }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
  TVMFFIStreamHandle previous_ = nullptr;
};

}  // namespace

TEST_CASE("add_one and scale on a caller-set stream match the CPU kernels bit for bit") {
  AllocatorScope scope;
  StreamScope stream;
  REQUIRE(TVMFFIEnvGetStream(kDLCUDA, kDevice) == stream.get());
  // One element, a tail short of a block, a 3-D shape, an empty tensor, and
  // more elements than one grid covers (the grid-stride loop).
  const std::initializer_list<int64_t> shapes[] = {
      {1}, {1000, 1037}, {3, 5, 7}, {0, 4}, {2 * 65535 * 256 + 5}};
  const double factors[] = {0.75, -3.5, 1e-3};
  for (const auto& dims : shapes) {
    Tensor x = DeviceTensor(dims);
    Tensor y = DeviceTensor(dims);
    CAPTURE(x.numel());
    std::vector<float> host_x = Inputs(x.numel());
    Upload(x, host_x);

    REQUIRE(Call(__tvm_ffi_add_one_cuda, nullptr, x, y) == 0);
    REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
    CheckSame(Download(y), CpuRef(__tvm_ffi_add_one_cpu, host_x, false, 0.0), host_x);

    for (double factor : factors) {
      CAPTURE(factor);
      REQUIRE(Call(__tvm_ffi_scale_cuda, nullptr, x, y, factor) == 0);
      REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
      CheckSame(Download(y), CpuRef(__tvm_ffi_scale_cpu, host_x, true, factor), host_x);
    }

    // In place (x is also y), as a framework's add_ would call it.
    REQUIRE(Call(__tvm_ffi_add_one_cuda, nullptr, x, x) == 0);
    REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
    CheckSame(Download(x), CpuRef(__tvm_ffi_add_one_cpu, host_x, false, 0.0), host_x);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("the kernels are enqueued on the stream TVMFFIEnvGetStream returns") {
  AllocatorScope scope;
  StreamScope stream;
  Tensor x = DeviceTensor({4096});
  Tensor y = DeviceTensor({4096});
  std::vector<float> host_x = Inputs(4096);
  Upload(x, host_x);
  // Work captured from the stream becomes graph nodes instead of running;
  // a launch on any other stream would not be captured.
  REQUIRE(cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal) == cudaSuccess);
  const int rc1 = Call(__tvm_ffi_add_one_cuda, nullptr, x, y);
  const int rc2 = Call(__tvm_ffi_scale_cuda, nullptr, y, y, 0.5);
  cudaGraph_t graph = nullptr;
  REQUIRE(cudaStreamEndCapture(stream.get(), &graph) == cudaSuccess);
  CHECK(rc1 == 0);
  CHECK(rc2 == 0);
  size_t nodes = 0;
  REQUIRE(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  CHECK(nodes == 2);

  cudaGraphExec_t exec = nullptr;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, stream.get()) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
  std::vector<float> expected = CpuRef(__tvm_ffi_add_one_cpu, host_x, false, 0.0);
  expected = CpuRef(__tvm_ffi_scale_cpu, expected, true, 0.5);
  CheckSame(Download(y), expected, host_x);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
}

TEST_CASE("DeviceGuard makes a device current and restores the previous one") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  int before = -1;
  REQUIRE(cudaGetDevice(&before) == cudaSuccess);
  for (int target : {0, count - 1}) {
    {
      Expected<cuda::DeviceGuard> g = cuda::DeviceGuard::Create(target);
      REQUIRE(g.ok());
      CHECK(g->original_device() == before);
      int now = -1;
      REQUIRE(cudaGetDevice(&now) == cudaSuccess);
      CHECK(now == target);
      {
        cuda::DeviceGuard moved =
            std::move(g).value();  // the moved-from guard must not restore again
      }
      REQUIRE(cudaGetDevice(&now) == cudaSuccess);
      CHECK(now == before);
    }
    int after = -1;
    REQUIRE(cudaGetDevice(&after) == cudaSuccess);
    CHECK(after == before);
  }
  if (count > 1) {
    REQUIRE(cudaSetDevice(1) == cudaSuccess);
    {
      Expected<cuda::DeviceGuard> g = cuda::DeviceGuard::Create(0);
      REQUIRE(g.ok());
      int now = -1;
      REQUIRE(cudaGetDevice(&now) == cudaSuccess);
      CHECK(now == 0);
    }
    int now = -1;
    REQUIRE(cudaGetDevice(&now) == cudaSuccess);
    CHECK(now == 1);
    REQUIRE(cudaSetDevice(before) == cudaSuccess);
  } else {
    MESSAGE("one CUDA device: switching between two devices not tested");
  }

  Expected<cuda::DeviceGuard> bad = cuda::DeviceGuard::Create(count);
  CHECK_FALSE(bad.ok());
  TakenError e = TakeError();
  CHECK(e.kind == "RuntimeError");
  CHECK(Contains(e.message, "invalid device ordinal"));
  int now = -1;
  REQUIRE(cudaGetDevice(&now) == cudaSuccess);
  CHECK(now == before);
  CHECK(cudaGetLastError() == cudaSuccess);  // reported, so cleared
}

TEST_CASE("the alloc variants return CUDA tensors from DLPackTensorAlloc via FromEnvAlloc") {
  AllocatorScope scope;
  StreamScope stream;
  Tensor x = DeviceTensor({257, 3});
  std::vector<float> host_x = Inputs(x.numel());
  Upload(x, host_x);

  DLPackManagedTensorAllocator previous = nullptr;
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(nullptr, 0, &previous) == 0);
  CHECK(Call(__tvm_ffi_add_one_cuda_alloc, nullptr, x) != 0);
  CHECK(Contains(TakeError().message, "no allocator"));

  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&cuda::DLPackTensorAlloc, 0, nullptr) == 0);
  for (bool scale : {false, true}) {
    CAPTURE(scale);
    Any result;
    REQUIRE((scale ? Call(__tvm_ffi_scale_cuda_alloc, &result, x, -0.25)
                   : Call(__tvm_ffi_add_one_cuda_alloc, &result, x)) == 0);
    Expected<Tensor> y = result.As<Tensor>();
    REQUIRE(y.ok());
    CHECK(y->device().device_type == kDLCUDA);
    CHECK(y->device().device_id == kDevice);
    CHECK(y->ndim() == 2);
    CHECK(y->shape()[0] == 257);
    CHECK(y->shape()[1] == 3);
    cudaPointerAttributes attr{};
    REQUIRE(cudaPointerGetAttributes(&attr, y->data_ptr()) == cudaSuccess);
    CHECK(attr.type == cudaMemoryTypeDevice);
    CHECK(attr.device == kDevice);
    REQUIRE(cudaStreamSynchronize(stream.get()) == cudaSuccess);
    std::vector<float> expected = scale ? CpuRef(__tvm_ffi_scale_cpu, host_x, true, -0.25)
                                        : CpuRef(__tvm_ffi_add_one_cpu, host_x, false, 0.0);
    CheckSame(Download(y.value()), expected, host_x);
  }

  // Pinned host memory through the same allocator.
  Expected<Tensor> pinned = Tensor::FromEnvAlloc(x.shape(), kF32, DLDevice{kDLCUDAHost, 0});
  REQUIRE(pinned.ok());
  cudaPointerAttributes attr{};
  REQUIRE(cudaPointerGetAttributes(&attr, pinned->data_ptr()) == cudaSuccess);
  CHECK(attr.type == cudaMemoryTypeHost);
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(previous, 0, nullptr) == 0);
}

TEST_CASE("CudaNDAlloc gives device memory and frees it; a failed cudaMalloc is a MemoryError") {
  AllocatorScope scope;
  size_t free_before = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
  constexpr int64_t kBig = int64_t{256} << 20;  // bytes
  size_t free_during = 0;
  {
    Tensor t = DeviceTensor({kBig / 4});
    cudaPointerAttributes attr{};
    REQUIRE(cudaPointerGetAttributes(&attr, t.data_ptr()) == cudaSuccess);
    CHECK(attr.type == cudaMemoryTypeDevice);
    CHECK(attr.device == kDevice);
    REQUIRE(cudaMemGetInfo(&free_during, &total) == cudaSuccess);
    CHECK(free_during + kBig / 2 <= free_before);
  }
  size_t free_after = 0;
  REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
  CHECK(free_after >= free_during + kBig / 2);  // FreeData ran

  Tensor empty = DeviceTensor({0, 8});
  CHECK(empty.GetDLTensor()->data == nullptr);

  const int64_t huge[] = {int64_t{1} << 48};  // 1 PiB of float32
  Expected<Tensor> t = Tensor::FromNDAlloc(cuda::CudaNDAlloc{}, IntSpan{huge, 1}, kF32, kGPU);
  CHECK_FALSE(t.ok());
  TakenError e = TakeError();
  CHECK(e.kind == "MemoryError");
  CHECK(Contains(e.message, "CudaNDAlloc: cudaMalloc(1125899906842624) on CUDA device 0: "));
  CHECK(Contains(e.message, "cudaErrorMemoryAllocation"));
  CHECK(cudaGetLastError() == cudaSuccess);
}

TEST_CASE("the CUDA kernels refuse bad device tensors with clear errors and launch nothing") {
  AllocatorScope scope;
  Tensor x = DeviceTensor({4, 5});
  Tensor y = DeviceTensor({4, 5});
  Tensor yt = DeviceTensor({5, 4});
  Tensor f64 = DeviceTensor({4, 5}, kF64);
  REQUIRE(cudaMemset(y.data_ptr(), 0, 20 * sizeof(float)) == cudaSuccess);
  float host[20] = {};
  TensorDesc cpu_x(host, {4, 5}, kCPU);
  const int64_t view_shape[] = {5, 4};
  const int64_t view_strides[] = {1, 5};  // x transposed: not contiguous
  Expected<Tensor> xt = x.as_strided(IntSpan{view_shape, 2}, IntSpan{view_strides, 2});
  REQUIRE(xt.ok());

  CHECK(Call(__tvm_ffi_add_one_cuda, nullptr, cpu_x.get(), y) != 0);
  TakenError e = TakeError();
  CHECK(e.kind == "ValueError");
  CHECK(e.message == "add_one_cuda: x must be a CUDA tensor, got one on cpu:0");

  CHECK(Call(__tvm_ffi_add_one_cuda, nullptr, f64, y) != 0);
  e = TakeError();
  CHECK(e.kind == "TypeError");
  CHECK(e.message == "add_one_cuda: x must be float32, got float64");

  CHECK(Call(__tvm_ffi_scale_cuda, nullptr, x, yt, 2.0) != 0);
  e = TakeError();
  CHECK(e.kind == "ValueError");
  CHECK(e.message == "scale_cuda: y has shape [5, 4], x has shape [4, 5]");

  CHECK(Call(__tvm_ffi_add_one_cuda, nullptr, xt.value(), yt) != 0);
  CHECK(TakeError().message == "add_one_cuda: x must be contiguous");

  CHECK(Call(__tvm_ffi_add_one_cpu, nullptr, x, cpu_x.get()) != 0);
  CHECK(TakeError().message == "add_one_cpu: x must be a CPU tensor, got one on cuda:0");

  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  for (float v : Download(y)) CHECK(v == 0.0f);
}

#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

int g_env_frees = 0;

// A DLPack allocator of the kind a framework installs for kernel outputs.
int TestDLPackAlloc(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                    void (*set_error)(void*, const char*, const char*)) {
  if (prototype->device.device_type != kDLCPU) {
    set_error(error_ctx, "RuntimeError", "TestDLPackAlloc: CPU only");
    return -1;
  }
  struct Block {
    DLManagedTensorVersioned managed;
    int64_t shape[FFI_CORE_TENSOR_MAX_NDIM];
    float data[64];
  };
  Block* b = static_cast<Block*>(Allocate(*GetAllocator(), sizeof(Block), alignof(Block)));
  if (b == nullptr) {
    set_error(error_ctx, "MemoryError", "TestDLPackAlloc: out of memory");
    return -1;
  }
  b->managed = DLManagedTensorVersioned{};
  b->managed.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  b->managed.manager_ctx = b;
  b->managed.deleter = [](DLManagedTensorVersioned* self) {
    Deallocate(*GetAllocator(), self->manager_ctx, sizeof(Block), alignof(Block));
    ++g_env_frees;
  };
  b->managed.dl_tensor = *prototype;
  for (int32_t i = 0; i < prototype->ndim; ++i) b->shape[i] = prototype->shape[i];
  b->managed.dl_tensor.shape = b->shape;
  b->managed.dl_tensor.strides = nullptr;
  b->managed.dl_tensor.data = b->data;
  *out = &b->managed;
  return 0;
}

}  // namespace

TEST_CASE("the stream table is per device type and id") {
  int s1 = 0, s2 = 0;
  TVMFFIStreamHandle previous = reinterpret_cast<void*>(1);
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 0, &s1, &previous) == 0);
  CHECK(previous == nullptr);
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 1, &s2, nullptr) == 0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == &s1);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1) == &s2);
  CHECK(TVMFFIEnvGetStream(kDLCPU, 0) == nullptr);
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 0, nullptr, &previous) == 0);
  CHECK(previous == &s1);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == nullptr);
  REQUIRE(TVMFFIEnvSetStream(kDLCUDA, 1, nullptr, nullptr) == 0);
}

TEST_CASE("a full stream table is an error, not an overwrite") {
  int streams[FFI_CORE_STREAM_TABLE_CAPACITY + 1];
  for (int i = 0; i < FFI_CORE_STREAM_TABLE_CAPACITY; ++i) {
    REQUIRE(TVMFFIEnvSetStream(kDLCUDA, i, &streams[i], nullptr) == 0);
  }
  CHECK(TVMFFIEnvSetStream(kDLCUDA, 99, &streams[FFI_CORE_STREAM_TABLE_CAPACITY], nullptr) != 0);
  CHECK(Contains(TakeError().message, "stream table full"));
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == &streams[0]);
  for (int i = 0; i < FFI_CORE_STREAM_TABLE_CAPACITY; ++i) {
    REQUIRE(TVMFFIEnvSetStream(kDLCUDA, i, nullptr, nullptr) == 0);
  }
  CHECK(TVMFFIEnvSetStream(-1, 0, nullptr, nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("TVMFFIEnvTensorAlloc and FromEnvAlloc use the installed DLPack allocator") {
  AllocatorScope scope;
  int64_t shape[] = {2, 3};
  DLTensor proto{};
  proto.device = DLDevice{kDLCPU, 0};
  proto.ndim = 2;
  proto.dtype = DLDataType{kDLFloat, 32, 1};
  proto.shape = shape;
  TVMFFIObjectHandle out = nullptr;
  CHECK(TVMFFIEnvTensorAlloc(&proto, &out) != 0);
  CHECK(Contains(TakeError().message, "no allocator"));

  DLPackManagedTensorAllocator previous = nullptr;
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(&TestDLPackAlloc, 0, &previous) == 0);
  CHECK((TVMFFIEnvGetDLPackManagedTensorAllocator() == &TestDLPackAlloc));
  g_env_frees = 0;
  REQUIRE(TVMFFIEnvTensorAlloc(&proto, &out) == 0);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(out);
  CHECK(t->ndim == 2);
  CHECK(t->shape[1] == 3);
  CHECK(TVMFFIObjectDecRef(out) == 0);
  CHECK(g_env_frees == 1);

  Expected<Tensor> t2 = Tensor::FromEnvAlloc(IntSpan{shape, 2}, proto.dtype, DLDevice{kDLCUDA, 0});
  CHECK_FALSE(t2.ok());
  TakenError e = TakeError();
  CHECK(e.kind == "RuntimeError");
  CHECK(e.message == "TestDLPackAlloc: CPU only");
  REQUIRE(TVMFFIEnvSetDLPackManagedTensorAllocator(previous, 0, nullptr) == 0);
}

TEST_CASE("signal checks call the frontend's hook") {
  CHECK(TVMFFIEnvCheckSignals() == 0);
  static int raised = 0;
  REQUIRE(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals",
                                reinterpret_cast<void*>(+[]() -> int { return raised; })) == 0);
  CHECK(TVMFFIEnvCheckSignals() == 0);
  raised = 1;
  CHECK(TVMFFIEnvCheckSignals() == -1);
  REQUIRE(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", nullptr) == 0);
  CHECK(TVMFFIEnvRegisterCAPI("NoSuchApi", nullptr) != 0);
  CHECK(TakeError().kind == "ValueError");
}

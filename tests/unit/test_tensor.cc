#include "test_support.h"

using namespace ffi_core;
using namespace ffi_core_test;

namespace {

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDevice kCPU{kDLCPU, 0};

// An NDAlloc over ffi-core's installed allocator, counting its frees.
struct HeapAlloc {
  int* frees;
  Status AllocData(DLTensor* t) {
    size_t bytes =
        static_cast<size_t>(detail::Numel(*t)) * ((t->dtype.bits * t->dtype.lanes + 7) / 8);
    t->data = Allocate(*GetAllocator(), bytes == 0 ? 1 : bytes, 64);
    if (t->data == nullptr)
      return RaiseError(ErrorKind::kMemoryError, {"HeapAlloc: out of memory"});
    bytes_ = bytes == 0 ? 1 : bytes;
    return Status::Ok();
  }
  void FreeData(DLTensor* t) {
    Deallocate(*GetAllocator(), t->data, bytes_, 64);
    if (frees != nullptr) ++*frees;
  }
  size_t bytes_ = 0;
};

// A DLPack producer over a static buffer, recording its deleter calls.
struct Producer {
  float data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  int64_t shape[2] = {3, 4};
  int deleted = 0;
  DLManagedTensor managed{};
  DLManagedTensorVersioned versioned{};

  Producer() {
    DLTensor t{};
    t.data = data;
    t.device = kCPU;
    t.ndim = 2;
    t.dtype = kF32;
    t.shape = shape;
    managed.dl_tensor = t;
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<Producer*>(self->manager_ctx)->deleted;
    };
    versioned.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    versioned.dl_tensor = t;
    versioned.manager_ctx = this;
    versioned.deleter = [](DLManagedTensorVersioned* self) {
      ++static_cast<Producer*>(self->manager_ctx)->deleted;
    };
  }
};

}  // namespace

TEST_CASE("a Tensor object is the header followed by a DLTensor") {
  AllocatorScope scope;
  int frees = 0;
  const int64_t shape[] = {2, 3};
  Expected<Tensor> t = Tensor::FromNDAlloc(HeapAlloc{&frees}, IntSpan{shape, 2}, kF32, kCPU);
  REQUIRE(t.ok());
  TVMFFIObject* h = t->object().header();
  CHECK(h->type_index == kTVMFFITensor);
  CHECK(TVMFFITensorGetDLTensorPtr(h) == t->GetDLTensor());
  CHECK(t->dim() == 2);
  CHECK(t->numel() == 6);
  CHECK(t->size(0).value() == 2);
  CHECK(t->size(-1).value() == 3);
  CHECK(t->stride(0).value() == 3);
  CHECK(t->stride(1).value() == 1);
  CHECK(t->is_contiguous());
  CHECK(t->dtype().bits == 32);
  CHECK(t->device().device_type == kDLCPU);
  CHECK(reinterpret_cast<uintptr_t>(t->data_ptr()) % 64 == 0);
  CHECK_FALSE(t->size(2).ok());
  CHECK(TakeError().kind == "IndexError");
  t = Tensor();
  CHECK(frees == 1);
}

TEST_CASE("bad tensor metadata is refused with clear errors") {
  AllocatorScope scope;
  const int64_t negative[] = {2, -1};
  Expected<Tensor> t = Tensor::FromNDAlloc(HeapAlloc{nullptr}, IntSpan{negative, 2}, kF32, kCPU);
  CHECK_FALSE(t.ok());
  CHECK(Contains(TakeError().message, "negative size -1 at axis 1"));

  int64_t deep[FFI_CORE_TENSOR_MAX_NDIM + 1];
  for (int64_t& d : deep) d = 1;
  t = Tensor::FromNDAlloc(HeapAlloc{nullptr}, IntSpan{deep, FFI_CORE_TENSOR_MAX_NDIM + 1}, kF32,
                          kCPU);
  CHECK_FALSE(t.ok());
  CHECK(Contains(TakeError().message, "ndim"));

  const int64_t ok_shape[] = {4};
  t = Tensor::FromNDAlloc(HeapAlloc{nullptr}, IntSpan{ok_shape, 1}, DLDataType{kDLFloat, 0, 1},
                          kCPU);
  CHECK_FALSE(t.ok());
  CHECK(Contains(TakeError().message, "zero bits"));
}

TEST_CASE("an allocator failure leaves nothing behind") {
  AllocatorScope scope;
  struct Failing {
    Status AllocData(DLTensor*) { return RaiseError(ErrorKind::kMemoryError, {"device full"}); }
    void FreeData(DLTensor*) {}
  };
  const int64_t shape[] = {4};
  Expected<Tensor> t = Tensor::FromNDAlloc(Failing{}, IntSpan{shape, 1}, kF32, kCPU);
  CHECK_FALSE(t.ok());
  CHECK(TakeError().message == "device full");

  struct NullData {
    Status AllocData(DLTensor* d) {
      d->data = nullptr;
      return Status::Ok();
    }
    void FreeData(DLTensor*) {}
  };
  t = Tensor::FromNDAlloc(NullData{}, IntSpan{shape, 1}, kF32, kCPU);
  CHECK_FALSE(t.ok());
  CHECK(Contains(TakeError().message, "NULL data"));
}

TEST_CASE("FromDLPack takes ownership and calls the deleter once") {
  AllocatorScope scope;
  Producer p;
  {
    Expected<Tensor> t = Tensor::FromDLPack(&p.managed, 4, true);
    REQUIRE(t.ok());
    CHECK(t->data_ptr() == p.data);
    CHECK(t->numel() == 12);
    // Strides are filled in even though the producer gave none.
    CHECK(t->strides().size == 2);
    CHECK(t->strides()[0] == 4);
    CHECK(p.deleted == 0);
  }
  CHECK(p.deleted == 1);
  {
    Expected<Tensor> t = Tensor::FromDLPackVersioned(&p.versioned);
    REQUIRE(t.ok());
  }
  CHECK(p.deleted == 2);
}

TEST_CASE("FromDLPack checks alignment, contiguity, data and version; caller keeps it on failure") {
  AllocatorScope scope;
  Producer p;
  p.managed.dl_tensor.byte_offset = 2;
  CHECK_FALSE(Tensor::FromDLPack(&p.managed, 4, false).ok());
  CHECK(Contains(TakeError().message, "aligned to 4"));
  p.managed.dl_tensor.byte_offset = 0;

  int64_t strides[2] = {1, 3};  // column-major
  p.managed.dl_tensor.strides = strides;
  CHECK_FALSE(Tensor::FromDLPack(&p.managed, 0, true).ok());
  CHECK(Contains(TakeError().message, "not contiguous"));
  p.managed.dl_tensor.strides = nullptr;

  p.managed.dl_tensor.data = nullptr;
  CHECK_FALSE(Tensor::FromDLPack(&p.managed).ok());
  CHECK(Contains(TakeError().message, "NULL data with 12 elements"));

  p.versioned.version.major = DLPACK_MAJOR_VERSION + 1;
  CHECK_FALSE(Tensor::FromDLPackVersioned(&p.versioned).ok());
  CHECK(Contains(TakeError().message, "major version"));
  CHECK(p.deleted == 0);

  CHECK_FALSE(Tensor::FromDLPack(nullptr).ok());
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("ToDLPack shares memory and keeps the tensor alive") {
  AllocatorScope scope;
  int frees = 0;
  const int64_t shape[] = {5};
  Expected<Tensor> t = Tensor::FromNDAlloc(HeapAlloc{&frees}, IntSpan{shape, 1}, kF32, kCPU);
  REQUIRE(t.ok());
  Expected<DLManagedTensor*> m = t->ToDLPack();
  REQUIRE(m.ok());
  Expected<DLManagedTensorVersioned*> v = t->ToDLPackVersioned();
  REQUIRE(v.ok());
  CHECK(v.value()->version.major == DLPACK_MAJOR_VERSION);
  CHECK(m.value()->dl_tensor.data == t->GetDLTensor()->data);
  CHECK(t->object().use_count() == 3);
  t = Tensor();
  CHECK(frees == 0);
  m.value()->deleter(m.value());
  CHECK(frees == 0);
  v.value()->deleter(v.value());
  CHECK(frees == 1);
}

TEST_CASE("DLPack round trip through the C API") {
  AllocatorScope scope;
  Producer p;
  TVMFFIObjectHandle h = nullptr;
  REQUIRE(TVMFFITensorFromDLPack(&p.managed, 0, 1, &h) == 0);
  DLManagedTensorVersioned* out = nullptr;
  REQUIRE(TVMFFITensorToDLPackVersioned(h, &out) == 0);
  CHECK(out->dl_tensor.data == p.data);
  CHECK(TVMFFIObjectDecRef(h) == 0);
  CHECK(p.deleted == 0);
  out->deleter(out);
  CHECK(p.deleted == 1);

  CHECK(TVMFFITensorFromDLPack(&p.managed, -1, 0, &h) != 0);
  CHECK(TakeError().kind == "ValueError");
  DLManagedTensor* m = nullptr;
  CHECK(TVMFFITensorToDLPack(nullptr, &m) != 0);
  CHECK(TakeError().kind == "ValueError");
  TVMFFIByteArray s{"not a tensor at all", 19};
  TVMFFIAny str = NoneAny();
  REQUIRE(TVMFFIStringFromByteArray(&s, &str) == 0);
  CHECK(TVMFFITensorToDLPack(str.v_obj, &m) != 0);
  CHECK(TakeError().kind == "TypeError");
  CHECK(TVMFFIObjectDecRef(str.v_obj) == 0);
}

TEST_CASE("as_strided and unsafe views share memory and bounds are checked") {
  AllocatorScope scope;
  Producer p;
  Expected<Tensor> t = Tensor::FromDLPack(&p.managed);
  REQUIRE(t.ok());
  // Column 1 of the 3x4 matrix: 3 elements with stride 4 from offset 1.
  const int64_t shape[] = {3};
  const int64_t strides[] = {4};
  Expected<Tensor> col = t->as_strided(IntSpan{shape, 1}, IntSpan{strides, 1}, 1);
  REQUIRE(col.ok());
  const float* first = static_cast<const float*>(col->data_ptr());
  CHECK(first[0] == 1.0f);
  CHECK(first[8] == 9.0f);
  CHECK_FALSE(col->is_contiguous());

  const int64_t too_far[] = {4};
  CHECK_FALSE(t->as_strided(IntSpan{too_far, 1}, IntSpan{strides, 1}, 1).ok());
  CHECK(Contains(TakeError().message, "reaches element"));

  t = Tensor();
  CHECK(p.deleted == 0);  // the view keeps the source alive
  DLTensor proto = *col->GetDLTensor();
  TVMFFIObjectHandle view = nullptr;
  REQUIRE(TVMFFITensorCreateUnsafeView(col->object().get(), &proto, &view) == 0);
  col = Tensor();
  CHECK(p.deleted == 0);
  CHECK(TVMFFIObjectDecRef(view) == 0);
  CHECK(p.deleted == 1);
}

TEST_CASE("TensorView reads a DLTensor* or a Tensor from an argument") {
  AllocatorScope scope;
  Producer p;
  DLTensor* raw = &p.managed.dl_tensor;
  TensorView v;
  CHECK(AnyView(raw).TryAs(&v) == Conversion::kOk);
  CHECK(v.numel() == 12);
  CHECK(v.stride(0).value() == 4);  // computed: the DLTensor has no strides
  Expected<Tensor> t = Tensor::FromDLPack(&p.managed);
  REQUIRE(t.ok());
  CHECK(AnyView(*t).TryAs(&v) == Conversion::kOk);
  CHECK(v.GetDLTensor() == t->GetDLTensor());
  CHECK(AnyView(3).TryAs(&v) == Conversion::kMismatch);
}

TEST_CASE("Shape objects") {
  AllocatorScope scope;
  const int64_t dims[] = {1, 2, 3};
  Expected<Shape> s = Shape::FromDims(dims, 3);
  REQUIRE(s.ok());
  CHECK(s->object()->header.type_index == kTVMFFIShape);
  CHECK(TVMFFIShapeGetCellPtr(s->object().get())->size == 3);
  CHECK((*s)[2] == 3);
}

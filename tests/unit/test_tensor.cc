#include <cstdint>
#include <cstdlib>

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
  // data_ptr is DLTensor::data, as upstream's; the offset is separate.
  CHECK(col->data_ptr() == t->data_ptr());
  CHECK(col->dl_tensor()->byte_offset == sizeof(float));
  const float* first = static_cast<const float*>(col->data_with_offset());
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

namespace {

DLManagedTensor MakeManaged(void* data, int64_t* shape, int32_t ndim, int64_t* strides,
                            uint64_t byte_offset, int* deleted) {
  DLManagedTensor m{};
  m.dl_tensor.data = data;
  m.dl_tensor.device = kCPU;
  m.dl_tensor.ndim = ndim;
  m.dl_tensor.dtype = kF32;
  m.dl_tensor.shape = shape;
  m.dl_tensor.strides = strides;
  m.dl_tensor.byte_offset = byte_offset;
  m.manager_ctx = deleted;
  m.deleter = [](DLManagedTensor* self) { ++*static_cast<int*>(self->manager_ctx); };
  return m;
}

// The import must fail with a ValueError and leave the producer's tensor alone.
void CheckImportRefused(DLManagedTensor* m, const int* deleted) {
  TVMFFIObjectHandle out = nullptr;
  CHECK(TVMFFITensorFromDLPack(m, 0, 0, &out) != 0);
  CHECK(out == nullptr);
  CHECK(*deleted == 0);
  TakenError t = TakeError();
  CHECK(t.kind == "ValueError");
  CHECK(Contains(t.message, "does not fit in 64 bits"));
}

}  // namespace

TEST_CASE("shapes, strides and offsets whose byte extent overflows are refused") {
  AllocatorScope scope;
  float buf[4] = {};
  int deleted = 0;
  int64_t huge[2] = {int64_t{1} << 62, 4};  // 2^64 elements: the count overflows
  DLManagedTensor a = MakeManaged(nullptr, huge, 2, nullptr, 0, &deleted);
  CheckImportRefused(&a, &deleted);
  int64_t empty_huge[3] = {0, int64_t{1} << 62, 4};  // no element, but the strides overflow
  DLManagedTensor b = MakeManaged(nullptr, empty_huge, 3, nullptr, 0, &deleted);
  CheckImportRefused(&b, &deleted);
  int64_t bytes_huge[1] = {int64_t{1} << 62};  // fits in elements, not in bytes
  DLManagedTensor c = MakeManaged(buf, bytes_huge, 1, nullptr, 0, &deleted);
  CheckImportRefused(&c, &deleted);
  int64_t two[2] = {2, 2};
  int64_t wild_strides[2] = {INT64_MAX, 1};
  DLManagedTensor d = MakeManaged(buf, two, 2, wild_strides, 0, &deleted);
  CheckImportRefused(&d, &deleted);
  int64_t min_strides[2] = {INT64_MIN, 1};
  DLManagedTensor e = MakeManaged(buf, two, 2, min_strides, 0, &deleted);
  CheckImportRefused(&e, &deleted);
  int64_t one[1] = {1};
  DLManagedTensor f = MakeManaged(buf, one, 1, nullptr, UINT64_MAX, &deleted);
  CheckImportRefused(&f, &deleted);

  int64_t big[2] = {int64_t{1} << 40, int64_t{1} << 40};
  CHECK_FALSE(Tensor::FromNDAlloc(HeapAlloc{nullptr}, IntSpan{big, 2}, kF32, kCPU).ok());
  CHECK(TakeError().kind == "ValueError");

  int64_t four[1] = {4};
  DLManagedTensor g = MakeManaged(buf, four, 1, nullptr, 0, &deleted);
  Expected<Tensor> t = Tensor::FromDLPack(&g);
  REQUIRE(t.ok());
  int64_t zero[1] = {0};
  int64_t unit[1] = {1};
  // An empty view at an element offset whose byte offset overflows.
  CHECK_FALSE(t->as_strided(IntSpan{zero, 1}, IntSpan{unit, 1}, INT64_MAX / 2).ok());
  CHECK(TakeError().kind == "ValueError");
  int64_t two_elems[1] = {2};
  int64_t far[1] = {INT64_MAX / 2};
  CHECK_FALSE(t->as_strided(IntSpan{two_elems, 1}, IntSpan{far, 1}, 0).ok());
  CHECK(TakeError().kind == "ValueError");
  DLTensor proto = g.dl_tensor;
  proto.shape = huge;
  proto.ndim = 2;
  CHECK_FALSE(Tensor::UnsafeView(*t, proto).ok());
  CHECK(TakeError().kind == "ValueError");
}

TEST_CASE("a borrowed view of unchecked metadata answers numel without overflow") {
  int64_t huge[3] = {int64_t{1} << 62, 4, 4};
  DLTensor raw{};
  raw.ndim = 3;
  raw.dtype = kF32;
  raw.shape = huge;
  TensorView v(&raw);
  CHECK(v.numel() == INT64_MAX);  // saturated, not wrapped
  CHECK(v.is_contiguous());
  Expected<int64_t> s0 = v.stride(0);
  REQUIRE(s0.ok());
  CHECK(*s0 == 16);
}

namespace {

int g_export_live = 0;
void ExportDeleteSpace(void* body) {
  --g_export_live;
  std::free(static_cast<char*>(body) - 16);
}
void* ExportAllocate(size_t size, size_t alignment, int32_t, void*) {
  if (alignment > 16) return nullptr;
  char* body = static_cast<char*>(std::malloc(size + 16)) + 16;
  reinterpret_cast<TVMFFIObjectAllocHeader*>(body - sizeof(TVMFFIObjectAllocHeader))->delete_space =
      &ExportDeleteSpace;
  ++g_export_live;
  return body;
}

}  // namespace

TEST_CASE("ToDLPack allocates its struct through the installed TVMFFICustomAllocator") {
  Allocator* previous = GetAllocator();
  SetAllocator(nullptr);  // a C user who installed only the custom allocator
  TVMFFICustomAllocator custom{&ExportAllocate, nullptr};
  REQUIRE(TVMFFISetCustomAllocator(&custom) == 0);
  Producer p;
  TVMFFIObjectHandle tensor = nullptr;
  REQUIRE(TVMFFITensorFromDLPack(&p.managed, 0, 0, &tensor) == 0);
  CHECK(g_export_live == 1);
  DLManagedTensor* exported = nullptr;
  REQUIRE(TVMFFITensorToDLPack(tensor, &exported) == 0);
  DLManagedTensorVersioned* exported_v = nullptr;
  REQUIRE(TVMFFITensorToDLPackVersioned(tensor, &exported_v) == 0);
  CHECK(g_export_live == 3);
  CHECK(exported->dl_tensor.data == p.data);
  exported->deleter(exported);
  exported_v->deleter(exported_v);
  CHECK(g_export_live == 1);
  CHECK(TVMFFIObjectDecRef(tensor) == 0);
  CHECK(g_export_live == 0);
  CHECK(p.deleted == 1);
  REQUIRE(TVMFFISetCustomAllocator(nullptr) == 0);
  SetAllocator(previous);
}

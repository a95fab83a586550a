// DLPack import/export and views through the C API, with fuzzed metadata.
// Properties: an import either fails (ValueError/MemoryError, the producer's
// deleter not called, the caller still owns it) or yields a tensor whose
// element count and byte extent fit in 64 bits; exports and views share and
// keep it alive; an accepted as_strided view stays inside the source; the
// producer's deleter runs exactly once; reading unchecked metadata through a
// TensorView is defined behaviour; nothing leaks.
#include "fuzz_support.h"

using namespace ffi_core;
using namespace ffi_core_fuzz;

namespace {

constexpr int kMaxDims = FFI_CORE_TENSOR_MAX_NDIM + 2;  // a few past the limit

// Mostly small numbers (the interesting edges), sometimes any 64-bit value.
int64_t TakeDim(Input& in) {
  const uint8_t sel = in.Take<uint8_t>();
  if ((sel & 0xc0) == 0xc0) return in.Take<int64_t>();
  return static_cast<int64_t>(sel & 0x3f) - 4;
}

struct Meta {
  int64_t shape[kMaxDims];
  int64_t strides[kMaxDims];
  DLTensor t{};
};

void TakeMeta(Input& in, void* data, Meta* m) {
  const uint8_t flags = in.Take<uint8_t>();
  m->t.ndim = static_cast<int32_t>(in.Take<uint8_t>() % (kMaxDims + 1)) - ((flags & 0x80) ? 1 : 0);
  const int32_t n = m->t.ndim < 0 ? 0 : m->t.ndim;
  for (int32_t i = 0; i < n; ++i) m->shape[i] = TakeDim(in);
  for (int32_t i = 0; i < n; ++i) m->strides[i] = TakeDim(in);
  m->t.shape = (flags & 1) ? nullptr : m->shape;
  m->t.strides = (flags & 2) ? m->strides : nullptr;
  m->t.data = (flags & 4) ? nullptr : data;
  m->t.byte_offset = (flags & 8) ? in.Take<uint64_t>() : in.Take<uint8_t>();
  m->t.dtype.code = in.Take<uint8_t>() % 8;
  m->t.dtype.bits =
      (flags & 0x10) ? in.Take<uint8_t>() : static_cast<uint8_t>(8 << (flags >> 5 & 3));
  m->t.dtype.lanes = (flags & 0x40) ? in.Take<uint16_t>() : 1;
  m->t.device = DLDevice{kDLCPU, 0};
}

int g_deleted = 0;

// The furthest element a validated tensor addresses (-1 when empty).
__int128 LastElement(const DLTensor& t) {
  __int128 last = 0;
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] == 0) return -1;
    last += static_cast<__int128>(t.shape[i] - 1) * t.strides[i];
  }
  return last;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  CountedRun run;
  Input in(data, size);
  alignas(64) static float buffer[64];
  Meta meta;
  TakeMeta(in, buffer, &meta);

  // Unchecked metadata through a borrowed view: answers, no UB.
  if (meta.t.ndim >= 0 && meta.t.shape != nullptr) {
    TensorView view(&meta.t);
    static_cast<void>(view.numel());
    static_cast<void>(view.is_contiguous());
    for (int32_t i = 0; i < meta.t.ndim; ++i) {
      Expected<int64_t> s = view.stride(i);
      FUZZ_CHECK(s.ok());
    }
  }

  DLManagedTensor managed{};
  managed.dl_tensor = meta.t;
  managed.deleter = [](DLManagedTensor*) { ++g_deleted; };
  g_deleted = 0;
  const int32_t align = static_cast<int32_t>(in.Take<uint8_t>() % 130) - 1;
  const int32_t contiguous = in.Take<uint8_t>() & 1;
  TVMFFIObjectHandle handle = nullptr;
  if (TVMFFITensorFromDLPack(&managed, align, contiguous, &handle) != 0) {
    FUZZ_CHECK(handle == nullptr && g_deleted == 0);
    TakeRaisedError();
    return 0;
  }
  Tensor t(ObjectPtr<TensorObj>::Adopt(static_cast<TensorObj*>(handle)));
  const DLTensor& dl = *t.GetDLTensor();
  FUZZ_CHECK(dl.ndim == 0 || dl.strides != nullptr);
  int64_t count = 1;
  int64_t bytes = detail::ElementBytes(dl.dtype);
  for (int32_t i = 0; i < dl.ndim; ++i) {
    FUZZ_CHECK(dl.shape[i] >= 0);
    FUZZ_CHECK(!__builtin_mul_overflow(count, dl.shape[i], &count));
    if (dl.shape[i] != 0) FUZZ_CHECK(!__builtin_mul_overflow(bytes, dl.shape[i], &bytes));
  }
  FUZZ_CHECK(t.numel() == count);
  if (contiguous) FUZZ_CHECK(t.is_contiguous());

  DLManagedTensor* exported = nullptr;
  if (TVMFFITensorToDLPack(handle, &exported) == 0) {
    FUZZ_CHECK(exported->dl_tensor.data == dl.data);
    exported->deleter(exported);
  } else {
    TakeRaisedError();
  }

  // A fuzzed view of the tensor: accepted only inside the source.
  Meta view_meta;
  TakeMeta(in, buffer, &view_meta);
  const int64_t offset = TakeDim(in);
  if (view_meta.t.ndim >= 0) {
    Expected<Tensor> v = t.as_strided(IntSpan{view_meta.t.shape, view_meta.t.ndim},
                                      IntSpan{view_meta.t.strides, view_meta.t.ndim}, offset);
    if (v.ok()) {
      const __int128 view_last = LastElement(*v->GetDLTensor());
      if (view_last >= 0) FUZZ_CHECK(view_last + offset <= LastElement(dl));
      FUZZ_CHECK(v->GetDLTensor()->data == dl.data);
    } else {
      TakeRaisedError();
    }
  }
  TVMFFIObjectHandle unsafe = nullptr;
  if (TVMFFITensorCreateUnsafeView(handle, &view_meta.t, &unsafe) == 0) {
    FUZZ_CHECK(TVMFFIObjectDecRef(unsafe) == 0);
  } else {
    TakeRaisedError();
  }
  FUZZ_CHECK(g_deleted == 0);
  t = Tensor();
  FUZZ_CHECK(g_deleted == 1);
  return 0;
}

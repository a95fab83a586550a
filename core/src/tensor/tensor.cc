#include <ffi_core/allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <type_traits>

namespace ffi_core {
namespace detail {

namespace {

// a * b without signed overflow: saturates at INT64_MAX. Tensors that passed
// CheckTensorMetadata never saturate; borrowed views of unchecked
// DLTensors get a wrong but defined answer instead of undefined behaviour.
int64_t MulSat(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

[[gnu::cold, gnu::noinline]] Status ExtentError(const char* who, const char* what) {
  return RaiseError(ErrorKind::kValueError, {who, ": ", what, " does not fit in 64 bits"});
}

}  // namespace

int64_t ElementBytes(DLDataType dtype) {
  return (static_cast<int64_t>(dtype.bits) * dtype.lanes + 7) / 8;
}

int64_t Numel(const DLTensor& t) {
  int64_t n = 1;
  for (int32_t i = 0; i < t.ndim; ++i) n = MulSat(n, t.shape[i]);
  return n;
}

int64_t ContiguousStride(const DLTensor& t, int32_t axis) {
  int64_t s = 1;
  for (int32_t i = t.ndim - 1; i > axis; --i) s = MulSat(s, t.shape[i]);
  return s;
}

bool IsContiguous(const DLTensor& t) {
  if (t.strides == nullptr) return true;
  int64_t expected = 1;
  for (int32_t i = t.ndim - 1; i >= 0; --i) {
    // Size-1 axes may carry any stride.
    if (t.shape[i] != 1 && t.strides[i] != expected) return false;
    expected = MulSat(expected, t.shape[i]);
  }
  return true;
}

Status CheckAxis(int64_t i, int32_t ndim, int64_t* axis) {
  const int64_t a = i < 0 ? i + ndim : i;
  if (a < 0 || a >= ndim) {
    return RaiseError(ErrorKind::kIndexError,
                      {"axis ", i, " out of range for a tensor of rank ", ndim});
  }
  *axis = a;
  return Status::Ok();
}

namespace {

[[gnu::cold, gnu::noinline]] Status RankError(const char* who, int32_t ndim) {
  if (ndim < 0 || ndim > FFI_CORE_TENSOR_MAX_NDIM) {
    return RaiseError(ErrorKind::kValueError,
                      {who, ": ndim ", ndim, " outside [0, ", FFI_CORE_TENSOR_MAX_NDIM, "]"});
  }
  return RaiseError(ErrorKind::kValueError, {who, ": NULL shape"});
}

// CheckLayout's refusals, in this order (its pass stops at the first
// problem it meets, from the last axis): `overflow` when the sizes' product
// in bytes was seen to overflow.
[[gnu::cold, gnu::noinline]] Status LayoutError(const char* who, const DLTensor& t, bool overflow) {
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] < 0) {
      return RaiseError(ErrorKind::kValueError,
                        {who, ": negative size ", t.shape[i], " at axis ", i});
    }
  }
  if (ElementBytes(t.dtype) == 0) {
    return RaiseError(ErrorKind::kValueError, {who, ": dtype with zero bits or lanes"});
  }
  if (overflow) return ExtentError(who, "the shape's size in bytes");
  if (t.byte_offset > static_cast<uint64_t>(INT64_MAX)) return ExtentError(who, "byte_offset");
  return ExtentError(who, "the strided extent");
}

// Before anything is sized by ndim or read through shape.
inline Status CheckRank(const char* who, int32_t ndim, const int64_t* shape) {
  if (static_cast<uint32_t>(ndim) > FFI_CORE_TENSOR_MAX_NDIM || (shape == nullptr && ndim != 0)) {
    return RankError(who, ndim);
  }
  return Status::Ok();
}

// The product of the non-zero sizes, in bytes, fits in int64_t: CheckLayout
// asks when a zero size left its product of all sizes at 0.
[[gnu::noinline]] bool NonZeroSizesFit(const DLTensor& t) {
  int64_t bytes = ElementBytes(t.dtype);
  for (int32_t i = 0; i < t.ndim; ++i) {
    if (t.shape[i] != 0 && __builtin_mul_overflow(bytes, t.shape[i], &bytes)) return false;
  }
  return true;
}

// The end of CheckLayout: `count` is the sizes' product, `far` whether
// the strided extent overflowed.
inline Status CheckLayoutTotals(const char* who, const DLTensor& t, int64_t count, bool far) {
  // 0 exactly when bits or lanes are.
  const int64_t elem_bytes = ElementBytes(t.dtype);
  int64_t bytes = 0;
  if (count == 0) {
    if (!NonZeroSizesFit(t)) return LayoutError(who, t, true);
  } else if (__builtin_mul_overflow(count, elem_bytes, &bytes)) {
    return LayoutError(who, t, true);
  }
  if (elem_bytes == 0 || t.byte_offset > static_cast<uint64_t>(INT64_MAX) || far) {
    return LayoutError(who, t, false);
  }
  return Status::Ok();
}

// CheckLayout with strides: out of line, so the compact path's callers
// keep a small frame; one copy for both uses (copy NULL: check only), as
// strided imports are rare and firmware pays for every instance.
[[gnu::noinline]] Status CheckStridedLayout(const char* who, const DLTensor& t, int64_t* copy) {
  const int32_t ndim = t.ndim;
  const int64_t* shape = t.shape;
  int64_t count = 1;
  // (size - 1) * |stride| summed over the axes; nothing is addressed when
  // a size is 0, so then the strides are not bounded.
  bool far = false;
  int64_t span = 0;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    const int64_t s = shape[i];
    const int64_t stride = t.strides[i];
    if (copy != nullptr) {
      copy[i] = s;
      copy[ndim + i] = stride;
    }
    if (s < 0 || __builtin_mul_overflow(count, s, &count)) return LayoutError(who, t, s >= 0);
    int64_t step = 0;
    far |= stride == INT64_MIN ||
           __builtin_mul_overflow(s - 1, stride < 0 ? -stride : stride, &step) ||
           __builtin_add_overflow(span, step, &span);
  }
  // A byte_offset beyond int64_t is refused on its own (masked here).
  far = count != 0 &&
        (far || __builtin_mul_overflow(span, ElementBytes(t.dtype), &span) ||
         __builtin_add_overflow(span, static_cast<int64_t>(t.byte_offset & INT64_MAX), &span));
  return CheckLayoutTotals(who, t, count, far);
}

// The layout checks after CheckRank, in one pass from the last axis that
// also writes shape and then strides to `copy` unless it is NULL (compact
// strides where t.strides is NULL), as CheckStridedLayout does; inlined,
// the test folds away at both call sites. Refused: a negative size, zero bits or lanes,
// a product of the non-zero sizes in bytes beyond int64_t (every element
// count and compact stride is bounded by it), a byte_offset beyond it and,
// with strides, a furthest element beyond it in bytes.
[[gnu::always_inline]] inline Status CheckLayout(const char* who, const DLTensor& t,
                                                 int64_t* copy) {
  if (t.strides != nullptr) return CheckStridedLayout(who, t, copy);
  // Pointer-sized: the loop's decrement sets the flags its test needs.
  const ptrdiff_t ndim = t.ndim;
  const int64_t* shape = t.shape;
  // The product of the sizes (the element count): it overflows only if
  // the non-zero sizes' product does.
  int64_t count = 1;
  for (ptrdiff_t i = ndim - 1; i >= 0; --i) {
    const int64_t s = shape[i];
    if (copy != nullptr) {
      copy[i] = s;
      copy[ndim + i] = count;
    }
    if (s < 0 || __builtin_mul_overflow(count, s, &count)) return LayoutError(who, t, s >= 0);
  }
  return CheckLayoutTotals(who, t, count, false);
}

// Rank and layout, with no copy.
Status CheckLayoutOf(const char* who, const DLTensor& t) {
  FFI_CORE_RETURN_IF_ERROR(CheckRank(who, t.ndim, t.shape));
  return CheckLayout(who, t, nullptr);
}

}  // namespace

Status CheckTensorMetadata(const char* who, int32_t ndim, const int64_t* shape, DLDataType dtype) {
  DLTensor t{};
  t.ndim = ndim;
  t.shape = const_cast<int64_t*>(shape);
  t.dtype = dtype;
  return CheckLayoutOf(who, t);
}

namespace {

// NewTensorObj's work. Plain inline: an optimised host build puts it in the
// DLPack import (its hot path), a size-optimised firmware keeps one copy.
inline Status BuildTensorObj(const char* who, const DLTensor& layout, void (*deleter)(void*, int),
                             size_t extra, size_t extra_align, size_t* extra_offset,
                             TensorObj** out) {
  const int32_t ndim = layout.ndim;
  FFI_CORE_RETURN_IF_ERROR(CheckRank(who, ndim, layout.shape));
  static_assert(sizeof(TensorObj) % alignof(int64_t) == 0, "shape follows the object directly");
  // Small enough (the rank is bounded, `extra` is an object's size) that
  // nothing here overflows.
  const size_t head = sizeof(TensorObj) + 2 * static_cast<size_t>(ndim) * sizeof(int64_t);
  *extra_offset = TrailingOffset(head, extra_align);
  void* mem = detail::AllocateObjectBody(
      *extra_offset + extra, extra_align > alignof(TensorObj) ? extra_align : alignof(TensorObj),
      kTVMFFITensor);
  if (mem == nullptr) return Status(ErrorKind::kMemoryError);
  TensorObj* obj = new (mem) TensorObj;
  // Tensors always carry strides (compact when the source had none), as
  // upstream's do, so readers need no special case.
  int64_t* arrays = TrailingOf<int64_t>(obj);
  const Status checked = CheckLayout(who, layout, arrays);
  if (!checked.ok()) {
    FreeObjectStorage(obj);
    return checked;
  }
  InitObjectHeader(&obj->header, kTVMFFITensor, deleter);
  // Whole, then the arrays: fewer instructions than field by field.
  obj->tensor = layout;
  obj->tensor.shape = arrays;
  obj->tensor.strides = arrays + ndim;
  *out = obj;
  return Status::Ok();
}

}  // namespace

[[gnu::noinline]] void TensorDeleterPartly(TensorObj* self, int flags,
                                           void (*release)(TensorObj*)) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) release(self);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(self);
}

Expected<TensorObj*> NewTensorObj(const char* who, const DLTensor& layout,
                                  void (*deleter)(void*, int), size_t extra, size_t extra_align,
                                  size_t* extra_offset) {
  TensorObj* obj = nullptr;
  FFI_CORE_RETURN_IF_ERROR(
      BuildTensorObj(who, layout, deleter, extra, extra_align, extra_offset, &obj));
  return obj;
}

}  // namespace detail

namespace {

// What only an import can get wrong: NULL data with elements, and what the
// caller requires of the data. On a checked layout.
[[gnu::noinline]] Status CheckImportedData(const char* who, const DLTensor& t,
                                           size_t require_alignment, bool require_contiguous) {
  if (t.data == nullptr && detail::Numel(t) != 0) {
    return RaiseError(ErrorKind::kValueError,
                      {who, ": NULL data with ", detail::Numel(t), " elements"});
  }
  if (require_alignment > 1) {
    const uintptr_t p = reinterpret_cast<uintptr_t>(t.data) + t.byte_offset;
    if (p % require_alignment != 0) {
      return RaiseError(ErrorKind::kValueError,
                        {who, ": data is not aligned to ", require_alignment, " bytes"});
    }
  }
  if (require_contiguous && !detail::IsContiguous(t)) {
    return RaiseError(ErrorKind::kValueError, {who, ": tensor is not contiguous"});
  }
  return Status::Ok();
}

// The whole of an import's checks on the producer's DLTensor, for a caller
// with requirements.
[[gnu::noinline]] Status CheckRequirements(const char* who, const DLTensor& t,
                                           size_t require_alignment, bool require_contiguous) {
  FFI_CORE_RETURN_IF_ERROR(detail::CheckLayoutOf(who, t));
  return CheckImportedData(who, t, require_alignment, require_contiguous);
}

[[gnu::cold, gnu::noinline]] Status NullTensorError(const char* who) {
  return RaiseError(ErrorKind::kValueError, {who, ": NULL tensor"});
}

[[gnu::cold, gnu::noinline]] Status VersionError(uint32_t major) {
  return RaiseError(ErrorKind::kValueError, {"FromDLPackVersioned: DLPack major version ", major,
                                             " differs from ", DLPACK_MAJOR_VERSION});
}

template <typename Managed>
void ReleaseManaged(TensorObj* self) {
  Managed* m = static_cast<Managed*>(self->owner);
  if (m->deleter != nullptr) m->deleter(m);
}

template <typename Managed>
Status Import(const char* who, Managed* from, size_t require_alignment, int require_contiguous,
              TVMFFIObjectHandle* out) {
  if (from == nullptr) return NullTensorError(who);
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    if (from->version.major != DLPACK_MAJOR_VERSION) return VersionError(from->version.major);
  }
  // What the caller requires is checked before anything is allocated, so
  // that nothing about it stays live across the allocation (the layout is
  // then checked twice, on this rarer path).
  if (require_alignment > 1 || require_contiguous) {
    FFI_CORE_RETURN_IF_ERROR(
        CheckRequirements(who, from->dl_tensor, require_alignment, require_contiguous != 0));
  }
  size_t unused = 0;
  TensorObj* obj = nullptr;
  FFI_CORE_RETURN_IF_ERROR(detail::BuildTensorObj(
      who, from->dl_tensor, &detail::TensorDeleter<&ReleaseManaged<Managed>>, 0, 1, &unused, &obj));
  if (obj->tensor.data == nullptr) {
    const Status st = CheckImportedData(who, obj->tensor, 0, false);
    if (!st.ok()) {
      FreeObjectStorage(obj);
      return st;
    }
  }
  obj->owner = from;
  *out = &obj->header;
  return Status::Ok();
}

// The DLPack struct handed out by ToDLPack, with the tensor it keeps alive.
template <typename Managed>
struct Export {
  Managed managed;
  TensorObj* source;
};

template <typename Managed>
void ExportDeleter(Managed* self) {
  Export<Managed>* e = reinterpret_cast<Export<Managed>*>(self);
  TensorObj* source = e->source;
  FreeObjectStorage(e);
  ObjectDecRef(&source->header);
}

template <typename Managed>
Expected<Managed*> MakeExport(const char* who, TensorObj* obj) {
  if (obj == nullptr) return RaiseError(ErrorKind::kValueError, {who, ": empty tensor"});
  // Through the installed TVMFFICustomAllocator, like every object, so a C
  // user who installed only that allocator can export too.
  FFI_CORE_ASSIGN_OR_RETURN(
      void* mem,
      AllocateObjectStorage(sizeof(Export<Managed>), alignof(Export<Managed>), kTVMFFIDLTensorPtr));
  Export<Managed>* e = new (mem) Export<Managed>();
  e->managed.dl_tensor = obj->tensor;
  e->managed.manager_ctx = obj;
  e->managed.deleter = &ExportDeleter<Managed>;
  e->source = obj;
  ObjectIncRef(&obj->header);
  return &e->managed;
}

void ReleaseSource(TensorObj* self) { ObjectDecRef(static_cast<TVMFFIObject*>(self->owner)); }

void SetEnvAllocError(void*, const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
}

}  // namespace

Status Tensor::CheckStrides(IntSpan shape, IntSpan strides) {
  if (strides.data != nullptr && strides.size != shape.size) {
    return RaiseError(ErrorKind::kValueError,
                      {"strides has ", strides.size, " entries for rank ", shape.size});
  }
  for (int32_t i = 0; strides.data != nullptr && i < strides.size; ++i) {
    if (strides[i] < 0) return RaiseError(ErrorKind::kValueError, {"negative stride at axis ", i});
  }
  return Status::Ok();
}

Status Tensor::NullDataError() {
  return RaiseError(ErrorKind::kMemoryError, {"tensor allocator returned NULL data"});
}

namespace detail {
int ImportDLPack(DLManagedTensor* from, size_t require_alignment, int require_contiguous,
                 TVMFFIObjectHandle* out) {
  return Import("FromDLPack", from, require_alignment, require_contiguous, out).ToReturnCode();
}
int ImportDLPack(DLManagedTensorVersioned* from, size_t require_alignment, int require_contiguous,
                 TVMFFIObjectHandle* out) {
  return Import("FromDLPackVersioned", from, require_alignment, require_contiguous, out)
      .ToReturnCode();
}
}  // namespace detail

namespace {
template <typename Managed>
Expected<Tensor> AdoptImport(Managed* from, size_t require_alignment, bool require_contiguous) {
  TVMFFIObjectHandle handle = nullptr;
  if (detail::ImportDLPack(from, require_alignment, require_contiguous, &handle) != 0) {
    return StatusFromPendingError();
  }
  return Tensor(ObjectPtr<TensorObj>::Adopt(static_cast<TensorObj*>(handle)));
}
}  // namespace

Expected<Tensor> Tensor::FromDLPack(DLManagedTensor* from, size_t require_alignment,
                                    bool require_contiguous) {
  return AdoptImport(from, require_alignment, require_contiguous);
}

Expected<Tensor> Tensor::FromDLPackVersioned(DLManagedTensorVersioned* from,
                                             size_t require_alignment, bool require_contiguous) {
  return AdoptImport(from, require_alignment, require_contiguous);
}

Expected<DLManagedTensor*> Tensor::ToDLPack() const {
  return MakeExport<DLManagedTensor>("ToDLPack", obj_.get());
}

Expected<DLManagedTensorVersioned*> Tensor::ToDLPackVersioned() const {
  FFI_CORE_ASSIGN_OR_RETURN(DLManagedTensorVersioned * m,
                            MakeExport<DLManagedTensorVersioned>("ToDLPackVersioned", obj_.get()));
  m->version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
  m->flags = 0;
  return m;
}

Expected<Tensor> Tensor::as_strided(IntSpan shape, IntSpan strides, int64_t element_offset) const {
  if (!obj_) return RaiseError(ErrorKind::kValueError, {"as_strided on an empty tensor"});
  const DLTensor& src = obj_->tensor;
  if (strides.size != shape.size || (shape.size != 0 && strides.data == nullptr)) {
    return RaiseError(ErrorKind::kValueError, {"as_strided: strides must have one entry per axis"});
  }
  FFI_CORE_RETURN_IF_ERROR(CheckStrides(shape, strides));
  size_t unused = 0;
  FFI_CORE_ASSIGN_OR_RETURN(
      TensorObj * obj,
      detail::NewTensorObj("as_strided", detail::Layout(shape, strides.data, src.dtype, src.device),
                           &detail::TensorDeleter<&ReleaseSource>, 0, 1, &unused));
  // The view's furthest element must stay inside the source's extent (both
  // sums fit: the source was checked on creation, the view by NewTensorObj).
  // Empty tensors' strides are not bounded, so they are summed only when
  // every size is non-zero.
  const DLTensor& view = obj->tensor;
  const bool src_empty = detail::Numel(src) == 0;
  int64_t src_last = src_empty ? -1 : 0;
  for (int32_t i = 0; !src_empty && i < src.ndim; ++i) {
    src_last += (src.shape[i] - 1) * src.strides[i];
  }
  const bool view_empty = detail::Numel(view) == 0;
  int64_t view_last = 0;
  for (int32_t i = 0; !view_empty && i < view.ndim; ++i) {
    view_last += (view.shape[i] - 1) * view.strides[i];
  }
  const int64_t elem_bytes = detail::ElementBytes(src.dtype);
  int64_t offset_bytes = 0;
  if (element_offset < 0 || __builtin_add_overflow(view_last, element_offset, &view_last) ||
      __builtin_mul_overflow(element_offset, elem_bytes, &offset_bytes) ||
      (!view_empty && view_last > src_last)) {
    FreeObjectStorage(obj);
    return RaiseError(ErrorKind::kValueError,
                      {"as_strided: view at element offset ", element_offset, " reaches element ",
                       view_last, " of a tensor whose last element is ", src_last});
  }
  obj->tensor.data = src.data;
  obj->tensor.byte_offset = src.byte_offset + static_cast<uint64_t>(offset_bytes);
  ObjectIncRef(&obj_->header);
  obj->owner = obj_.get();
  return Tensor(ObjectPtr<TensorObj>::Adopt(obj));
}

Expected<Tensor> Tensor::UnsafeView(const Tensor& source, const DLTensor& prototype) {
  if (!source) return RaiseError(ErrorKind::kValueError, {"UnsafeView: empty source tensor"});
  size_t unused = 0;
  FFI_CORE_ASSIGN_OR_RETURN(
      TensorObj * obj, detail::NewTensorObj("UnsafeView", prototype,
                                            &detail::TensorDeleter<&ReleaseSource>, 0, 1, &unused));
  ObjectIncRef(source.object().header());
  obj->owner = source.object().get();
  return Tensor(ObjectPtr<TensorObj>::Adopt(obj));
}

Expected<Tensor> Tensor::FromEnvAlloc(IntSpan shape, DLDataType dtype, DLDevice device) {
  FFI_CORE_RETURN_IF_ERROR(
      detail::CheckTensorMetadata("FromEnvAlloc", shape.size, shape.data, dtype));
  DLPackManagedTensorAllocator alloc = TVMFFIEnvGetDLPackManagedTensorAllocator();
  if (alloc == nullptr) {
    return RaiseError(
        ErrorKind::kRuntimeError,
        {"FromEnvAlloc: no allocator; call TVMFFIEnvSetDLPackManagedTensorAllocator"});
  }
  DLTensor prototype{};
  prototype.device = device;
  prototype.ndim = shape.size;
  prototype.dtype = dtype;
  prototype.shape = const_cast<int64_t*>(shape.data);
  DLManagedTensorVersioned* made = nullptr;
  if (alloc(&prototype, &made, nullptr, &SetEnvAllocError) != 0) return StatusFromPendingError();
  if (made == nullptr) {
    return RaiseError(ErrorKind::kRuntimeError, {"FromEnvAlloc: allocator returned no tensor"});
  }
  Expected<Tensor> t = FromDLPackVersioned(made);
  if (!t.ok() && made->deleter != nullptr) made->deleter(made);
  return t;
}

}  // namespace ffi_core

#include <ffi_core/allocator.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstring>

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

Status ExtentError(const char* who, const char* what) {
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

Status CheckStridedExtent(const char* who, int32_t ndim, const int64_t* shape,
                          const int64_t* strides, uint64_t byte_offset, DLDataType dtype) {
  if (byte_offset > static_cast<uint64_t>(INT64_MAX)) return ExtentError(who, "byte_offset");
  // NULL strides (compact): byte_offset is all there is to bound here; the
  // shape's size was bounded by CheckTensorMetadata.
  if (strides == nullptr) return Status::Ok();
  for (int32_t i = 0; i < ndim; ++i) {
    if (shape[i] == 0) return Status::Ok();  // no element is ever addressed
  }
  // The furthest element from data, in bytes: byte_offset plus the sum of
  // (size - 1) * |stride| over the axes, times the element size.
  int64_t span = 0;
  for (int32_t i = 0; i < ndim; ++i) {
    int64_t step = 0;
    if (strides[i] == INT64_MIN ||
        __builtin_mul_overflow(shape[i] - 1, strides[i] < 0 ? -strides[i] : strides[i], &step) ||
        __builtin_add_overflow(span, step, &span)) {
      return ExtentError(who, "the strided extent");
    }
  }
  int64_t end = 0;
  if (__builtin_mul_overflow(span, ElementBytes(dtype), &end) ||
      __builtin_add_overflow(end, static_cast<int64_t>(byte_offset), &end)) {
    return ExtentError(who, "the strided extent");
  }
  return Status::Ok();
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

Status CheckTensorMetadata(const char* who, int32_t ndim, const int64_t* shape, DLDataType dtype) {
  if (ndim < 0 || ndim > FFI_CORE_TENSOR_MAX_NDIM) {
    return RaiseError(ErrorKind::kValueError,
                      {who, ": ndim ", ndim, " outside [0, ", FFI_CORE_TENSOR_MAX_NDIM, "]"});
  }
  if (shape == nullptr && ndim != 0)
    return RaiseError(ErrorKind::kValueError, {who, ": NULL shape"});
  // One pass: sizes must not be negative, and every element count and
  // compact stride (a product of sizes) is bounded by the non-zero sizes'
  // product in bytes. Zero bits or lanes make the product 0, refused below.
  int64_t bytes = ElementBytes(dtype);
  bool overflow = false;
  for (int32_t i = 0; i < ndim; ++i) {
    if (shape[i] < 0) {
      return RaiseError(ErrorKind::kValueError,
                        {who, ": negative size ", shape[i], " at axis ", i});
    }
    overflow = overflow || (shape[i] != 0 && __builtin_mul_overflow(bytes, shape[i], &bytes));
  }
  if (dtype.lanes == 0 || dtype.bits == 0) {
    return RaiseError(ErrorKind::kValueError, {who, ": dtype with zero bits or lanes"});
  }
  if (overflow) return ExtentError(who, "the shape's size in bytes");
  return Status::Ok();
}

Expected<TensorObj*> NewTensorObj(const int64_t* shape, const int64_t* strides, int32_t ndim,
                                  DLDataType dtype, DLDevice device, size_t extra,
                                  size_t extra_align, size_t* extra_offset) {
  const size_t arrays = 2 * static_cast<size_t>(ndim) * sizeof(int64_t);
  // The arrays and then `extra` trail the object.
  const size_t head = TrailingOffset(sizeof(TensorObj), alignof(int64_t)) + arrays;
  *extra_offset = TrailingOffset(head, extra_align);
  FFI_CORE_ASSIGN_OR_RETURN(
      void* mem, AllocateWithTrailing(head, alignof(TensorObj), extra, extra_align, kTVMFFITensor));
  // Default-initialised: every field is written below.
  TensorObj* obj = new (mem) TensorObj;
  InitObjectHeader(&obj->header, kTVMFFITensor, &ObjectDeleter<TensorObj>);
  int64_t* shape_copy = TrailingOf<int64_t>(obj);
  int64_t* stride_copy = shape_copy + ndim;
  // Tensors always carry strides (compact when the source had none), as
  // upstream's do, so readers need no special case. Compact strides in one
  // pass from the last axis.
  int64_t compact = 1;
  for (int32_t i = ndim - 1; i >= 0; --i) {
    shape_copy[i] = shape[i];
    stride_copy[i] = strides != nullptr ? strides[i] : compact;
    compact = MulSat(compact, shape[i]);
  }
  obj->tensor.data = nullptr;
  obj->tensor.device = device;
  obj->tensor.ndim = ndim;
  obj->tensor.dtype = dtype;
  obj->tensor.shape = ndim != 0 ? shape_copy : nullptr;
  obj->tensor.strides = ndim != 0 ? stride_copy : nullptr;
  obj->tensor.byte_offset = 0;
  obj->release = nullptr;
  obj->owner = nullptr;
  return obj;
}

void FreeTensorObjStorage(TensorObj* obj) {
  obj->~TensorObj();
  FreeObjectStorage(obj);
}

}  // namespace detail

namespace {

Status CheckImport(const char* who, const DLTensor& t, size_t require_alignment,
                   bool require_contiguous) {
  FFI_CORE_RETURN_IF_ERROR(detail::CheckTensorMetadata(who, t.ndim, t.shape, t.dtype));
  FFI_CORE_RETURN_IF_ERROR(
      detail::CheckStridedExtent(who, t.ndim, t.shape, t.strides, t.byte_offset, t.dtype));
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

template <typename Managed>
void ReleaseManaged(TensorObj* self) {
  Managed* m = static_cast<Managed*>(self->owner);
  if (m->deleter != nullptr) m->deleter(m);
}

template <typename Managed>
Expected<Tensor> Import(const char* who, Managed* from, size_t require_alignment,
                        bool require_contiguous) {
  if (from == nullptr) return RaiseError(ErrorKind::kValueError, {who, ": NULL tensor"});
  const DLTensor& src = from->dl_tensor;
  FFI_CORE_RETURN_IF_ERROR(CheckImport(who, src, require_alignment, require_contiguous));
  size_t unused = 0;
  FFI_CORE_ASSIGN_OR_RETURN(
      TensorObj * obj,
      detail::NewTensorObj(src.shape, src.strides, src.ndim, src.dtype, src.device, 0, 1, &unused));
  obj->tensor.data = src.data;
  obj->tensor.byte_offset = src.byte_offset;
  obj->owner = from;
  obj->release = &ReleaseManaged<Managed>;
  return Tensor(ObjectPtr<TensorObj>::Adopt(obj));
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

Expected<Tensor> Tensor::FromDLPack(DLManagedTensor* from, size_t require_alignment,
                                    bool require_contiguous) {
  return Import("FromDLPack", from, require_alignment, require_contiguous);
}

Expected<Tensor> Tensor::FromDLPackVersioned(DLManagedTensorVersioned* from,
                                             size_t require_alignment, bool require_contiguous) {
  if (from != nullptr && from->version.major != DLPACK_MAJOR_VERSION) {
    return RaiseError(ErrorKind::kValueError,
                      {"FromDLPackVersioned: DLPack major version ", from->version.major,
                       " differs from ", DLPACK_MAJOR_VERSION});
  }
  return Import("FromDLPackVersioned", from, require_alignment, require_contiguous);
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
  FFI_CORE_RETURN_IF_ERROR(
      detail::CheckTensorMetadata("as_strided", shape.size, shape.data, src.dtype));
  if (strides.size != shape.size || (shape.size != 0 && strides.data == nullptr)) {
    return RaiseError(ErrorKind::kValueError, {"as_strided: strides must have one entry per axis"});
  }
  FFI_CORE_RETURN_IF_ERROR(CheckStrides(shape, strides));
  FFI_CORE_RETURN_IF_ERROR(
      detail::CheckStridedExtent("as_strided", shape.size, shape.data, strides.data, 0, src.dtype));
  // The view's furthest element must stay inside the source's extent (both
  // sums fit: the source was checked on creation, the view just above).
  // Empty tensors' strides are not bounded, so they are summed only when
  // every size is non-zero.
  const bool src_empty = detail::Numel(src) == 0;
  int64_t src_last = src_empty ? -1 : 0;
  for (int32_t i = 0; !src_empty && i < src.ndim; ++i) {
    src_last += (src.shape[i] - 1) * src.strides[i];
  }
  bool view_empty = false;
  for (int32_t i = 0; i < shape.size; ++i) view_empty = view_empty || shape[i] == 0;
  int64_t view_last = 0;
  for (int32_t i = 0; !view_empty && i < shape.size; ++i) view_last += (shape[i] - 1) * strides[i];
  const int64_t elem_bytes = detail::ElementBytes(src.dtype);
  int64_t offset_bytes = 0;
  if (element_offset < 0 || __builtin_add_overflow(view_last, element_offset, &view_last) ||
      __builtin_mul_overflow(element_offset, elem_bytes, &offset_bytes) ||
      (!view_empty && view_last > src_last)) {
    return RaiseError(ErrorKind::kValueError,
                      {"as_strided: view at element offset ", element_offset, " reaches element ",
                       view_last, " of a tensor whose last element is ", src_last});
  }
  size_t unused = 0;
  FFI_CORE_ASSIGN_OR_RETURN(TensorObj * obj,
                            detail::NewTensorObj(shape.data, strides.data, shape.size, src.dtype,
                                                 src.device, 0, 1, &unused));
  obj->tensor.data = src.data;
  obj->tensor.byte_offset = src.byte_offset + static_cast<uint64_t>(offset_bytes);
  ObjectIncRef(&obj_->header);
  obj->owner = obj_.get();
  obj->release = &ReleaseSource;
  return Tensor(ObjectPtr<TensorObj>::Adopt(obj));
}

Expected<Tensor> Tensor::UnsafeView(const Tensor& source, const DLTensor& prototype) {
  if (!source) return RaiseError(ErrorKind::kValueError, {"UnsafeView: empty source tensor"});
  FFI_CORE_RETURN_IF_ERROR(
      detail::CheckTensorMetadata("UnsafeView", prototype.ndim, prototype.shape, prototype.dtype));
  FFI_CORE_RETURN_IF_ERROR(detail::CheckStridedExtent("UnsafeView", prototype.ndim, prototype.shape,
                                                      prototype.strides, prototype.byte_offset,
                                                      prototype.dtype));
  size_t unused = 0;
  FFI_CORE_ASSIGN_OR_RETURN(TensorObj * obj,
                            detail::NewTensorObj(prototype.shape, prototype.strides, prototype.ndim,
                                                 prototype.dtype, prototype.device, 0, 1, &unused));
  obj->tensor.data = prototype.data;
  obj->tensor.byte_offset = prototype.byte_offset;
  ObjectIncRef(source.object().header());
  obj->owner = source.object().get();
  obj->release = &ReleaseSource;
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

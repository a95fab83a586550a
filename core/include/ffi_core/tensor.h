// Tensor (owning, a kTVMFFITensor object: the header immediately followed
// by a DLTensor, as upstream lays it out) and TensorView (borrowed, from a
// DLTensor* or a Tensor). Data is never copied: a Tensor owns or shares
// memory from an allocator pair, a DLPack producer, or another tensor.
#ifndef FFI_CORE_TENSOR_H_
#define FFI_CORE_TENSOR_H_

#include <ffi_core/any.h>
#include <ffi_core/config.h>
#include <ffi_core/device.h>
#include <ffi_core/expected.h>
#include <ffi_core/object.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

namespace ffi_core {

// A borrowed list of dimensions or strides.
struct IntSpan {
  const int64_t* data;
  int32_t size;
  int64_t operator[](int32_t i) const { return data[i]; }
};

// ffi-core's Tensor object. Only `header` and `tensor` are ABI; the rest is
// ffi-core's own bookkeeping, after the DLTensor. How the data goes back is
// the header's deleter (a detail::TensorDeleter), so none is stored here.
struct TensorObj {
  TVMFFIObject header;
  DLTensor tensor;
  void* owner;  // what the deleter gives the data back to: a DLManagedTensor, the source, ...
};

namespace detail {
// Attribute accessors shared by Tensor and TensorView over a DLTensor.
template <typename Derived>
class TensorAccessors {
 public:
  int32_t dim() const { return dl()->ndim; }
  int32_t ndim() const { return dl()->ndim; }
  DLDataType dtype() const { return dl()->dtype; }
  // Normalised: see device.h for the short-enum policy.
  DLDevice device() const { return NormalizeDevice(dl()->device); }
  IntSpan sizes() const { return IntSpan{dl()->shape, dl()->ndim}; }
  IntSpan shape() const { return sizes(); }
  // NULL strides mean compact row-major; see stride(i).
  IntSpan strides() const { return IntSpan{dl()->strides, dl()->strides ? dl()->ndim : 0}; }
  // Negative i counts from the back, as in Python. IndexError if out of range.
  Expected<int64_t> size(int64_t i) const;
  Expected<int64_t> stride(int64_t i) const;
  int64_t numel() const;
  // DLTensor::data, without byte_offset (as upstream's data_ptr).
  void* data_ptr() const { return dl()->data; }
  // The first element: data + byte_offset.
  void* data_with_offset() const { return static_cast<char*>(dl()->data) + dl()->byte_offset; }
  bool is_contiguous() const;
  const DLTensor* dl_tensor() const { return dl(); }

 private:
  const DLTensor* dl() const { return static_cast<const Derived*>(this)->GetDLTensor(); }
};

// Shared helpers over a raw DLTensor.
TVM_FFI_DLL int64_t Numel(const DLTensor& t);
TVM_FFI_DLL bool IsContiguous(const DLTensor& t);
Status CheckAxis(int64_t i, int32_t ndim, int64_t* axis);
int64_t ContiguousStride(const DLTensor& t, int32_t axis);

template <typename Derived>
Expected<int64_t> TensorAccessors<Derived>::size(int64_t i) const {
  int64_t axis = 0;
  FFI_CORE_RETURN_IF_ERROR(CheckAxis(i, dl()->ndim, &axis));
  return dl()->shape[axis];
}
template <typename Derived>
Expected<int64_t> TensorAccessors<Derived>::stride(int64_t i) const {
  int64_t axis = 0;
  FFI_CORE_RETURN_IF_ERROR(CheckAxis(i, dl()->ndim, &axis));
  return dl()->strides ? dl()->strides[axis] : ContiguousStride(*dl(), static_cast<int32_t>(axis));
}
template <typename Derived>
int64_t TensorAccessors<Derived>::numel() const {
  return Numel(*dl());
}
template <typename Derived>
bool TensorAccessors<Derived>::is_contiguous() const {
  return IsContiguous(*dl());
}

// Validates caller-supplied metadata: rank, non-negative sizes, dtype, and
// a size in bytes that fits in int64_t (ValueError otherwise).
TVM_FFI_DLL Status CheckTensorMetadata(const char* who, int32_t ndim, const int64_t* shape,
                                       DLDataType dtype);
// Bytes per element (sub-byte types round up).
TVM_FFI_DLL int64_t ElementBytes(DLDataType dtype);
// Allocates a TensorObj for `layout` with `deleter`: shape and strides
// (compact when layout.strides is NULL) are copied after the object, then
// come `extra` bytes aligned to `extra_align`; the other DLTensor fields are
// copied as they are, and `owner` is the caller's to set. The layout is checked as it is copied:
// what CheckTensorMetadata refuses, a byte_offset and, with strides, a furthest element whose byte
// offset does not fit in int64_t (ValueError).
TVM_FFI_DLL Expected<TensorObj*> NewTensorObj(const char* who, const DLTensor& layout,
                                              void (*deleter)(void*, int), size_t extra,
                                              size_t extra_align, size_t* extra_offset);
// A DLTensor holding only a layout, for NewTensorObj.
inline DLTensor Layout(IntSpan shape, const int64_t* strides, DLDataType dtype, DLDevice device) {
  DLTensor t{};
  t.device = device;
  t.ndim = shape.size;
  t.dtype = dtype;
  t.shape = const_cast<int64_t*>(shape.data);
  t.strides = const_cast<int64_t*>(strides);
  return t;
}
// A tensor deleter's call with weak references involved: one copy for
// every kind, out of line (tensor.cc).
TVM_FFI_DLL void TensorDeleterPartly(TensorObj* self, int flags, void (*release)(TensorObj*));
// The deleter of every tensor: Release gives the data back to the owner
// (no indirect call on the way), the weak flag the storage.
template <void (*Release)(TensorObj*)>
void TensorDeleter(void* self, int flags) {
  // Both at once (no weak references) is the common case: a short frame.
  if (flags != kTVMFFIObjectDeleterFlagBitMaskBoth) {
    return TensorDeleterPartly(static_cast<TensorObj*>(self), flags, Release);
  }
  Release(static_cast<TensorObj*>(self));
  FreeObjectStorage(self);
}
template <typename Alloc>
void ReleaseWithAlloc(TensorObj* self) {
  Alloc* alloc = static_cast<Alloc*>(self->owner);
  alloc->FreeData(&self->tensor);
  alloc->~Alloc();
}
// Tensor::FromDLPack(Versioned) straight into a C handle (set only on
// success). 0, or -1 with the error raised: the C API's convention, so that
// its entry points reach this by a tail call (require_contiguous is its int:
// non-zero requires it).
int ImportDLPack(DLManagedTensor* from, size_t require_alignment, int require_contiguous,
                 TVMFFIObjectHandle* out);
int ImportDLPack(DLManagedTensorVersioned* from, size_t require_alignment, int require_contiguous,
                 TVMFFIObjectHandle* out);
}  // namespace detail

class Tensor : public ObjectRef<TensorObj>, public detail::TensorAccessors<Tensor> {
 public:
  using ObjectRef::ObjectRef;

  // Alloc provides `Status AllocData(DLTensor*)` (sets data) and
  // `void FreeData(DLTensor*)`; a copy of it lives inside the tensor.
  template <typename Alloc>
  static Expected<Tensor> FromNDAlloc(Alloc alloc, IntSpan shape, DLDataType dtype,
                                      DLDevice device) {
    return FromNDAllocStrided(std::move(alloc), shape, IntSpan{nullptr, 0}, dtype, device);
  }
  // As FromNDAlloc with explicit strides (in elements); the allocator sees
  // the strided DLTensor and must size the buffer for it.
  template <typename Alloc>
  static Expected<Tensor> FromNDAllocStrided(Alloc alloc, IntSpan shape, IntSpan strides,
                                             DLDataType dtype, DLDevice device) {
    FFI_CORE_RETURN_IF_ERROR(CheckStrides(shape, strides));
    size_t offset = 0;
    FFI_CORE_ASSIGN_OR_RETURN(
        TensorObj * obj,
        detail::NewTensorObj("FromNDAlloc", detail::Layout(shape, strides.data, dtype, device),
                             &detail::TensorDeleter<&detail::ReleaseWithAlloc<Alloc>>,
                             sizeof(Alloc), alignof(Alloc), &offset));
    Alloc* stored = new (reinterpret_cast<char*>(obj) + offset) Alloc(std::move(alloc));
    Status st = stored->AllocData(&obj->tensor);
    if (st.ok() && obj->tensor.data == nullptr && detail::Numel(obj->tensor) != 0) {
      st = NullDataError();
    }
    if (!st.ok()) {
      stored->~Alloc();
      FreeObjectStorage(obj);
      return st;
    }
    obj->owner = stored;
    return Tensor(ObjectPtr<TensorObj>::Adopt(obj));
  }
  // Allocates through the environment's DLPack allocator
  // (TVMFFIEnvSetDLPackManagedTensorAllocator), as kernels do for outputs.
  static Expected<Tensor> FromEnvAlloc(IntSpan shape, DLDataType dtype, DLDevice device);
  // Takes ownership of a DLPack tensor on success; on failure the caller
  // keeps it. require_alignment applies to data + byte_offset.
  static Expected<Tensor> FromDLPack(DLManagedTensor* from, size_t require_alignment = 0,
                                     bool require_contiguous = false);
  static Expected<Tensor> FromDLPackVersioned(DLManagedTensorVersioned* from,
                                              size_t require_alignment = 0,
                                              bool require_contiguous = false);
  // A DLPack tensor sharing this tensor's memory; its deleter releases it.
  // The struct comes from the injected allocator.
  Expected<DLManagedTensor*> ToDLPack() const;
  Expected<DLManagedTensorVersioned*> ToDLPackVersioned() const;
  // A view with other shape/strides (in elements) and an element offset,
  // sharing (and keeping alive) this tensor's memory. Bounds are checked.
  Expected<Tensor> as_strided(IntSpan shape, IntSpan strides, int64_t element_offset = 0) const;
  // A view with the prototype's metadata and data pointer, keeping `source`
  // alive. Unsafe: the caller vouches that the data lies in source's memory.
  static Expected<Tensor> UnsafeView(const Tensor& source, const DLTensor& prototype);

  DLTensor* GetDLTensor() const { return &obj_->tensor; }

 private:
  TVM_FFI_DLL static Status CheckStrides(IntSpan shape, IntSpan strides);
  TVM_FFI_DLL static Status NullDataError();
};

// A borrowed tensor: valid while the argument it came from is.
class TensorView : public detail::TensorAccessors<TensorView> {
 public:
  TensorView() = default;
  explicit TensorView(const DLTensor* t) : t_(t) {}
  const DLTensor* GetDLTensor() const { return t_; }
  explicit operator bool() const { return t_ != nullptr; }

 private:
  const DLTensor* t_ = nullptr;
};

template <>
struct TypeTraits<Tensor> : detail::ObjectRefTraits<Tensor, kTVMFFITensor> {
  static constexpr const char* kName = "Tensor";
};

// A view accepts both a DLTensor* and a Tensor object.
template <>
struct TypeTraits<TensorView> {
  static constexpr const char* kName = "Tensor";
  static void Write(const TensorView& t, TVMFFIAny* out) {
    WritePointer(kTVMFFIDLTensorPtr, t.GetDLTensor(), out);
  }
  static Conversion Read(const TVMFFIAny& in, TensorView* out) {
    DLTensor* t = nullptr;
    Conversion c = TypeTraits<DLTensor*>::Read(in, &t);
    if (c == Conversion::kOk) *out = TensorView(t);
    return c;
  }
};

}  // namespace ffi_core

#endif  // FFI_CORE_TENSOR_H_

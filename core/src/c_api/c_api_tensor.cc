// C entry points: tensors and DLPack.
#include <ffi_core/tensor.h>
#include <tvm/ffi/c_api.h>

#include "c_api/c_boundary.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary
using c_boundary::NullArgument;

namespace {

// Borrows the Tensor behind a handle, checking that it is one.
Expected<Tensor> TensorFromHandle(const char* function, const char* argument,
                                  TVMFFIObjectHandle handle) {
  TVMFFIObject* obj =
      c_boundary::CheckedHandle(function, argument, handle, kTVMFFITensor, "Tensor");
  if (obj == nullptr) return StatusFromPendingError();
  return Tensor(ObjectPtr<TensorObj>::Retain(reinterpret_cast<TensorObj*>(obj)));
}

[[gnu::cold, gnu::noinline]] int NegativeAlignment(const char* function) {
  return c_boundary::Fail(ErrorKind::kValueError, {function, ": negative alignment"});
}

template <typename Managed>
int ToDLPackAs(const char* function, TVMFFIObjectHandle from, Managed** out,
               Expected<Managed*> (Tensor::*to)() const) {
  if (out == nullptr) return NullArgument(function, "out");
  Expected<Tensor> t = TensorFromHandle(function, "from", from);
  if (!t.ok()) return -1;
  Expected<Managed*> m = ((*t).*to)();
  if (!m.ok()) return -1;
  *out = m.value();
  return 0;
}

// Straight into the handle, by a tail call: no Expected<Tensor> in between.
template <typename Managed>
int FromDLPackAs(const char* function, Managed* from, int32_t require_alignment,
                 int32_t require_contiguous, TVMFFIObjectHandle* out) {
  if (out == nullptr) return NullArgument(function, "out");
  // Here rather than in the import, so that the refusal names the entry point.
  if (from == nullptr) return NullArgument(function, "from");
  if (require_alignment < 0) return NegativeAlignment(function);
  return detail::ImportDLPack(from, static_cast<size_t>(require_alignment), require_contiguous,
                              out);
}

}  // namespace

extern "C" {

int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                           int32_t require_contiguous, TVMFFIObjectHandle* out) {
  return FromDLPackAs("TVMFFITensorFromDLPack", from, require_alignment, require_contiguous, out);
}

int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment,
                                    int32_t require_contiguous, TVMFFIObjectHandle* out) {
  return FromDLPackAs("TVMFFITensorFromDLPackVersioned", from, require_alignment,
                      require_contiguous, out);
}

int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  return ToDLPackAs("TVMFFITensorToDLPack", from, out, &Tensor::ToDLPack);
}

int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from, DLManagedTensorVersioned** out) {
  return ToDLPackAs("TVMFFITensorToDLPackVersioned", from, out, &Tensor::ToDLPackVersioned);
}

int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                 TVMFFIObjectHandle* out) {
  if (prototype == nullptr) return NullArgument("TVMFFITensorCreateUnsafeView", "prototype");
  if (out == nullptr) return NullArgument("TVMFFITensorCreateUnsafeView", "out");
  Expected<Tensor> t = TensorFromHandle("TVMFFITensorCreateUnsafeView", "source", source);
  if (!t.ok()) return -1;
  return c_boundary::HandOut(Tensor::UnsafeView(*t, *prototype), out);
}

}  // extern "C"

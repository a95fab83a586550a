// The DLPack entry points of the C ABI.
#include <ffi_core/error.h>
#include <ffi_core/tensor.h>
#include <tvm/ffi/c_api.h>

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary

namespace {

int Fail(const char* who, const char* what) {
  return RaiseError(ErrorKind::kValueError, {who, ": ", what}).ToReturnCode();
}

// Borrows the Tensor behind a handle, checking that it is one.
Expected<Tensor> TensorFromHandle(const char* who, TVMFFIObjectHandle handle) {
  if (handle == nullptr) {
    return RaiseError(ErrorKind::kValueError, {who, ": tensor handle is NULL"});
  }
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  if (obj->type_index != kTVMFFITensor) {
    return RaiseError(ErrorKind::kTypeError,
                      {who, ": expected Tensor, got ", TypeIndexName(obj->type_index)});
  }
  return Tensor(ObjectPtr<TensorObj>::Retain(reinterpret_cast<TensorObj*>(obj)));
}

int Release(Expected<Tensor> t, TVMFFIObjectHandle* out) {
  if (!t.ok()) return -1;
  *out = std::move(t).value().object().release();
  return 0;
}

}  // namespace

extern "C" {

int TVMFFITensorFromDLPack(DLManagedTensor* from, int32_t require_alignment,
                           int32_t require_contiguous, TVMFFIObjectHandle* out) {
  if (out == nullptr) return Fail("TVMFFITensorFromDLPack", "out is NULL");
  if (require_alignment < 0) return Fail("TVMFFITensorFromDLPack", "negative alignment");
  return Release(
      Tensor::FromDLPack(from, static_cast<size_t>(require_alignment), require_contiguous != 0),
      out);
}

int TVMFFITensorFromDLPackVersioned(DLManagedTensorVersioned* from, int32_t require_alignment,
                                    int32_t require_contiguous, TVMFFIObjectHandle* out) {
  if (out == nullptr) return Fail("TVMFFITensorFromDLPackVersioned", "out is NULL");
  if (require_alignment < 0) return Fail("TVMFFITensorFromDLPackVersioned", "negative alignment");
  return Release(Tensor::FromDLPackVersioned(from, static_cast<size_t>(require_alignment),
                                             require_contiguous != 0),
                 out);
}

int TVMFFITensorToDLPack(TVMFFIObjectHandle from, DLManagedTensor** out) {
  if (out == nullptr) return Fail("TVMFFITensorToDLPack", "out is NULL");
  Expected<Tensor> t = TensorFromHandle("TVMFFITensorToDLPack", from);
  if (!t.ok()) return -1;
  Expected<DLManagedTensor*> m = t->ToDLPack();
  if (!m.ok()) return -1;
  *out = m.value();
  return 0;
}

int TVMFFITensorToDLPackVersioned(TVMFFIObjectHandle from, DLManagedTensorVersioned** out) {
  if (out == nullptr) return Fail("TVMFFITensorToDLPackVersioned", "out is NULL");
  Expected<Tensor> t = TensorFromHandle("TVMFFITensorToDLPackVersioned", from);
  if (!t.ok()) return -1;
  Expected<DLManagedTensorVersioned*> m = t->ToDLPackVersioned();
  if (!m.ok()) return -1;
  *out = m.value();
  return 0;
}

int TVMFFITensorCreateUnsafeView(TVMFFIObjectHandle source, const DLTensor* prototype,
                                 TVMFFIObjectHandle* out) {
  if (prototype == nullptr || out == nullptr) {
    return Fail("TVMFFITensorCreateUnsafeView", "prototype or out is NULL");
  }
  Expected<Tensor> t = TensorFromHandle("TVMFFITensorCreateUnsafeView", source);
  if (!t.ok()) return -1;
  return Release(Tensor::UnsafeView(*t, *prototype), out);
}

}  // extern "C"

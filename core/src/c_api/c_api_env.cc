// C entry points: the environment (tvm/ffi/extra/c_env_api.h): streams and
// tensor allocators of the calling context, and the frontend's hooks.
#include <ffi_core/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstring>

#include "c_api/c_boundary.h"
#include "context/calling_context.h"
#include "support/global_lock_guard.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary
using c_boundary::NullArgument;

namespace {

DLPackManagedTensorAllocator g_global_dlpack_allocator = nullptr;

// Frontend hooks registered through TVMFFIEnvRegisterCAPI.
int (*g_check_signals)() = nullptr;
void* (*g_gil_ensure)() = nullptr;
void (*g_gil_release)(void*) = nullptr;

}  // namespace

extern "C" {

int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                       TVMFFIStreamHandle* opt_out_original_stream) {
  if (device_type < 0 || device_id < 0) {
    return c_boundary::Fail(ErrorKind::kValueError, {"TVMFFIEnvSetStream: negative device (",
                                                     device_type, ", ", device_id, ")"});
  }
  return c_boundary::ReturnCode(
      CallingContext::Current().SetStream(device_type, device_id, stream, opt_out_original_stream));
}

TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  return CallingContext::Current().GetStream(device_type, device_id);
}

int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator) {
  CallingContext& ctx = CallingContext::Current();
  if (opt_out_original_allocator != nullptr) *opt_out_original_allocator = ctx.dlpack_allocator();
  if (write_to_global_context != 0) {
    detail::GlobalLockGuard lock;
    g_global_dlpack_allocator = allocator;
  }
  ctx.set_dlpack_allocator(allocator);
  return 0;
}

DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  const DLPackManagedTensorAllocator mine = CallingContext::Current().dlpack_allocator();
  if (mine != nullptr) return mine;
  detail::GlobalLockGuard lock;
  return g_global_dlpack_allocator;
}

int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  if (prototype == nullptr) return NullArgument("TVMFFIEnvTensorAlloc", "prototype");
  if (out == nullptr) return NullArgument("TVMFFIEnvTensorAlloc", "out");
  return c_boundary::HandOut(Tensor::FromEnvAlloc(IntSpan{prototype->shape, prototype->ndim},
                                                  prototype->dtype, prototype->device),
                             out);
}

int TVMFFIEnvCheckSignals(void) {
  if (g_check_signals == nullptr) return 0;
  // The frontend's check needs its interpreter lock when it registered one.
  void* gil = g_gil_ensure != nullptr ? g_gil_ensure() : nullptr;
  const int rc = g_check_signals();
  if (g_gil_release != nullptr) g_gil_release(gil);
  return rc != 0 ? -1 : 0;
}

int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  if (name == nullptr) return NullArgument("TVMFFIEnvRegisterCAPI", "name");
  if (std::strcmp(name, "PyErr_CheckSignals") == 0) {
    g_check_signals = reinterpret_cast<int (*)()>(symbol);
  } else if (std::strcmp(name, "PyGILState_Ensure") == 0) {
    g_gil_ensure = reinterpret_cast<void* (*)()>(symbol);
  } else if (std::strcmp(name, "PyGILState_Release") == 0) {
    g_gil_release = reinterpret_cast<void (*)(void*)>(symbol);
  } else {
    return c_boundary::Fail(ErrorKind::kValueError,
                            {"TVMFFIEnvRegisterCAPI: unknown env API '", name, "'"});
  }
  return 0;
}

}  // extern "C"

// The environment C API (tvm/ffi/extra/c_env_api.h).
#include <ffi_core/env_context.h>
#include <ffi_core/error.h>
#include <ffi_core/module.h>
#include <ffi_core/port.h>
#include <ffi_core/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>

#include <cstring>

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary

namespace {

DLPackManagedTensorAllocator g_global_dlpack_allocator = nullptr;

// Frontend hooks registered through TVMFFIEnvRegisterCAPI.
int (*g_check_signals)() = nullptr;
void* (*g_gil_ensure)() = nullptr;
void (*g_gil_release)(void*) = nullptr;

StreamEntry* FindStream(EnvContext* env, int32_t device_type, int32_t device_id) {
  for (StreamEntry& e : env->streams) {
    if (e.stream != nullptr && e.device_type == device_type && e.device_id == device_id) return &e;
  }
  return nullptr;
}

}  // namespace

extern "C" {

int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                       TVMFFIStreamHandle* opt_out_original_stream) {
  if (device_type < 0 || device_id < 0) {
    RaiseError(ErrorKind::kValueError,
               {"TVMFFIEnvSetStream: negative device (", device_type, ", ", device_id, ")"});
    return -1;
  }
  EnvContext* env = port::CurrentEnvContext();
  StreamEntry* e = FindStream(env, device_type, device_id);
  if (opt_out_original_stream != nullptr) *opt_out_original_stream = e ? e->stream : nullptr;
  if (e == nullptr && stream != nullptr) {
    for (StreamEntry& candidate : env->streams) {
      if (candidate.stream == nullptr) {
        e = &candidate;
        break;
      }
    }
    if (e == nullptr) {
      RaiseError(ErrorKind::kMemoryError, {"TVMFFIEnvSetStream: stream table full "
                                           "(FFI_CORE_STREAM_TABLE_CAPACITY=",
                                           FFI_CORE_STREAM_TABLE_CAPACITY, ")"});
      return -1;
    }
  }
  if (e != nullptr) *e = StreamEntry{device_type, device_id, stream};  // NULL frees it
  return 0;
}

TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  StreamEntry* e = FindStream(port::CurrentEnvContext(), device_type, device_id);
  return e != nullptr ? e->stream : nullptr;
}

int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator) {
  EnvContext* env = port::CurrentEnvContext();
  if (opt_out_original_allocator != nullptr) *opt_out_original_allocator = env->dlpack_allocator;
  if (write_to_global_context != 0) {
    port::GlobalLock();
    g_global_dlpack_allocator = allocator;
    port::GlobalUnlock();
  }
  env->dlpack_allocator = allocator;
  return 0;
}

DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  EnvContext* env = port::CurrentEnvContext();
  if (env->dlpack_allocator != nullptr) return env->dlpack_allocator;
  port::GlobalLock();
  DLPackManagedTensorAllocator global = g_global_dlpack_allocator;
  port::GlobalUnlock();
  return global;
}

int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  if (prototype == nullptr || out == nullptr) {
    RaiseError(ErrorKind::kValueError, {"TVMFFIEnvTensorAlloc: NULL prototype or out"});
    return -1;
  }
  Expected<Tensor> t = Tensor::FromEnvAlloc(IntSpan{prototype->shape, prototype->ndim},
                                            prototype->dtype, prototype->device);
  if (!t.ok()) return -1;
  ObjectPtr<TensorObj> obj = t.value().object();
  *out = obj.release();
  return 0;
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
  if (name == nullptr) {
    RaiseError(ErrorKind::kValueError, {"TVMFFIEnvRegisterCAPI: NULL name"});
    return -1;
  }
  if (std::strcmp(name, "PyErr_CheckSignals") == 0) {
    g_check_signals = reinterpret_cast<int (*)()>(symbol);
  } else if (std::strcmp(name, "PyGILState_Ensure") == 0) {
    g_gil_ensure = reinterpret_cast<void* (*)()>(symbol);
  } else if (std::strcmp(name, "PyGILState_Release") == 0) {
    g_gil_release = reinterpret_cast<void (*)(void*)>(symbol);
  } else {
    RaiseError(ErrorKind::kValueError, {"TVMFFIEnvRegisterCAPI: unknown env API '", name, "'"});
    return -1;
  }
  return 0;
}

int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  return RegisterSystemLibSymbol(name, symbol).ToReturnCode();
}

int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                  TVMFFIObjectHandle* out) {
  if (out == nullptr || library_ctx == nullptr) {
    RaiseError(ErrorKind::kValueError,
               {"TVMFFIEnvModLookupFromImports: ", out == nullptr ? "out" : "library_ctx",
                " is NULL (was the library loaded by a runtime?)"});
    return -1;
  }
  TVMFFIObject* ctx = static_cast<TVMFFIObject*>(library_ctx);
  if (ctx->type_index != kTVMFFIModule) {
    RaiseError(ErrorKind::kTypeError, {"TVMFFIEnvModLookupFromImports: library_ctx has type index ",
                                       ctx->type_index, ", not a Module"});
    return -1;
  }
  const Module m(ObjectPtr<ModuleObj>::Retain(reinterpret_cast<ModuleObj*>(ctx)));
  Expected<TVMFFIObject*> f = m.LookupFromImports(func_name);
  if (!f.ok()) return -1;
  *out = *f;
  return 0;
}

int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  return RegisterContextSymbol(name, symbol).ToReturnCode();
}

}  // extern "C"

// Host runtime only: a TVM shared library calls its backend through
// variables (`__TVMBackendAllocWorkspace`, ...) that the loader fills with
// the context symbols registered here, as upstream's TVM runtime does.
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/runtime/c_backend_api.h>

namespace {

__attribute__((constructor)) void RegisterBackendContextSymbols() {
  // A full table raises into the slot and is reported by the loading test;
  // a constructor has nobody to return an error to.
  (void)TVMFFIEnvModRegisterContextSymbol("__TVMBackendAllocWorkspace",
                                          reinterpret_cast<void*>(&TVMBackendAllocWorkspace));
  (void)TVMFFIEnvModRegisterContextSymbol("__TVMBackendFreeWorkspace",
                                          reinterpret_cast<void*>(&TVMBackendFreeWorkspace));
  (void)TVMFFIEnvModRegisterContextSymbol("__TVMBackendParallelLaunch",
                                          reinterpret_cast<void*>(&TVMBackendParallelLaunch));
  (void)TVMFFIEnvModRegisterContextSymbol("__TVMBackendParallelBarrier",
                                          reinterpret_cast<void*>(&TVMBackendParallelBarrier));
}

}  // namespace

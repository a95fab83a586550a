// Host runtime only: a TVM shared library calls its backend, and the
// TVM-FFI functions compiled Relax code uses, through variables
// (`__TVMBackendAllocWorkspace`, `__TVMFFIFunctionCall`, ...) that the loader
// fills with the context symbols registered here, as TVM's runtime does.
#include <tvm/ffi/c_api.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/runtime/c_backend_api.h>

namespace {

struct ContextSymbol {
  const char* name;
  void* symbol;
};

__attribute__((constructor)) void RegisterBackendContextSymbols() {
  static const ContextSymbol kSymbols[] = {
      {"__TVMBackendAllocWorkspace", reinterpret_cast<void*>(&TVMBackendAllocWorkspace)},
      {"__TVMBackendFreeWorkspace", reinterpret_cast<void*>(&TVMBackendFreeWorkspace)},
      {"__TVMBackendParallelLaunch", reinterpret_cast<void*>(&TVMBackendParallelLaunch)},
      {"__TVMBackendParallelBarrier", reinterpret_cast<void*>(&TVMBackendParallelBarrier)},
      {"__TVMFFIFunctionCall", reinterpret_cast<void*>(&TVMFFIFunctionCall)},
      {"__TVMFFIEnvModLookupFromImports", reinterpret_cast<void*>(&TVMFFIEnvModLookupFromImports)},
      {"__TVMFFIHandleInitOnce", reinterpret_cast<void*>(&TVMFFIHandleInitOnce)},
  };
  // A full table raises into the slot and shows when a library's call
  // through an unfilled variable fails; a constructor has nobody to tell.
  for (const ContextSymbol& s : kSymbols) {
    static_cast<void>(TVMFFIEnvModRegisterContextSymbol(s.name, s.symbol));
  }
}

}  // namespace

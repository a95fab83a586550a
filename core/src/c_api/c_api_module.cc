// C entry points: modules (tvm/ffi/extra/c_env_api.h): the system library
// (and its added slots, ffi_core/system_lib.h), context symbols, and look-ups
// from a library's imports.
#include <ffi_core/core_module.h>
#include <ffi_core/module.h>
#include <tvm/ffi/extra/c_env_api.h>

#include "c_api/c_boundary.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary

extern "C" {

int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol) {
  return c_boundary::ReturnCode(RegisterSystemLibSymbol(name, symbol));
}

int FFICoreSystemLibAddSlots(FFICoreSystemLibBlock* block) {
  return c_boundary::ReturnCode(AddSystemLibSlots(block));
}

int TVMFFIEnvModRegisterContextSymbol(const char* name, void* symbol) {
  return c_boundary::ReturnCode(RegisterContextSymbol(name, symbol));
}

int TVMFFIEnvModLookupFromImports(TVMFFIObjectHandle library_ctx, const char* func_name,
                                  TVMFFIObjectHandle* out) {
  if (out == nullptr) return c_boundary::NullArgument("TVMFFIEnvModLookupFromImports", "out");
  if (func_name == nullptr) {
    return c_boundary::NullArgument("TVMFFIEnvModLookupFromImports", "func_name");
  }
  // Not one of ffi-core's modules' headers: a C++ ModuleObj* (core_module.h).
  // A header's type index sits where a ModuleObj* has its object's reference
  // count, and IsCoreModule compares a header's deleter, where a ModuleObj*
  // has its type index: neither reads past the object.
  if (library_ctx != nullptr) {
    const auto* header = static_cast<const TVMFFIObject*>(library_ctx);
    if (!(header->type_index == kTVMFFIModule && IsCoreModule(header))) {
      if (CxxModuleLookup lookup = CurrentCxxModuleLookup()) {
        return lookup(library_ctx, func_name, out);
      }
    }
  }
  // A NULL context: the library was not loaded by a runtime.
  TVMFFIObject* ctx = c_boundary::CheckedHandle("TVMFFIEnvModLookupFromImports", "library_ctx",
                                                library_ctx, kTVMFFIModule, "Module");
  if (ctx == nullptr) return -1;
  const Module m(ObjectPtr<ModuleObj>::Retain(reinterpret_cast<ModuleObj*>(ctx)));
  Expected<TVMFFIObject*> f = m.LookupFromImports(func_name);
  if (!f.ok()) return -1;
  *out = *f;
  return 0;
}

}  // extern "C"

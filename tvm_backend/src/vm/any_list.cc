// The any-list API compiled Relax code reads and writes its register file,
// constants and function pool with.
#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/tvm_vm.h>

#include "vm_objects.h"

namespace {

// Every compiled Relax library calls into this file, so the executable
// loader comes with it.
__attribute__((constructor)) void RegisterLoader() { ffi_core::tvm_vm::RegisterExecutableLoader(); }

int NullList(const char* function) {
  static_cast<void>(ffi_core::RaiseError(ffi_core::ErrorKind::kValueError,
                                         {function, ": NULL any-list or args"}));
  return -1;
}

}  // namespace

extern "C" {

int TVMBackendAnyListSetPackedArg(void* anylist, int index, TVMFFIAny* args, int arg_offset) {
  if (anylist == nullptr || args == nullptr) return NullList("TVMBackendAnyListSetPackedArg");
  // A view: the list keeps the value alive for the call.
  ffi_core::CopyAny(&args[arg_offset], static_cast<const TVMFFIAny*>(anylist)[index]);
  return 0;
}

int TVMBackendAnyListResetItem(void* anylist, int index) {
  if (anylist == nullptr) return NullList("TVMBackendAnyListResetItem");
  static_cast<ffi_core::Any*>(anylist)[index].reset();
  return 0;
}

int TVMBackendAnyListMoveFromPackedReturn(void* anylist, int index, TVMFFIAny* args,
                                          int ret_offset) {
  if (anylist == nullptr || args == nullptr) {
    return NullList("TVMBackendAnyListMoveFromPackedReturn");
  }
  // The return slot owned its value; the list owns it now, in place of the old one.
  static_cast<ffi_core::Any*>(anylist)[index].reset();
  ffi_core::CopyAny(static_cast<TVMFFIAny*>(anylist) + index, args[ret_offset]);
  args[ret_offset] = ffi_core::NoneAny();
  return 0;
}

}  // extern "C"

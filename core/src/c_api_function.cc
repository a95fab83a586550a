// C entry points: functions (create, call, the global registry).
#include <ffi_core/function.h>
#include <ffi_core/padding_check.h>
#include <ffi_core/registry.h>
#include <tvm/ffi/c_api.h>

#include "c_boundary.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary
using c_boundary::NullArgument;

namespace {

// Why TVMFFIFunctionCall refuses a call its fast path rejected. Cold and out
// of line, so the call path needs no stack frame.
[[gnu::cold, gnu::noinline]] int RefuseCall(TVMFFIObjectHandle func, const TVMFFIAny* args,
                                            int32_t num_args, const TVMFFIAny* result) {
  if (func == nullptr) return NullArgument("TVMFFIFunctionCall", "func");
  if (result == nullptr) return NullArgument("TVMFFIFunctionCall", "result");
  if (num_args < 0) {
    return c_boundary::Fail(ErrorKind::kValueError,
                            {"TVMFFIFunctionCall: num_args is negative (", num_args, ")"});
  }
  if (args == nullptr && num_args != 0) return NullArgument("TVMFFIFunctionCall", "args");
  // Only the type is left. Numeric: the call path stays free of the name table.
  return c_boundary::Fail(ErrorKind::kTypeError,
                          {"TVMFFIFunctionCall: func is not a Function (type index ",
                           static_cast<TVMFFIObject*>(func)->type_index, ")"});
}

[[gnu::cold, gnu::noinline]] int RefuseResultNotNone(int32_t type_index) {
  return c_boundary::Fail(
      ErrorKind::kValueError,
      {"TVMFFIFunctionCall: result must be set to None before the call (type index ", type_index,
       ")"});
}

}  // namespace

extern "C" {

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  if (out == nullptr) return NullArgument("TVMFFIFunctionCreate", "out");
  return c_boundary::HandOut(Function::FromExternC(self, safe_call, deleter), out);
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  if (name == nullptr) return NullArgument("TVMFFIFunctionGetGlobal", "name");
  if (out == nullptr) return NullArgument("TVMFFIFunctionGetGlobal", "out");
  return c_boundary::HandOut(GetGlobalFunction(name->data, name->size), out);
}

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f, int allow_override) {
  if (name == nullptr) return NullArgument("TVMFFIFunctionSetGlobal", "name");
  if (name->size == 0) {
    return c_boundary::Fail(ErrorKind::kValueError, {"TVMFFIFunctionSetGlobal: name is empty"});
  }
  TVMFFIObject* obj =
      c_boundary::CheckedHandle("TVMFFIFunctionSetGlobal", "f", f, kTVMFFIFunction, "Function");
  if (obj == nullptr) return -1;
  Function fn(ObjectPtr<FunctionObj>::Retain(reinterpret_cast<FunctionObj*>(obj)));
  return c_boundary::ReturnCode(
      RegisterGlobalFunction(name->data, name->size, fn, allow_override != 0));
}

int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  if (func == nullptr || result == nullptr || num_args < 0 || (args == nullptr && num_args != 0) ||
      static_cast<TVMFFIObject*>(func)->type_index != kTVMFFIFunction) {
    return RefuseCall(func, args, num_args, result);
  }
  if (FFI_CORE_CHECK_PADDING) {
    if (result->type_index != kTVMFFINone) return RefuseResultNotNone(result->type_index);
    if (!CheckArgumentInvariants(args, num_args).ok()) return -1;
  }
  return TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
}

}  // extern "C"

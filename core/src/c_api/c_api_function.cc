// C entry points: functions (create, call, the global registry).
#include <ffi_core/function.h>
#include <ffi_core/padding_check.h>
#include <ffi_core/registry.h>
#include <tvm/ffi/c_api.h>

#include "c_api/c_boundary.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary
using c_boundary::NullArgument;

namespace {

// Why TVMFFIFunctionCall refuses a call its fast path rejected. Cold and out
// of line, so the call path needs no stack frame; one raise for every
// reason keeps it small.
[[gnu::cold, gnu::noinline]] int RefuseCall(TVMFFIObjectHandle func, const TVMFFIAny* args,
                                            int32_t num_args, const TVMFFIAny* result) {
  ErrorKind kind = ErrorKind::kValueError;
  const char* what = "";
  MessagePart number("");
  const char* after = "";
  if (func == nullptr) {
    what = "func is NULL";
  } else if (result == nullptr) {
    what = "result is NULL";
  } else if (num_args < 0) {
    what = "num_args is negative: ";
    number = MessagePart(num_args);
  } else if (args == nullptr && num_args != 0) {
    what = "args is NULL";
  } else {
    // Only the type is left. Numeric on purpose: the call path stays free
    // of the type-name table.
    kind = ErrorKind::kTypeError;
    what = "func is not a Function (type index ";
    number = MessagePart(static_cast<TVMFFIObject*>(func)->type_index);
    after = ")";
  }
  return c_boundary::Fail(kind, {"TVMFFIFunctionCall: ", what, number, after});
}

[[gnu::cold, gnu::noinline]] int RefuseResult(const TVMFFIAny* result) {
  return c_boundary::Fail(
      ErrorKind::kValueError,
      {"TVMFFIFunctionCall: result must be set to None before the call (type index ",
       result->type_index, ")"});
}

// The full invariant check of a call the inline fast check did not clear,
// then the call itself: the fast path stays free of non-tail calls, and this
// one's frame (under the whole call) of any message.
[[gnu::noinline]] int CheckThenCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                                    TVMFFIAny* result) {
  if (result->type_index != kTVMFFINone) return RefuseResult(result);
  if (!CheckArgumentInvariants(args, num_args).ok()) return -1;
  return TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
}

}  // namespace

extern "C" {

int TVMFFIFunctionCreate(void* self, TVMFFISafeCallType safe_call, void (*deleter)(void* self),
                         TVMFFIObjectHandle* out) {
  if (out == nullptr) return NullArgument("TVMFFIFunctionCreate", "out");
  FunctionObj* f = detail::NewExternCFunction(self, safe_call, deleter);
  if (f == nullptr) return -1;
  *out = f;
  return 0;
}

int TVMFFIFunctionGetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle* out) {
  if (name == nullptr) return NullArgument("TVMFFIFunctionGetGlobal", "name");
  if (out == nullptr) return NullArgument("TVMFFIFunctionGetGlobal", "out");
  if (c_boundary::NullBytes(*name)) {
    return NullArgument("TVMFFIFunctionGetGlobal", "name->data");
  }
  return c_boundary::HandOut(GetGlobalFunction(name->data, name->size), out);
}

int TVMFFIFunctionSetGlobal(const TVMFFIByteArray* name, TVMFFIObjectHandle f, int allow_override) {
  if (name == nullptr) return NullArgument("TVMFFIFunctionSetGlobal", "name");
  if (name->size == 0) {
    return c_boundary::Fail(ErrorKind::kValueError, {"TVMFFIFunctionSetGlobal: name is empty"});
  }
  if (c_boundary::NullBytes(*name)) return NullArgument("TVMFFIFunctionSetGlobal", "name->data");
  TVMFFIObject* obj =
      c_boundary::CheckedHandle("TVMFFIFunctionSetGlobal", "f", f, kTVMFFIFunction, "Function");
  if (obj == nullptr) return -1;
  Function fn(ObjectPtr<FunctionObj>::Retain(reinterpret_cast<FunctionObj*>(obj)));
  return c_boundary::ReturnCode(
      RegisterGlobalFunction(name->data, name->size, fn, allow_override != 0));
}

int TVMFFIFunctionCall(TVMFFIObjectHandle func, TVMFFIAny* args, int32_t num_args,
                       TVMFFIAny* result) {
  // One branch per condition, each falling through when the call is good:
  // fewer instructions than folding them into one test.
  if (__builtin_expect(func == nullptr, 0) || __builtin_expect(result == nullptr, 0) ||
      __builtin_expect(static_cast<TVMFFIObject*>(func)->type_index != kTVMFFIFunction, 0) ||
      __builtin_expect(num_args < 0, 0) || __builtin_expect(args == nullptr && num_args != 0, 0)) {
    return RefuseCall(func, args, num_args, result);
  }
  if (FFI_CORE_CHECK_PADDING &&
      (result->type_index != kTVMFFINone || !ArgumentsLookClean(args, num_args))) {
    return CheckThenCall(func, args, num_args, result);
  }
  return TVMFFIFunctionGetCellPtr(func)->safe_call(func, args, num_args, result);
}

}  // extern "C"

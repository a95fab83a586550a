#include <ffi_core/function.h>
#include <ffi_core/object.h>

namespace ffi_core {
namespace detail {

int SafeCallFailed() {
  if (HasPendingError()) return -1;
  return RaiseError(ErrorKind::kRuntimeError, {"function failed without raising an error"})
      .ToReturnCode();
}

Status RaiseArityError(const char* func, int32_t expected, int32_t actual) {
  return RaiseError(ErrorKind::kTypeError,
                    {func != nullptr ? func : "function", ": expected ", expected,
                     expected == 1 ? " argument, got " : " arguments, got ", actual});
}

}  // namespace detail

namespace {

// A C callback with its own handle and deleter.
struct ExternCFunctionObj {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
  void* self;
  TVMFFISafeCallType safe_call;
  void (*deleter)(void*);
  ~ExternCFunctionObj() {
    if (deleter != nullptr) deleter(self);
  }
};

int ExternCTrampoline(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  ExternCFunctionObj* f = static_cast<ExternCFunctionObj*>(handle);
  return f->safe_call(f->self, args, num_args, result);
}

}  // namespace

namespace detail {
FunctionObj* NewExternCFunction(void* self, TVMFFISafeCallType safe_call,
                                void (*deleter)(void* self)) {
  if (safe_call == nullptr) {
    static_cast<void>(
        RaiseError(ErrorKind::kValueError, {"TVMFFIFunctionCreate: safe_call is NULL"}));
    return nullptr;
  }
  // With neither self nor deleter, only the FunctionObj prefix is made and
  // safe_call is installed directly. One allocation site for both shapes.
  const bool direct = self == nullptr && deleter == nullptr;
  // On failure the function never came to own `self`; the caller still does.
  void* mem = AllocateObjectBody(direct ? sizeof(FunctionObj) : sizeof(ExternCFunctionObj),
                                 alignof(ExternCFunctionObj), kTVMFFIFunction);
  if (mem == nullptr) return nullptr;
  // Default-initialised and then written field by field: a zeroed header
  // first would be a call to memset at -Os, and InitObjectHeader writes it
  // all anyway.
  if (direct) {
    FunctionObj* obj = new (mem) FunctionObj;
    InitObjectHeader(&obj->header, kTVMFFIFunction, DeleterOf<FunctionObj>());
    obj->cell = TVMFFIFunctionCell{safe_call, nullptr};
    return obj;
  }
  ExternCFunctionObj* obj = new (mem) ExternCFunctionObj;
  InitObjectHeader(&obj->header, kTVMFFIFunction, DeleterOf<ExternCFunctionObj>());
  obj->cell = TVMFFIFunctionCell{&ExternCTrampoline, nullptr};
  obj->self = self;
  obj->safe_call = safe_call;
  obj->deleter = deleter;
  return reinterpret_cast<FunctionObj*>(obj);
}
}  // namespace detail

Expected<Function> Function::FromExternC(void* self, TVMFFISafeCallType safe_call,
                                         void (*deleter)(void* self)) {
  FunctionObj* obj = detail::NewExternCFunction(self, safe_call, deleter);
  if (obj == nullptr) return StatusFromPendingError();
  return Function(ObjectPtr<FunctionObj>::Adopt(obj));
}

Expected<Any> Function::CallPacked(const AnyView* args, int32_t num_args) const {
  if (!obj_) return RaiseError(ErrorKind::kValueError, {"call of an empty Function"});
  TVMFFIAny result = NoneAny();
  if (obj_->cell.safe_call(obj_.get(), reinterpret_cast<const TVMFFIAny*>(args), num_args,
                           &result) != 0) {
    return StatusFromPendingError();
  }
  return Any::AdoptRaw(result);
}

}  // namespace ffi_core

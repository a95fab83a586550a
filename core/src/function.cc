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

Expected<Function> Function::FromExternC(void* self, TVMFFISafeCallType safe_call,
                                         void (*deleter)(void* self)) {
  if (safe_call == nullptr) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIFunctionCreate: safe_call is NULL"});
  }
  if (self == nullptr && deleter == nullptr) {
    FFI_CORE_ASSIGN_OR_RETURN(FunctionObj * obj, NewObject<FunctionObj>(kTVMFFIFunction, 0));
    obj->cell = TVMFFIFunctionCell{safe_call, nullptr};
    return Function(ObjectPtr<FunctionObj>::Adopt(obj));
  }
  Expected<ExternCFunctionObj*> made = NewObject<ExternCFunctionObj>(kTVMFFIFunction, 0);
  if (!made.ok()) {
    // The function never came to own `self`; the caller still does.
    return made.status();
  }
  ExternCFunctionObj* obj = made.value();
  obj->cell = TVMFFIFunctionCell{&ExternCTrampoline, nullptr};
  obj->self = self;
  obj->safe_call = safe_call;
  obj->deleter = deleter;
  return Function(ObjectPtr<FunctionObj>::Adopt(reinterpret_cast<FunctionObj*>(obj)));
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

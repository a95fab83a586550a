// Function: a ref-counted callable with the ABI's one calling convention.
// Wraps packed C++ callables, typed C++ callables (argument conversion with
// TypeErrors naming the argument), and C callbacks; calls any Function
// object, whichever runtime made it.
#ifndef FFI_CORE_FUNCTION_H_
#define FFI_CORE_FUNCTION_H_

#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/expected.h>
#include <ffi_core/object_ptr.h>
#include <ffi_core/object_ref.h>

#include <cstddef>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

namespace ffi_core {

// The ABI layout of a Function object.
struct FunctionObj {
  TVMFFIObject header;
  TVMFFIFunctionCell cell;
};

// The arguments of a packed call.
class PackedArgs {
 public:
  PackedArgs(const AnyView* data, int32_t size) : data_(data), size_(size) {}
  int32_t size() const { return size_; }
  const AnyView& operator[](int32_t i) const { return data_[i]; }
  const AnyView* data() const { return data_; }

 private:
  const AnyView* data_;
  int32_t size_;
};

namespace detail {
// A Function over a C callback (see Function::FromExternC), owned by the
// caller; NULL with the error raised on failure.
FunctionObj* NewExternCFunction(void* self, TVMFFISafeCallType safe_call,
                                void (*deleter)(void* self));
// Turns a failed Status into the C return code, raising a RuntimeError if
// the callee forgot to raise one.
TVM_FFI_DLL int SafeCallFailed();

// The callable stored after the FunctionObj.
template <typename F>
F* CallableOf(void* function_obj) {
  return std::launder(TrailingOf<F>(static_cast<FunctionObj*>(function_obj)));
}

template <typename F>
int PackedSafeCall(void* handle, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  Any rv;
  Status s =
      (*CallableOf<F>(handle))(PackedArgs(reinterpret_cast<const AnyView*>(args), num_args), &rv);
  if (!s.ok()) return SafeCallFailed();
  rv.ReleaseRawTo(result);
  return 0;
}

template <typename F>
void CallableDeleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) CallableOf<F>(self)->~F();
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) FreeObjectStorage(self);
}

template <typename T>
struct FunctionSignature : FunctionSignature<decltype(&T::operator())> {};
template <typename R, typename... Args>
struct FunctionSignature<R (*)(Args...)> {
  using Result = R;
  using ArgTuple = std::tuple<std::decay_t<Args>...>;
  static constexpr size_t kArity = sizeof...(Args);
};
template <typename R, typename... Args>
struct FunctionSignature<R(Args...)> : FunctionSignature<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct FunctionSignature<R (C::*)(Args...) const> : FunctionSignature<R (*)(Args...)> {};
template <typename C, typename R, typename... Args>
struct FunctionSignature<R (C::*)(Args...)> : FunctionSignature<R (*)(Args...)> {};

template <typename T>
struct IsExpected : std::false_type {};
template <typename T>
struct IsExpected<Expected<T>> : std::true_type {};

Status RaiseArityError(const char* func, int32_t expected, int32_t actual);

template <typename T>
bool ReadArgument(const PackedArgs& args, int index, const char* func, T* out, Status* status) {
  Conversion c = args[index].TryAs(out);
  if (c == Conversion::kOk) return true;
  *status = RaiseConversionError(c, TypeTraits<T>::kName, args[index].type_index(), func, index);
  return false;
}

// Stores a typed callable's return value in *rv.
template <typename R>
Status StoreResult(R&& value, Any* rv) {
  using T = std::decay_t<R>;
  if constexpr (std::is_same_v<T, Status>) {
    return value;
  } else if constexpr (IsExpected<T>::value) {
    if (!value.ok()) return value.status();
    *rv = Any(std::move(value).value());
    return Status::Ok();
  } else {
    *rv = Any(std::forward<R>(value));
    return Status::Ok();
  }
}

template <typename F, size_t... I>
Status CallTyped(F& f, const char* name, PackedArgs args, Any* rv, std::index_sequence<I...>) {
  using Sig = FunctionSignature<F>;
  if (args.size() != static_cast<int32_t>(Sig::kArity)) {
    return RaiseArityError(name, static_cast<int32_t>(Sig::kArity), args.size());
  }
  typename Sig::ArgTuple values;
  Status status;
  if (!(ReadArgument(args, static_cast<int>(I), name, &std::get<I>(values), &status) && ...)) {
    return status;
  }
  if constexpr (std::is_void_v<typename Sig::Result>) {
    f(std::move(std::get<I>(values))...);
    *rv = Any();
    return Status::Ok();
  } else {
    return StoreResult(f(std::move(std::get<I>(values))...), rv);
  }
}
}  // namespace detail

class Function : public ObjectRef<FunctionObj> {
 public:
  using ObjectRef::ObjectRef;

  // f: Status(PackedArgs args, Any* result). Stored inside the object.
  template <typename F>
  static Expected<Function> FromPacked(F f) {
    FFI_CORE_ASSIGN_OR_RETURN(
        void* mem, AllocateWithTrailing(sizeof(FunctionObj), alignof(FunctionObj), sizeof(F),
                                        alignof(F), kTVMFFIFunction));
    FunctionObj* obj = static_cast<FunctionObj*>(mem);
    new (TrailingOf<F>(obj)) F(std::move(f));
    InitObjectHeader(&obj->header, kTVMFFIFunction, &detail::CallableDeleter<F>);
    obj->cell.safe_call = &detail::PackedSafeCall<F>;
    obj->cell.cpp_call = nullptr;
    return Function(ObjectPtr<FunctionObj>::Adopt(obj));
  }

  // f: any callable whose parameters and result have TypeTraits (the
  // result may also be void, Status or Expected<T>). `name` (a string
  // literal or other static text) prefixes its TypeErrors.
  template <typename F>
  static Expected<Function> FromTyped(F f, const char* name = nullptr) {
    using Sig = detail::FunctionSignature<F>;
    return FromPacked([f = std::move(f), name](PackedArgs args, Any* rv) mutable {
      return detail::CallTyped(f, name, args, rv, std::make_index_sequence<Sig::kArity>());
    });
  }

  // A C callback; deleter(self) runs when the function is released. With
  // neither self nor deleter, safe_call is installed directly and receives
  // the function object as its handle (as upstream does).
  static Expected<Function> FromExternC(void* self, TVMFFISafeCallType safe_call,
                                        void (*deleter)(void* self));

  // Calls with any arguments that have TypeTraits.
  template <typename... Args>
  Expected<Any> operator()(const Args&... args) const {
    const AnyView views[sizeof...(Args) + 1] = {AnyView(args)...};
    return CallPacked(views, static_cast<int32_t>(sizeof...(Args)));
  }
  TVM_FFI_DLL Expected<Any> CallPacked(const AnyView* args, int32_t num_args) const;
};

template <>
struct TypeTraits<Function> : detail::ObjectRefTraits<Function, kTVMFFIFunction> {
  static constexpr const char* kName = "Function";
};

}  // namespace ffi_core

#endif  // FFI_CORE_FUNCTION_H_

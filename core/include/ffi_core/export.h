// Exporting typed C++ kernels as `__tvm_ffi_<name>` symbols with the one C
// calling convention: arguments are converted with type checks, and any
// failure (wrong arity, wrong type, an error the kernel returns) goes to the
// error slot with a non-zero return. No exceptions, no allocation for the
// call itself.
//
//   int64_t AddOne(int64_t x) { return x + 1; }
//   FFI_CORE_DLL_EXPORT_TYPED_FUNC(add_one, AddOne);
#ifndef FFI_CORE_EXPORT_H_
#define FFI_CORE_EXPORT_H_

#include <ffi_core/function.h>

namespace ffi_core {
namespace detail {

template <typename F>
int InvokeTyped(F& f, const char* name, const TVMFFIAny* args, int32_t num_args,
                TVMFFIAny* result) {
  using Sig = FunctionSignature<F>;
  Any rv;
  Status s = CallTyped(f, name, PackedArgs(reinterpret_cast<const AnyView*>(args), num_args), &rv,
                       std::make_index_sequence<Sig::kArity>());
  if (!s.ok()) return SafeCallFailed();
  *result = rv.ReleaseRaw();
  return 0;
}

}  // namespace detail
}  // namespace ffi_core

#define FFI_CORE_DLL_EXPORT_TYPED_FUNC(ExportName, Function)                               \
  extern "C" TVM_FFI_DLL_EXPORT int __tvm_ffi_##ExportName(                                \
      void* /*handle*/, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {      \
    static auto function = (Function);                                                     \
    return ::ffi_core::detail::InvokeTyped(function, #ExportName, args, num_args, result); \
  }

#endif  // FFI_CORE_EXPORT_H_

// Upstream's free C++ functions here are ffi-core's globals of the same
// operation (extra/frontend), called through upstream's Function: a failure
// comes back as the tvm::ffi::Error upstream's would throw. That inline code
// (and json::Parse's catch) is what puts Error's vtable and typeinfo, which
// libtvm_ffi.so exports, into libffi_core.so.
#ifndef FFI_CORE_EXTRA_CXX_API_CALL_GLOBAL_H_
#define FFI_CORE_EXTRA_CXX_API_CALL_GLOBAL_H_

#include <tvm/ffi/function.h>

#include <utility>

namespace tvm {
namespace ffi {
namespace cxx_api {

template <typename... Args>
Any CallGlobal(const char* name, Args&&... args) {
  return Function::GetGlobalRequired(name)(std::forward<Args>(args)...);
}

}  // namespace cxx_api
}  // namespace ffi
}  // namespace tvm

#endif  // FFI_CORE_EXTRA_CXX_API_CALL_GLOBAL_H_

// Internal: the global functions core provides itself ("ffi.SystemLib",
// "ffi.ModuleGetFunction", ...), made on demand so they take no registry
// entry or memory until asked for. Defined in module.cc.
#ifndef FFI_CORE_SRC_BUILTIN_GLOBALS_H_
#define FFI_CORE_SRC_BUILTIN_GLOBALS_H_

#include <ffi_core/expected.h>
#include <ffi_core/function.h>

#include <cstddef>

namespace ffi_core {
namespace detail {

// The built-in global `name`, made on demand, or an empty Function.
Expected<Function> FindBuiltinGlobal(const char* name, size_t size);

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_BUILTIN_GLOBALS_H_

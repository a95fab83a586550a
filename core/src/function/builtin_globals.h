// Internal: global functions made on demand, so they take no registry entry
// or memory until asked for: core's own ("ffi.SystemLib", ...) and the
// TVM backend's ("vm.builtin.*") are tables of Builtin.
#ifndef FFI_CORE_SRC_FUNCTION_BUILTIN_GLOBALS_H_
#define FFI_CORE_SRC_FUNCTION_BUILTIN_GLOBALS_H_

#include <ffi_core/expected.h>
#include <ffi_core/function.h>
#include <ffi_core/same_bytes.h>

#include <cstddef>
#include <cstring>

namespace ffi_core {
namespace detail {

struct Builtin {
  const char* name;
  Status (*fn)(PackedArgs args, Any* rv);
};

// The function `name` (`size` bytes) of `table`, made now, or an empty Function.
template <size_t N>
Expected<Function> MakeBuiltin(const Builtin (&table)[N], const char* name, size_t size) {
  for (const Builtin& b : table) {
    if (SameBytes(b.name, std::strlen(b.name), name, size)) {
      return Function::FromPacked(b.fn);
    }
  }
  return Function();
}

// Core's built-in global `name`, made on demand, or an empty Function.
// Defined in module.cc.
Expected<Function> FindBuiltinGlobal(const char* name, size_t size);

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_FUNCTION_BUILTIN_GLOBALS_H_

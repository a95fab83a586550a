// A table of the frontend's global functions, registered in one go.
#ifndef FFI_CORE_EXTRA_FRONTEND_GLOBAL_TABLE_H_
#define FFI_CORE_EXTRA_FRONTEND_GLOBAL_TABLE_H_

#include <ffi_core/function.h>
#include <ffi_core/registry.h>
#include <ffi_core/status.h>

#include <cstddef>
#include <cstring>

namespace ffi_core {
namespace frontend {

struct GlobalEntry {
  const char* name;
  Status (*fn)(PackedArgs, Any*);
};

template <size_t N>
Status RegisterGlobalTable(const GlobalEntry (&table)[N]) {
  for (const GlobalEntry& g : table) {
    FFI_CORE_ASSIGN_OR_RETURN(Function f, Function::FromPacked(g.fn));
    FFI_CORE_RETURN_IF_ERROR(RegisterGlobalFunction(g.name, std::strlen(g.name), f, false));
  }
  return Status::Ok();
}

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_GLOBAL_TABLE_H_

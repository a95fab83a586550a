// The module queries of upstream's Python package (tvm_ffi.Module's kind,
// imports, metadata and doc strings), as "ffi.Module*" globals.
#ifndef FFI_CORE_EXTRA_FRONTEND_MODULES_MODULE_QUERIES_H_
#define FFI_CORE_EXTRA_FRONTEND_MODULES_MODULE_QUERIES_H_

#include <ffi_core/status.h>

namespace ffi_core {
namespace frontend {

// Registers the globals; the first failure is returned (and raised).
Status RegisterModuleQueries();

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_MODULES_MODULE_QUERIES_H_

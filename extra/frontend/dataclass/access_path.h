// "ffi.reflection.AccessStep" and "ffi.reflection.AccessPath": the access
// paths of upstream's reflection (tvm_ffi.access_path), as the objects its
// Python package reads: a step is a kind (attribute, array item, map item,
// or one of them missing) and a key; a path is its parent path, its last
// step and its depth, with the methods upstream registers (_root, _extend,
// _attr, ..., _is_prefix_of, _to_steps, _path_equal).
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_ACCESS_PATH_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_ACCESS_PATH_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <ffi_core/status.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace frontend {

// Upstream's AccessKind.
enum AccessKind : int32_t {
  kAttr = 0,
  kArrayItem = 1,
  kMapItem = 2,
  kAttrMissing = 3,
  kArrayItemMissing = 4,
  kMapItemMissing = 5,
};

struct AccessStep {
  int32_t kind = kAttr;
  Any key;
};

// The AccessPath from the root through steps[0..n), root side first.
Expected<Any> MakeAccessPath(const AccessStep* steps, size_t n);

Status RegisterAccessPath();

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_ACCESS_PATH_H_

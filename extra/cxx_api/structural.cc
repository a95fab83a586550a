// Upstream's StructuralEqual and StructuralHash over
// extra/frontend/structural's globals.
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>

#include "call_global.h"

namespace tvm {
namespace ffi {

bool StructuralEqual::Equal(const Any& lhs, const Any& rhs, bool map_free_vars,
                            bool skip_tensor_content) {
  return cxx_api::CallGlobal("ffi.StructuralEqual", lhs, rhs, map_free_vars, skip_tensor_content)
      .cast<bool>();
}

Optional<reflection::AccessPathPair> StructuralEqual::GetFirstMismatch(const Any& lhs,
                                                                       const Any& rhs,
                                                                       bool map_free_vars,
                                                                       bool skip_tensor_content) {
  return cxx_api::CallGlobal("ffi.GetFirstStructuralMismatch", lhs, rhs, map_free_vars,
                             skip_tensor_content)
      .cast<Optional<reflection::AccessPathPair>>();
}

uint64_t StructuralHash::Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  // The global answers the hash's bits as an int64, as upstream's does.
  return static_cast<uint64_t>(
      cxx_api::CallGlobal("ffi.StructuralHash", value, map_free_vars, skip_tensor_content)
          .cast<int64_t>());
}

}  // namespace ffi
}  // namespace tvm

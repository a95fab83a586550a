// Upstream's dataclass operations (DeepCopy, ReprPrint, RecursiveHash and
// the Recursive* comparisons) over extra/frontend/dataclass's globals.
#include <tvm/ffi/extra/dataclass.h>

#include "call_global.h"

namespace tvm {
namespace ffi {

Any DeepCopy(const Any& value) { return cxx_api::CallGlobal("ffi.DeepCopy", value); }

String ReprPrint(const Any& value) {
  return cxx_api::CallGlobal("ffi.ReprPrint", value).cast<String>();
}

int64_t RecursiveHash(const Any& value) {
  return cxx_api::CallGlobal("ffi.RecursiveHash", value).cast<int64_t>();
}

bool RecursiveEq(const Any& lhs, const Any& rhs) {
  return cxx_api::CallGlobal("ffi.RecursiveEq", lhs, rhs).cast<bool>();
}

bool RecursiveLt(const Any& lhs, const Any& rhs) {
  return cxx_api::CallGlobal("ffi.RecursiveLt", lhs, rhs).cast<bool>();
}

bool RecursiveLe(const Any& lhs, const Any& rhs) {
  return cxx_api::CallGlobal("ffi.RecursiveLe", lhs, rhs).cast<bool>();
}

bool RecursiveGt(const Any& lhs, const Any& rhs) {
  return cxx_api::CallGlobal("ffi.RecursiveGt", lhs, rhs).cast<bool>();
}

bool RecursiveGe(const Any& lhs, const Any& rhs) {
  return cxx_api::CallGlobal("ffi.RecursiveGe", lhs, rhs).cast<bool>();
}

}  // namespace ffi
}  // namespace tvm

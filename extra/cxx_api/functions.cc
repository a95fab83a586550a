// Upstream's free C++ functions (JSON text, the JSON graph, structural and
// recursive comparison, repr, deep copy), each the global of the same
// operation that ffi-core's frontend registers (extra/frontend), called
// through upstream's Function: a failure comes back as the tvm::ffi::Error
// upstream's would throw.
#include <tvm/ffi/extra/dataclass.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>
#include <tvm/ffi/extra/structural_equal.h>
#include <tvm/ffi/extra/structural_hash.h>
#include <tvm/ffi/function.h>

#include <utility>

namespace tvm {
namespace ffi {
namespace {

template <typename... Args>
Any CallGlobal(const char* name, Args&&... args) {
  return Function::GetGlobalRequired(name)(std::forward<Args>(args)...);
}

}  // namespace

namespace json {

Value Parse(const String& json_str, String* error_msg) {
  if (error_msg == nullptr) return CallGlobal("ffi.json.Parse", json_str);
  // As upstream: with somewhere to put it, bad text gives its message and
  // None instead of an exception; good text an empty message.
  try {
    Value value = CallGlobal("ffi.json.Parse", json_str);
    *error_msg = String("");
    return value;
  } catch (const Error& e) {
    *error_msg = e.message();
    return nullptr;
  }
}

String Stringify(const Value& value, const Optional<int>& indent) {
  return CallGlobal("ffi.json.Stringify", value, indent).cast<String>();
}

}  // namespace json

json::Value ToJSONGraph(const Any& value, const Any& metadata) {
  return CallGlobal("ffi.ToJSONGraph", value, metadata);
}

Any FromJSONGraph(const json::Value& value) { return CallGlobal("ffi.FromJSONGraph", value); }

bool StructuralEqual::Equal(const Any& lhs, const Any& rhs, bool map_free_vars,
                            bool skip_tensor_content) {
  return CallGlobal("ffi.StructuralEqual", lhs, rhs, map_free_vars, skip_tensor_content)
      .cast<bool>();
}

Optional<reflection::AccessPathPair> StructuralEqual::GetFirstMismatch(const Any& lhs,
                                                                       const Any& rhs,
                                                                       bool map_free_vars,
                                                                       bool skip_tensor_content) {
  return CallGlobal("ffi.GetFirstStructuralMismatch", lhs, rhs, map_free_vars, skip_tensor_content)
      .cast<Optional<reflection::AccessPathPair>>();
}

uint64_t StructuralHash::Hash(const Any& value, bool map_free_vars, bool skip_tensor_content) {
  // The global answers the hash's bits as an int64, as upstream's does.
  return static_cast<uint64_t>(
      CallGlobal("ffi.StructuralHash", value, map_free_vars, skip_tensor_content).cast<int64_t>());
}

Any DeepCopy(const Any& value) { return CallGlobal("ffi.DeepCopy", value); }

String ReprPrint(const Any& value) { return CallGlobal("ffi.ReprPrint", value).cast<String>(); }

int64_t RecursiveHash(const Any& value) {
  return CallGlobal("ffi.RecursiveHash", value).cast<int64_t>();
}

bool RecursiveEq(const Any& lhs, const Any& rhs) {
  return CallGlobal("ffi.RecursiveEq", lhs, rhs).cast<bool>();
}

bool RecursiveLt(const Any& lhs, const Any& rhs) {
  return CallGlobal("ffi.RecursiveLt", lhs, rhs).cast<bool>();
}

bool RecursiveLe(const Any& lhs, const Any& rhs) {
  return CallGlobal("ffi.RecursiveLe", lhs, rhs).cast<bool>();
}

bool RecursiveGt(const Any& lhs, const Any& rhs) {
  return CallGlobal("ffi.RecursiveGt", lhs, rhs).cast<bool>();
}

bool RecursiveGe(const Any& lhs, const Any& rhs) {
  return CallGlobal("ffi.RecursiveGe", lhs, rhs).cast<bool>();
}

}  // namespace ffi
}  // namespace tvm

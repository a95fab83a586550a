// Upstream's JSON text (json::Parse, json::Stringify) and JSON graph
// (ToJSONGraph, FromJSONGraph) over extra/frontend/serialization's globals.
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/extra/serialization.h>

#include "call_global.h"

namespace tvm {
namespace ffi {
namespace json {

Value Parse(const String& json_str, String* error_msg) {
  if (error_msg == nullptr) return cxx_api::CallGlobal("ffi.json.Parse", json_str);
  // As upstream: with somewhere to put it, bad text gives its message and
  // None instead of an exception; good text an empty message.
  try {
    Value value = cxx_api::CallGlobal("ffi.json.Parse", json_str);
    *error_msg = String("");
    return value;
  } catch (const Error& e) {
    *error_msg = e.message();
    return nullptr;
  }
}

String Stringify(const Value& value, const Optional<int>& indent) {
  return cxx_api::CallGlobal("ffi.json.Stringify", value, indent).cast<String>();
}

}  // namespace json

json::Value ToJSONGraph(const Any& value, const Any& metadata) {
  return cxx_api::CallGlobal("ffi.ToJSONGraph", value, metadata);
}

Any FromJSONGraph(const json::Value& value) {
  return cxx_api::CallGlobal("ffi.FromJSONGraph", value);
}

}  // namespace ffi
}  // namespace tvm

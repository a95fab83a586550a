// JSON text to and from values, as upstream's json::Value holds them: null
// as None, true/false as bool, integers as int, other numbers as float,
// strings as String, arrays as Array, objects as Map from String keys.
// NaN and the infinities are written and read as Python's json module does
// (NaN, Infinity, -Infinity). Bad text is a ValueError naming the offset.
#ifndef FFI_CORE_EXTRA_FRONTEND_SERIALIZATION_JSON_TEXT_H_
#define FFI_CORE_EXTRA_FRONTEND_SERIALIZATION_JSON_TEXT_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <ffi_core/string.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace frontend {

// indent 0: compact; else each item on its own line, `indent` spaces a
// level, and ": " after keys, as upstream's json::Stringify writes.
Expected<String> JsonStringify(const AnyView& value, int32_t indent = 0);
Expected<Any> JsonParse(const char* text, size_t size);

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_SERIALIZATION_JSON_TEXT_H_

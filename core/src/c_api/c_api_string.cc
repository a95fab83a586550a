// C entry points: strings, bytes and data types.
#include <ffi_core/dtype.h>
#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

#include "c_api/c_boundary.h"
#include "string/small_bytes.h"

using namespace ffi_core;  // NOLINT(build/namespaces): this file is the C boundary
using c_boundary::NullArgument;

namespace {

// Inlined into each entry point: the small form then costs no call, and the
// others are one tail call.
[[gnu::always_inline]] inline int ByteSequenceFromByteArray(const char* function,
                                                            const TVMFFIByteArray* input,
                                                            TVMFFIAny* out, int32_t small_index,
                                                            int32_t object_index) {
  if (input == nullptr) return NullArgument(function, "input");
  if (out == nullptr) return NullArgument(function, "out");
  const char* data = input->data;
  const size_t size = input->size;
  if (size > kSmallBytesCapacity) return detail::WriteBytesObject(input, out, object_index);
  if (data != nullptr && detail::WriteSmallBytesInPlace(data, size, small_index, out)) return 0;
  // NULL data, or bytes inside *out.
  return detail::WriteSmallByteSequence(data, size, out, small_index);
}

}  // namespace

extern "C" {

int TVMFFIStringFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  return ByteSequenceFromByteArray("TVMFFIStringFromByteArray", input, out, kTVMFFISmallStr,
                                   kTVMFFIStr);
}

int TVMFFIBytesFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  return ByteSequenceFromByteArray("TVMFFIBytesFromByteArray", input, out, kTVMFFISmallBytes,
                                   kTVMFFIBytes);
}

int TVMFFIDataTypeFromString(const TVMFFIByteArray* str, DLDataType* out) {
  if (str == nullptr) return NullArgument("TVMFFIDataTypeFromString", "str");
  if (out == nullptr) return NullArgument("TVMFFIDataTypeFromString", "out");
  if (c_boundary::NullBytes(*str)) {
    return NullArgument("TVMFFIDataTypeFromString", "str->data");
  }
  return c_boundary::ReturnCode(DataTypeFromString(str->data, str->size, out));
}

int TVMFFIDataTypeToString(const DLDataType* dtype, TVMFFIAny* out) {
  if (dtype == nullptr) return NullArgument("TVMFFIDataTypeToString", "dtype");
  if (out == nullptr) return NullArgument("TVMFFIDataTypeToString", "out");
  char buf[kDataTypeNameCapacity];
  size_t size = 0;
  if (!DataTypeToString(*dtype, buf, &size).ok()) return -1;
  TVMFFIByteArray bytes{buf, size};
  return TVMFFIStringFromByteArray(&bytes, out);
}

}  // extern "C"

// The small form of a String/Bytes (at most 7 bytes inside the TVMFFIAny),
// written inline by the C entry points and by WriteByteSequence.
#ifndef FFI_CORE_SRC_SMALL_BYTES_H_
#define FFI_CORE_SRC_SMALL_BYTES_H_

#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace detail {

// size <= kSmallBytesCapacity; data may be NULL only when size is 0. Always
// inlined: a call would cost as much as the copy.
[[gnu::always_inline]] inline void WriteSmallBytes(const char* data, size_t size,
                                                   int32_t small_index, TVMFFIAny* out) {
  // Built aside: data may point into *out.
  TVMFFIAny raw;
  raw.v_int64 = 0;
  // At most 7 bytes, copied one by one: a loop or memcpy becomes a library
  // call at -Os (and ARMv6-M has no unaligned word access to inline).
  char* to = raw.v_bytes;
  switch (size) {
    case 7:
      to[6] = data[6];
      [[fallthrough]];
    case 6:
      to[5] = data[5];
      [[fallthrough]];
    case 5:
      to[4] = data[4];
      [[fallthrough]];
    case 4:
      to[3] = data[3];
      [[fallthrough]];
    case 3:
      to[2] = data[2];
      [[fallthrough]];
    case 2:
      to[1] = data[1];
      [[fallthrough]];
    case 1:
      to[0] = data[0];
      [[fallthrough]];
    default:
      break;
  }
  // Field by field: a struct copy is a call to memcpy on ARMv6-M at -Os.
  out->type_index = small_index;
  out->small_str_len = static_cast<uint32_t>(size);
  out->v_int64 = raw.v_int64;
}

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_SMALL_BYTES_H_

// The small form of a String/Bytes (at most 7 bytes inside the TVMFFIAny),
// written inline by the C entry points and by WriteSmallByteSequence.
#ifndef FFI_CORE_SRC_STRING_SMALL_BYTES_H_
#define FFI_CORE_SRC_STRING_SMALL_BYTES_H_

#include <ffi_core/string.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace detail {

// Copies size <= kSmallBytesCapacity bytes (data may be NULL only when size
// is 0), byte by byte: a loop or memcpy becomes a library call at -Os, and
// ARMv6-M has no unaligned word access to inline. Two or three compares pick
// the entry into one run of copies, last byte first; a switch would be a
// jump table, which ARMv6-M dispatches through a libgcc helper costing more
// than the copy. Always inlined, as are the writers below: a call would cost
// as much as the copy.
[[gnu::always_inline]] inline void CopySmallBytes(const char* data, size_t size, char* to) {
  if (size > 3) {
    if (size > 5) {
      if (size == 7) to[6] = data[6];
      to[5] = data[5];
    } else if (size == 4) {
      goto copy4;
    }
    to[4] = data[4];
  copy4:
    to[3] = data[3];
  } else if (size != 3) {
    if (size == 2) goto copy2;
    if (size == 1) goto copy1;
    return;
  }
  to[2] = data[2];
copy2:
  to[1] = data[1];
copy1:
  to[0] = data[0];
}

// Field by field: a struct copy is a call to memcpy on ARMv6-M at -Os.
[[gnu::always_inline]] inline void WriteSmallHead(int32_t small_index, size_t size,
                                                  TVMFFIAny* out) {
  out->type_index = small_index;
  out->small_str_len = static_cast<uint32_t>(size);
}

// The small form of any input, data possibly pointing into *out.
[[gnu::always_inline]] inline void WriteSmallBytes(const char* data, size_t size,
                                                   int32_t small_index, TVMFFIAny* out) {
  // Built aside.
  TVMFFIAny raw;
  raw.v_int64 = 0;
  CopySmallBytes(data, size, raw.v_bytes);
  WriteSmallHead(small_index, size, out);
  out->v_int64 = raw.v_int64;
}

// The same straight into *out, refusing (false) when the bytes might overlap
// its value, which is zeroed first: no buffer, no stack frame.
[[gnu::always_inline]] inline bool WriteSmallBytesInPlace(const char* data, size_t size,
                                                          int32_t small_index, TVMFFIAny* out) {
  // Bytes that would overlap the value start in [value - 7, value + 8), so
  // inside *out itself (value is its second half): one subtract and one
  // compare refuse that whole 16-byte range.
  if (reinterpret_cast<uintptr_t>(data) - reinterpret_cast<uintptr_t>(out) < sizeof(TVMFFIAny)) {
    return false;
  }
  // Zeroed as two 32-bit fields: one zero register, where a 64-bit store
  // takes a pair (and a frame to save it) on 32-bit targets.
  out->v_device.device_type = static_cast<DLDeviceType>(0);
  out->v_device.device_id = 0;
  CopySmallBytes(data, size, out->v_bytes);
  WriteSmallHead(small_index, size, out);
  return true;
}

}  // namespace detail
}  // namespace ffi_core

#endif  // FFI_CORE_SRC_STRING_SMALL_BYTES_H_

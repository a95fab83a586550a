// SameBytes: whether two runs of bytes (names, keys, kinds, text) are equal;
// the one comparison every table look-up by name uses.
#ifndef FFI_CORE_SAME_BYTES_H_
#define FFI_CORE_SAME_BYTES_H_

#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstring>

namespace ffi_core {

// Either pointer may be NULL when its size is 0 (memcmp must not see it).
inline bool SameBytes(const char* a, size_t a_size, const char* b, size_t b_size) {
  return a_size == b_size && (a_size == 0 || std::memcmp(a, b, a_size) == 0);
}
inline bool SameBytes(const TVMFFIByteArray& a, const TVMFFIByteArray& b) {
  return SameBytes(a.data, a.size, b.data, b.size);
}

}  // namespace ffi_core

#endif  // FFI_CORE_SAME_BYTES_H_

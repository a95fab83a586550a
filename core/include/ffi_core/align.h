// Rounding sizes and addresses to an alignment: the one definition that
// allocators, object layouts and the TVM workspace share.
#ifndef FFI_CORE_ALIGN_H_
#define FFI_CORE_ALIGN_H_

#include <cstddef>
#include <type_traits>

namespace ffi_core {

constexpr bool IsPowerOfTwo(size_t x) { return x != 0 && (x & (x - 1)) == 0; }

// x rounded up or down to a multiple of `align`, a power of two. T is a size
// (size_t) or an address (uintptr_t).
template <typename T>
constexpr T AlignUp(T x, size_t align) {
  static_assert(std::is_unsigned_v<T>, "sizes and addresses only");
  return (x + static_cast<T>(align - 1)) & ~static_cast<T>(align - 1);
}
template <typename T>
constexpr T AlignDown(T x, size_t align) {
  static_assert(std::is_unsigned_v<T>, "sizes and addresses only");
  return x & ~static_cast<T>(align - 1);
}

}  // namespace ffi_core

#endif  // FFI_CORE_ALIGN_H_

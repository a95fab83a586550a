#include "big_int_text.h"

#include <ffi_core/allocator.h>
#include <ffi_core/error.h>

#include <cstring>

namespace ffi_core {
namespace frontend {

// A big integer's words (two's complement, least significant first) in
// decimal: the magnitude in 32-bit limbs, divided by 10^9 until zero.
Status AppendBigIntDecimal(TextBuilder& out, TVMFFIByteArray words) {
  const size_t num_limbs = words.size / 4;
  const Allocator& alloc = *GetAllocator();
  auto* limbs = static_cast<uint32_t*>(Allocate(alloc, num_limbs * 4 + 1, alignof(uint32_t)));
  auto* digits = static_cast<char*>(Allocate(alloc, num_limbs * 10 + 2, 1));
  if (limbs == nullptr || digits == nullptr) {
    if (limbs != nullptr) Deallocate(alloc, limbs, num_limbs * 4 + 1, alignof(uint32_t));
    if (digits != nullptr) Deallocate(alloc, digits, num_limbs * 10 + 2, 1);
    return RaiseError(ErrorKind::kMemoryError, {"out of memory printing a big integer"});
  }
  for (size_t i = 0; i < num_limbs; ++i) {
    uint64_t w;
    std::memcpy(&w, words.data + (i / 2) * 8, 8);
    limbs[i] = static_cast<uint32_t>(i % 2 == 0 ? w : w >> 32);
  }
  const bool negative = num_limbs != 0 && (limbs[num_limbs - 1] & 0x80000000u) != 0;
  if (negative) {  // two's complement negation: invert, add one
    uint64_t carry = 1;
    for (size_t i = 0; i < num_limbs; ++i) {
      const uint64_t v = static_cast<uint64_t>(~limbs[i]) + carry;
      limbs[i] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  size_t n = 0;
  size_t top = num_limbs;
  do {
    while (top > 0 && limbs[top - 1] == 0) --top;
    uint64_t rem = 0;
    for (size_t i = top; i-- > 0;) {
      const uint64_t cur = (rem << 32) | limbs[i];
      limbs[i] = static_cast<uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    while (top > 0 && limbs[top - 1] == 0) --top;
    for (int d = 0; d < 9 && (top > 0 || rem != 0 || d == 0); ++d) {
      digits[n++] = static_cast<char>('0' + rem % 10);
      rem /= 10;
    }
  } while (top > 0);
  if (negative) digits[n++] = '-';
  for (size_t i = 0; i < n / 2; ++i) {
    const char t = digits[i];
    digits[i] = digits[n - 1 - i];
    digits[n - 1 - i] = t;
  }
  Status s = out.Append(digits, n);
  Deallocate(alloc, limbs, num_limbs * 4 + 1, alignof(uint32_t));
  Deallocate(alloc, digits, num_limbs * 10 + 2, 1);
  return s;
}

Expected<Any> IntegerFromDecimal(const char* text, size_t size) {
  const bool negative = size > 0 && text[0] == '-';
  const size_t first = negative ? 1 : 0;
  if (size == first) return RaiseError(ErrorKind::kValueError, {"not a decimal integer"});
  // Each decimal digit adds under 3.33 bits; one spare limb for the sign.
  const size_t num_limbs = (size - first) / 9 + 2;
  const size_t bytes = ((num_limbs + 1) / 2) * 8;
  const Allocator& alloc = *GetAllocator();
  auto* limbs = static_cast<uint32_t*>(Allocate(alloc, bytes, alignof(uint64_t)));
  if (limbs == nullptr) {
    return RaiseError(ErrorKind::kMemoryError, {"out of memory reading a big integer"});
  }
  std::memset(limbs, 0, bytes);
  Status status = Status::Ok();
  for (size_t i = first; i < size && status.ok(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      status = RaiseError(ErrorKind::kValueError, {"not a decimal integer"});
      break;
    }
    uint64_t carry = static_cast<uint64_t>(text[i] - '0');
    for (size_t k = 0; k < bytes / 4; ++k) {
      const uint64_t v = static_cast<uint64_t>(limbs[k]) * 10 + carry;
      limbs[k] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  if (status.ok() && negative) {  // two's complement negation: invert, add one
    uint64_t carry = 1;
    for (size_t k = 0; k < bytes / 4; ++k) {
      const uint64_t v = static_cast<uint64_t>(~limbs[k]) + carry;
      limbs[k] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  Expected<Any> result = status;
  if (status.ok()) {
    // Limbs pair into native 64-bit words (low limb first).
    auto* words = reinterpret_cast<char*>(limbs);
    for (size_t w = 0; w < bytes / 8; ++w) {
      const uint64_t word = uint64_t{limbs[2 * w]} | (uint64_t{limbs[2 * w + 1]} << 32);
      std::memcpy(words + 8 * w, &word, 8);
    }
    const TVMFFIByteArray input{words, bytes};
    TVMFFIAny out = NoneAny();
    result = TVMFFIBigIntFromByteArray(&input, &out) == 0 ? Expected<Any>(Any::AdoptRaw(out))
                                                          : Expected<Any>(StatusFromPendingError());
  }
  Deallocate(alloc, limbs, bytes, alignof(uint64_t));
  return result;
}

}  // namespace frontend
}  // namespace ffi_core

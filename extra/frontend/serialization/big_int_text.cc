#include "serialization/big_int_text.h"

#include <ffi_core/error.h>

#include <cstring>

#include "scratch.h"

namespace ffi_core {
namespace frontend {

// A big integer's words (two's complement, least significant first) in
// decimal: the magnitude in 32-bit limbs, divided by 10^9 until zero.
Status AppendBigIntDecimal(TextBuilder& out, TVMFFIByteArray words) {
  const size_t num_limbs = words.size / 4;
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<uint32_t> limbs,
                            Scratch<uint32_t>::Make(num_limbs, "a big integer's digits"));
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<char> digits,
                            Scratch<char>::Make(num_limbs * 10 + 2, "a big integer's digits"));
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
  return out.Append(digits.data(), n);
}

Expected<Any> IntegerFromDecimal(const char* text, size_t size) {
  // A sign, then digits; upstream takes a '+' too ("+0007").
  const bool negative = size > 0 && text[0] == '-';
  const size_t first = size > 0 && (negative || text[0] == '+') ? 1 : 0;
  if (size == first) return RaiseError(ErrorKind::kValueError, {"not a decimal integer"});
  // Each decimal digit adds under 3.33 bits; one spare limb for the sign.
  const size_t num_limbs = (size - first) / 9 + 2;
  const size_t bytes = ((num_limbs + 1) / 2) * 8;
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<uint32_t> limbs,
                            Scratch<uint32_t>::Make(bytes / 4, "a big integer"));
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<uint64_t> words,
                            Scratch<uint64_t>::Make(bytes / 8, "a big integer"));
  for (size_t i = first; i < size; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return RaiseError(ErrorKind::kValueError, {"not a decimal integer"});
    }
    uint64_t carry = static_cast<uint64_t>(text[i] - '0');
    for (size_t k = 0; k < bytes / 4; ++k) {
      const uint64_t v = static_cast<uint64_t>(limbs[k]) * 10 + carry;
      limbs[k] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  if (negative) {  // two's complement negation: invert, add one
    uint64_t carry = 1;
    for (size_t k = 0; k < bytes / 4; ++k) {
      const uint64_t v = static_cast<uint64_t>(~limbs[k]) + carry;
      limbs[k] = static_cast<uint32_t>(v);
      carry = v >> 32;
    }
  }
  // Limbs pair into native 64-bit words (low limb first).
  for (size_t w = 0; w < bytes / 8; ++w) {
    words[w] = uint64_t{limbs[2 * w]} | (uint64_t{limbs[2 * w + 1]} << 32);
  }
  const TVMFFIByteArray input{reinterpret_cast<const char*>(words.data()), bytes};
  TVMFFIAny out = NoneAny();
  if (TVMFFIBigIntFromByteArray(&input, &out) != 0) return StatusFromPendingError();
  return Any::AdoptRaw(out);
}

}  // namespace frontend
}  // namespace ffi_core

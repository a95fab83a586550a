#include <ffi_core/container/any_hash.h>
#include <ffi_core/container/object_key_hooks.h>
#include <ffi_core/string.h>

#include <cstring>

namespace ffi_core {

uint64_t HashCombine(uint64_t key, uint64_t value) {
  return key ^ (value + 0x9e3779b9 + (key << 6) + (key >> 2));
}

namespace {

constexpr uint64_t kMod = 2147483647ull;  // the Mersenne prime 2^31 - 1

// x % kMod by folding (x = hi * 2^31 + lo = hi + lo mod 2^31 - 1): no
// 64-bit division, which 32-bit cores do in a library call.
uint64_t Mod(uint64_t x) {
  x = (x & kMod) + (x >> 31);
  x = (x & kMod) + (x >> 31);
  return x >= kMod ? x - kMod : x;
}

}  // namespace

// 8 bytes (little-endian, zero-padded at the end) folded per step, modulo
// 2^31 - 1, as upstream's StableHashBytes (its products wrap at 2^64 first).
uint64_t HashBytes(const char* data, size_t size) {
  constexpr uint64_t kMultiplier = 1099511628211ull;
  uint64_t result = 0;
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word = 0;
    for (size_t b = 0; b < 8; ++b)
      word |= uint64_t{static_cast<unsigned char>(data[i + b])} << (8 * b);
    result = Mod(result * kMultiplier + word);
  }
  if (i < size) {
    uint64_t word = 0;
    for (size_t b = 0; i + b < size; ++b) {
      word |= uint64_t{static_cast<unsigned char>(data[i + b])} << (8 * b);
    }
    result = Mod(result * kMultiplier + word);
  }
  return result;
}

uint64_t AnyHash(const AnyView& v) {
  const TVMFFIAny& raw = v.raw();
  switch (raw.type_index) {
    case kTVMFFISmallStr:
    case kTVMFFISmallBytes: {
      // The 8 inline bytes as one little-endian word, as upstream's fast path.
      uint64_t word = 0;
      for (size_t b = 0; b < 8; ++b)
        word |= uint64_t{static_cast<unsigned char>(raw.v_bytes[b])} << (8 * b);
      return HashCombine(raw.type_index == kTVMFFISmallStr ? kTVMFFIStr : kTVMFFIBytes, Mod(word));
    }
    case kTVMFFIStr:
    case kTVMFFIBytes: {
      const TVMFFIByteArray b = detail::ByteSequenceView(raw);
      return HashCombine(static_cast<uint64_t>(raw.type_index), HashBytes(b.data, b.size));
    }
    default: {
      const ObjectKeyHooks* hooks = detail::g_object_key_hooks;
      uint64_t by_value = 0;
      if (raw.type_index >= kTVMFFIStaticObjectBegin && hooks != nullptr &&
          hooks->hash(raw, &by_value)) {
        return HashCombine(static_cast<uint64_t>(raw.type_index), by_value);
      }
      return HashCombine(static_cast<uint64_t>(raw.type_index), raw.v_uint64);
    }
  }
}

}  // namespace ffi_core

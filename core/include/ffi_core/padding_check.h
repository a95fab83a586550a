// The zero-padding invariants of TVMFFIAny, checked at the call boundary.
// A writer zeroes zero_padding (except for small strings/bytes, where it is
// the length) and any part of the 8-byte value it does not use: on 32-bit
// targets a pointer leaves the high word zero. Violations would otherwise
// surface as wrong hashes, failed comparisons or garbage pointers far away.
#ifndef FFI_CORE_PADDING_CHECK_H_
#define FFI_CORE_PADDING_CHECK_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ffi_core {

// Raises a ValueError naming the argument and the broken rule. `index` < 0
// means the value is not an argument (e.g. a result).
Status CheckAnyInvariants(const TVMFFIAny& value, int index);
// Checks each argument; used by TVMFFIFunctionCall when
// FFI_CORE_CHECK_PADDING is on.
Status CheckArgumentInvariants(const TVMFFIAny* args, int32_t num_args);

// On 32-bit targets a pointer leaves bytes 4-7 of the value, which must be
// zero; 64-bit pointers fill all 8. Read through DLDevice, whose device_id
// is exactly those bytes: no byte order, no memcpy.
inline bool PointerHighWordIsZero(const TVMFFIAny& v) {
  static_assert(sizeof(DLDevice) == 8 && offsetof(DLDevice, device_id) == 4,
                "device_id spans bytes 4-7 of the value");
  return sizeof(void*) == 8 || v.v_device.device_id == 0;
}

// An int or a float with zero padding (their payloads have no rules).
static_assert(kTVMFFIInt == 1 && kTVMFFIFloat == 3,
              "ints and floats share one test: (index | 2) == 3 holds for 1 and 3 only");
inline bool IsCleanIntOrFloat(const TVMFFIAny& v) {
  if constexpr (sizeof(void*) == 8) {
    // The type index and zero_padding as one 8-byte word, compared with the
    // two clean words (constants once folded): one load where words are 8
    // bytes, and no byte order assumed.
    const auto clean_head = [](int32_t type_index) {
      TVMFFIAny c{};
      c.type_index = type_index;
      uint64_t head;
      std::memcpy(&head, &c, sizeof(head));
      return head;
    };
    uint64_t head;
    std::memcpy(&head, &v, sizeof(head));
    // Setting the type index's bit 1 maps int onto float: one or, one compare.
    return (head | clean_head(2)) == clean_head(kTVMFFIFloat);
  }
  return v.zero_padding == 0 && (v.type_index | 2) == kTVMFFIFloat;
}

// A few instructions per argument for the common kinds: true only when
// CheckAnyInvariants would accept every argument. False means "run the full
// check", which names the broken rule (or finds none).
inline bool ArgumentsLookClean(const TVMFFIAny* args, int32_t num_args) {
  for (int32_t i = 0; i < num_args; ++i) {
    const TVMFFIAny& v = args[i];
    if (IsCleanIntOrFloat(v)) continue;
    // An object: zero padding, a non-NULL pointer (high word zero on 32-bit
    // targets) whose header agrees on the type.
    if (v.type_index < kTVMFFIStaticObjectBegin || v.zero_padding != 0 ||
        !PointerHighWordIsZero(v) || v.v_obj == nullptr || v.v_obj->type_index != v.type_index) {
      return false;
    }
  }
  return true;
}

}  // namespace ffi_core

#endif  // FFI_CORE_PADDING_CHECK_H_

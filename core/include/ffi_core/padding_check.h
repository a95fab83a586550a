// The zero-padding invariants of TVMFFIAny, checked at the call boundary.
// A writer zeroes zero_padding (except for small strings/bytes, where it is
// the length) and any part of the 8-byte value it does not use: on 32-bit
// targets a pointer leaves the high word zero. Violations would otherwise
// surface as wrong hashes, failed comparisons or garbage pointers far away.
#ifndef FFI_CORE_PADDING_CHECK_H_
#define FFI_CORE_PADDING_CHECK_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {

// Raises a ValueError naming the argument and the broken rule. `index` < 0
// means the value is not an argument (e.g. a result).
Status CheckAnyInvariants(const TVMFFIAny& value, int index);
// Checks each argument; used by TVMFFIFunctionCall when
// FFI_CORE_CHECK_PADDING is on.
Status CheckArgumentInvariants(const TVMFFIAny* args, int32_t num_args);

}  // namespace ffi_core

#endif  // FFI_CORE_PADDING_CHECK_H_

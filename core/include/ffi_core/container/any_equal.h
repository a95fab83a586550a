// Equality of Any values as containers compare them (upstream's AnyEqual):
// strings and bytes by their bytes, whichever form (small or object) holds
// them; other objects by identity, but where their type compares by value
// (object_key_hooks.h); plain values by type and bits (so a NaN equals
// itself).
#ifndef FFI_CORE_CONTAINER_ANY_EQUAL_H_
#define FFI_CORE_CONTAINER_ANY_EQUAL_H_

#include <ffi_core/any.h>

namespace ffi_core {

bool AnyEqual(const AnyView& a, const AnyView& b);

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_ANY_EQUAL_H_

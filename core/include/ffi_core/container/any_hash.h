// Hashing of Any values as upstream's maps hash keys (its AnyHash): strings
// and bytes by their bytes whichever form holds them, everything else by
// type index and bits (objects by identity). A dense map built here is read
// inline by upstream's headers, which find a key by this hash, so the
// numbers must be upstream's own.
#ifndef FFI_CORE_CONTAINER_ANY_HASH_H_
#define FFI_CORE_CONTAINER_ANY_HASH_H_

#include <ffi_core/any.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

uint64_t AnyHash(const AnyView& v);

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_ANY_HASH_H_

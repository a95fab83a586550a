// Hashing of Any values as upstream's maps hash keys (its AnyHash): strings
// and bytes by their bytes whichever form holds them, everything else by
// type index and bits (objects by identity, but where their type hashes by
// value: object_key_hooks.h). A dense map built here is read
// inline by upstream's headers, which find a key by this hash, so the
// numbers must be upstream's own.
#ifndef FFI_CORE_CONTAINER_ANY_HASH_H_
#define FFI_CORE_CONTAINER_ANY_HASH_H_

#include <ffi_core/any.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {

uint64_t AnyHash(const AnyView& v);

// Upstream's StableHashCombine and StableHashBytes, which AnyHash is made of;
// also the pieces of the frontend's structural and recursive hashes.
uint64_t HashCombine(uint64_t key, uint64_t value);
uint64_t HashBytes(const char* data, size_t size);

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_ANY_HASH_H_

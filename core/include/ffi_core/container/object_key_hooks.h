// Map and Dict keys that hash and compare by value although they are objects:
// upstream's contract is a type's `__any_hash__` and `__any_equal__` type
// attributes, which its AnyHash and AnyEqual consult for every object key
// (ffi.BigInt by value, ffi.StructuralKey structurally). Core knows no such
// type: it hashes and compares objects by identity unless a runtime that
// honours those attributes (the host's frontend) installs these hooks. A
// board installs none, and its object keys cost one test more.
#ifndef FFI_CORE_CONTAINER_OBJECT_KEY_HOOKS_H_
#define FFI_CORE_CONTAINER_OBJECT_KEY_HOOKS_H_

#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace ffi_core {

struct ObjectKeyHooks {
  // The value hash of `key`, an object; false where its type has none (the
  // key then hashes by identity). AnyHash combines it with the type index.
  bool (*hash)(const TVMFFIAny& key, uint64_t* hash);
  // Whether `a` and `b`, distinct objects of one type, are equal keys; false
  // where their type compares by identity.
  bool (*equal)(const TVMFFIAny& a, const TVMFFIAny& b, bool* equal);
};

// Installed once, before any map is made: a map's layout depends on its keys'
// hashes. NULL takes them away.
void SetObjectKeyHooks(const ObjectKeyHooks* hooks);

namespace detail {
// The installed hooks, or NULL; AnyHash and AnyEqual read it for object keys.
extern const ObjectKeyHooks* g_object_key_hooks;
}  // namespace detail

}  // namespace ffi_core

#endif  // FFI_CORE_CONTAINER_OBJECT_KEY_HOOKS_H_

// Upstream's `__any_hash__` and `__any_equal__` type attributes: a type that
// gives them is a Map or Dict key by value. Upstream's runtime gives them to
// ffi.BigInt (by value) and ffi.StructuralKey (structurally); its headers'
// AnyHash and AnyEqual, inline in every kernel, consult the two columns, and
// so do ffi-core's maps on the host through core's object key hooks.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_ANY_KEY_ATTRS_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_ANY_KEY_ATTRS_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <cstdint>

namespace ffi_core {
namespace frontend {

// Upstream's native form of the two attributes (an opaque pointer in the
// column): context-free and noexcept, the key passed as upstream's
// `const Any&`, the result a kTVMFFIInt (the hash) or kTVMFFIBool (equal),
// or an owned kTVMFFIError.
using AnyKeyHash = TVMFFIAny (*)(const TVMFFIAny& key) noexcept;
using AnyKeyEqual = TVMFFIAny (*)(const TVMFFIAny& a, const TVMFFIAny& b) noexcept;

// Registers both native attributes for `type_index`.
Status RegisterAnyKeyAttrs(int32_t type_index, AnyKeyHash hash, AnyKeyEqual equal);

// The raised error as a native attribute's result (upstream's headers throw
// it), for an attribute that fails.
TVMFFIAny RaisedAsAnyKeyResult();

// Makes the two columns, gives ffi.BigInt its attributes and installs core's
// object key hooks, which read the columns: first, before any map is made.
Status InstallAnyKeyAttrs();

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_ANY_KEY_ATTRS_H_

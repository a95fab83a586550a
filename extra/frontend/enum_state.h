// "ffi.EnumState": the C++-defined type upstream's Python package builds its
// enums on (tvm_ffi.dataclasses.enum), registered with its three fields
// (entries: List, indexes: Dict, attrs: Dict) and an "__ffi_init__" that
// makes it with all three empty.
#ifndef FFI_CORE_EXTRA_FRONTEND_ENUM_STATE_H_
#define FFI_CORE_EXTRA_FRONTEND_ENUM_STATE_H_

#include <ffi_core/any.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace frontend {

Status RegisterEnumState();

// Whether `obj` is a member of an enum (an instance of ffi.Enum's subtypes).
bool IsEnumMember(const TVMFFIObject* obj);
// A member's name (its "_str_index" String), borrowed from the member.
AnyView EnumMemberName(const TVMFFIObject* member);

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_ENUM_STATE_H_

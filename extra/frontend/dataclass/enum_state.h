// "ffi.EnumState": the C++-defined type upstream's Python package builds its
// enums on (tvm_ffi.dataclasses.enum), registered with its three fields
// (entries: List, indexes: Dict, attrs: Dict) and an "__ffi_init__" that
// makes it with all three empty.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_ENUM_STATE_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_ENUM_STATE_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace frontend {

Status RegisterEnumState();

// Whether the type is an enum (derives from ffi.Enum), or `obj` a member of one.
bool IsEnumType(int32_t type_index);
inline bool IsEnumMember(const TVMFFIObject* obj) { return IsEnumType(obj->type_index); }
// A member's name (its "_str_index" String), borrowed from the member.
AnyView EnumMemberName(const TVMFFIObject* member);
// Whether the member's enum derives from ffi.IntEnum; its integer index.
bool IsIntEnumMember(const TVMFFIObject* member);
int64_t EnumMemberIntIndex(const TVMFFIObject* member);
// The member of enum `type_index` registered under `index` (a name or an
// integer), from the enum's "__ffi_enum__" state; a ValueError if none.
Expected<Any> EnumMemberByIndex(int32_t type_index, const AnyView& index);

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_ENUM_STATE_H_

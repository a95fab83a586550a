// Upstream's structural equality and hashing (structural_equal.cc,
// structural_hash.cc) as C++ calls for the structural key, and what the two
// share: a type's structural kind, refused with a TypeError where it is
// unset, and how a definition region is entered (by a field flagged
// SEqHashDef*, or by a type's __s_equal__ / __s_hash__ hook naming a kind).
#ifndef FFI_CORE_EXTRA_FRONTEND_STRUCTURAL_STRUCTURAL_H_
#define FFI_CORE_EXTRA_FRONTEND_STRUCTURAL_STRUCTURAL_H_

#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/expected.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace frontend {

Expected<bool> StructuralEqual(const AnyView& lhs, const AnyView& rhs, bool map_free_vars,
                               bool skip_tensor_content);
Expected<uint64_t> StructuralHash(const AnyView& value, bool map_free_vars,
                                  bool skip_tensor_content);

inline Expected<TVMFFISEqHashKind> StructuralKindOf(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  if (info == nullptr) {
    return RaiseError(ErrorKind::kTypeError, {"structural equality and hashing: type index ",
                                              type_index, " is not registered"});
  }
  if (info->metadata == nullptr) {
    return RaiseError(ErrorKind::kTypeError,
                      {"Type metadata is not set for type `", info->type_key.data,
                       "`, so StructuralHash is not supported for this type"});
  }
  if (info->metadata->structural_eq_hash_kind == kTVMFFISEqHashKindUnsupported) {
    return RaiseError(ErrorKind::kTypeError,
                      {"_type_s_eq_hash_kind is not set for type `", info->type_key.data,
                       "`, so StructuralHash is not supported for this type"});
  }
  return info->metadata->structural_eq_hash_kind;
}

// The region a value is compared or hashed in when `requested` is entered
// from `current`: a pattern region stays one whatever is entered inside it;
// kNone asks to stay where we are.
inline TVMFFIDefRegionKind EnterDefRegion(TVMFFIDefRegionKind current,
                                          TVMFFIDefRegionKind requested) {
  if (current == kTVMFFIDefRegionKindPattern || requested == kTVMFFIDefRegionKindNone) {
    return current;
  }
  return requested;
}

// The region a field's flags ask for (kNone when it defines nothing).
inline TVMFFIDefRegionKind FieldDefRegion(int64_t flags) {
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefSimple) return kTVMFFIDefRegionKindSimple;
  if (flags & kTVMFFIFieldFlagBitMaskSEqHashDefPattern) return kTVMFFIDefRegionKindPattern;
  return kTVMFFIDefRegionKindNone;
}

// A free variable's own fields are walked outside a simple region: nested
// variables there resolve against an outer binding rather than rebind.
inline TVMFFIDefRegionKind FreeVarFieldsRegion(TVMFFIDefRegionKind current) {
  return current == kTVMFFIDefRegionKindSimple ? kTVMFFIDefRegionKindNone : current;
}

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_STRUCTURAL_STRUCTURAL_H_

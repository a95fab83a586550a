// Object types the frontend defines in C++ (access paths, the structural
// key): registration under upstream's key with reflected fields, and the
// field getters they share.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_NATIVE_TYPE_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_NATIVE_TYPE_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

#include <cstddef>
#include <cstdint>

namespace ffi_core {
namespace frontend {

struct NativeField {
  const char* name;
  size_t offset;
  int64_t size;
  TVMFFIFieldGetter getter;
  const char* metadata;  // the type schema, as upstream registers it
};

// The type schema upstream gives an int field.
inline constexpr const char* kIntFieldSchema = R"({"type_schema":"{\"type\":\"int\"}"})";

// Allocates `key`'s type index (a direct child of ffi.Object) into `*index`
// and registers its fields. A type upstream declares with a structural kind
// (`_type_s_eq_hash_kind`) gets it in its metadata, with its size, as
// upstream's ObjectDef registers it; kTVMFFISEqHashKindUnsupported registers
// no metadata.
Status RegisterNativeType(const char* key, int32_t* index, const NativeField* fields, size_t n,
                          TVMFFISEqHashKind s_eq_hash_kind = kTVMFFISEqHashKindUnsupported,
                          int32_t total_size = 0);

// Getters of fields kept as an int32_t, an int64_t and an Any.
int GetInt32Field(void* field, TVMFFIAny* out);
int GetInt64Field(void* field, TVMFFIAny* out);
int GetAnyField(void* field, TVMFFIAny* out);

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_NATIVE_TYPE_H_

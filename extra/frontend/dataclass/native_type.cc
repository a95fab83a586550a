#include "dataclass/native_type.h"

#include <ffi_core/any.h>
#include <ffi_core/type_table.h>

#include <cstring>
#include <utility>

namespace ffi_core {
namespace frontend {
namespace {

TVMFFIByteArray Text(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

}  // namespace

Status RegisterNativeType(const char* key, int32_t* index, const NativeField* fields, size_t n,
                          TVMFFISEqHashKind s_eq_hash_kind, int32_t total_size) {
  FFI_CORE_ASSIGN_OR_RETURN(*index, GetOrAllocTypeIndex(Text(key), -1, 1, 0, false, kTVMFFIObject));
  if (s_eq_hash_kind != kTVMFFISEqHashKindUnsupported) {
    TVMFFITypeMetadata metadata{};
    metadata.total_size = total_size;
    metadata.structural_eq_hash_kind = s_eq_hash_kind;
    if (TVMFFITypeRegisterMetadata(*index, &metadata) != 0) return Status(ErrorKind::kRuntimeError);
  }
  for (size_t i = 0; i < n; ++i) {
    TVMFFIFieldInfo info{};
    info.name = Text(fields[i].name);
    info.metadata = Text(fields[i].metadata);
    info.size = fields[i].size;
    info.alignment = fields[i].size < 8 ? fields[i].size : 8;
    info.offset = static_cast<int64_t>(fields[i].offset);
    info.getter = fields[i].getter;
    info.default_value_or_factory = NoneAny();
    info.field_static_type_index = kTVMFFIAny;
    if (TVMFFITypeRegisterField(*index, &info) != 0) return Status(ErrorKind::kRuntimeError);
  }
  return Status::Ok();
}

int GetInt32Field(void* field, TVMFFIAny* out) {
  int32_t v = 0;
  std::memcpy(&v, field, sizeof(v));
  *out = Any(static_cast<int64_t>(v)).ReleaseRaw();
  return 0;
}

int GetInt64Field(void* field, TVMFFIAny* out) {
  int64_t v = 0;
  std::memcpy(&v, field, sizeof(v));
  *out = Any(v).ReleaseRaw();
  return 0;
}

int GetAnyField(void* field, TVMFFIAny* out) {
  Expected<Any> copy = Any::FromView(AnyView(*static_cast<const Any*>(field)));
  if (!copy.ok()) return -1;
  *out = std::move(copy).value().ReleaseRaw();
  return 0;
}

}  // namespace frontend
}  // namespace ffi_core

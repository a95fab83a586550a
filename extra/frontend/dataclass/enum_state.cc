#include "dataclass/enum_state.h"

#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/function.h>
#include <ffi_core/object.h>
#include <ffi_core/string.h>
#include <ffi_core/type_table.h>

#include <cstddef>
#include <cstring>
#include <utility>

#include "dataclass/object_fields.h"

namespace ffi_core {
namespace frontend {
namespace {

struct EnumStateObj {
  TVMFFIObject header;
  TVMFFIObject* entries;
  TVMFFIObject* indexes;
  TVMFFIObject* attrs;
  ~EnumStateObj() {
    for (TVMFFIObject* o : {entries, indexes, attrs}) {
      if (o != nullptr) ObjectDecRef(o);
    }
  }
};

int32_t g_index = -1;
int32_t g_enum_index = -1;
int32_t g_int_enum_index = -1;

// ffi.Enum's fields, after the object header.
constexpr size_t kIntIndexOffset = sizeof(TVMFFIObject);
constexpr size_t kStrIndexOffset = sizeof(TVMFFIObject) + 8;

template <typename Ref>
TVMFFIObject* Release(Ref ref) {
  return &std::move(ref).ReleaseObject()->header;
}

Status NewEnumState(PackedArgs args, Any* rv) {
  if (args.size() != 0)
    return detail::RaiseArityError("ffi.EnumState.__ffi_init__", 0, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(List entries, List::FromViews(nullptr, 0));
  FFI_CORE_ASSIGN_OR_RETURN(Dict indexes, Dict::FromPairs(nullptr, 0));
  FFI_CORE_ASSIGN_OR_RETURN(Dict attrs, Dict::FromPairs(nullptr, 0));
  FFI_CORE_ASSIGN_OR_RETURN(EnumStateObj * s, NewObject<EnumStateObj>(g_index, 0));
  s->entries = Release(std::move(entries));
  s->indexes = Release(std::move(indexes));
  s->attrs = Release(std::move(attrs));
  TVMFFIAny raw = NoneAny();
  raw.type_index = g_index;
  raw.v_obj = &s->header;
  *rv = Any::AdoptRaw(raw);
  return Status::Ok();
}

TVMFFIByteArray Text(const char* s) { return TVMFFIByteArray{s, std::strlen(s)}; }

// The enum base's fields, as upstream's EnumObj lays them out: an int64 and
// a String kept as a 16-byte Any.
int GetInt64(void* field, TVMFFIAny* out) {
  int64_t v = 0;
  std::memcpy(&v, field, sizeof(v));
  *out = Any(v).ReleaseRaw();
  return 0;
}
int SetInt64(void* field, const TVMFFIAny* value) {
  Expected<int64_t> v = AnyView::FromRaw(*value).As<int64_t>();
  if (!v.ok()) return -1;
  std::memcpy(field, &*v, sizeof(int64_t));
  return 0;
}
int GetString(void* field, TVMFFIAny* out) {
  TVMFFIAny v;
  std::memcpy(&v, field, sizeof(v));
  Expected<Any> owned = Any::FromView(AnyView::FromRaw(v));
  if (!owned.ok()) return -1;
  *out = std::move(owned).value().ReleaseRaw();
  return 0;
}
int SetString(void* field, const TVMFFIAny* value) {
  Expected<String> s = AnyView::FromRaw(*value).As<String>();
  if (!s.ok()) return -1;
  TVMFFIAny old;
  std::memcpy(&old, field, sizeof(old));
  Any fresh(*s);
  TVMFFIAny raw = fresh.ReleaseRaw();
  std::memcpy(field, &raw, sizeof(raw));
  Any::AdoptRaw(old).reset();
  return 0;
}

// A field as upstream's reflection registers it: type schema metadata, and a
// setter even when read-only (the enum machinery sets fields of C++-backed
// entries through it).
struct Field {
  const char* name;
  int64_t size;
  int64_t offset;
  TVMFFIFieldGetter getter;
  TVMFFIFieldSetter setter;
  int32_t type_index;
  int64_t flags;
  const char* metadata;
};

Status RegisterField(int32_t type_index, const Field& f) {
  TVMFFIFieldInfo info{};
  info.name = Text(f.name);
  info.flags = f.flags;
  info.size = f.size;
  info.alignment = 8;
  info.offset = f.offset;
  info.getter = f.getter;
  info.setter = reinterpret_cast<void*>(f.setter);
  info.metadata = Text(f.metadata);
  info.default_value_or_factory = NoneAny();
  info.field_static_type_index = f.type_index;
  if (TVMFFITypeRegisterField(type_index, &info) != 0) return Status(ErrorKind::kRuntimeError);
  return Status::Ok();
}

constexpr const char* kIntSchema = R"({"type_schema":"{\"type\":\"int\"}"})";
constexpr const char* kStrSchema = R"({"type_schema":"{\"type\":\"ffi.String\"}"})";

// ffi.Enum's two indices, and the `value` that ffi.IntEnum and ffi.StrEnum
// alias to one of them (not a constructor argument; ignored by structural
// equality, as upstream registers them).
Status RegisterEnumBase() {
  FFI_CORE_ASSIGN_OR_RETURN(int32_t base,
                            GetOrAllocTypeIndex(Text("ffi.Enum"), -1, 1, 0, true, kTVMFFIObject));
  g_enum_index = base;
  const Field int_index = {
      "_int_index", 8,          static_cast<int64_t>(kIntIndexOffset), &GetInt64,
      &SetInt64,    kTVMFFIInt, kTVMFFIFieldFlagBitMaskSEqHashIgnore,  kIntSchema};
  // A String kept as a 16-byte Any (its small form inline): Any storage.
  const Field str_index = {"_str_index",
                           16,
                           static_cast<int64_t>(kStrIndexOffset),
                           &GetString,
                           &SetString,
                           kTVMFFIAny,
                           0,
                           kStrSchema};
  FFI_CORE_RETURN_IF_ERROR(RegisterField(base, int_index));
  FFI_CORE_RETURN_IF_ERROR(RegisterField(base, str_index));
  constexpr int64_t kAliasFlags =
      kTVMFFIFieldFlagBitMaskInitOff | kTVMFFIFieldFlagBitMaskSEqHashIgnore;
  for (const Field* index : {&int_index, &str_index}) {
    const char* child = index == &int_index ? "ffi.IntEnum" : "ffi.StrEnum";
    FFI_CORE_ASSIGN_OR_RETURN(int32_t type_index,
                              GetOrAllocTypeIndex(Text(child), -1, 2, 0, true, base));
    if (index == &int_index) g_int_enum_index = type_index;
    Field value = *index;
    value.name = "value";
    value.flags = kAliasFlags;
    FFI_CORE_RETURN_IF_ERROR(RegisterField(type_index, value));
  }
  return Status::Ok();
}

}  // namespace

Status RegisterEnumState() {
  FFI_CORE_ASSIGN_OR_RETURN(
      g_index, GetOrAllocTypeIndex(Text("ffi.EnumState"), -1, 1, 0, false, kTVMFFIObject));
  // Made by __ffi_init__, not passed to it; typed as upstream's.
  struct StateField {
    const char* name;
    size_t offset;
    int32_t type_index;
    const char* metadata;
  };
  const StateField fields[] = {
      {"entries", offsetof(EnumStateObj, entries), kTVMFFIList,
       R"({"type_schema":"{\"type\":\"ffi.List\",\"args\":[{\"type\":\"ffi.Object\"}]}"})"},
      {"indexes", offsetof(EnumStateObj, indexes), kTVMFFIDict,
       R"({"type_schema":"{\"type\":\"ffi.Dict\",\"args\":[{\"type\":\"Any\"},)"
       R"({\"type\":\"ffi.Object\"}]}"})"},
      {"attrs", offsetof(EnumStateObj, attrs), kTVMFFIDict,
       R"({"type_schema":"{\"type\":\"ffi.Dict\",\"args\":[{\"type\":\"ffi.String\"},)"
       R"({\"type\":\"ffi.Dict\",\"args\":[{\"type\":\"ffi.Object\"},{\"type\":\"Any\"}]}]}"})"}};
  for (const StateField& f : fields) {
    TVMFFIFieldInfo info{};
    info.name = Text(f.name);
    info.flags = kTVMFFIFieldFlagBitMaskInitOff;
    info.metadata = Text(f.metadata);
    info.size = sizeof(TVMFFIObject*);
    info.alignment = alignof(TVMFFIObject*);
    info.offset = static_cast<int64_t>(f.offset);
    info.getter = &GetObjectField;
    info.default_value_or_factory = NoneAny();
    info.field_static_type_index = f.type_index;
    if (TVMFFITypeRegisterField(g_index, &info) != 0) return Status(ErrorKind::kRuntimeError);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Function init, Function::FromPacked(&NewEnumState));
  TVMFFIMethodInfo method{};
  method.name = Text("__ffi_init__");
  method.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  // Typed as upstream's (its stub generator reads a schema from every method).
  method.metadata = Text(R"({"type_schema":"{\"type\":\"ffi.Function\",\"named_args\":{\"return\":)"
                         R"([{\"type\":\"ffi.Object\"}],\"params\":[]}}"})");
  const Any held(init);  // the registry keeps its own reference
  method.method = held.raw();
  if (TVMFFITypeRegisterMethod(g_index, &method) != 0) return Status(ErrorKind::kRuntimeError);
  return RegisterEnumBase();
}

bool IsEnumType(int32_t type_index) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return g_enum_index >= 0 && info != nullptr && info->type_depth > 1 &&
         info->type_ancestors[1] != nullptr && info->type_ancestors[1]->type_index == g_enum_index;
}

AnyView EnumMemberName(const TVMFFIObject* member) {
  TVMFFIAny raw;
  std::memcpy(&raw, reinterpret_cast<const char*>(member) + kStrIndexOffset, sizeof(raw));
  return AnyView::FromRaw(raw);
}

bool IsIntEnumMember(const TVMFFIObject* member) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(member->type_index);
  return g_int_enum_index >= 0 && info != nullptr && info->type_depth > 2 &&
         info->type_ancestors[2] != nullptr &&
         info->type_ancestors[2]->type_index == g_int_enum_index;
}

int64_t EnumMemberIntIndex(const TVMFFIObject* member) {
  int64_t index;
  std::memcpy(&index, reinterpret_cast<const char*>(member) + kIntIndexOffset, sizeof(index));
  return index;
}

Expected<Any> EnumMemberByIndex(int32_t type_index, const AnyView& index) {
  static constexpr char kAttr[] = "__ffi_enum__";
  const TVMFFIByteArray name{kAttr, sizeof(kAttr) - 1};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  const int32_t at = column != nullptr ? type_index - column->begin_index : -1;
  if (column != nullptr && at >= 0 && at < column->size && column->data[at].type_index == g_index) {
    const auto* state = reinterpret_cast<const EnumStateObj*>(column->data[at].v_obj);
    TVMFFIAny raw = NoneAny();
    raw.type_index = kTVMFFIDict;
    raw.v_obj = state->indexes;
    FFI_CORE_ASSIGN_OR_RETURN(Dict indexes, AnyView::FromRaw(raw).As<Dict>());
    if (const MapPair* p = indexes.Find(index)) return Any::FromView(p->value);
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  return RaiseError(ErrorKind::kValueError, {"Enum `", info != nullptr ? info->type_key.data : "?",
                                             "` has no instance with that index"});
}

}  // namespace frontend
}  // namespace ffi_core

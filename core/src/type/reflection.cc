// Reflection: the fields, methods and metadata registered on dynamic types,
// read back through TVMFFIGetTypeInfo. All types share one fixed pool of fields
// (FFI_CORE_TYPE_FIELD_CAPACITY) and one of methods; a type's entries are one
// contiguous run, so a type that registers again after another type did
// moves its run to the end of the pool (the old run is not reused).
#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/type_table.h>
#include <tvm/ffi/c_api.h>

#include <cstring>

#include "c_api/c_boundary.h"
#include "support/global_lock_guard.h"

namespace ffi_core {
namespace {

template <typename Info, size_t N>
struct Pool {
  Info items[N];
  size_t used;
};

Pool<TVMFFIFieldInfo, FFI_CORE_TYPE_FIELD_CAPACITY> g_fields;
Pool<TVMFFIMethodInfo, FFI_CORE_TYPE_METHOD_CAPACITY> g_methods;

// Room for one more entry after a type's run of `count` entries at `run`;
// returns where the run now starts.
template <typename Info, size_t N>
Expected<Info*> GrowRun(Pool<Info, N>& pool, const Info* run, int32_t count, const char* what) {
  Info* at_end = pool.items + pool.used;
  if (run != nullptr && run + count == at_end && pool.used < N) {
    ++pool.used;
    return pool.items + (run - pool.items);
  }
  if (static_cast<size_t>(count) + 1 > N - pool.used) {
    return RaiseError(ErrorKind::kMemoryError, {"type registry: no room for another ", what,
                                                " (capacity ", static_cast<unsigned long>(N), ")"});
  }
  for (int32_t i = 0; i < count; ++i) at_end[i] = run[i];
  pool.used += static_cast<size_t>(count) + 1;
  return at_end;
}

bool HasField(const TVMFFITypeInfo& type, const TVMFFIByteArray& name) {
  for (int32_t i = 0; i < type.num_fields; ++i) {
    if (SameBytes(type.fields[i].name, name)) return true;
  }
  return false;
}

// The registry's own copies of name, doc and metadata.
Status CopyTexts(TVMFFIByteArray* name, TVMFFIByteArray* doc, TVMFFIByteArray* metadata) {
  FFI_CORE_ASSIGN_OR_RETURN(*name, CopyTypeText(*name));
  FFI_CORE_ASSIGN_OR_RETURN(*doc, CopyTypeText(*doc));
  FFI_CORE_ASSIGN_OR_RETURN(*metadata, CopyTypeText(*metadata));
  return Status::Ok();
}

// A Function setter the registry holds a reference to, or NULL.
TVMFFIObject* SetterObject(const TVMFFIFieldInfo& info) {
  if ((info.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) == 0) return nullptr;
  return static_cast<TVMFFIObject*>(info.setter);
}

Status RegisterField(int32_t type_index, const TVMFFIFieldInfo& info) {
  // Owned copies first: they may allocate, so they stay out of the lock.
  FFI_CORE_ASSIGN_OR_RETURN(Any default_value,
                            Any::FromView(AnyView::FromRaw(info.default_value_or_factory)));
  detail::GlobalLockGuard lock;
  FFI_CORE_ASSIGN_OR_RETURN(DynamicTypeInfo found,
                            FindDynamicTypeInfo("TVMFFITypeRegisterField", type_index));
  TVMFFITypeInfo* type = found.info;
  // As upstream: a field name is registered once per type.
  if (HasField(*type, info.name)) {
    return RaiseError(
        ErrorKind::kValueError,
        {"TVMFFITypeRegisterField: duplicate field name in type ", type->type_key.data});
  }
  TVMFFIFieldInfo entry = info;
  FFI_CORE_RETURN_IF_ERROR(CopyTexts(&entry.name, &entry.doc, &entry.metadata));
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFIFieldInfo * run,
                            GrowRun(g_fields, type->fields, type->num_fields, "field"));
  if (TVMFFIObject* setter = SetterObject(entry)) ObjectIncRef(setter);
  entry.default_value_or_factory = default_value.ReleaseRaw();
  run[type->num_fields] = entry;
  type->fields = run;
  ++type->num_fields;
  return Status::Ok();
}

// Methods may share a name (overloads), as upstream allows.
Status RegisterMethod(int32_t type_index, const TVMFFIMethodInfo& info) {
  FFI_CORE_ASSIGN_OR_RETURN(Any method, Any::FromView(AnyView::FromRaw(info.method)));
  detail::GlobalLockGuard lock;
  FFI_CORE_ASSIGN_OR_RETURN(DynamicTypeInfo found,
                            FindDynamicTypeInfo("TVMFFITypeRegisterMethod", type_index));
  TVMFFITypeInfo* type = found.info;
  TVMFFIMethodInfo entry = info;
  FFI_CORE_RETURN_IF_ERROR(CopyTexts(&entry.name, &entry.doc, &entry.metadata));
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFIMethodInfo * run,
                            GrowRun(g_methods, type->methods, type->num_methods, "method"));
  entry.method = method.ReleaseRaw();
  run[type->num_methods] = entry;
  type->methods = run;
  ++type->num_methods;
  return Status::Ok();
}

Status RegisterMetadata(int32_t type_index, const TVMFFITypeMetadata& metadata) {
  detail::GlobalLockGuard lock;
  FFI_CORE_ASSIGN_OR_RETURN(DynamicTypeInfo found,
                            FindDynamicTypeInfo("TVMFFITypeRegisterMetadata", type_index));
  // As upstream: a second registration means two definitions of one type.
  if (found.info->metadata != nullptr) {
    return RaiseError(
        ErrorKind::kRuntimeError,
        {"TVMFFITypeRegisterMetadata: type ", found.info->type_key.data, " already has metadata"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFIByteArray doc, CopyTypeText(metadata.doc));
  *found.metadata = metadata;
  found.metadata->doc = doc;
  found.info->metadata = found.metadata;
  return Status::Ok();
}

}  // namespace
}  // namespace ffi_core

using namespace ffi_core;  // NOLINT(build/namespaces): the C boundary

namespace {

// The texts of a field or method: the argument that holds NULL bytes, or NULL.
template <typename Info>
const char* NullText(const Info& info) {
  if (c_boundary::NullBytes(info.name)) return "info->name";
  if (c_boundary::NullBytes(info.doc)) return "info->doc";
  if (c_boundary::NullBytes(info.metadata)) return "info->metadata";
  return nullptr;
}

}  // namespace

extern "C" {

int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  if (info == nullptr) return c_boundary::NullArgument("TVMFFITypeRegisterField", "info");
  if (const char* text = NullText(*info)) {
    return c_boundary::NullArgument("TVMFFITypeRegisterField", text);
  }
  // The registry keeps a Function setter and callers call it as one. Tested
  // here, not through CheckedHandle: a firmware that only registers types
  // would link that for it (about 90 B more).
  const TVMFFIObject* setter = SetterObject(*info);
  if (setter != nullptr && setter->type_index != kTVMFFIFunction) {
    return c_boundary::Fail(ErrorKind::kTypeError,
                            {"TVMFFITypeRegisterField: info->setter is not a Function (type index ",
                             setter->type_index, ")"});
  }
  return RegisterField(type_index, *info).ToReturnCode();
}

int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  if (info == nullptr) return c_boundary::NullArgument("TVMFFITypeRegisterMethod", "info");
  if (const char* text = NullText(*info)) {
    return c_boundary::NullArgument("TVMFFITypeRegisterMethod", text);
  }
  return RegisterMethod(type_index, *info).ToReturnCode();
}

int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  if (metadata == nullptr)
    return c_boundary::NullArgument("TVMFFITypeRegisterMetadata", "metadata");
  if (c_boundary::NullBytes(metadata->doc)) {
    return c_boundary::NullArgument("TVMFFITypeRegisterMetadata", "metadata->doc");
  }
  return RegisterMetadata(type_index, *metadata).ToReturnCode();
}

}  // extern "C"

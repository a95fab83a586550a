#include "dataclass/object_fields.h"

#include <ffi_core/error.h>
#include <ffi_core/object.h>

#include <cstring>

namespace ffi_core {
namespace frontend {

Expected<Any> ReadField(const TVMFFIObject* obj, const TVMFFIFieldInfo& f) {
  if (f.getter == nullptr) {
    return RaiseError(ErrorKind::kTypeError, {"field '", f.name.data, "' has no getter"});
  }
  TVMFFIAny out = NoneAny();
  if (f.getter(FieldAt(const_cast<TVMFFIObject*>(obj), f), &out) != 0) {
    return StatusFromPendingError();
  }
  return Any::AdoptRaw(out);
}

int GetObjectField(void* field, TVMFFIAny* out) {
  TVMFFIObject* obj = nullptr;
  std::memcpy(&obj, field, sizeof(obj));
  TVMFFIAny v = NoneAny();
  if (obj != nullptr) {
    ObjectIncRef(obj);
    v.type_index = obj->type_index;
    v.v_obj = obj;
  }
  *out = v;
  return 0;
}

Status WriteField(TVMFFIObject* obj, const TVMFFIFieldInfo& f, const TVMFFIAny& value) {
  if (f.setter == nullptr) {
    return RaiseError(ErrorKind::kTypeError, {"field '", f.name.data, "' has no setter"});
  }
  void* field = FieldAt(obj, f);
  if (f.flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) {
    TVMFFIAny call_args[2] = {NoneAny(), value};
    call_args[0].type_index = kTVMFFIOpaquePtr;
    call_args[0].v_ptr = field;
    TVMFFIAny result = NoneAny();
    if (TVMFFIFunctionCall(f.setter, call_args, 2, &result) != 0) return StatusFromPendingError();
    static_cast<void>(Any::AdoptRaw(result));
    return Status::Ok();
  }
  if (reinterpret_cast<TVMFFIFieldSetter>(f.setter)(field, &value) != 0) {
    return StatusFromPendingError();
  }
  return Status::Ok();
}

Status WriteFieldDefault(TVMFFIObject* obj, const TVMFFIFieldInfo& f) {
  if (!(f.flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory)) {
    return WriteField(obj, f, f.default_value_or_factory);
  }
  if (f.default_value_or_factory.type_index != kTVMFFIFunction) {
    return RaiseError(ErrorKind::kTypeError,
                      {"default factory of '", f.name.data, "' is not a function"});
  }
  TVMFFIAny made = NoneAny();
  if (TVMFFIFunctionCall(f.default_value_or_factory.v_obj, nullptr, 0, &made) != 0) {
    return StatusFromPendingError();
  }
  const Any owned = Any::AdoptRaw(made);
  return WriteField(obj, f, owned.raw());
}

// An empty object of the type: its C++ creator, else its "__ffi_new__".
Status InitField(TVMFFIObject* obj, const TVMFFITypeInfo* info, const TVMFFIFieldInfo& f,
                 const TVMFFIAny* value) {
  if (value != nullptr) return WriteField(obj, f, *value);
  if (f.flags & kTVMFFIFieldFlagBitMaskHasDefault) return WriteFieldDefault(obj, f);
  return RaiseError(ErrorKind::kTypeError,
                    {"Required field `", f.name.data, "` not set in type `", KeyOf(info), "`"});
}

Expected<Any> NewEmptyObject(const TVMFFITypeInfo* info) {
  if (info->metadata != nullptr && info->metadata->creator != nullptr) {
    TVMFFIObjectHandle made = nullptr;
    if (info->metadata->creator(&made) != 0) return StatusFromPendingError();
    TVMFFIAny raw = NoneAny();
    raw.type_index = static_cast<TVMFFIObject*>(made)->type_index;
    raw.v_obj = static_cast<TVMFFIObject*>(made);
    return Any::AdoptRaw(raw);
  }
  TVMFFIObject* make = TypeAttrFunction("__ffi_new__", info->type_index);
  if (make == nullptr) {
    return RaiseError(ErrorKind::kTypeError,
                      {"type ", KeyOf(info), " has neither a creator nor __ffi_new__"});
  }
  TVMFFIAny made = NoneAny();
  if (TVMFFIFunctionCall(make, nullptr, 0, &made) != 0) {
    return StatusFromPendingError();
  }
  return Any::AdoptRaw(made);
}

TVMFFIObject* TypeAttrFunction(const char* attr, int32_t type_index) {
  const TVMFFIByteArray name{attr, std::strlen(attr)};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  if (column == nullptr) return nullptr;
  const int32_t at = type_index - column->begin_index;
  if (at < 0 || at >= column->size || column->data[at].type_index != kTVMFFIFunction) {
    return nullptr;
  }
  return column->data[at].v_obj;
}

}  // namespace frontend
}  // namespace ffi_core

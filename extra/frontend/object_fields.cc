#include "object_fields.h"

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

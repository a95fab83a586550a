// The C boundary's refusals (c_boundary.h).
#include "c_api/c_boundary.h"

namespace ffi_core {
namespace c_boundary {

int NullArgument(const char* function, const char* argument) {
  return RaiseError(ErrorKind::kValueError, {function, ": ", argument, " is NULL"}).ToReturnCode();
}

int Fail(ErrorKind kind, std::initializer_list<MessagePart> message) {
  return RaiseError(kind, message).ToReturnCode();
}

TVMFFIObject* CheckedHandle(const char* function, const char* argument, TVMFFIObjectHandle handle,
                            int32_t type_index, const char* type_name) {
  if (handle == nullptr) {
    static_cast<void>(NullArgument(function, argument));
    return nullptr;
  }
  TVMFFIObject* obj = static_cast<TVMFFIObject*>(handle);
  if (obj->type_index != type_index) {
    // Numeric: naming the type would pull the name table into every firmware.
    static_cast<void>(
        Fail(ErrorKind::kTypeError, {function, ": ", argument, " is not a ", type_name,
                                     " (type index ", obj->type_index, ")"}));
    return nullptr;
  }
  return obj;
}

}  // namespace c_boundary
}  // namespace ffi_core

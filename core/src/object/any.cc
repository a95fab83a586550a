#include <ffi_core/any.h>
#include <ffi_core/string.h>

#include <cstring>

namespace ffi_core {

const char* TypeIndexName(int32_t type_index) {
  switch (type_index) {
    case kTVMFFINone:
      return "None";
    case kTVMFFIInt:
      return "int";
    case kTVMFFIBool:
      return "bool";
    case kTVMFFIFloat:
      return "float";
    case kTVMFFIOpaquePtr:
      return "void*";
    case kTVMFFIDataType:
      return "DataType";
    case kTVMFFIDevice:
      return "Device";
    case kTVMFFIDLTensorPtr:
      return "DLTensor*";
    case kTVMFFIRawStr:
      return "const char*";
    case kTVMFFIByteArrayPtr:
      return "TVMFFIByteArray*";
    case kTVMFFIObjectRValueRef:
      return "ObjectRValueRef";
    case kTVMFFISmallStr:
      return "str";
    case kTVMFFISmallBytes:
      return "bytes";
    case kTVMFFIObject:
      return "Object";
    case kTVMFFIStr:
      return "str";
    case kTVMFFIBytes:
      return "bytes";
    case kTVMFFIError:
      return "Error";
    case kTVMFFIFunction:
      return "Function";
    case kTVMFFIShape:
      return "Shape";
    case kTVMFFITensor:
      return "Tensor";
    case kTVMFFIArray:
      return "Array";
    case kTVMFFIMap:
      return "Map";
    case kTVMFFIModule:
      return "Module";
    default:
      return type_index >= kTVMFFIStaticObjectBegin ? "Object" : "unknown type";
  }
}

Status RaiseConversionError(Conversion c, const char* expected, int32_t actual_index,
                            const char* func, int arg_index) {
  if (c == Conversion::kFailed) return StatusFromPendingError();
  const char* prefix = func != nullptr ? func : "";
  const char* sep = func != nullptr ? ": " : "";
  const char* arg = arg_index >= 0 ? "argument #" : "value";
  if (c == Conversion::kOutOfRange) {
    if (arg_index >= 0) {
      return RaiseError(ErrorKind::kTypeError,
                        {prefix, sep, arg, arg_index, ": value out of range for ", expected});
    }
    return RaiseError(ErrorKind::kTypeError, {prefix, sep, arg, ": out of range for ", expected});
  }
  if (arg_index >= 0) {
    return RaiseError(ErrorKind::kTypeError, {prefix, sep, arg, arg_index, ": expected ", expected,
                                              ", got ", TypeIndexName(actual_index)});
  }
  return RaiseError(ErrorKind::kTypeError, {prefix, sep, arg, ": expected ", expected, ", got ",
                                            TypeIndexName(actual_index)});
}

Expected<Any> Any::FromView(const AnyView& view) {
  const TVMFFIAny& raw = view.raw();
  switch (raw.type_index) {
    case kTVMFFIRawStr: {
      if (raw.v_c_str == nullptr) {
        return RaiseError(ErrorKind::kValueError, {"NULL const char* cannot become a String"});
      }
      FFI_CORE_ASSIGN_OR_RETURN(String s, String::FromCStr(raw.v_c_str));
      return s.any();
    }
    case kTVMFFIByteArrayPtr: {
      const TVMFFIByteArray* bytes = static_cast<const TVMFFIByteArray*>(raw.v_ptr);
      if (bytes == nullptr) {
        return RaiseError(ErrorKind::kValueError, {"NULL TVMFFIByteArray* cannot become Bytes"});
      }
      FFI_CORE_ASSIGN_OR_RETURN(Bytes b, Bytes::FromBytes(bytes->data, bytes->size));
      return b.any();
    }
    case kTVMFFIObjectRValueRef: {
      // The referenced handle gives up its reference to the new owner.
      TVMFFIObject** ref = static_cast<TVMFFIObject**>(raw.v_ptr);
      TVMFFIAny out = NoneAny();
      if (ref != nullptr && *ref != nullptr) {
        out.type_index = (*ref)->type_index;
        out.v_obj = *ref;
        *ref = nullptr;
      }
      return Any::AdoptRaw(out);
    }
    default: {
      if (raw.type_index >= kTVMFFIStaticObjectBegin) {
        if (raw.v_obj == nullptr) {
          return RaiseError(ErrorKind::kValueError,
                            {"object type index ", raw.type_index, " with a NULL pointer"});
        }
        ObjectIncRef(raw.v_obj);
        // What is kept is written clean, whatever padding the view came with
        // (FFI_CORE_ACCEPT_UPSTREAM_PADDING lets a dirty one through).
        TVMFFIAny owned = raw;
        owned.zero_padding = 0;
        return Any::AdoptRaw(owned);
      }
      return Any::AdoptRaw(raw);
    }
  }
}

}  // namespace ffi_core

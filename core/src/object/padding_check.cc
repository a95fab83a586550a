#include <ffi_core/config.h>
#include <ffi_core/device.h>
#include <ffi_core/error.h>
#include <ffi_core/padding_check.h>

#include <cstring>

namespace ffi_core {
namespace {

Status Broken(int index, int32_t type_index, const char* rule) {
  if (index >= 0) {
    return RaiseError(ErrorKind::kValueError,
                      {"argument #", index, " (type index ", type_index, "): ", rule});
  }
  return RaiseError(ErrorKind::kValueError, {"value (type index ", type_index, "): ", rule});
}

// Bytes of the value union that a payload of `used` bytes leaves unused
// must be zero.
bool TailIsZero(const TVMFFIAny& v, size_t used) {
  for (size_t i = used; i < sizeof(v.v_bytes); ++i) {
    if (v.v_bytes[i] != 0) return false;
  }
  return true;
}

// The kinds upstream's Python passes with an unwritten zero_padding
// (FFI_CORE_ACCEPT_UPSTREAM_PADDING).
bool IsContainer(int32_t t) {
  return t == kTVMFFIArray || t == kTVMFFIList || t == kTVMFFIMap || t == kTVMFFIDict;
}

}  // namespace

Status CheckAnyInvariants(const TVMFFIAny& v, int index) {
  const int32_t t = v.type_index;
  if (t == kTVMFFISmallStr || t == kTVMFFISmallBytes) {
    if (v.small_str_len > 7) return Broken(index, t, "small string length over 7");
    if (!TailIsZero(v, v.small_str_len)) {
      return Broken(index, t, "small string bytes past its length are not zero");
    }
    return Status::Ok();
  }
  if (v.zero_padding != 0 && !(FFI_CORE_ACCEPT_UPSTREAM_PADDING && IsContainer(t))) {
    return Broken(index, t, "zero_padding is not zero");
  }
  switch (t) {
    case kTVMFFINone:
      if (v.v_uint64 != 0) return Broken(index, t, "None with a non-zero value");
      return Status::Ok();
    case kTVMFFIBool:
      if (v.v_uint64 > 1) return Broken(index, t, "bool value is neither 0 nor 1");
      return Status::Ok();
    case kTVMFFIInt:
    case kTVMFFIFloat:
      return Status::Ok();
    case kTVMFFIDataType:
      if (!TailIsZero(v, sizeof(DLDataType)))
        return Broken(index, t, "DataType padding is not zero");
      return Status::Ok();
    case kTVMFFIDevice:
      // See device.h: a short-enum C writer may leave bytes 1-3 uninitialised.
      if (!DeviceTypeIsClean(v.v_device)) {
        return Broken(index, t,
                      "DLDevice.device_type has non-zero bytes 1-3 (zero-initialise DLDevice)");
      }
      return Status::Ok();
    case kTVMFFIOpaquePtr:
    case kTVMFFIDLTensorPtr:
    case kTVMFFIRawStr:
    case kTVMFFIByteArrayPtr:
    case kTVMFFIObjectRValueRef:
      if (!TailIsZero(v, sizeof(void*))) {
        return Broken(index, t, "high word of a 4-byte pointer is not zero");
      }
      if (v.v_ptr == nullptr && t != kTVMFFIOpaquePtr) return Broken(index, t, "NULL pointer");
      return Status::Ok();
    default:
      break;
  }
  if (t < kTVMFFIStaticObjectBegin) return Broken(index, t, "unknown type index");
  if (!TailIsZero(v, sizeof(void*))) {
    return Broken(index, t, "high word of a 4-byte object pointer is not zero");
  }
  if (v.v_obj == nullptr) return Broken(index, t, "NULL object pointer");
  if (v.v_obj->type_index != t) {
    return Broken(index, t, "type index differs from the object's header");
  }
  return Status::Ok();
}

Status CheckArgumentInvariants(const TVMFFIAny* args, int32_t num_args) {
  for (int32_t i = 0; i < num_args; ++i) FFI_CORE_RETURN_IF_ERROR(CheckAnyInvariants(args[i], i));
  return Status::Ok();
}

}  // namespace ffi_core

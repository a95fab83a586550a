#include <ffi_core/object.h>
#include <ffi_core/string.h>

#include <cstring>

namespace ffi_core {
namespace detail {

namespace {
[[gnu::cold, gnu::noinline]] Status RaiseNullData(size_t size) {
  return RaiseError(ErrorKind::kValueError, {"NULL data with size ", size});
}
}  // namespace

Status WriteByteSequence(const char* data, size_t size, int32_t small_index, int32_t object_index,
                         TVMFFIAny* out) {
  if (data == nullptr && size != 0) return RaiseNullData(size);
  TVMFFIAny raw = NoneAny();
  if (size <= kSmallBytesCapacity) {
    raw.type_index = small_index;
    raw.small_str_len = static_cast<uint32_t>(size);
    // At most 7 bytes: a loop is cheaper than a call to memcpy.
    for (size_t i = 0; i < size; ++i) raw.v_bytes[i] = data[i];
    *out = raw;
    return Status::Ok();
  }
  // size + 1 saturates so that NewObject's overflow check sees it.
  const size_t with_nul = size < SIZE_MAX ? size + 1 : SIZE_MAX;
  FFI_CORE_ASSIGN_OR_RETURN(BytesObj * obj, NewObject<BytesObj>(object_index, with_nul));
  char* text = reinterpret_cast<char*>(obj + 1);
  std::memcpy(text, data, size);
  text[size] = '\0';
  obj->bytes = TVMFFIByteArray{text, size};
  raw.type_index = object_index;
  raw.v_obj = &obj->header;
  *out = raw;
  return Status::Ok();
}

Expected<Any> MakeByteSequence(const char* data, size_t size, int32_t small_index,
                               int32_t object_index) {
  TVMFFIAny raw;
  FFI_CORE_RETURN_IF_ERROR(WriteByteSequence(data, size, small_index, object_index, &raw));
  return Any::AdoptRaw(raw);
}

TVMFFIByteArray ByteSequenceView(const TVMFFIAny& value) {
  if (value.type_index == kTVMFFISmallStr || value.type_index == kTVMFFISmallBytes) {
    return TVMFFIByteArray{value.v_bytes, value.small_str_len};
  }
  return *TVMFFIBytesGetByteArrayPtr(value.v_obj);
}

}  // namespace detail
}  // namespace ffi_core

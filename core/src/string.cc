#include <ffi_core/object.h>
#include <ffi_core/string.h>

#include <cstring>

namespace ffi_core {
namespace detail {

namespace {

[[gnu::cold, gnu::noinline]] Status RaiseNullData(size_t size) {
  return RaiseError(ErrorKind::kValueError, {"NULL data with size ", size});
}

// The object form; out of line so that the small form needs no stack frame
// for it.
[[gnu::noinline]] Status WriteBytesObject(const char* data, size_t size, int32_t object_index,
                                          TVMFFIAny* out) {
  // size + 1 saturates so that NewObject's overflow check sees it.
  const size_t with_nul = size < SIZE_MAX ? size + 1 : SIZE_MAX;
  FFI_CORE_ASSIGN_OR_RETURN(BytesObj * obj, NewObject<BytesObj>(object_index, with_nul));
  char* text = TrailingOf<char>(obj);
  std::memcpy(text, data, size);
  text[size] = '\0';
  obj->bytes = TVMFFIByteArray{text, size};
  // Fields written one by one: a zero-initialized TVMFFIAny becomes a call
  // to memset at -Os.
  out->type_index = object_index;
  out->zero_padding = 0;
  out->v_int64 = 0;
  out->v_obj = &obj->header;
  return Status::Ok();
}

}  // namespace

Status WriteByteSequence(const char* data, size_t size, int32_t small_index, int32_t object_index,
                         TVMFFIAny* out) {
  if (data == nullptr && size != 0) return RaiseNullData(size);
  if (size > kSmallBytesCapacity) return WriteBytesObject(data, size, object_index, out);
  // Built aside: data may point into *out.
  TVMFFIAny raw;
  raw.type_index = small_index;
  raw.small_str_len = static_cast<uint32_t>(size);
  raw.v_int64 = 0;
  // At most 7 bytes, copied one by one: a loop or memcpy becomes a library
  // call at -Os (and ARMv6-M has no unaligned word access to inline).
  char* to = raw.v_bytes;
  switch (size) {
    case 7:
      to[6] = data[6];
      [[fallthrough]];
    case 6:
      to[5] = data[5];
      [[fallthrough]];
    case 5:
      to[4] = data[4];
      [[fallthrough]];
    case 4:
      to[3] = data[3];
      [[fallthrough]];
    case 3:
      to[2] = data[2];
      [[fallthrough]];
    case 2:
      to[1] = data[1];
      [[fallthrough]];
    case 1:
      to[0] = data[0];
      [[fallthrough]];
    default:
      break;
  }
  // Field by field: a struct copy is a call to memcpy on ARMv6-M at -Os.
  out->type_index = raw.type_index;
  out->small_str_len = raw.small_str_len;
  out->v_int64 = raw.v_int64;
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

#include <ffi_core/object.h>
#include <ffi_core/string.h>

#include <cstring>

#include "small_bytes.h"

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
  if (data == nullptr) return RaiseNullData(size);
  // size + 1 saturates so that the allocator refuses an impossible size.
  const size_t with_nul = size < SIZE_MAX ? size + 1 : SIZE_MAX;
  FFI_CORE_ASSIGN_OR_RETURN(void* mem, AllocateWithTrailing(sizeof(BytesObj), alignof(BytesObj),
                                                            with_nul, 1, object_index));
  // Default-initialised: every field is written below, and zeroing first
  // would be a call to memset at -Os.
  BytesObj* obj = new (mem) BytesObj;
  InitObjectHeader(&obj->header, object_index, &ObjectDeleter<BytesObj>);
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
  // The object form first: reached by a tail call, before any frame.
  if (size > kSmallBytesCapacity) return WriteBytesObject(data, size, object_index, out);
  if (data == nullptr && size != 0) return RaiseNullData(size);
  WriteSmallBytes(data, size, small_index, out);
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

// String and Bytes: immutable byte sequences with the ABI's two forms.
// Up to 7 bytes live inline in the TVMFFIAny (kTVMFFISmallStr /
// kTVMFFISmallBytes, NUL-terminated, length in small_str_len) and need no
// memory; longer ones are kTVMFFIStr / kTVMFFIBytes objects: the header, a
// TVMFFIByteArray pointing just past itself, then the bytes and a NUL.
#ifndef FFI_CORE_STRING_H_
#define FFI_CORE_STRING_H_

#include <ffi_core/any.h>
#include <ffi_core/expected.h>
#include <ffi_core/same_bytes.h>

#include <cstddef>
#include <cstring>

namespace ffi_core {

// Longest payload kept inline: 8 bytes of value minus the NUL.
inline constexpr size_t kSmallBytesCapacity = 7;

// The ABI layout of a Str/Bytes object (the bytes follow it).
struct BytesObj {
  TVMFFIObject header;
  TVMFFIByteArray bytes;
};

namespace detail {
// The owned TVMFFIAny of a byte sequence, written to *out (what the C API
// hands out, without an Any in between), in its two forms. 0, or -1 with the
// error raised: the C API's convention, so that its entry points reach
// these by a tail call.
// The object form, for size > kSmallBytesCapacity.
int WriteBytesObject(const TVMFFIByteArray* bytes, TVMFFIAny* out, int32_t object_index);
// The small form, for size <= kSmallBytesCapacity; data may be NULL only
// when size is 0 (else a ValueError), and may point into *out.
int WriteSmallByteSequence(const char* data, size_t size, TVMFFIAny* out, int32_t small_index);
// Either form as an Any.
TVM_FFI_DLL Expected<Any> MakeByteSequence(const char* data, size_t size, int32_t small_index,
                                           int32_t object_index);
// The bytes of a small or object value (no check of the index).
TVM_FFI_DLL TVMFFIByteArray ByteSequenceView(const TVMFFIAny& value);

template <int32_t kSmallIndex, int32_t kObjectIndex>
class ByteSequence {
 public:
  ByteSequence() { value_ = Any::AdoptRaw(EmptyRaw()); }

  static Expected<ByteSequence> FromBytes(const char* data, size_t size) {
    FFI_CORE_ASSIGN_OR_RETURN(Any value, MakeByteSequence(data, size, kSmallIndex, kObjectIndex));
    return ByteSequence(std::move(value));
  }
  static Expected<ByteSequence> FromCStr(const char* s) { return FromBytes(s, std::strlen(s)); }

  const char* data() const { return View().data; }
  size_t size() const { return View().size; }
  bool empty() const { return size() == 0; }
  // True when stored inline rather than as an object.
  bool is_small() const { return value_.type_index() == kSmallIndex; }
  TVMFFIByteArray View() const { return ByteSequenceView(value_.raw()); }
  bool Equals(const char* data, size_t size) const {
    TVMFFIByteArray v = View();
    return SameBytes(v.data, v.size, data, size);
  }
  bool operator==(const char* s) const { return Equals(s, std::strlen(s)); }
  const Any& any() const { return value_; }

  // Wraps an owned value already known to hold one of the two indices.
  static ByteSequence AdoptChecked(Any value) { return ByteSequence(std::move(value)); }

 private:
  explicit ByteSequence(Any value) : value_(std::move(value)) {}
  static TVMFFIAny EmptyRaw() {
    TVMFFIAny raw = NoneAny();
    raw.type_index = kSmallIndex;
    return raw;
  }
  Any value_;
};
}  // namespace detail

using String = detail::ByteSequence<kTVMFFISmallStr, kTVMFFIStr>;
using Bytes = detail::ByteSequence<kTVMFFISmallBytes, kTVMFFIBytes>;

namespace detail {
template <int32_t kSmallIndex, int32_t kObjectIndex>
struct ByteSequenceTraits {
  using Seq = ByteSequence<kSmallIndex, kObjectIndex>;
  static void Write(const Seq& v, TVMFFIAny* out) { *out = v.any().raw(); }
  // Accepts both forms, plus (for strings) a borrowed C string and (for
  // bytes) a borrowed byte array, which are copied.
  static Conversion Read(const TVMFFIAny& in, Seq* out, int32_t borrowed_index) {
    if (in.type_index == kSmallIndex || in.type_index == kObjectIndex) {
      Expected<Any> owned = Any::FromView(AnyView::FromRaw(in));
      if (!owned.ok()) return Conversion::kFailed;
      *out = Seq::AdoptChecked(std::move(owned).value());
      return Conversion::kOk;
    }
    if (in.type_index == borrowed_index) {
      TVMFFIByteArray bytes;
      if (in.type_index == kTVMFFIRawStr) {
        bytes = TVMFFIByteArray{in.v_c_str, std::strlen(in.v_c_str)};
      } else {
        bytes = *static_cast<const TVMFFIByteArray*>(in.v_ptr);
      }
      Expected<Seq> copy = Seq::FromBytes(bytes.data, bytes.size);
      if (!copy.ok()) return Conversion::kFailed;
      *out = std::move(copy).value();
      return Conversion::kOk;
    }
    return Conversion::kMismatch;
  }
};
}  // namespace detail

template <>
struct TypeTraits<String> : detail::ByteSequenceTraits<kTVMFFISmallStr, kTVMFFIStr> {
  static constexpr const char* kName = "str";
  static Conversion Read(const TVMFFIAny& in, String* out) {
    return ByteSequenceTraits::Read(in, out, kTVMFFIRawStr);
  }
};
template <>
struct TypeTraits<Bytes> : detail::ByteSequenceTraits<kTVMFFISmallBytes, kTVMFFIBytes> {
  static constexpr const char* kName = "bytes";
  static Conversion Read(const TVMFFIAny& in, Bytes* out) {
    return ByteSequenceTraits::Read(in, out, kTVMFFIByteArrayPtr);
  }
};

}  // namespace ffi_core

#endif  // FFI_CORE_STRING_H_

// Integers wider than int64: a kTVMFFIBigInt object holds the word count and
// then the words (least significant first, native byte order, two's
// complement, minimal: no redundant sign word). Values that fit in int64
// are always plain kTVMFFIInt.
#include <ffi_core/any.h>
#include <ffi_core/error.h>
#include <ffi_core/object.h>
#include <tvm/ffi/c_api.h>

#include <cstring>

#include "c_api/c_boundary.h"

namespace ffi_core {
namespace {

struct BigIntObj {
  TVMFFIObject header;
  size_t size;  // words that follow the object
};

int64_t* WordsOf(BigIntObj* obj) { return TrailingOf<int64_t>(obj); }

int64_t WordAt(const char* data, size_t i) {
  int64_t w;
  std::memcpy(&w, data + i * sizeof(int64_t), sizeof(w));
  return w;
}

// Words left once redundant sign words (those that only repeat the sign of
// the word below) are dropped.
size_t MinimalWords(const char* data, size_t n) {
  while (n > 1) {
    const int64_t top = WordAt(data, n - 1);
    const bool below_negative = WordAt(data, n - 2) < 0;
    if (!((top == 0 && !below_negative) || (top == -1 && below_negative))) break;
    --n;
  }
  return n;
}

Expected<Any> BigIntFromWords(const TVMFFIByteArray& input) {
  if (input.data == nullptr && input.size != 0) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIBigIntFromByteArray: NULL data"});
  }
  if (input.size % sizeof(int64_t) != 0) {
    return RaiseError(ErrorKind::kValueError, {"TVMFFIBigIntFromByteArray: size ", input.size,
                                               " is not whole 64-bit words"});
  }
  const size_t n = MinimalWords(input.data, input.size / sizeof(int64_t));
  TVMFFIAny raw = NoneAny();
  raw.type_index = kTVMFFIInt;
  raw.v_int64 = n == 0 ? 0 : WordAt(input.data, 0);
  if (n <= 1) return Any::AdoptRaw(raw);
  FFI_CORE_ASSIGN_OR_RETURN(BigIntObj * obj,
                            NewObject<BigIntObj>(kTVMFFIBigInt, n * sizeof(int64_t)));
  obj->size = n;
  std::memcpy(WordsOf(obj), input.data, n * sizeof(int64_t));
  raw.type_index = kTVMFFIBigInt;
  raw.v_obj = &obj->header;
  return Any::AdoptRaw(raw);
}

}  // namespace
}  // namespace ffi_core

using namespace ffi_core;  // NOLINT(build/namespaces): the C boundary

extern "C" {

int TVMFFIBigIntFromByteArray(const TVMFFIByteArray* input, TVMFFIAny* out) {
  if (input == nullptr) return c_boundary::NullArgument("TVMFFIBigIntFromByteArray", "input");
  if (out == nullptr) return c_boundary::NullArgument("TVMFFIBigIntFromByteArray", "out");
  Expected<Any> value = BigIntFromWords(*input);
  if (!value.ok()) return -1;
  *out = std::move(value).value().ReleaseRaw();
  return 0;
}

TVMFFIByteArray TVMFFIBigIntGetContentByteArray(const TVMFFIAny* value) {
  if (value == nullptr) return TVMFFIByteArray{nullptr, 0};
  if (value->type_index == kTVMFFIInt) {
    return TVMFFIByteArray{reinterpret_cast<const char*>(&value->v_int64), sizeof(int64_t)};
  }
  // A BigInt tag without its object is no BigInt either.
  if (value->type_index == kTVMFFIBigInt && value->v_obj != nullptr) {
    BigIntObj* obj = reinterpret_cast<BigIntObj*>(value->v_obj);
    return TVMFFIByteArray{reinterpret_cast<const char*>(WordsOf(obj)),
                           obj->size * sizeof(int64_t)};
  }
  return TVMFFIByteArray{nullptr, 0};
}

}  // extern "C"

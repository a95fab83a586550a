#include "dataclass/any_key_attrs.h"

#include <ffi_core/any.h>
#include <ffi_core/container/any_hash.h>
#include <ffi_core/container/object_key_hooks.h>
#include <ffi_core/error.h>
#include <ffi_core/same_bytes.h>

#include <cstring>

namespace ffi_core {
namespace frontend {
namespace {

constexpr char kHashName[] = "__any_hash__";
constexpr char kEqualName[] = "__any_equal__";

// A column's header never moves (core's type attribute table is fixed), so
// the hooks keep the two; their cells move as the columns grow.
const TVMFFITypeAttrColumn* g_hash_column = nullptr;
const TVMFFITypeAttrColumn* g_equal_column = nullptr;

const TVMFFIAny* EntryOf(const TVMFFITypeAttrColumn* column, int32_t type_index) {
  const int64_t at = int64_t{type_index} - column->begin_index;
  if (column->data == nullptr || at < 0 || at >= column->size) return nullptr;
  const TVMFFIAny* entry = &column->data[at];
  return entry->type_index == kTVMFFINone ? nullptr : entry;
}

// Calls an attribute, native or an ffi.Function, as upstream's AnyHash and
// AnyEqual do. A result of the wanted type is its answer. Anything else (an
// error raised or returned) is dropped and answers nothing: core's maps take
// no error from a hash, so the key then hashes and compares by identity.
bool Call(const TVMFFIAny& attr, TVMFFIAny* args, int32_t n, int32_t want, TVMFFIAny* answer) {
  TVMFFIAny result = NoneAny();
  if (attr.type_index == kTVMFFIOpaquePtr) {
    result = n == 1 ? reinterpret_cast<AnyKeyHash>(attr.v_ptr)(args[0])
                    : reinterpret_cast<AnyKeyEqual>(attr.v_ptr)(args[0], args[1]);
  } else if (attr.type_index == kTVMFFIFunction) {
    if (TVMFFIFunctionCall(attr.v_obj, args, n, &result) != 0) {
      TVMFFIObjectHandle error = nullptr;
      TVMFFIErrorMoveFromRaised(&error);
      if (error != nullptr) TVMFFIObjectDecRef(error);
      return false;
    }
  }
  if (result.type_index != want) {
    Any::AdoptRaw(result);  // released: an error object or a wrong answer
    return false;
  }
  *answer = result;
  return true;
}

bool HashByAttr(const TVMFFIAny& key, uint64_t* hash) {
  const TVMFFIAny* attr = EntryOf(g_hash_column, key.type_index);
  TVMFFIAny args[1] = {key};
  TVMFFIAny answer;
  if (attr == nullptr || !Call(*attr, args, 1, kTVMFFIInt, &answer)) return false;
  *hash = static_cast<uint64_t>(answer.v_int64);
  return true;
}

bool EqualByAttr(const TVMFFIAny& a, const TVMFFIAny& b, bool* equal) {
  const TVMFFIAny* attr = EntryOf(g_equal_column, a.type_index);
  TVMFFIAny args[2] = {a, b};
  TVMFFIAny answer;
  if (attr == nullptr || !Call(*attr, args, 2, kTVMFFIBool, &answer)) return false;
  *equal = answer.v_int64 != 0;
  return true;
}

constexpr ObjectKeyHooks kHooks = {&HashByAttr, &EqualByAttr};

TVMFFIAny Result(int32_t type_index, int64_t value) {
  TVMFFIAny r = NoneAny();
  r.type_index = type_index;
  r.v_int64 = value;
  return r;
}

// ffi.BigInt by value: upstream's BigInt::hash() (its words' stable hash)
// and equal words (both canonical).
TVMFFIAny BigIntHash(const TVMFFIAny& key) noexcept {
  const TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&key);
  return Result(kTVMFFIInt, static_cast<int64_t>(HashBytes(words.data, words.size)));
}

TVMFFIAny BigIntEqual(const TVMFFIAny& a, const TVMFFIAny& b) noexcept {
  const bool equal =
      SameBytes(TVMFFIBigIntGetContentByteArray(&a), TVMFFIBigIntGetContentByteArray(&b));
  return Result(kTVMFFIBool, equal ? 1 : 0);
}

Status RegisterAttr(int32_t type_index, const char* name, void* fn) {
  TVMFFIAny value = NoneAny();
  value.type_index = kTVMFFIOpaquePtr;
  value.v_ptr = fn;
  const TVMFFIByteArray attr{name, std::strlen(name)};
  if (TVMFFITypeRegisterAttr(type_index, &attr, &value) != 0) return StatusFromPendingError();
  return Status::Ok();
}

}  // namespace

Status RegisterAnyKeyAttrs(int32_t type_index, AnyKeyHash hash, AnyKeyEqual equal) {
  FFI_CORE_RETURN_IF_ERROR(RegisterAttr(type_index, kHashName, reinterpret_cast<void*>(hash)));
  return RegisterAttr(type_index, kEqualName, reinterpret_cast<void*>(equal));
}

TVMFFIAny RaisedAsAnyKeyResult() {
  TVMFFIObjectHandle error = nullptr;
  TVMFFIErrorMoveFromRaised(&error);
  TVMFFIAny r = NoneAny();
  if (error != nullptr) {
    r.type_index = kTVMFFIError;
    r.v_obj = static_cast<TVMFFIObject*>(error);
  }
  return r;
}

Status InstallAnyKeyAttrs() {
  const TVMFFIByteArray hash_name{kHashName, sizeof(kHashName) - 1};
  const TVMFFIByteArray equal_name{kEqualName, sizeof(kEqualName) - 1};
  // A look-up makes either column (core/src/type/type_attr.cc).
  g_hash_column = TVMFFIGetTypeAttrColumn(&hash_name);
  g_equal_column = TVMFFIGetTypeAttrColumn(&equal_name);
  if (g_hash_column == nullptr || g_equal_column == nullptr) {
    return RaiseError(ErrorKind::kMemoryError,
                      {"the __any_hash__ and __any_equal__ columns: no room for them"});
  }
  FFI_CORE_RETURN_IF_ERROR(RegisterAnyKeyAttrs(kTVMFFIBigInt, &BigIntHash, &BigIntEqual));
  SetObjectKeyHooks(&kHooks);
  return Status::Ok();
}

}  // namespace frontend
}  // namespace ffi_core

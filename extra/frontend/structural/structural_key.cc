// "ffi.StructuralKey" (the type and its constructor) and
// "ffi.StructuralKeyEqual": a value kept with its structural hash, which
// upstream's package uses as a Python dict key (its __hash__ reads
// hash_i64, its __eq__ calls StructuralKeyEqual). As upstream, the type's
// __any_hash__ / __any_equal__ attributes make it an ffi.Map or ffi.Dict key
// by structure: its hash_i64, and structural equality.
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/object.h>

#include <cstddef>
#include <utility>

#include "dataclass/any_key_attrs.h"
#include "dataclass/native_type.h"
#include "dataclass/object_fields.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "structural/structural.h"

namespace ffi_core {
namespace frontend {
namespace {

// Laid out as upstream's StructuralKeyObj.
struct StructuralKeyObj {
  TVMFFIObject header;
  Any key;
  int64_t hash_i64 = 0;
};

int32_t g_key_index = -1;

Expected<const StructuralKeyObj*> KeyArg(PackedArgs args, int32_t i, const char* name) {
  if (args[i].type_index() != g_key_index) {
    return RaiseError(ErrorKind::kTypeError,
                      {name, ": argument #", i, " is not an ffi.StructuralKey (type index ",
                       args[i].type_index(), ")"});
  }
  return reinterpret_cast<const StructuralKeyObj*>(args[i].raw().v_obj);
}

// ffi.StructuralKey(key) -> the key with its structural hash (free variables
// unmapped, tensor content hashed).
Status MakeStructuralKey(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.StructuralKey", 1, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(uint64_t hash, StructuralHash(args[0], false, false));
  FFI_CORE_ASSIGN_OR_RETURN(Any key, Any::FromView(args[0]));
  FFI_CORE_ASSIGN_OR_RETURN(StructuralKeyObj * obj, NewObject<StructuralKeyObj>(g_key_index, 0));
  obj->key = std::move(key);
  obj->hash_i64 = static_cast<int64_t>(hash);
  *rv = Any::AdoptRaw(ObjectAny(&obj->header));
  return Status::Ok();
}

// ffi.StructuralKeyEqual(a, b): the same key, or equal hashes and
// structurally equal values.
Status StructuralKeyEqual(PackedArgs args, Any* rv) {
  constexpr const char* kName = "ffi.StructuralKeyEqual";
  if (args.size() != 2) return detail::RaiseArityError(kName, 2, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(const StructuralKeyObj* a, KeyArg(args, 0, kName));
  FFI_CORE_ASSIGN_OR_RETURN(const StructuralKeyObj* b, KeyArg(args, 1, kName));
  bool equal = a == b;
  if (!equal && a->hash_i64 == b->hash_i64) {
    FFI_CORE_ASSIGN_OR_RETURN(equal, StructuralEqual(a->key, b->key, false, false));
  }
  *rv = Any(equal);
  return Status::Ok();
}

// As map keys: the hash kept, and StructuralKeyEqual.
TVMFFIAny KeyHash(const TVMFFIAny& key) noexcept {
  TVMFFIAny r = NoneAny();
  r.type_index = kTVMFFIInt;
  r.v_int64 = reinterpret_cast<const StructuralKeyObj*>(key.v_obj)->hash_i64;
  return r;
}

TVMFFIAny KeyEqual(const TVMFFIAny& lhs, const TVMFFIAny& rhs) noexcept {
  const auto* a = reinterpret_cast<const StructuralKeyObj*>(lhs.v_obj);
  const auto* b = reinterpret_cast<const StructuralKeyObj*>(rhs.v_obj);
  Expected<bool> equal = a == b;
  if (a != b && a->hash_i64 == b->hash_i64) equal = StructuralEqual(a->key, b->key, false, false);
  if (!equal.ok()) return RaisedAsAnyKeyResult();
  TVMFFIAny r = NoneAny();
  r.type_index = kTVMFFIBool;
  r.v_int64 = equal.value() ? 1 : 0;
  return r;
}

}  // namespace

Status RegisterStructuralKey() {
  const NativeField fields[] = {
      {"key", offsetof(StructuralKeyObj, key), 16, &GetAnyField,
       R"({"type_schema":"{\"type\":\"Any\"}"})"},
      {"hash_i64", offsetof(StructuralKeyObj, hash_i64), 8, &GetInt64Field, kIntFieldSchema},
  };
  FFI_CORE_RETURN_IF_ERROR(RegisterNativeType("ffi.StructuralKey", &g_key_index, fields, 2));
  FFI_CORE_RETURN_IF_ERROR(RegisterAnyKeyAttrs(g_key_index, &KeyHash, &KeyEqual));
  static constexpr GlobalEntry kGlobals[] = {
      {"ffi.StructuralKey", &MakeStructuralKey},
      {"ffi.StructuralKeyEqual", &StructuralKeyEqual},
  };
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core

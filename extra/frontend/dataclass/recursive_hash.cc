// "ffi.RecursiveHash": a hash of a value's content that agrees with
// ffi.RecursiveEq (equal values hash alike): strings and bytes by content
// whatever their form, floats with -0.0 as 0.0 and every NaN alike, sequences
// by position, maps by their entries in any order, reflected objects by type
// and fields without HashOff / CompareOff ones, through "__ffi_hash__" hooks.
// A shared object is hashed once (a DAG costs its size, not its paths); one
// met again inside itself contributes its type's hash.
#include <ffi_core/container/any_hash.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/string.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "dataclass/object_fields.h"
#include "dataclass/object_table.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "scratch.h"
#include "value_hash.h"

namespace ffi_core {
namespace frontend {
namespace {

uint64_t HashText(TVMFFIByteArray b) { return HashBytes(b.data, b.size); }

class Hasher {
 public:
  Status Hash(const AnyView& v, uint64_t* out);

 private:
  uint64_t HashPod(const TVMFFIAny& v);
  Status HashObject(const AnyView& v, TVMFFIObject* obj, uint64_t* out);
  template <typename M>
  Status HashMap(const AnyView& v, uint64_t* out);
  Status HashFields(TVMFFIObject* obj, uint64_t* out);
  Status CallHook(TVMFFIObject* hook, TVMFFIObject* obj, uint64_t* out);

  ObjectTable memo_;  // object -> its hash, once complete
  const TVMFFIObject* path_[kMaxNestingDepth];
  int32_t depth_ = 0;
};

Status Hasher::Hash(const AnyView& v, uint64_t* out) {
  const TVMFFIAny& raw = v.raw();
  const int32_t ti = raw.type_index;
  if (ti == kTVMFFISmallStr || ti == kTVMFFIStr) {
    *out = HashCombine(kTVMFFIStr, HashText(detail::ByteSequenceView(raw)));
    return Status::Ok();
  }
  if (ti == kTVMFFISmallBytes || ti == kTVMFFIBytes) {
    *out = HashCombine(kTVMFFIBytes, HashText(detail::ByteSequenceView(raw)));
    return Status::Ok();
  }
  if (ti < kTVMFFIStaticObjectBegin) {
    *out = HashPod(raw);
    return Status::Ok();
  }
  TVMFFIObject* obj = raw.v_obj;
  if (obj == nullptr) {
    *out = HashCombine(0, 0);
    return Status::Ok();
  }
  if (const Any* h = memo_.Find(obj)) {
    *out = static_cast<uint64_t>(h->raw().v_int64);
    return Status::Ok();
  }
  for (int32_t i = 0; i < depth_; ++i) {
    if (path_[i] == obj) {
      *out = TypeKeyHash(ti);
      return Status::Ok();
    }
  }
  if (depth_ >= kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.RecursiveHash: values nested deeper than ", kMaxNestingDepth});
  }
  path_[depth_++] = obj;
  Status s = HashObject(v, obj, out);
  --depth_;
  FFI_CORE_RETURN_IF_ERROR(s);
  return memo_.Put(obj, Any(static_cast<int64_t>(*out)));
}

uint64_t Hasher::HashPod(const TVMFFIAny& v) {
  const uint64_t ti = static_cast<uint64_t>(v.type_index);
  switch (v.type_index) {
    case kTVMFFINone:
      return HashCombine(0, 0);
    case kTVMFFIBool:
      return HashCombine(ti, v.v_int64 != 0 ? 1 : 0);
    case kTVMFFIFloat: {
      double d = v.v_float64;
      if (std::isnan(d)) d = NAN;
      if (d == 0.0) d = 0.0;
      uint64_t bits;
      std::memcpy(&bits, &d, sizeof(bits));
      return HashCombine(ti, bits);
    }
    case kTVMFFIDataType:
      return HashCombine(HashCombine(HashCombine(ti, v.v_dtype.code), v.v_dtype.bits),
                         v.v_dtype.lanes);
    case kTVMFFIDevice:
      return HashCombine(HashCombine(ti, static_cast<uint64_t>(v.v_device.device_type)),
                         static_cast<uint64_t>(v.v_device.device_id));
    default:
      return HashCombine(ti, v.v_uint64);
  }
}

Status Hasher::HashObject(const AnyView& v, TVMFFIObject* obj, uint64_t* out) {
  const int32_t ti = obj->type_index;
  switch (ti) {
    case kTVMFFIBigInt:
      *out = HashCombine(TypeKeyHash(ti), HashText(TVMFFIBigIntGetContentByteArray(&v.raw())));
      return Status::Ok();
    case kTVMFFIShape:
      *out = ShapeHash(obj);
      return Status::Ok();
    case kTVMFFIArray:
    case kTVMFFIList: {
      const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(obj + 1);
      const auto* items = static_cast<const Any*>(cell->data);
      uint64_t h = HashCombine(TypeKeyHash(ti), static_cast<uint64_t>(cell->size));
      for (int64_t i = 0; i < cell->size; ++i) {
        uint64_t item = 0;
        FFI_CORE_RETURN_IF_ERROR(Hash(items[i], &item));
        h = HashCombine(h, HashCombine(item, static_cast<uint64_t>(i)));
      }
      *out = h;
      return Status::Ok();
    }
    case kTVMFFIMap:
      return HashMap<Map>(v, out);
    case kTVMFFIDict:
      return HashMap<Dict>(v, out);
    default:
      break;
  }
  if (TVMFFIObject* hook = TypeAttrFunction("__ffi_hash__", ti)) return CallHook(hook, obj, out);
  if (ti >= kTVMFFIStaticObjectEnd && (TypeAttrFunction("__ffi_eq__", ti) != nullptr ||
                                       TypeAttrFunction("__ffi_compare__", ti) != nullptr)) {
    return RaiseError(ErrorKind::kValueError,
                      {"RecursiveHash: type '", TVMFFIGetTypeInfo(ti)->type_key.data,
                       "' defines __ffi_eq__ or __ffi_compare__ but not __ffi_hash__. Add a "
                       "__ffi_hash__ hook to maintain the invariant "
                       "RecursiveEq(a,b) => RecursiveHash(a)==RecursiveHash(b)."});
  }
  return HashFields(obj, out);
}

// The entries' hashes combined in sorted order, so insertion order does not
// matter.
template <typename M>
Status Hasher::HashMap(const AnyView& v, uint64_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(M map, v.As<M>());
  const size_t n = map.size();
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<uint64_t> entries,
                            Scratch<uint64_t>::Make(n, "ffi.RecursiveHash"));
  size_t i = 0;
  Status status = Status::Ok();
  for (const MapPair& p : map) {
    uint64_t key = 0;
    uint64_t value = 0;
    status = Hash(p.key, &key);
    if (status.ok()) status = Hash(p.value, &value);
    if (!status.ok()) break;
    entries[i++] = HashCombine(key, value);
  }
  if (status.ok()) {
    std::sort(entries.data(), entries.data() + i);
    uint64_t h = HashCombine(TypeKeyHash(v.type_index()), n);
    for (size_t a = 0; a < i; ++a) h = HashCombine(h, entries[a]);
    *out = h;
  }
  return status;
}

Status Hasher::HashFields(TVMFFIObject* obj, uint64_t* out) {
  uint64_t h = TypeKeyHash(obj->type_index);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  Status status = Status::Ok();
  if (info != nullptr) {
    ForEachField(info, [&](const TVMFFIFieldInfo& f) {
      constexpr int64_t kSkip = kTVMFFIFieldFlagBitMaskHashOff | kTVMFFIFieldFlagBitMaskCompareOff;
      if (!status.ok() || (f.flags & kSkip)) return;
      Expected<Any> value = ReadField(obj, f);
      uint64_t field = 0;
      status = value.ok() ? Hash(*value, &field) : value.status();
      h = HashCombine(h, field);
    });
  }
  *out = h;
  return status;
}

// hook(self, hash_fn): hash_fn hashes nested values with this hasher.
Status Hasher::CallHook(TVMFFIObject* hook, TVMFFIObject* obj, uint64_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(Function nested, Function::FromPacked([this](PackedArgs args, Any* rv) {
                              if (args.size() != 1) {
                                return detail::RaiseArityError("hash", 1, args.size());
                              }
                              uint64_t h = 0;
                              FFI_CORE_RETURN_IF_ERROR(Hash(args[0], &h));
                              *rv = Any(static_cast<int64_t>(h));
                              return Status::Ok();
                            }));
  TVMFFIAny call_args[2] = {NoneAny(), NoneAny()};
  call_args[0].type_index = obj->type_index;
  call_args[0].v_obj = obj;
  const Any nested_any(nested);
  call_args[1] = nested_any.raw();
  TVMFFIAny result = NoneAny();
  if (TVMFFIFunctionCall(hook, call_args, 2, &result) != 0) return StatusFromPendingError();
  const Any owned = Any::AdoptRaw(result);
  FFI_CORE_ASSIGN_OR_RETURN(int64_t h, owned.As<int64_t>());
  *out = static_cast<uint64_t>(h);
  return Status::Ok();
}

Status RecursiveHash(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.RecursiveHash", 1, args.size());
  Hasher hasher;
  uint64_t h = 0;
  FFI_CORE_RETURN_IF_ERROR(hasher.Hash(args[0], &h));
  *rv = Any(static_cast<int64_t>(h));
  return Status::Ok();
}

}  // namespace

Status RegisterRecursiveHash() {
  static constexpr GlobalEntry kGlobals[] = {{"ffi.RecursiveHash", &RecursiveHash}};
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core

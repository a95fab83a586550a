// "ffi.StructuralHash": upstream's structural hash, which agrees with
// ffi.StructuralEqual (structurally equal values hash alike): values by
// content, reflected objects by type and fields through their structural
// kind. A free variable hashes by identity outside a definition region and
// by its order of definition inside one; a DAG node also by its order, so
// sharing shows. Each object is hashed once (a DAG costs its size). A type's
// "__s_hash__" hook replaces the field walk.
#include <ffi_core/container/any_hash.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/string.h>
#include <ffi_core/tensor.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "dataclass/object_fields.h"
#include "dataclass/object_table.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "scratch.h"
#include "structural/structural.h"
#include "value_hash.h"

namespace ffi_core {
namespace frontend {
namespace {

uint64_t IdentityHash(const TVMFFIObject* obj) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(obj));
}

class Hasher {
 public:
  Hasher(bool map_free_vars, bool skip_tensor_content)
      : region_(map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone),
        skip_tensor_content_(skip_tensor_content) {}

  Status Hash(const AnyView& v, uint64_t* out);

 private:
  // Values that hash without the walk: plain values, text, big integers.
  static bool HashLeaf(const TVMFFIAny& v, uint64_t* out);
  Status HashObject(const AnyView& v, uint64_t* out);
  Status HashReflected(TVMFFIObject* obj, uint64_t* out);
  Status HashFields(TVMFFIObject* obj, uint64_t* out);
  Status CallHook(TVMFFIObject* hook, TVMFFIObject* obj, uint64_t* out);
  template <typename M>
  Status HashMap(const AnyView& v, uint64_t* out);
  Status HashTensor(const AnyView& v, uint64_t* out);

  TVMFFIDefRegionKind region_;
  bool skip_tensor_content_;
  ObjectTable memo_;  // reflected object -> its hash
  uint64_t free_vars_ = 0;
  uint64_t dag_nodes_ = 0;
  int32_t depth_ = 0;
};

bool Hasher::HashLeaf(const TVMFFIAny& v, uint64_t* out) {
  const int32_t ti = v.type_index;
  if (ti == kTVMFFISmallStr || ti == kTVMFFIStr || ti == kTVMFFISmallBytes || ti == kTVMFFIBytes) {
    *out = AnyHash(AnyView::FromRaw(v));  // by content, whatever the form
    return true;
  }
  if (ti == kTVMFFIBigInt) {
    const TVMFFIByteArray words = TVMFFIBigIntGetContentByteArray(&v);
    *out = HashCombine(static_cast<uint64_t>(ti), HashBytes(words.data, words.size));
    return true;
  }
  if (ti >= kTVMFFIStaticObjectBegin) return false;
  uint64_t bits = v.v_uint64;
  if (ti == kTVMFFIFloat && std::isnan(v.v_float64)) {
    const double nan = NAN;  // every NaN alike, as they compare equal
    std::memcpy(&bits, &nan, sizeof(bits));
  }
  *out = HashCombine(static_cast<uint64_t>(ti), bits);
  return true;
}

Status Hasher::Hash(const AnyView& v, uint64_t* out) {
  if (HashLeaf(v.raw(), out)) return Status::Ok();
  if (depth_ >= kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.StructuralHash: values nested deeper than ", kMaxNestingDepth});
  }
  ++depth_;
  Status s = HashObject(v, out);
  --depth_;
  return s;
}

Status Hasher::HashObject(const AnyView& v, uint64_t* out) {
  TVMFFIObject* obj = v.raw().v_obj;
  const int32_t ti = obj->type_index;
  switch (ti) {
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
        h = HashCombine(h, item);
      }
      *out = h;
      return Status::Ok();
    }
    case kTVMFFIMap:
      return HashMap<Map>(v, out);
    case kTVMFFIDict:
      return HashMap<Dict>(v, out);
    case kTVMFFITensor:
      return HashTensor(v, out);
    default:
      return HashReflected(obj, out);
  }
}

Status Hasher::HashReflected(TVMFFIObject* obj, uint64_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFISEqHashKind kind, StructuralKindOf(obj->type_index));
  if (const Any* h = memo_.Find(obj)) {
    *out = static_cast<uint64_t>(h->raw().v_int64);
    return Status::Ok();
  }
  uint64_t h = 0;
  if (kind != kTVMFFISEqHashKindFreeVar) {
    FFI_CORE_RETURN_IF_ERROR(HashFields(obj, &h));
  } else {
    const TVMFFIDefRegionKind saved = region_;
    region_ = FreeVarFieldsRegion(region_);
    Status s = HashFields(obj, &h);
    region_ = saved;
    FFI_CORE_RETURN_IF_ERROR(s);
    // Bound variables are equal by position of definition, unbound ones
    // only to themselves.
    h = region_ != kTVMFFIDefRegionKindNone ? HashCombine(h, free_vars_++) : IdentityHash(obj);
  }
  if (kind == kTVMFFISEqHashKindDAGNode) h = HashCombine(h, dag_nodes_++);
  FFI_CORE_RETURN_IF_ERROR(memo_.Put(obj, Any(static_cast<int64_t>(h))));
  *out = h;
  return Status::Ok();
}

Status Hasher::HashFields(TVMFFIObject* obj, uint64_t* out) {
  if (TVMFFIObject* hook = TypeAttrFunction("__s_hash__", obj->type_index)) {
    return CallHook(hook, obj, out);
  }
  uint64_t h = TypeKeyHash(obj->type_index);
  Status status = Status::Ok();
  ForEachField(TVMFFIGetTypeInfo(obj->type_index), [&](const TVMFFIFieldInfo& f) {
    if (!status.ok() || (f.flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore)) return;
    Expected<Any> value = ReadField(obj, f);
    if (!value.ok()) {
      status = value.status();
      return;
    }
    const TVMFFIDefRegionKind saved = region_;
    region_ = EnterDefRegion(region_, FieldDefRegion(f.flags));
    uint64_t field = 0;
    status = Hash(*value, &field);
    region_ = saved;
    h = HashCombine(h, field);
  });
  *out = h;
  return status;
}

// hook(self, init_hash, hash) -> int, where hash(value, init, def_region_kind)
// combines `init` with the value's hash by this hasher.
Status Hasher::CallHook(TVMFFIObject* hook, TVMFFIObject* obj, uint64_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(
      Function nested, Function::FromPacked([this](PackedArgs args, Any* rv) {
        if (args.size() != 3) return detail::RaiseArityError("__s_hash__ callback", 3, args.size());
        FFI_CORE_ASSIGN_OR_RETURN(int64_t init, args[1].As<int64_t>());
        FFI_CORE_ASSIGN_OR_RETURN(int64_t requested, args[2].As<int64_t>());
        if (requested < kTVMFFIDefRegionKindNone || requested > kTVMFFIDefRegionKindSimple) {
          return RaiseError(ErrorKind::kValueError,
                            {"__s_hash__ callback: no definition region kind ", requested});
        }
        const TVMFFIDefRegionKind saved = region_;
        region_ = EnterDefRegion(region_, static_cast<TVMFFIDefRegionKind>(requested));
        uint64_t h = 0;
        Status s = Hash(args[0], &h);
        region_ = saved;
        FFI_CORE_RETURN_IF_ERROR(s);
        *rv = Any(static_cast<int64_t>(HashCombine(static_cast<uint64_t>(init), h)));
        return Status::Ok();
      }));
  const Any nested_any(nested);
  TVMFFIAny call_args[3] = {ObjectAny(obj), NoneAny(), nested_any.raw()};
  const Any init(static_cast<int64_t>(TypeKeyHash(obj->type_index)));
  call_args[1] = init.raw();
  TVMFFIAny result = NoneAny();
  if (TVMFFIFunctionCall(hook, call_args, 3, &result) != 0) return StatusFromPendingError();
  const Any owned = Any::AdoptRaw(result);
  FFI_CORE_ASSIGN_OR_RETURN(int64_t h, owned.As<int64_t>());
  *out = static_cast<uint64_t>(h);
  return Status::Ok();
}

struct KeyedValue {
  uint64_t key_hash = 0;
  const Any* value = nullptr;
};

// Order-independent: the entries sorted by their keys' hashes. A key hashes
// here if it is a leaf or an object already hashed (a bound variable, say);
// other keys only count in the size. Keys whose hashes collide contribute
// the hash alone, as their values cannot be paired up in a stable order.
template <typename M>
Status Hasher::HashMap(const AnyView& v, uint64_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(M map, v.As<M>());
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<KeyedValue> entries,
                            Scratch<KeyedValue>::Make(map.size(), "ffi.StructuralHash"));
  size_t n = 0;
  for (const MapPair& p : map) {
    uint64_t key = 0;
    if (HashLeaf(p.key.raw(), &key)) {
      entries[n++] = {key, &p.value};
    } else if (const Any* h = memo_.Find(p.key.raw().v_obj)) {
      entries[n++] = {static_cast<uint64_t>(h->raw().v_int64), &p.value};
    }
  }
  std::sort(entries.data(), entries.data() + n,
            [](const KeyedValue& a, const KeyedValue& b) { return a.key_hash < b.key_hash; });
  uint64_t h = HashCombine(TypeKeyHash(v.type_index()), map.size());
  for (size_t i = 0; i < n;) {
    size_t end = i + 1;
    while (end < n && entries[end].key_hash == entries[i].key_hash) ++end;
    h = HashCombine(h, entries[i].key_hash);
    if (end == i + 1) {
      uint64_t value = 0;
      FFI_CORE_RETURN_IF_ERROR(Hash(*entries[i].value, &value));
      h = HashCombine(h, value);
    }
    i = end;
  }
  *out = h;
  return Status::Ok();
}

Status Hasher::HashTensor(const AnyView& v, uint64_t* out) {
  FFI_CORE_ASSIGN_OR_RETURN(Tensor t, v.As<Tensor>());
  const DLTensor& dl = *t.dl_tensor();
  uint64_t h = HashCombine(TypeKeyHash(kTVMFFITensor), static_cast<uint64_t>(dl.ndim));
  for (int32_t i = 0; i < dl.ndim; ++i) h = HashCombine(h, static_cast<uint64_t>(dl.shape[i]));
  const uint64_t dtype =
      uint64_t{dl.dtype.code} | (uint64_t{dl.dtype.bits} << 8) | (uint64_t{dl.dtype.lanes} << 16);
  h = HashCombine(h, dtype);
  if (!skip_tensor_content_) {
    if (dl.device.device_type != kDLCPU || !detail::IsContiguous(dl)) {
      return RaiseError(ErrorKind::kValueError,
                        {"ffi.StructuralHash: can only hash the content of contiguous CPU tensors "
                         "(skip_tensor_content=True hashes shape and dtype only)"});
    }
    const uint64_t bits = static_cast<uint64_t>(detail::Numel(dl)) * dl.dtype.bits * dl.dtype.lanes;
    h = HashCombine(h, HashBytes(static_cast<const char*>(t.data_with_offset()),
                                 static_cast<size_t>((bits + 7) / 8)));
  }
  *out = h;
  return Status::Ok();
}

// ffi.StructuralHash(value, map_free_vars, skip_tensor_content) -> int
Status StructuralHashGlobal(PackedArgs args, Any* rv) {
  if (args.size() != 3) return detail::RaiseArityError("ffi.StructuralHash", 3, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(bool map_free_vars, args[1].As<bool>());
  FFI_CORE_ASSIGN_OR_RETURN(bool skip_tensor_content, args[2].As<bool>());
  FFI_CORE_ASSIGN_OR_RETURN(uint64_t h,
                            StructuralHash(args[0], map_free_vars, skip_tensor_content));
  *rv = Any(static_cast<int64_t>(h));
  return Status::Ok();
}

}  // namespace

Expected<uint64_t> StructuralHash(const AnyView& value, bool map_free_vars,
                                  bool skip_tensor_content) {
  Hasher hasher(map_free_vars, skip_tensor_content);
  uint64_t h = 0;
  FFI_CORE_RETURN_IF_ERROR(hasher.Hash(value, &h));
  return h;
}

Status RegisterStructuralHash() {
  static constexpr GlobalEntry kGlobals[] = {{"ffi.StructuralHash", &StructuralHashGlobal}};
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core

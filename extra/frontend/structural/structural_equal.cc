// "ffi.StructuralEqual" and "ffi.GetFirstStructuralMismatch": upstream's
// structural equality. Values compare by content (strings and bytes in
// either form, a NaN equal to any NaN, sequences by position, maps by key,
// tensors by shape, dtype and, unless skipped, bytes); reflected objects by
// their type's structural kind: fields for tree nodes, identity for unique
// instances, a one-to-one mapping for DAG nodes (sharing must match) and for
// free variables, which bind to each other inside a definition region (a
// field flagged SEqHashDef*, or everywhere with map_free_vars). A type's
// "__s_equal__" hook replaces the field walk. The mismatch query returns the
// access paths to the first difference on each side.
#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/array.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>
#include <ffi_core/same_bytes.h>
#include <ffi_core/string.h>
#include <ffi_core/tensor.h>

#include <cmath>
#include <utility>

#include "dataclass/access_path.h"
#include "dataclass/object_fields.h"
#include "dataclass/object_table.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "scratch.h"
#include "structural/structural.h"

namespace ffi_core {
namespace frontend {
namespace {

bool SameDims(const int64_t* a, size_t a_size, const int64_t* b, size_t b_size) {
  return SameBytes(reinterpret_cast<const char*>(a), a_size * sizeof(int64_t),
                   reinterpret_cast<const char*>(b), b_size * sizeof(int64_t));
}

class Comparer {
 public:
  Comparer(bool map_free_vars, bool skip_tensor_content)
      : region_(map_free_vars ? kTVMFFIDefRegionKindPattern : kTVMFFIDefRegionKindNone),
        skip_tensor_content_(skip_tensor_content) {}

  // Records the steps to the first mismatch, innermost first, in `lhs` and
  // `rhs` (each holds `capacity` steps).
  void TrackPaths(AccessStep* lhs, AccessStep* rhs, size_t capacity) {
    lhs_path_ = lhs;
    rhs_path_ = rhs;
    path_capacity_ = capacity;
  }
  size_t path_size() const { return path_size_; }

  Status Equal(const AnyView& lhs, const AnyView& rhs, bool* out);

 private:
  Status EqualObjects(const AnyView& lhs, const AnyView& rhs, bool* out);
  Status EqualReflected(TVMFFIObject* lhs, TVMFFIObject* rhs, bool* out);
  Status EqualFields(TVMFFIObject* lhs, TVMFFIObject* rhs, bool* out);
  Status CallHook(TVMFFIObject* hook, TVMFFIObject* lhs, TVMFFIObject* rhs, bool* out);
  Status EqualSequences(const TVMFFISeqCell* lhs, const TVMFFISeqCell* rhs, bool* out);
  template <typename M>
  Status EqualMaps(const AnyView& lhs, const AnyView& rhs, bool* out);
  Status EqualTensors(const AnyView& lhs, const AnyView& rhs, bool* out);
  Status Bind(TVMFFIObject* lhs, TVMFFIObject* rhs);
  Expected<Any> Mapped(const ObjectTable& table, const AnyView& key);
  Status Note(int32_t lhs_kind, const AnyView& lhs_key, int32_t rhs_kind, const AnyView& rhs_key);
  bool tracking() const { return lhs_path_ != nullptr; }

  TVMFFIDefRegionKind region_;
  bool skip_tensor_content_;
  ObjectTable lhs_to_rhs_;  // the bound pairs: free variables and equal DAG nodes
  ObjectTable rhs_to_lhs_;
  AccessStep* lhs_path_ = nullptr;
  AccessStep* rhs_path_ = nullptr;
  size_t path_size_ = 0;
  size_t path_capacity_ = 0;
  int32_t depth_ = 0;
};

Status Comparer::Equal(const AnyView& lhs, const AnyView& rhs, bool* out) {
  const TVMFFIAny& l = lhs.raw();
  const TVMFFIAny& r = rhs.raw();
  if (l.type_index != r.type_index) {
    // Only a string (or bytes) equals one of the same content in the other
    // form, as map keys compare.
    *out = AnyEqual(lhs, rhs);
    return Status::Ok();
  }
  if (l.type_index < kTVMFFIStaticObjectBegin) {
    if (l.type_index == kTVMFFIFloat && std::isnan(l.v_float64)) {
      *out = std::isnan(r.v_float64);
    } else {
      *out = l.zero_padding == r.zero_padding && l.v_int64 == r.v_int64;
    }
    return Status::Ok();
  }
  if (depth_ >= kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.StructuralEqual: values nested deeper than ", kMaxNestingDepth});
  }
  ++depth_;
  Status s = EqualObjects(lhs, rhs, out);
  --depth_;
  return s;
}

Status Comparer::EqualObjects(const AnyView& lhs, const AnyView& rhs, bool* out) {
  const TVMFFIAny& l = lhs.raw();
  const TVMFFIAny& r = rhs.raw();
  switch (l.type_index) {
    case kTVMFFIStr:
    case kTVMFFIBytes:
      *out = AnyEqual(lhs, rhs);
      return Status::Ok();
    case kTVMFFIBigInt:
      *out = SameBytes(TVMFFIBigIntGetContentByteArray(&l), TVMFFIBigIntGetContentByteArray(&r));
      return Status::Ok();
    case kTVMFFIShape: {
      const TVMFFIShapeCell* a = TVMFFIShapeGetCellPtr(l.v_obj);
      const TVMFFIShapeCell* b = TVMFFIShapeGetCellPtr(r.v_obj);
      *out = SameDims(a->data, a->size, b->data, b->size);
      return Status::Ok();
    }
    case kTVMFFIArray:
    case kTVMFFIList:
      return EqualSequences(reinterpret_cast<const TVMFFISeqCell*>(l.v_obj + 1),
                            reinterpret_cast<const TVMFFISeqCell*>(r.v_obj + 1), out);
    case kTVMFFIMap:
      return EqualMaps<Map>(lhs, rhs, out);
    case kTVMFFIDict:
      return EqualMaps<Dict>(lhs, rhs, out);
    case kTVMFFITensor:
      return EqualTensors(lhs, rhs, out);
    default:
      return EqualReflected(l.v_obj, r.v_obj, out);
  }
}

// Both objects are of one type.
Status Comparer::EqualReflected(TVMFFIObject* lhs, TVMFFIObject* rhs, bool* out) {
  FFI_CORE_ASSIGN_OR_RETURN(TVMFFISEqHashKind kind, StructuralKindOf(lhs->type_index));
  if (kind == kTVMFFISEqHashKindUniqueInstance ||
      (kind == kTVMFFISEqHashKindConstTreeNode && lhs == rhs)) {
    *out = lhs == rhs;
    return Status::Ok();
  }
  const bool mapped_kind = kind == kTVMFFISEqHashKindDAGNode || kind == kTVMFFISEqHashKindFreeVar;
  if (mapped_kind) {
    if (const Any* bound = lhs_to_rhs_.Find(lhs)) {
      *out = bound->raw().v_obj == rhs;
      return Status::Ok();
    }
    if (rhs_to_lhs_.Find(rhs) != nullptr) {  // rhs is bound to another
      *out = false;
      return Status::Ok();
    }
  }
  if (kind != kTVMFFISEqHashKindFreeVar) {
    FFI_CORE_RETURN_IF_ERROR(EqualFields(lhs, rhs, out));
    if (*out && kind == kTVMFFISEqHashKindDAGNode) return Bind(lhs, rhs);
    return Status::Ok();
  }
  const TVMFFIDefRegionKind saved = region_;
  region_ = FreeVarFieldsRegion(region_);
  Status s = EqualFields(lhs, rhs, out);
  region_ = saved;
  FFI_CORE_RETURN_IF_ERROR(s);
  if (!*out) return Status::Ok();
  // An unbound variable binds only to itself, or inside a definition region.
  *out = lhs == rhs || region_ != kTVMFFIDefRegionKindNone;
  return *out ? Bind(lhs, rhs) : Status::Ok();
}

Status Comparer::Bind(TVMFFIObject* lhs, TVMFFIObject* rhs) {
  FFI_CORE_ASSIGN_OR_RETURN(Any r, Any::FromView(AnyView::FromRaw(ObjectAny(rhs))));
  FFI_CORE_ASSIGN_OR_RETURN(Any l, Any::FromView(AnyView::FromRaw(ObjectAny(lhs))));
  FFI_CORE_RETURN_IF_ERROR(lhs_to_rhs_.Put(lhs, std::move(r)));
  return rhs_to_lhs_.Put(rhs, std::move(l));
}

Status Comparer::EqualFields(TVMFFIObject* lhs, TVMFFIObject* rhs, bool* out) {
  if (TVMFFIObject* hook = TypeAttrFunction("__s_equal__", lhs->type_index)) {
    return CallHook(hook, lhs, rhs, out);
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(lhs->type_index);
  Status status = Status::Ok();
  *out = true;
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok() || !*out || (f.flags & kTVMFFIFieldFlagBitMaskSEqHashIgnore)) return;
    Expected<Any> l = ReadField(lhs, f);
    Expected<Any> r = l.ok() ? ReadField(rhs, f) : Expected<Any>(l.status());
    if (!r.ok()) {
      status = r.status();
      return;
    }
    const TVMFFIDefRegionKind saved = region_;
    region_ = EnterDefRegion(region_, FieldDefRegion(f.flags));
    status = Equal(*l, *r, out);
    region_ = saved;
    if (status.ok() && !*out && tracking()) {
      Expected<String> name = String::FromBytes(f.name.data, f.name.size);
      status = name.ok() ? Note(kAttr, Any(*name), kAttr, Any(*name)) : name.status();
    }
  });
  return status;
}

// hook(lhs, rhs, equal) where equal(lhs_value, rhs_value, def_region_kind,
// field_name) compares nested values with this comparer.
Status Comparer::CallHook(TVMFFIObject* hook, TVMFFIObject* lhs, TVMFFIObject* rhs, bool* out) {
  FFI_CORE_ASSIGN_OR_RETURN(
      Function nested, Function::FromPacked([this](PackedArgs args, Any* rv) {
        if (args.size() != 4)
          return detail::RaiseArityError("__s_equal__ callback", 4, args.size());
        FFI_CORE_ASSIGN_OR_RETURN(int64_t requested, args[2].As<int64_t>());
        if (requested < kTVMFFIDefRegionKindNone || requested > kTVMFFIDefRegionKindSimple) {
          return RaiseError(ErrorKind::kValueError,
                            {"__s_equal__ callback: no definition region kind ", requested});
        }
        const TVMFFIDefRegionKind saved = region_;
        region_ = EnterDefRegion(region_, static_cast<TVMFFIDefRegionKind>(requested));
        bool equal = false;
        Status s = Equal(args[0], args[1], &equal);
        region_ = saved;
        FFI_CORE_RETURN_IF_ERROR(s);
        if (!equal) FFI_CORE_RETURN_IF_ERROR(Note(kAttr, args[3], kAttr, args[3]));
        *rv = Any(equal);
        return Status::Ok();
      }));
  const Any nested_any(nested);
  TVMFFIAny call_args[3] = {ObjectAny(lhs), ObjectAny(rhs), nested_any.raw()};
  TVMFFIAny result = NoneAny();
  if (TVMFFIFunctionCall(hook, call_args, 3, &result) != 0) return StatusFromPendingError();
  const Any owned = Any::AdoptRaw(result);
  FFI_CORE_ASSIGN_OR_RETURN(*out, owned.As<bool>());
  return Status::Ok();
}

Status Comparer::EqualSequences(const TVMFFISeqCell* lhs, const TVMFFISeqCell* rhs, bool* out) {
  const auto* l = static_cast<const Any*>(lhs->data);
  const auto* r = static_cast<const Any*>(rhs->data);
  *out = lhs->size == rhs->size;
  // Without paths a length mismatch is the answer; with them, the first
  // differing item comes first.
  if (!*out && !tracking()) return Status::Ok();
  const int64_t n = lhs->size < rhs->size ? lhs->size : rhs->size;
  for (int64_t i = 0; i < n; ++i) {
    bool equal = false;
    FFI_CORE_RETURN_IF_ERROR(Equal(l[i], r[i], &equal));
    if (!equal) {
      *out = false;
      const Any at(i);
      return Note(kArrayItem, at, kArrayItem, at);
    }
  }
  if (*out) return Status::Ok();
  const Any at(n);
  return lhs->size > rhs->size ? Note(kArrayItem, at, kArrayItemMissing, at)
                               : Note(kArrayItemMissing, at, kArrayItem, at);
}

// `key` as the other side names it: a bound object's partner, else itself.
Expected<Any> Comparer::Mapped(const ObjectTable& table, const AnyView& key) {
  if (key.type_index() >= kTVMFFIStaticObjectBegin) {
    if (const Any* bound = table.Find(key.raw().v_obj)) return Any::FromView(AnyView(*bound));
  }
  return Any::FromView(key);
}

template <typename M>
Status Comparer::EqualMaps(const AnyView& lhs, const AnyView& rhs, bool* out) {
  FFI_CORE_ASSIGN_OR_RETURN(M l, lhs.As<M>());
  FFI_CORE_ASSIGN_OR_RETURN(M r, rhs.As<M>());
  *out = l.size() == r.size();
  if (!*out && !tracking()) return Status::Ok();
  for (const MapPair& p : l) {
    FFI_CORE_ASSIGN_OR_RETURN(Any key, Mapped(lhs_to_rhs_, p.key));
    const MapPair* other = r.Find(key);
    if (other == nullptr) {
      *out = false;
      return Note(kMapItem, p.key, kMapItemMissing, key);
    }
    bool equal = false;
    FFI_CORE_RETURN_IF_ERROR(Equal(p.value, other->value, &equal));
    if (!equal) {
      *out = false;
      return Note(kMapItem, p.key, kMapItem, key);
    }
  }
  if (*out) return Status::Ok();
  // Sizes differ and every lhs key is in rhs: name an rhs key lhs lacks.
  for (const MapPair& p : r) {
    FFI_CORE_ASSIGN_OR_RETURN(Any key, Mapped(rhs_to_lhs_, p.key));
    if (l.Find(key) == nullptr) return Note(kMapItemMissing, key, kMapItem, p.key);
  }
  return Status::Ok();
}

Status Comparer::EqualTensors(const AnyView& lhs, const AnyView& rhs, bool* out) {
  const TVMFFIObject* lo = lhs.raw().v_obj;
  const TVMFFIObject* ro = rhs.raw().v_obj;
  *out = true;
  if (lo == ro) return Status::Ok();
  FFI_CORE_ASSIGN_OR_RETURN(Tensor l, lhs.As<Tensor>());
  FFI_CORE_ASSIGN_OR_RETURN(Tensor r, rhs.As<Tensor>());
  const DLTensor& a = *l.dl_tensor();
  const DLTensor& b = *r.dl_tensor();
  *out = SameDims(a.shape, static_cast<size_t>(a.ndim), b.shape, static_cast<size_t>(b.ndim)) &&
         a.dtype.code == b.dtype.code && a.dtype.bits == b.dtype.bits &&
         a.dtype.lanes == b.dtype.lanes;
  if (!*out || skip_tensor_content_) return Status::Ok();
  if (a.device.device_type != kDLCPU || b.device.device_type != kDLCPU) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.StructuralEqual: can only compare the content of CPU tensors "
                       "(skip_tensor_content=True compares shape and dtype only)"});
  }
  if (!detail::IsContiguous(a) || !detail::IsContiguous(b)) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.StructuralEqual: can only compare the content of contiguous tensors"});
  }
  const uint64_t bits = static_cast<uint64_t>(detail::Numel(a)) * a.dtype.bits * a.dtype.lanes;
  const size_t bytes = static_cast<size_t>((bits + 7) / 8);
  *out = SameBytes(static_cast<const char*>(l.data_with_offset()), bytes,
                   static_cast<const char*>(r.data_with_offset()), bytes);
  return Status::Ok();
}

Status Comparer::Note(int32_t lhs_kind, const AnyView& lhs_key, int32_t rhs_kind,
                      const AnyView& rhs_key) {
  if (!tracking()) return Status::Ok();
  // One step per nesting level, unless an __s_equal__ hook goes on after a
  // nested mismatch.
  if (path_size_ == path_capacity_) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.GetFirstStructuralMismatch: a mismatch path longer than ",
                       static_cast<unsigned long>(path_capacity_),
                       " steps (an __s_equal__ hook that goes on after a mismatch?)"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(Any l, Any::FromView(lhs_key));
  FFI_CORE_ASSIGN_OR_RETURN(Any r, Any::FromView(rhs_key));
  lhs_path_[path_size_].kind = lhs_kind;
  lhs_path_[path_size_].key = std::move(l);
  rhs_path_[path_size_].kind = rhs_kind;
  rhs_path_[path_size_].key = std::move(r);
  ++path_size_;
  return Status::Ok();
}

struct Options {
  bool map_free_vars;
  bool skip_tensor_content;
};

Expected<Options> ParseOptions(PackedArgs args, const char* name) {
  if (args.size() != 4) return detail::RaiseArityError(name, 4, args.size());
  FFI_CORE_ASSIGN_OR_RETURN(bool map_free_vars, args[2].As<bool>());
  FFI_CORE_ASSIGN_OR_RETURN(bool skip_tensor_content, args[3].As<bool>());
  return Options{map_free_vars, skip_tensor_content};
}

// ffi.StructuralEqual(lhs, rhs, map_free_vars, skip_tensor_content) -> bool
Status StructuralEqualGlobal(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Options o, ParseOptions(args, "ffi.StructuralEqual"));
  FFI_CORE_ASSIGN_OR_RETURN(
      bool equal, StructuralEqual(args[0], args[1], o.map_free_vars, o.skip_tensor_content));
  *rv = Any(equal);
  return Status::Ok();
}

// ffi.GetFirstStructuralMismatch(lhs, rhs, map_free_vars, skip_tensor_content)
//   -> None, or (lhs AccessPath, rhs AccessPath)
Status GetFirstStructuralMismatch(PackedArgs args, Any* rv) {
  constexpr const char* kName = "ffi.GetFirstStructuralMismatch";
  FFI_CORE_ASSIGN_OR_RETURN(Options o, ParseOptions(args, kName));
  // One step per nesting level, and one for the value that differs.
  constexpr size_t kMaxSteps = static_cast<size_t>(kMaxNestingDepth) + 1;
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AccessStep> lhs_steps,
                            Scratch<AccessStep>::Make(kMaxSteps, kName));
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<AccessStep> rhs_steps,
                            Scratch<AccessStep>::Make(kMaxSteps, kName));
  Comparer comparer(o.map_free_vars, o.skip_tensor_content);
  comparer.TrackPaths(lhs_steps.data(), rhs_steps.data(), kMaxSteps);
  bool equal = false;
  FFI_CORE_RETURN_IF_ERROR(comparer.Equal(args[0], args[1], &equal));
  if (equal) {
    *rv = Any();
    return Status::Ok();
  }
  // Recorded innermost first; a path runs from the root.
  const size_t n = comparer.path_size();
  for (size_t i = 0; i < n / 2; ++i) {
    std::swap(lhs_steps[i], lhs_steps[n - 1 - i]);
    std::swap(rhs_steps[i], rhs_steps[n - 1 - i]);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Any lhs_path, MakeAccessPath(lhs_steps.data(), n));
  FFI_CORE_ASSIGN_OR_RETURN(Any rhs_path, MakeAccessPath(rhs_steps.data(), n));
  const AnyView pair[2] = {AnyView(lhs_path), AnyView(rhs_path)};
  FFI_CORE_ASSIGN_OR_RETURN(Array tuple, Array::FromViews(pair, 2));
  *rv = Any(std::move(tuple));
  return Status::Ok();
}

}  // namespace

Expected<bool> StructuralEqual(const AnyView& lhs, const AnyView& rhs, bool map_free_vars,
                               bool skip_tensor_content) {
  Comparer comparer(map_free_vars, skip_tensor_content);
  bool equal = false;
  FFI_CORE_RETURN_IF_ERROR(comparer.Equal(lhs, rhs, &equal));
  return equal;
}

Status RegisterStructuralEqual() {
  static constexpr GlobalEntry kGlobals[] = {
      {"ffi.StructuralEqual", &StructuralEqualGlobal},
      {"ffi.GetFirstStructuralMismatch", &GetFirstStructuralMismatch},
  };
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core

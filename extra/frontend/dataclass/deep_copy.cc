// "ffi.DeepCopy": a copy of a value that shares nothing mutable with it.
// Containers and reflected objects are copied (objects through their type's
// "__ffi_shallow_copy__", then field by field); strings, bytes, shapes, big
// integers and enum members are immutable and shared. An object met twice is
// copied once, so sharing and cycles survive the copy. An Array or Map met
// again while its own copy is being built is referenced as the original
// first, and every copy is repointed at the finished copy at the end.
#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/error.h>
#include <ffi_core/function.h>

#include <cstring>

#include "dataclass/enum_state.h"
#include "dataclass/object_fields.h"
#include "dataclass/object_table.h"
#include "dataclass_globals.h"
#include "global_table.h"
#include "scratch.h"

namespace ffi_core {
namespace frontend {
namespace {

bool SameValue(const AnyView& a, const AnyView& b) {
  return a.type_index() == b.type_index() && a.raw().v_int64 == b.raw().v_int64;
}

// The views of n owned values, for the containers' constructors.
const AnyView* Views(Scratch<Any>& items) { return reinterpret_cast<const AnyView*>(items.data()); }

class DeepCopier {
 public:
  Expected<Any> Copy(const AnyView& v);
  Status RepointDeferred();
  bool deferred() const { return deferred_; }

 private:
  Expected<Any> CopyObject(const AnyView& v, TVMFFIObject* obj);
  Expected<Any> CopySequence(TVMFFIObject* obj, bool is_list);
  template <typename M>
  Expected<Any> CopyMap(const AnyView& v, TVMFFIObject* obj);
  Expected<Any> CopyReflected(TVMFFIObject* obj);
  Expected<Any> Mapped(const AnyView& v) const {
    TVMFFIObject* obj = ObjectOf(v);
    const Any* copy = obj != nullptr ? copies_.Find(obj) : nullptr;
    return copy != nullptr ? Expected<Any>(*copy) : Any::FromView(v);
  }
  Status RepointList(const Any& list);
  Status RepointDict(const Any& dict);
  Status RepointFields(const Any& object);

  ObjectTable copies_;  // original -> its copy
  // The Arrays and Maps whose copies are being built, outermost first.
  const TVMFFIObject* building_[kMaxNestingDepth];
  int32_t depth_ = 0;
  bool deferred_ = false;
};

Expected<Any> DeepCopier::Copy(const AnyView& v) {
  TVMFFIObject* obj = ObjectOf(v);
  if (obj == nullptr) return Any::FromView(v);
  if (const Any* copy = copies_.Find(obj)) return *copy;
  for (int32_t i = 0; i < depth_; ++i) {
    if (building_[i] == obj) {
      deferred_ = true;
      return Any::FromView(v);
    }
  }
  const int32_t ti = obj->type_index;
  if (ti == kTVMFFIStr || ti == kTVMFFIBytes || ti == kTVMFFIShape || ti == kTVMFFIBigInt ||
      IsEnumMember(obj)) {
    return Any::FromView(v);
  }
  if (depth_ >= kMaxNestingDepth) {
    return RaiseError(ErrorKind::kValueError,
                      {"ffi.DeepCopy: values nested deeper than ", kMaxNestingDepth});
  }
  building_[depth_++] = obj;
  Expected<Any> copy = CopyObject(v, obj);
  --depth_;
  return copy;
}

Expected<Any> DeepCopier::CopyObject(const AnyView& v, TVMFFIObject* obj) {
  switch (obj->type_index) {
    case kTVMFFIArray:
      return CopySequence(obj, false);
    case kTVMFFIList:
      return CopySequence(obj, true);
    case kTVMFFIMap:
      return CopyMap<Map>(v, obj);
    case kTVMFFIDict:
      return CopyMap<Dict>(v, obj);
    default:
      return CopyReflected(obj);
  }
}

Expected<Any> DeepCopier::CopySequence(TVMFFIObject* obj, bool is_list) {
  const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(obj + 1);
  const auto* items = static_cast<const Any*>(cell->data);
  const auto n = static_cast<size_t>(cell->size);
  if (is_list) {
    // Registered before its items, so an item may refer back to it.
    FFI_CORE_ASSIGN_OR_RETURN(List list, List::FromViews(nullptr, 0));
    FFI_CORE_RETURN_IF_ERROR(list.Reserve(cell->size));
    FFI_CORE_RETURN_IF_ERROR(copies_.Put(obj, Any(list)));
    for (size_t i = 0; i < n; ++i) {
      FFI_CORE_ASSIGN_OR_RETURN(Any item, Copy(items[i]));
      FFI_CORE_RETURN_IF_ERROR(list.Append(item));
    }
    return Any(list);
  }
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<Any> copied, Scratch<Any>::Make(n, "ffi.DeepCopy"));
  for (size_t i = 0; i < n; ++i) {
    FFI_CORE_ASSIGN_OR_RETURN(copied[i], Copy(items[i]));
  }
  FFI_CORE_ASSIGN_OR_RETURN(Array array, Array::FromViews(Views(copied), n));
  const Any result(array);
  FFI_CORE_RETURN_IF_ERROR(copies_.Put(obj, result));
  return result;
}

template <typename M>
Expected<Any> DeepCopier::CopyMap(const AnyView& v, TVMFFIObject* obj) {
  FFI_CORE_ASSIGN_OR_RETURN(M original, v.As<M>());
  const size_t n = original.size();
  if constexpr (std::is_same_v<M, Dict>) {
    // Registered before its entries, so an entry may refer back to it.
    FFI_CORE_ASSIGN_OR_RETURN(Dict dict, Dict::FromPairs(nullptr, 0));
    FFI_CORE_RETURN_IF_ERROR(copies_.Put(obj, Any(dict)));
    for (const MapPair& p : original) {
      FFI_CORE_ASSIGN_OR_RETURN(Any key, Copy(p.key));
      FFI_CORE_ASSIGN_OR_RETURN(Any value, Copy(p.value));
      FFI_CORE_RETURN_IF_ERROR(dict.Set(key, value));
    }
    return Any(dict);
  } else {
    FFI_CORE_ASSIGN_OR_RETURN(Scratch<Any> pairs, Scratch<Any>::Make(2 * n, "ffi.DeepCopy"));
    size_t i = 0;
    for (const MapPair& p : original) {
      FFI_CORE_ASSIGN_OR_RETURN(pairs[i], Copy(p.key));
      FFI_CORE_ASSIGN_OR_RETURN(pairs[i + 1], Copy(p.value));
      i += 2;
    }
    FFI_CORE_ASSIGN_OR_RETURN(Map map, Map::FromPairs(Views(pairs), n));
    const Any result(map);
    FFI_CORE_RETURN_IF_ERROR(copies_.Put(obj, result));
    return result;
  }
}

// The type's shallow copy, then each field that holds something copied.
Expected<Any> DeepCopier::CopyReflected(TVMFFIObject* obj) {
  const int32_t ti = obj->type_index;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(ti);
  TVMFFIObject* shallow = TypeAttrFunction("__ffi_shallow_copy__", ti);
  if (shallow == nullptr || info == nullptr) {
    return RaiseError(ErrorKind::kRuntimeError,
                      {"Cannot deep copy object of type \"", info ? KeyOf(info) : "?",
                       "\" because it is not copy-constructible"});
  }
  TVMFFIAny self = NoneAny();
  self.type_index = ti;
  self.v_obj = obj;
  TVMFFIAny made = NoneAny();
  if (TVMFFIFunctionCall(shallow, &self, 1, &made) != 0) return StatusFromPendingError();
  const Any copy = Any::AdoptRaw(made);
  TVMFFIObject* target = ObjectOf(copy);
  if (target == nullptr || target->type_index != ti) {
    return RaiseError(ErrorKind::kTypeError,
                      {"__ffi_shallow_copy__ of ", KeyOf(info), " returned another type"});
  }
  FFI_CORE_RETURN_IF_ERROR(copies_.Put(obj, copy));
  Status status = Status::Ok();
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok()) return;
    Expected<Any> value = ReadField(obj, f);
    if (!value.ok()) {
      status = value.status();
      return;
    }
    Expected<Any> copied = Copy(*value);
    if (!copied.ok()) {
      status = copied.status();
    } else if (!SameValue(*copied, *value)) {
      status = WriteField(target, f, copied->raw());
    }
  });
  FFI_CORE_RETURN_IF_ERROR(status);
  return copy;
}

Status DeepCopier::RepointDeferred() {
  for (const ObjectTable::Entry& e : copies_) {
    if (e.key == nullptr) continue;
    const int32_t ti = e.value.type_index();
    if (ti == kTVMFFIList) {
      FFI_CORE_RETURN_IF_ERROR(RepointList(e.value));
    } else if (ti == kTVMFFIDict) {
      FFI_CORE_RETURN_IF_ERROR(RepointDict(e.value));
    } else if (ti >= kTVMFFIStaticObjectEnd) {
      FFI_CORE_RETURN_IF_ERROR(RepointFields(e.value));
    }
  }
  return Status::Ok();
}

Status DeepCopier::RepointList(const Any& value) {
  FFI_CORE_ASSIGN_OR_RETURN(List list, AnyView(value).As<List>());
  for (size_t i = 0; i < list.size(); ++i) {
    const Any& item = list.begin()[i];
    FFI_CORE_ASSIGN_OR_RETURN(Any mapped, Mapped(item));
    if (!SameValue(mapped, item))
      FFI_CORE_RETURN_IF_ERROR(list.Set(static_cast<int64_t>(i), mapped));
  }
  return Status::Ok();
}

Status DeepCopier::RepointDict(const Any& value) {
  FFI_CORE_ASSIGN_OR_RETURN(Dict dict, AnyView(value).As<Dict>());
  // Entries to replace, as (old key, new key, new value), collected first:
  // the dict cannot change while it is walked.
  const size_t n = dict.size();
  FFI_CORE_ASSIGN_OR_RETURN(Scratch<Any> changes, Scratch<Any>::Make(3 * n, "ffi.DeepCopy"));
  size_t count = 0;
  for (const MapPair& p : dict) {
    FFI_CORE_ASSIGN_OR_RETURN(Any key, Mapped(p.key));
    FFI_CORE_ASSIGN_OR_RETURN(Any val, Mapped(p.value));
    if (SameValue(key, p.key) && SameValue(val, p.value)) continue;
    changes[3 * count] = p.key;
    changes[3 * count + 1] = key;
    changes[3 * count + 2] = val;
    ++count;
  }
  for (size_t i = 0; i < count; ++i) {
    FFI_CORE_RETURN_IF_ERROR(dict.Erase(changes[3 * i]));
    FFI_CORE_RETURN_IF_ERROR(dict.Set(changes[3 * i + 1], changes[3 * i + 2]));
  }
  return Status::Ok();
}

Status DeepCopier::RepointFields(const Any& value) {
  TVMFFIObject* obj = ObjectOf(value);
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  if (info == nullptr) return Status::Ok();
  Status status = Status::Ok();
  ForEachField(info, [&](const TVMFFIFieldInfo& f) {
    if (!status.ok()) return;
    Expected<Any> field = ReadField(obj, f);
    Expected<Any> mapped = field.ok() ? Mapped(*field) : Expected<Any>(field.status());
    if (!mapped.ok()) {
      status = mapped.status();
    } else if (!SameValue(*mapped, *field)) {
      status = WriteField(obj, f, mapped->raw());
    }
  });
  return status;
}

Status DeepCopy(PackedArgs args, Any* rv) {
  if (args.size() != 1) return detail::RaiseArityError("ffi.DeepCopy", 1, args.size());
  DeepCopier copier;
  FFI_CORE_ASSIGN_OR_RETURN(Any copy, copier.Copy(args[0]));
  if (copier.deferred()) FFI_CORE_RETURN_IF_ERROR(copier.RepointDeferred());
  *rv = std::move(copy);
  return Status::Ok();
}

}  // namespace

Status RegisterDeepCopy() {
  static constexpr GlobalEntry kGlobals[] = {{"ffi.DeepCopy", &DeepCopy}};
  return RegisterGlobalTable(kGlobals);
}

}  // namespace frontend
}  // namespace ffi_core

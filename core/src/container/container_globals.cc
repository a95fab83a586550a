// The ffi.* globals that make, read and change containers, under upstream's
// names and arguments (its Python package calls them). They live in
// libffi_core_containers.a and reach the registry through the weak hook in
// function/builtin_globals.h: a firmware that does not link
// ffi_core::containers links none of this.
#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
#include <ffi_core/container/map.h>
#include <ffi_core/container/shape.h>
#include <ffi_core/device.h>
#include <ffi_core/function.h>

#include <utility>

#include "function/builtin_globals.h"

namespace ffi_core {
namespace {

// A typed function as a packed builtin; `kName` names it in arity and type
// errors.
template <auto F, const char* kName>
Status Typed(PackedArgs args, Any* rv) {
  auto f = F;
  return detail::CallTyped(
      f, kName, args, rv,
      std::make_index_sequence<detail::FunctionSignature<decltype(F)>::kArity>());
}

Expected<Any> Owned(Expected<AnyView> view) {
  if (!view.ok()) return view.status();
  return Any::FromView(*view);
}

// `value` in its owned form (a raw C string as a String), as AnyEqual compares.
template <typename Seq>
bool SeqContains(const Seq& seq, const Any& value) {
  for (const Any& item : seq) {
    if (AnyEqual(item, value)) return true;
  }
  return false;
}

// ---- Array ----

Status MakeArray(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(Array a,
                            Array::FromViews(args.data(), static_cast<size_t>(args.size())));
  *rv = Any(a);
  return Status::Ok();
}
Expected<Any> ArrayGetItem(Array a, int64_t i) { return Owned(a.At(i)); }
int64_t ArraySize(Array a) { return static_cast<int64_t>(a.size()); }
bool ArrayContains(Array a, Any v) { return SeqContains(a, v); }

// ---- List ----

Status MakeList(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(List l, List::FromViews(args.data(), static_cast<size_t>(args.size())));
  *rv = Any(l);
  return Status::Ok();
}
Expected<Any> ListGetItem(List l, int64_t i) { return Owned(l.At(i)); }
Status ListSetItem(List l, int64_t i, AnyView v) { return l.Set(i, v); }
int64_t ListSize(List l) { return static_cast<int64_t>(l.size()); }
Status ListAppend(List l, AnyView v) { return l.Append(v); }
Status ListInsert(List l, int64_t i, AnyView v) { return l.Insert(i, v); }
Expected<Any> ListPop(List l, int64_t i) { return l.Pop(i); }
Status ListErase(List l, int64_t i) {
  FFI_CORE_RETURN_IF_ERROR(l.At(i).status());  // an IndexError names the index
  return l.EraseRange(i, i + 1);
}
Status ListEraseRange(List l, int64_t begin, int64_t end) { return l.EraseRange(begin, end); }
// The items of an Array or a List.
// Any and AnyView share TVMFFIAny's layout (any.h), so held items view as is.
const AnyView* Views(const Any* items) { return reinterpret_cast<const AnyView*>(items); }

Status ListReplaceSlice(List l, int64_t begin, int64_t end, AnyView items) {
  if (items.type_index() == kTVMFFIArray) {
    Array a = items.As<Array>().value();
    return l.ReplaceRange(begin, end, Views(a.begin()), a.size());
  }
  FFI_CORE_ASSIGN_OR_RETURN(List from, items.As<List>());
  // The same list on both sides: its items are owned before anything moves.
  return l.ReplaceRange(begin, end, Views(from.begin()), from.size());
}
Status ListReverse(List l) {
  l.Reverse();
  return Status::Ok();
}
Status ListClear(List l) {
  l.Clear();
  return Status::Ok();
}
bool ListContains(List l, Any v) { return SeqContains(l, v); }
Status ListReserve(List l, int64_t n) { return l.Reserve(n); }

// ---- Map and Dict ----

template <typename M>
Status MakeMapOf(PackedArgs args, Any* rv, const char* who) {
  if (args.size() % 2 != 0) {
    return RaiseError(ErrorKind::kValueError,
                      {who, ": expected key, value pairs, got ", args.size(), " arguments"});
  }
  FFI_CORE_ASSIGN_OR_RETURN(M m, M::FromPairs(args.data(), static_cast<size_t>(args.size() / 2)));
  *rv = Any(m);
  return Status::Ok();
}
Status MakeMap(PackedArgs args, Any* rv) { return MakeMapOf<Map>(args, rv, "ffi.Map"); }
Status MakeDict(PackedArgs args, Any* rv) { return MakeMapOf<Dict>(args, rv, "ffi.Dict"); }

// Keys are looked up in their owned form (a raw C string as a String).
template <typename M>
int64_t MapSizeOf(M m) {
  return static_cast<int64_t>(m.size());
}
template <typename M>
Expected<Any> MapGetItemOf(M m, Any key) {
  return Owned(m.At(key));
}
template <typename M>
int64_t MapCountOf(M m, Any key) {
  return m.Find(key) != nullptr ? 1 : 0;
}
template <typename M>
Expected<Any> MapGetItemOrMissingOf(M m, Any key) {
  const MapPair* p = m.Find(key);
  return p != nullptr ? Any::FromView(p->value) : Expected<Any>(MissingObject());
}
// A function walking the pairs in order: 0 gives the key, 1 the value, 2
// moves on and says whether a pair is left.
template <typename M>
Expected<Function> MapForwardIterFunctorOf(M m) {
  return Function::FromPacked([m, it = m.begin()](PackedArgs args, Any* rv) mutable -> Status {
    FFI_CORE_ASSIGN_OR_RETURN(int64_t command, args.size() == 1
                                                   ? args[0].As<int64_t>()
                                                   : Expected<int64_t>(detail::RaiseArityError(
                                                         "MapForwardIterFunctor", 1, args.size())));
    if (command == 2) {
      if (it != m.end()) ++it;
      *rv = Any(it != m.end());
      return Status::Ok();
    }
    if ((command != 0 && command != 1) || it == m.end()) {
      return RaiseError(ErrorKind::kIndexError, {"MapForwardIterFunctor: command ", command,
                                                 " past the last of ", m.size(), " pairs"});
    }
    const MapPair& p = *it;
    FFI_CORE_ASSIGN_OR_RETURN(*rv, Any::FromView(command == 0 ? p.key : p.value));
    return Status::Ok();
  });
}
Status DictSetItem(Dict d, Any key, AnyView value) { return d.Set(key, value); }
Status DictErase(Dict d, Any key) { return d.Erase(key); }
Status DictClear(Dict d) {
  d.Clear();
  return Status::Ok();
}

// ---- Shape, devices ----

Status MakeShape(PackedArgs args, Any* rv) {
  constexpr int32_t kMaxDims = 64;
  if (args.size() > kMaxDims) {
    return RaiseError(ErrorKind::kValueError, {"ffi.Shape: more than ", kMaxDims, " dimensions"});
  }
  int64_t dims[kMaxDims];
  for (int32_t i = 0; i < args.size(); ++i) {
    Expected<int64_t> d = args[i].As<int64_t>();
    if (!d.ok()) return d.status();
    dims[i] = *d;
  }
  FFI_CORE_ASSIGN_OR_RETURN(Shape s, Shape::FromDims(dims, static_cast<size_t>(args.size())));
  *rv = Any(s);
  return Status::Ok();
}

// The first tensor not on the CPU in a value, searching containers depth
// first (a map's keys and values in order); false when there is none.
bool FindNonCPUDevice(const AnyView& v, DLDevice* out, int depth) {
  if (depth > 64) return false;  // deeper nesting than any argument list has
  if (v.type_index() == kTVMFFITensor || v.type_index() == kTVMFFIDLTensorPtr) {
    const DLTensor* t = v.type_index() == kTVMFFITensor
                            ? TVMFFITensorGetDLTensorPtr(v.raw().v_obj)
                            : static_cast<const DLTensor*>(v.raw().v_ptr);
    if (DeviceTypeOf(t->device) == kDLCPU) return false;
    *out = t->device;
    return true;
  }
  const Any* begin = nullptr;
  size_t size = 0;
  if (v.type_index() == kTVMFFIArray || v.type_index() == kTVMFFIList) {
    const auto* cell = reinterpret_cast<const TVMFFISeqCell*>(v.raw().v_obj + 1);
    begin = static_cast<const Any*>(cell->data);
    size = static_cast<size_t>(cell->size);
  }
  for (size_t i = 0; i < size; ++i) {
    if (FindNonCPUDevice(begin[i], out, depth + 1)) return true;
  }
  if (v.type_index() == kTVMFFIMap || v.type_index() == kTVMFFIDict) {
    const auto* m = reinterpret_cast<const MapObj*>(v.raw().v_obj);
    const bool small = detail::IsSmallMap(m);
    const MapIterator end(m, small ? m->size : detail::kDenseEnd);
    for (MapIterator it(m, small ? 0 : m->iter_head); it != end; ++it) {
      if (FindNonCPUDevice(it->key, out, depth + 1) ||
          FindNonCPUDevice(it->value, out, depth + 1)) {
        return true;
      }
    }
  }
  return false;
}

Status ContainerFindFirstNonCPUDevice(PackedArgs args, Any* rv) {
  if (args.size() != 1)
    return detail::RaiseArityError("ffi.ContainerFindFirstNonCPUDevice", 1, args.size());
  DLDevice d{};
  *rv = FindNonCPUDevice(args[0], &d, 0) ? Any(d) : Any();
  return Status::Ok();
}

constexpr char kArrayGetItem[] = "ffi.ArrayGetItem";
constexpr char kArraySize[] = "ffi.ArraySize";
constexpr char kArrayContains[] = "ffi.ArrayContains";
constexpr char kListGetItem[] = "ffi.ListGetItem";
constexpr char kListSetItem[] = "ffi.ListSetItem";
constexpr char kListSize[] = "ffi.ListSize";
constexpr char kListAppend[] = "ffi.ListAppend";
constexpr char kListInsert[] = "ffi.ListInsert";
constexpr char kListPop[] = "ffi.ListPop";
constexpr char kListErase[] = "ffi.ListErase";
constexpr char kListEraseRange[] = "ffi.ListEraseRange";
constexpr char kListReplaceSlice[] = "ffi.ListReplaceSlice";
constexpr char kListReverse[] = "ffi.ListReverse";
constexpr char kListClear[] = "ffi.ListClear";
constexpr char kListContains[] = "ffi.ListContains";
constexpr char kListReserve[] = "ffi.ListReserve";

constexpr char kMapSize[] = "ffi.MapSize";
constexpr char kMapGetItem[] = "ffi.MapGetItem";
constexpr char kMapCount[] = "ffi.MapCount";
constexpr char kMapGetItemOrMissing[] = "ffi.MapGetItemOrMissing";
constexpr char kMapForwardIterFunctor[] = "ffi.MapForwardIterFunctor";
constexpr char kDictSize[] = "ffi.DictSize";
constexpr char kDictGetItem[] = "ffi.DictGetItem";
constexpr char kDictCount[] = "ffi.DictCount";
constexpr char kDictGetItemOrMissing[] = "ffi.DictGetItemOrMissing";
constexpr char kDictForwardIterFunctor[] = "ffi.DictForwardIterFunctor";
constexpr char kDictSetItem[] = "ffi.DictSetItem";
constexpr char kDictErase[] = "ffi.DictErase";
constexpr char kDictClear[] = "ffi.DictClear";

constexpr detail::Builtin kContainerBuiltins[] = {
    {"ffi.Array", &MakeArray},
    {kArrayGetItem, &Typed<&ArrayGetItem, kArrayGetItem>},
    {kArraySize, &Typed<&ArraySize, kArraySize>},
    {kArrayContains, &Typed<&ArrayContains, kArrayContains>},
    {"ffi.List", &MakeList},
    {kListGetItem, &Typed<&ListGetItem, kListGetItem>},
    {kListSetItem, &Typed<&ListSetItem, kListSetItem>},
    {kListSize, &Typed<&ListSize, kListSize>},
    {kListAppend, &Typed<&ListAppend, kListAppend>},
    {kListInsert, &Typed<&ListInsert, kListInsert>},
    {kListPop, &Typed<&ListPop, kListPop>},
    {kListErase, &Typed<&ListErase, kListErase>},
    {kListEraseRange, &Typed<&ListEraseRange, kListEraseRange>},
    {kListReplaceSlice, &Typed<&ListReplaceSlice, kListReplaceSlice>},
    {kListReverse, &Typed<&ListReverse, kListReverse>},
    {kListClear, &Typed<&ListClear, kListClear>},
    {kListContains, &Typed<&ListContains, kListContains>},
    {kListReserve, &Typed<&ListReserve, kListReserve>},
    {"ffi.Map", &MakeMap},
    {kMapSize, &Typed<&MapSizeOf<Map>, kMapSize>},
    {kMapGetItem, &Typed<&MapGetItemOf<Map>, kMapGetItem>},
    {kMapCount, &Typed<&MapCountOf<Map>, kMapCount>},
    {kMapGetItemOrMissing, &Typed<&MapGetItemOrMissingOf<Map>, kMapGetItemOrMissing>},
    {kMapForwardIterFunctor, &Typed<&MapForwardIterFunctorOf<Map>, kMapForwardIterFunctor>},
    {"ffi.Dict", &MakeDict},
    {kDictSize, &Typed<&MapSizeOf<Dict>, kDictSize>},
    {kDictGetItem, &Typed<&MapGetItemOf<Dict>, kDictGetItem>},
    {kDictCount, &Typed<&MapCountOf<Dict>, kDictCount>},
    {kDictGetItemOrMissing, &Typed<&MapGetItemOrMissingOf<Dict>, kDictGetItemOrMissing>},
    {kDictForwardIterFunctor, &Typed<&MapForwardIterFunctorOf<Dict>, kDictForwardIterFunctor>},
    {kDictSetItem, &Typed<&DictSetItem, kDictSetItem>},
    {kDictErase, &Typed<&DictErase, kDictErase>},
    {kDictClear, &Typed<&DictClear, kDictClear>},
    {"ffi.Shape", &MakeShape},
    {"ffi.ContainerFindFirstNonCPUDevice", &ContainerFindFirstNonCPUDevice},
};

}  // namespace
}  // namespace ffi_core

extern "C" const char* ffi_core_container_global_name(size_t index) {
  constexpr size_t kCount =
      sizeof(ffi_core::kContainerBuiltins) / sizeof(ffi_core::kContainerBuiltins[0]);
  return index < kCount ? ffi_core::kContainerBuiltins[index].name : nullptr;
}

extern "C" void ffi_core_container_global(const char* name, size_t size,
                                          ffi_core::Expected<ffi_core::Function>* out) {
  *out = ffi_core::detail::MakeBuiltin(ffi_core::kContainerBuiltins, name, size);
}

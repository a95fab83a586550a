// The ffi.* globals that make, read and change containers, under upstream's
// names and arguments (its Python package calls them). They live in
// libffi_core_containers.a and reach the registry through the weak hook in
// function/builtin_globals.h: a firmware that does not link
// ffi_core::containers links none of this.
#include <ffi_core/container/any_equal.h>
#include <ffi_core/container/array.h>
#include <ffi_core/container/list.h>
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
  FFI_CORE_ASSIGN_OR_RETURN(Array a, Array::FromViews(&args[0], static_cast<size_t>(args.size())));
  *rv = Any(a);
  return Status::Ok();
}
Expected<Any> ArrayGetItem(Array a, int64_t i) { return Owned(a.At(i)); }
int64_t ArraySize(Array a) { return static_cast<int64_t>(a.size()); }
bool ArrayContains(Array a, Any v) { return SeqContains(a, v); }

// ---- List ----

Status MakeList(PackedArgs args, Any* rv) {
  FFI_CORE_ASSIGN_OR_RETURN(List l, List::FromViews(&args[0], static_cast<size_t>(args.size())));
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

// The first tensor not on the CPU in a value, searching sequences depth
// first; false when there is none.
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
    {"ffi.Shape", &MakeShape},
    {"ffi.ContainerFindFirstNonCPUDevice", &ContainerFindFirstNonCPUDevice},
};

}  // namespace
}  // namespace ffi_core

extern "C" void ffi_core_container_global(const char* name, size_t size,
                                          ffi_core::Expected<ffi_core::Function>* out) {
  *out = ffi_core::detail::MakeBuiltin(ffi_core::kContainerBuiltins, name, size);
}

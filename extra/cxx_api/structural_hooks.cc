// The structural hooks upstream's runtime registers for its built-in types
// when it loads, registered here for ffi-core's: __s_visit__ on Array, List,
// Map and Dict; __s_mutate__ and __s_maybe_inplace_mutate__ on those and on
// the immutable leaves String, Bytes and BigInt. Without them a container
// reaching a StructuralMutator's default path would be copied through
// __ffi_shallow_copy__, which no built-in type has (Apache TVM's passes stop
// there). As upstream's: sequences mutate their items, maps and dicts their
// values (keys are left as they are), copy-on-write unless the mutator allows
// in-place mutation of a uniquely owned container.
//
// Also the globals upstream's Python package builds its mutation API on:
// ffi.StructuralMap, ffi.StructuralMutate and the StructuralMutator methods.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>

#include <utility>

namespace tvm {
namespace ffi {
namespace {

using detail::AnyUnsafe;
using detail::ExpectedUnsafe;

// ---------------------------------------------------------------------------
// __s_visit__: every item; a map's values (as upstream's, not its keys).

using VisitResult = Expected<Optional<VisitInterrupt>>;

VisitResult VisitSeq(StructuralVisitorObj* visitor, const SeqBaseObj* seq) noexcept {
  for (const Any& item : *seq) {
    TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(item));
  }
  return VisitResult(std::nullopt);
}

VisitResult VisitValues(StructuralVisitorObj* visitor, const MapBaseObj* map) noexcept {
  for (const auto& kv : *map) {
    TVM_FFI_S_VISIT_MAYBE_EARLY_RETURN(visitor->VisitExpected(kv.second));
  }
  return VisitResult(std::nullopt);
}

template <typename Obj>
TVMFFIAny VisitSeqHook(StructuralVisitorObj* visitor, AnyView value) noexcept {
  return ExpectedUnsafe::MoveToTVMFFIAny(
      VisitSeq(visitor, AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<const Obj>(value)));
}

template <typename Obj>
TVMFFIAny VisitValuesHook(StructuralVisitorObj* visitor, AnyView value) noexcept {
  return ExpectedUnsafe::MoveToTVMFFIAny(
      VisitValues(visitor, AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<const Obj>(value)));
}

// ---------------------------------------------------------------------------
// __s_mutate__ / __s_maybe_inplace_mutate__.

using MutateResult = Expected<UnchangedOr<Any>>;

// What a child's mutation left: nothing to do (unchanged, or the same
// object back), a replacement, or an error.
struct Child {
  MutateResult result;
  bool changed = false;
};

Child MutateChild(StructuralMutatorObj* mutator, const Any& child, InplaceMode mode) noexcept {
  Child out{mutator->MutateExpected(child, mode)};
  if (out.result.is_ok()) {
    const Any& data = ExpectedUnsafe::GetData(out.result);
    out.changed = data.type_index() != TypeIndex::kTVMFFIUnchanged && !child.same_as(data);
  }
  return out;
}

Any TakeReplacement(MutateResult&& result) {
  return AnyUnsafe::MoveFromAnyAfterCheck<Any>(std::move(ExpectedUnsafe::GetData(result)));
}

TVMFFIAny RawUnchanged() noexcept { return Unchanged().CopyToTVMFFIAny(); }

TVMFFIAny RawError(MutateResult&& failed) noexcept {
  return ExpectedUnsafe::MoveToTVMFFIAny(std::move(failed));
}

TVMFFIAny RawValue(Any value) noexcept { return AnyUnsafe::MoveAnyToTVMFFIAny(std::move(value)); }

// String, Bytes, BigInt: nothing inside to mutate.
TVMFFIAny MutateLeaf(StructuralMutatorObj*, AnyView) noexcept { return RawUnchanged(); }

// A sequence, copy-on-write: the first changed item starts a new sequence
// holding the items before it; the source is never written.
template <typename SeqObj>
TVMFFIAny MutateSeq(StructuralMutatorObj* mutator, AnyView value) noexcept {
  const SeqObj* self = AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<const SeqObj>(value);
  const int64_t size = static_cast<int64_t>(self->size());
  const Any* items = self->begin();
  ObjectPtr<SeqObj> output;
  for (int64_t i = 0; i < size; ++i) {
    Child child = MutateChild(mutator, items[i], InplaceMode::kDisallow);
    if (child.result.is_err()) return RawError(std::move(child.result));
    if (output == nullptr) {
      if (!child.changed) continue;
      output = SeqObj::CreateRepeated(size, Any());
      for (int64_t j = 0; j < i; ++j) output->SetItemAfterCheck(j, items[j]);
    }
    output->SetItemAfterCheck(i,
                              child.changed ? TakeReplacement(std::move(child.result)) : items[i]);
  }
  if (output == nullptr) return RawUnchanged();
  return RawValue(Any(ObjectRef(std::move(output))));
}

// A uniquely owned sequence, in place: each item may itself be mutated in
// place when it is unique, as its only reference is the sequence's.
template <typename SeqObj>
TVMFFIAny MaybeInplaceMutateSeq(StructuralMutatorObj* mutator, AnyView value) noexcept {
  SeqObj* self = AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<SeqObj>(value);
  bool changed = false;
  for (int64_t i = 0; i < static_cast<int64_t>(self->size()); ++i) {
    Child child = MutateChild(mutator, self->begin()[i], InplaceMode::kAllow);
    if (child.result.is_err()) return RawError(std::move(child.result));
    if (child.changed) {
      self->SetItemAfterCheck(i, TakeReplacement(std::move(child.result)));
      changed = true;
    }
  }
  return changed ? RawValue(Any(value)) : RawUnchanged();
}

// A map or dict, copy-on-write: values only, in iteration order; the first
// changed value starts a shallow copy, whose later values are replaced as
// they change.
template <typename MapObjType>
TVMFFIAny MutatePairs(StructuralMutatorObj* mutator, AnyView value) noexcept {
  const MapObjType* self = AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<const MapObjType>(value);
  ObjectPtr<Object> output;
  MapBaseObj::iterator output_it;
  for (auto it = self->begin(); it != self->end(); ++it) {
    Child child = MutateChild(mutator, it->second, InplaceMode::kDisallow);
    if (child.result.is_err()) return RawError(std::move(child.result));
    if (output == nullptr) {
      if (!child.changed) continue;
      output = MapObjType::ShallowCopy(self);
      // The copy iterates in the source's order: walk it to this pair.
      output_it = static_cast<MapBaseObj*>(output.get())->begin();
      for (auto from = self->begin(); from != it; ++from) ++output_it;
    }
    if (child.changed) output_it->second = TakeReplacement(std::move(child.result));
    ++output_it;
  }
  if (output == nullptr) return RawUnchanged();
  return RawValue(Any(ObjectRef(std::move(output))));
}

template <typename MapObjType>
TVMFFIAny MaybeInplaceMutatePairs(StructuralMutatorObj* mutator, AnyView value) noexcept {
  MapObjType* self = AnyUnsafe::RawObjectPtrFromAnyViewAfterCheck<MapObjType>(value);
  bool changed = false;
  for (auto it = self->begin(); it != self->end(); ++it) {
    Child child = MutateChild(mutator, it->second, InplaceMode::kAllow);
    if (child.result.is_err()) return RawError(std::move(child.result));
    if (child.changed) {
      it->second = TakeReplacement(std::move(child.result));
      changed = true;
    }
  }
  return changed ? RawValue(Any(value)) : RawUnchanged();
}

// ---------------------------------------------------------------------------
// ffi.StructuralMutate's engine: the first entry whose type matches owns the
// value's mutation (its callback drives any descent through the mutator);
// an unmatched value takes its registered or reflected default.

using MapEntries = Array<Tuple<int32_t, Function>>;
using MutateEntries = Array<Tuple<int32_t, Function, bool>>;

class MutateEngine : public StructuralMapEngineBase {
 public:
  explicit MutateEngine(MutateEntries entries)
      : StructuralMapEngineBase(&kVTable), entries_(std::move(entries)) {}

 private:
  static TVMFFIAny Mutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return static_cast<MutateEngine*>(self)->Run(value, InplaceMode::kDisallow);
  }

  static TVMFFIAny MaybeInplaceMutate(StructuralMutatorObj* self, AnyView value) noexcept {
    return static_cast<MutateEngine*>(self)->Run(value, InplaceMode::kAllow);
  }

  TVMFFIAny Run(AnyView value, InplaceMode mode) noexcept {
    for (const auto& entry : entries_) {
      if (!detail::RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) continue;
      StructuralMutator self = GetRef<StructuralMutator>(static_cast<StructuralMutatorObj*>(this));
      // The entry's flag says whether its callback takes the mode too.
      Expected<Any> result =
          entry.get<2>() ? entry.get<1>().CallExpected<Any>(value, self, static_cast<int32_t>(mode))
                         : entry.get<1>().CallExpected<Any>(value, self);
      if (result.is_err()) UpdateVisitErrorContext(result, value);
      return ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
    }
    return ExpectedUnsafe::MoveToTVMFFIAny(DefaultMutateExpected(value, mode));
  }

  static const StructuralMutatorVTable kVTable;

  MutateEntries entries_;
};

const StructuralMutatorVTable MutateEngine::kVTable{
    &MutateEngine::Mutate, &MutateEngine::MaybeInplaceMutate, &MutateEngine::DispatchVarRemapGet,
    &MutateEngine::DispatchVarRemapSet};

// The root's mutation, or the root itself when nothing changed. The root may
// be mutated in place where it is unique (a caller that moved it in).
Any MutateRoot(const StructuralMutator& mutator, Any root) {
  UnchangedOr<Any> result = mutator->MutateExpected(root, InplaceMode::kAllow).value();
  return std::move(result).ValueOrUnchanged(std::move(root));
}

Any MutateOrSame(MutateResult result, AnyView value) {
  UnchangedOr<Any> data = std::move(result).value();
  return std::move(data).ValueOrUnchanged(value);
}

// ---------------------------------------------------------------------------
// Registration, when libffi_core.so loads.

void SetHook(int32_t type_index, const char* attr, void* hook) {
  TVMFFIByteArray name{attr, std::char_traits<char>::length(attr)};
  TVMFFIAny cell;
  cell.type_index = TypeIndex::kTVMFFIOpaquePtr;
  cell.zero_padding = 0;
  cell.v_int64 = 0;
  cell.v_ptr = hook;
  TVM_FFI_CHECK_SAFE_CALL(TVMFFITypeRegisterAttr(type_index, &name, &cell));
}

void SetMutateHooks(int32_t type_index, FStructuralMutateABI mutate,
                    FStructuralMutateABI maybe_inplace) {
  SetHook(type_index, "__s_mutate__", reinterpret_cast<void*>(mutate));
  SetHook(type_index, "__s_maybe_inplace_mutate__", reinterpret_cast<void*>(maybe_inplace));
}

struct Registration {
  Registration() {
    SetHook(TypeIndex::kTVMFFIArray, "__s_visit__",
            reinterpret_cast<void*>(&VisitSeqHook<ArrayObj>));
    SetHook(TypeIndex::kTVMFFIList, "__s_visit__", reinterpret_cast<void*>(&VisitSeqHook<ListObj>));
    SetHook(TypeIndex::kTVMFFIMap, "__s_visit__",
            reinterpret_cast<void*>(&VisitValuesHook<MapObj>));
    SetHook(TypeIndex::kTVMFFIDict, "__s_visit__",
            reinterpret_cast<void*>(&VisitValuesHook<DictObj>));

    for (int32_t leaf :
         {TypeIndex::kTVMFFIStr, TypeIndex::kTVMFFIBytes, TypeIndex::kTVMFFIBigInt}) {
      SetMutateHooks(leaf, &MutateLeaf, &MutateLeaf);
    }
    SetMutateHooks(TypeIndex::kTVMFFIArray, &MutateSeq<ArrayObj>, &MaybeInplaceMutateSeq<ArrayObj>);
    SetMutateHooks(TypeIndex::kTVMFFIList, &MutateSeq<ListObj>, &MaybeInplaceMutateSeq<ListObj>);
    SetMutateHooks(TypeIndex::kTVMFFIMap, &MutatePairs<MapObj>, &MaybeInplaceMutatePairs<MapObj>);
    SetMutateHooks(TypeIndex::kTVMFFIDict, &MutatePairs<DictObj>,
                   &MaybeInplaceMutatePairs<DictObj>);

    Function::SetGlobal("ffi.StructuralMutatorMutate",
                        Function::FromTyped([](const StructuralMutator& mutator, AnyView value) {
                          return MutateOrSame(mutator->MutateExpected(value), value);
                        }));
    Function::SetGlobal("ffi.StructuralMutatorDefaultMutate",
                        Function::FromTyped([](const StructuralMutator& mutator, AnyView value) {
                          return MutateOrSame(mutator->DefaultMutateExpected(value), value);
                        }));
    Function::SetGlobal("ffi.StructuralMutatorVarRemapGet",
                        Function::FromTyped([](const StructuralMutator& mutator, AnyView var) {
                          return mutator->VarRemapGetExpected(var).value();
                        }));
    Function::SetGlobal(
        "ffi.StructuralMutatorVarRemapSet",
        Function::FromTyped([](const StructuralMutator& mutator, AnyView var, AnyView mapped) {
          mutator->VarRemapSetExpected(var, mapped).value();
        }));
    Function::SetGlobal("ffi.StructuralMutatorDefRegionKind",
                        Function::FromTyped([](const StructuralMutator& mutator) {
                          return static_cast<int32_t>(mutator->def_region_kind());
                        }));
    Function::SetGlobal("ffi.StructuralMutatorWithDefRegionKind",
                        Function::FromTyped([](const StructuralMutator& mutator, int32_t kind,
                                               const Function& callback) -> Any {
                          return mutator->WithDefRegionKind(static_cast<TVMFFIDefRegionKind>(kind),
                                                            [&]() -> Any { return callback(); });
                        }));
    Function::SetGlobal(
        "ffi.StructuralMap",
        Function::FromTyped([](Any root, MapEntries plain, MapEntries with_kind, int order) -> Any {
          if (order != static_cast<int>(WalkOrder::kPreOrder) &&
              order != static_cast<int>(WalkOrder::kPostOrder)) {
            TVM_FFI_THROW(ValueError) << "Unknown structural map order " << order;
          }
          if (order == static_cast<int>(WalkOrder::kPreOrder)) {
            using Engine = StructuralMapDynEngine<StructuralMapEngineBase, WalkOrder::kPreOrder>;
            return MutateRoot(
                StructuralMutator(make_object<Engine>(std::move(plain), std::move(with_kind))),
                std::move(root));
          }
          using Engine = StructuralMapDynEngine<StructuralMapEngineBase, WalkOrder::kPostOrder>;
          return MutateRoot(
              StructuralMutator(make_object<Engine>(std::move(plain), std::move(with_kind))),
              std::move(root));
        }));
    Function::SetGlobal(
        "ffi.StructuralMutate", Function::FromTyped([](Any root, MutateEntries entries) {
          return MutateRoot(StructuralMutator(make_object<MutateEngine>(std::move(entries))),
                            std::move(root));
        }));
  }
};
const Registration kRegistration;

}  // namespace
}  // namespace ffi
}  // namespace tvm

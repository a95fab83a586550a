// ffi.StructuralWalk, ffi.StructuralVisit, the StructuralVisitor methods and
// ffi.VisitInterrupt (with its `value` field, as upstream reflects it).
// ffi.StructuralWalk is upstream's structural walk with
// callbacks picked by type index, in pre- or post-order. The walker is an
// upstream StructuralVisitorObj, so that a type's __s_visit__ hook (Apache
// TVM's compiler registers some) descends through it, and reflected fields
// descend as upstream's header does; containers descend through the hooks
// structural_hooks.cc registers for them, as upstream's runtime does.
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/function.h>
#include <tvm/ffi/reflection/registry.h>

#include <utility>

namespace tvm {
namespace ffi {
namespace {

using Entries = Array<Tuple<int32_t, Function>>;
using VisitResult = Expected<Optional<VisitInterrupt>>;

class WalkVisitor : public StructuralVisitorObj {
 public:
  WalkVisitor(Entries plain, Entries with_kind, bool pre_order)
      : StructuralVisitorObj(&kVTable),
        plain_(std::move(plain)),
        with_kind_(std::move(with_kind)),
        pre_order_(pre_order) {}

 private:
  static TVMFFIAny Dispatch(StructuralVisitorObj* self, AnyView value) noexcept {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(static_cast<WalkVisitor*>(self)->Walk(value));
  }

  // The first entry whose type the value is (or derives from) decides;
  // without one the walk goes on.
  Expected<WalkResult> Callback(AnyView value) {
    for (const auto& entry : plain_) {
      if (detail::RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) {
        return entry.get<1>().CallExpected<WalkResult>(value);
      }
    }
    for (const auto& entry : with_kind_) {
      if (detail::RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) {
        return entry.get<1>().CallExpected<WalkResult>(value, def_region_kind());
      }
    }
    return WalkResult::Advance();
  }

  // An error or an interrupt stops the walk; Skip (pre-order only) leaves the
  // children out.
  static bool Stops(const Expected<WalkResult>& r, VisitResult* out) {
    if (r.is_err()) {
      *out = Unexpected(r.error());
      return true;
    }
    if (auto signal = r.value().as<VisitInterrupt>()) {
      *out = Optional<VisitInterrupt>(*signal);
      return true;
    }
    return false;
  }

  VisitResult Walk(AnyView value) noexcept {
    VisitResult out = Optional<VisitInterrupt>(std::nullopt);
    if (value.type_index() == TypeIndex::kTVMFFINone) return out;
    if (pre_order_) {
      Expected<WalkResult> r = Callback(value);
      if (Stops(r, &out)) return out;
      if (r.value().as<int32_t>() == WalkResult::kSkipTag) return out;
    }
    VisitResult children = DefaultVisitExpected(value);
    if (detail::StructuralVisitNeedEarlyReturn(children)) return children;
    if (!pre_order_) Stops(Callback(value), &out);
    return out;
  }

  static const StructuralVisitorVTable kVTable;

  Entries plain_;
  Entries with_kind_;
  bool pre_order_;
};

const StructuralVisitorVTable WalkVisitor::kVTable{&WalkVisitor::Dispatch};

// ffi.StructuralVisit's visitor: the first entry whose type matches owns the
// value's traversal (its callback visits what children it wants through the
// visitor); an unmatched value takes its registered or reflected default.
class OwnedVisitor : public StructuralVisitorObj {
 public:
  explicit OwnedVisitor(Entries entries)
      : StructuralVisitorObj(&kVTable), entries_(std::move(entries)) {}

 private:
  static TVMFFIAny Dispatch(StructuralVisitorObj* self, AnyView value) noexcept {
    return detail::ExpectedUnsafe::MoveToTVMFFIAny(static_cast<OwnedVisitor*>(self)->Visit(value));
  }

  VisitResult Visit(AnyView value) noexcept {
    for (const auto& entry : entries_) {
      if (detail::RuntimeTypeIndexMatch(value.type_index(), entry.get<0>())) {
        StructuralVisitor self =
            GetRef<StructuralVisitor>(static_cast<StructuralVisitorObj*>(this));
        return entry.get<1>().CallExpected<Optional<VisitInterrupt>>(value, self);
      }
    }
    return DefaultVisitExpected(value);
  }

  static const StructuralVisitorVTable kVTable;

  Entries entries_;
};

const StructuralVisitorVTable OwnedVisitor::kVTable{&OwnedVisitor::Dispatch};

// Registered when libffi_core.so loads, as upstream's runtime registers them.
struct Registration {
  Registration() {
    reflection::ObjectDef<VisitInterruptObj>().def_ro("value", &VisitInterruptObj::value,
                                                      reflection::default_value(nullptr));
    Function::SetGlobal("ffi.StructuralVisit",
                        Function::FromTyped([](AnyView root, Entries entries) {
                          StructuralVisitor visitor(make_object<OwnedVisitor>(std::move(entries)));
                          return visitor->Visit(root);
                        }));
    Function::SetGlobal("ffi.StructuralVisitorVisit",
                        Function::FromTyped([](const StructuralVisitor& visitor, AnyView value) {
                          return visitor->Visit(value);
                        }));
    Function::SetGlobal("ffi.StructuralVisitorDefaultVisit",
                        Function::FromTyped([](const StructuralVisitor& visitor, AnyView value) {
                          return visitor->DefaultVisitExpected(value).value();
                        }));
    Function::SetGlobal("ffi.StructuralVisitorDefRegionKind",
                        Function::FromTyped([](const StructuralVisitor& visitor) {
                          return static_cast<int32_t>(visitor->def_region_kind());
                        }));
    Function::SetGlobal("ffi.StructuralVisitorWithDefRegionKind",
                        Function::FromTyped([](const StructuralVisitor& visitor, int32_t kind,
                                               const Function& callback) -> Any {
                          return visitor->WithDefRegionKind(static_cast<TVMFFIDefRegionKind>(kind),
                                                            [&]() -> Any { return callback(); });
                        }));
    Function::SetGlobal(
        "ffi.StructuralWalk", Function::FromTyped([](AnyView root, Entries plain, Entries with_kind,
                                                     int order) -> Optional<VisitInterrupt> {
          if (order != static_cast<int>(WalkOrder::kPreOrder) &&
              order != static_cast<int>(WalkOrder::kPostOrder)) {
            TVM_FFI_THROW(ValueError) << "Unknown structural walk order " << order;
          }
          StructuralVisitor visitor(
              make_object<WalkVisitor>(std::move(plain), std::move(with_kind),
                                       order == static_cast<int>(WalkOrder::kPreOrder)));
          return visitor->VisitExpected(root).value();
        }));
    Function::SetGlobal("ffi.VisitInterrupt", Function::FromTyped([](Any value) {
                          return VisitInterrupt(std::move(value));
                        }));
  }
};
const Registration kRegistration;

}  // namespace
}  // namespace ffi
}  // namespace tvm

// Upstream's generic operations over values and reflected objects (its
// "dataclass" globals), walking containers and fields through reflection:
//  - "ffi.ReprPrint" (repr_print.cc): the text Python's repr() shows;
//  - "ffi.RecursiveEq", "ffi.RecursiveLt", ...Le, ...Gt, ...Ge
//    (recursive_compare.cc): field-by-field equality and ordering;
//  - "ffi.RecursiveHash" (recursive_hash.cc): a hash that agrees with
//    RecursiveEq;
//  - "ffi.DeepCopy" (deep_copy.cc): a copy sharing nothing mutable, with
//    shared references and cycles kept;
//  - "ffi.ToJSONGraph", "ffi.FromJSONGraph" and their "...String" forms
//    (json_graph.cc): upstream's JSON graph of a value, which pickling uses;
//  - "ffi.StructuralEqual", "ffi.GetFirstStructuralMismatch"
//    (structural_equal.cc) and "ffi.StructuralHash" (structural_hash.cc):
//    equality up to the binding of free variables, by each type's
//    structural kind, and a hash that agrees with it; "ffi.StructuralKey"
//    and "ffi.StructuralKeyEqual" (structural_key.cc): a value with its
//    structural hash, for Python's dict.
// Each honours the types' hooks ("__ffi_repr__", "__ffi_eq__",
// "__ffi_compare__", "__ffi_hash__", "__ffi_shallow_copy__", "__s_equal__",
// "__s_hash__") and the fields' ReprOff / CompareOff / HashOff / SEqHash*
// flags.
#ifndef FFI_CORE_EXTRA_FRONTEND_DATACLASS_GLOBALS_H_
#define FFI_CORE_EXTRA_FRONTEND_DATACLASS_GLOBALS_H_

#include <ffi_core/status.h>
#include <tvm/ffi/c_api.h>

namespace ffi_core {
namespace frontend {

// `kwargs` is the sentinel ffi.GetKwargsObject returns (repr: "<KWARGS>").
Status RegisterReprPrint(const TVMFFIObject* kwargs);
Status RegisterRecursiveCompare();
Status RegisterRecursiveHash();
Status RegisterDeepCopy();
Status RegisterJsonGraph();
Status RegisterStructuralEqual();
Status RegisterStructuralHash();
Status RegisterStructuralKey();

}  // namespace frontend
}  // namespace ffi_core

#endif  // FFI_CORE_EXTRA_FRONTEND_DATACLASS_GLOBALS_H_

"""Upstream's structural walk (tvm_ffi.structural_walk, ffi.StructuralWalk)
and visit (tvm_ffi.structural_visit, callbacks that own their descent through
the StructuralVisitor) on either runtime: callbacks by type, pre- and post-order, skipping a
subtree, an interrupt that stops the walk, the definition region a value is
met in, containers and reflected fields."""

import itertools
import os

import tvm_ffi
from tvm_ffi import (
    DefRegionKind,
    StructuralVisitor,
    VisitInterrupt,
    WalkResult,
    structural_visit,
    structural_walk,
)
from tvm_ffi.core import Object
from tvm_ffi.dataclasses import field, py_class

_keys = itertools.count()


def key(base):
    return f"ffi_core_test.walk.{base}_{next(_keys)}"


@py_class(key("Var"), structural_eq="var")
class Var(Object):
    name: str = field(structural_eq="ignore")


@py_class(key("Lit"), structural_eq="tree")
class Lit(Object):
    value: int


@py_class(key("Func"), structural_eq="tree")
class Func(Object):
    params: list = field(structural_eq="def")
    body: list
    comment: str = field(structural_eq="ignore", default="")


# Long enough to be String objects on both runtimes (short ones are inline).
LONG_SEEN = "a string in the body, long enough to be an object"
LONG_IGNORED = "a comment the structural walk leaves out, also an object"


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def tree():
    x, y = Var("x"), Var("y")
    return x, y, Func([x, y], [Lit(1), [x, {"k": Lit(2)}, LONG_SEEN], y], LONG_IGNORED)


def test_post_order_visits_children_first():
    x, y, f = tree()
    seen = []
    assert structural_walk(f, (Lit, lambda v: seen.append(("lit", v.value)))) is None
    assert seen == [("lit", 1), ("lit", 2)]
    order = []
    structural_walk(f, ((Lit, Func), lambda v: order.append(type(v).__name__)))
    assert order == ["Lit", "Lit", "Func"]


def test_pre_order_visits_parents_first_and_skip_prunes():
    x, y, f = tree()
    order = []
    structural_walk(f, ((Lit, Func), lambda v: order.append(type(v).__name__)), order="pre")
    assert order == ["Func", "Lit", "Lit"]
    order = []

    def stop_at_func(v):
        order.append(type(v).__name__)
        return WalkResult.SKIP

    structural_walk(f, ((Lit, Func), stop_at_func), order="pre")
    assert order == ["Func"]


def test_first_matching_entry_wins_and_any_catches_the_rest():
    x, y, f = tree()
    kinds = []
    structural_walk(
        [f, 3, "s"],
        [(Lit, lambda v: kinds.append("lit")), (object, lambda v: kinds.append(type(v).__name__))],
    )
    assert kinds.count("lit") == 2
    assert "int" in kinds and "str" in kinds and "Func" in kinds


def test_interrupt_stops_the_walk_and_comes_back():
    x, y, f = tree()
    seen = []

    def find_two(v):
        seen.append(v.value)
        if v.value == 2:
            return VisitInterrupt()
        return None

    result = structural_walk(f, (Lit, find_two))
    assert isinstance(result, VisitInterrupt)
    assert seen == [1, 2]
    # No interrupt: the walk goes to the end.
    assert structural_walk(f, (Lit, lambda v: None)) is None


def test_definition_region_of_each_variable():
    # params is a definition field (structural_eq="def"): its variables are
    # met in a pattern definition region, their uses in the body in none.
    x, y, f = tree()
    met = []
    structural_walk(f, with_def_region_kind=(Var, lambda v, kind: met.append((v.name, kind))))
    assert met == [
        ("x", DefRegionKind.DEF_PATTERN),
        ("y", DefRegionKind.DEF_PATTERN),
        ("x", DefRegionKind.NONE),
        ("y", DefRegionKind.NONE),
    ]


def test_ignored_fields_are_not_walked():
    x, y, f = tree()
    texts = []
    structural_walk(f, (str, lambda v: texts.append(v)))
    assert LONG_SEEN in texts and LONG_IGNORED not in texts


def test_a_callback_error_comes_back_as_the_error():
    x, y, f = tree()

    def boom(v):
        raise ValueError("no lits here")

    try:
        structural_walk(f, (Lit, boom))
    except ValueError as e:
        assert "no lits here" in str(e)
    else:
        raise AssertionError("the callback's error was lost")


def test_visit_callbacks_own_their_descent():
    seen = []

    def array(arr, visitor):
        assert isinstance(visitor, StructuralVisitor)
        seen.append("array")
        for item in list(arr)[:1]:  # only the first item: the rest is pruned
            visitor.visit(item)

    def dict_default(d, visitor):
        seen.append("dict")
        return visitor.default_visit(d)

    root = tvm_ffi.Array([tvm_ffi.Dict({"k": tvm_ffi.List([1, 2])}), 3])
    result = structural_visit(
        root, [(tvm_ffi.Array, array), (tvm_ffi.Dict, dict_default), (int, lambda i, v: seen.append(i))]
    )
    assert result is None
    assert seen == ["array", "dict", 1, 2]


def test_visit_interrupt_carries_its_value():
    stop = structural_visit(
        tvm_ffi.List([1, 2, 3]), (int, lambda i, v: VisitInterrupt(i * 10) if i == 2 else None)
    )
    assert isinstance(stop, VisitInterrupt) and stop.value == 20
    assert VisitInterrupt("payload").value == "payload"


def test_visitor_definition_region_kind():
    kinds = []

    def var(v, visitor):
        kinds.append(visitor.def_region_kind())
        visitor.with_def_region_kind(
            DefRegionKind.DEF_PATTERN, lambda: kinds.append(visitor.def_region_kind())
        )

    x = Var(name="x")
    structural_visit(Func(params=[x], body=[x]), (Var, var))
    # In the parameters (a `def` field: a pattern definition), then in the
    # body (a use); a pattern region entered inside either is the pattern.
    assert kinds == [
        DefRegionKind.DEF_PATTERN,
        DefRegionKind.DEF_PATTERN,
        DefRegionKind.NONE,
        DefRegionKind.DEF_PATTERN,
    ]

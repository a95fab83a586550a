"""Upstream's structural equality and hashing on either runtime:
ffi.StructuralEqual, ffi.StructuralHash and ffi.GetFirstStructuralMismatch.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too, except where a test says it
checks one runtime's limit.
"""

import itertools
import math
import os

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi import get_first_structural_mismatch, structural_equal, structural_hash
from tvm_ffi.access_path import AccessKind
from tvm_ffi.core import Object
from tvm_ffi.dataclasses import field, py_class

_keys = itertools.count()


def key(base):
    return f"ffi_core_test.structural.{base}_{next(_keys)}"


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


@py_class(key("Let"), structural_eq="dag")
class Let(Object):
    value: int


@py_class(key("Meta"), structural_eq="const-tree")
class Meta(Object):
    tag: str


@py_class(key("Plain"), structural_eq=None)
class Plain(Object):
    x: int


@py_class(key("Hooked"), structural_eq="tree")
class Hooked(Object):
    """Its hooks compare and hash `param` as a definition and `a`, not `b`."""

    param: Object
    a: int
    b: int

    def __s_equal__(self, other, equal):
        return equal(self.param, other.param, 2, "param") and equal(self.a, other.a, 0, "a")

    def __s_hash__(self, init, hash_value):
        return hash_value(self.a, hash_value(self.param, init, 2), 0)


@py_class(key("Stubborn"), structural_eq="tree")
class Stubborn(Object):
    """Its hook goes on comparing after a mismatch, each one a path step."""

    a: int

    def __s_equal__(self, other, equal):
        return not any([not equal(self.a, other.a, 0, "a") for _ in range(5000)])


def steps(path):
    return [(AccessKind(s.kind).name, s.key) for s in path.to_steps()]


def mismatch(lhs, rhs, **kwargs):
    found = get_first_structural_mismatch(lhs, rhs, **kwargs)
    return None if found is None else (steps(found[0]), steps(found[1]))


def check(lhs, rhs, equal, **kwargs):
    """Equality both ways, the hash agreeing with it, the mismatch query too."""
    assert structural_equal(lhs, rhs, **kwargs) is equal
    assert structural_equal(rhs, lhs, **kwargs) is equal
    if equal:
        assert structural_hash(lhs, **kwargs) == structural_hash(rhs, **kwargs)
        assert get_first_structural_mismatch(lhs, rhs, **kwargs) is None
    else:
        assert get_first_structural_mismatch(lhs, rhs, **kwargs) is not None


def test_values():
    check("short", "short", True)
    long_text = "a string longer than the small form"
    check(tvm_ffi.convert(long_text), long_text[:], True)
    check(b"bytes", b"bytes", True)
    check("abc", b"abc", False)
    check(1, 1, True)
    check(1, True, False)  # another type index
    check(1, 1.0, False)
    check(math.nan, -math.nan, True)
    check(0.0, -0.0, False)  # by bits, as upstream
    check(2**80, 2**80, True)
    check(2**80, 2**80 + 1, False)
    check(None, None, True)
    check(tvm_ffi.Shape([2, 3]), tvm_ffi.Shape([2, 3]), True)
    check(tvm_ffi.Shape([2, 3]), tvm_ffi.Shape([3, 2]), False)


def test_containers():
    check(tvm_ffi.Array([1, "x", [2.5]]), tvm_ffi.Array([1, "x", [2.5]]), True)
    check(tvm_ffi.Array([1, 2]), tvm_ffi.List([1, 2]), False)
    big = {f"k{i}": [i, {"v": i}] for i in range(40)}  # dense maps
    check(tvm_ffi.Map(big), tvm_ffi.Map(dict(reversed(list(big.items())))), True)
    check(tvm_ffi.Dict({"a": 1, "b": 2}), tvm_ffi.Dict({"b": 2, "a": 1}), True)
    check(tvm_ffi.Map({"a": 1}), tvm_ffi.Dict({"a": 1}), False)
    check(tvm_ffi.Map({"a": 1}), tvm_ffi.Map({"a": 2}), False)
    assert structural_hash(tvm_ffi.Map({"a": 1})) != structural_hash(tvm_ffi.Map({"a": 2}))


def test_mismatch_paths():
    assert mismatch([1, 2, 3], [1, 2]) == (
        [("ARRAY_ITEM", 2)],
        [("ARRAY_ITEM_MISSING", 2)],
    )
    assert mismatch([1, [2, 3]], [1, [2, 4]]) == (
        [("ARRAY_ITEM", 1), ("ARRAY_ITEM", 1)],
        [("ARRAY_ITEM", 1), ("ARRAY_ITEM", 1)],
    )
    assert mismatch({"a": 1, "b": 2}, {"a": 1}) == (
        [("MAP_ITEM", "b")],
        [("MAP_ITEM_MISSING", "b")],
    )
    assert mismatch({"a": 1}, {"a": 1, "c": 2}) == (
        [("MAP_ITEM_MISSING", "c")],
        [("MAP_ITEM", "c")],
    )
    x = Var("x")
    assert mismatch(Func(params=[x], body=[Lit(1), x]), Func(params=[x], body=[Lit(1), Lit(2)])) == (
        [("ATTR", "body"), ("ARRAY_ITEM", 1)],
        [("ATTR", "body"), ("ARRAY_ITEM", 1)],
    )
    assert mismatch(Lit(1), Lit(2)) == ([("ATTR", "value")], [("ATTR", "value")])


def test_free_variables():
    a, b = Var("a"), Var("b")
    check(a, a, True)
    check(a, b, False)
    check(a, b, True, map_free_vars=True)
    assert structural_hash(a) != structural_hash(b)
    # Bound by a definition field: alpha-equivalent functions are equal.
    x, y = Var("x"), Var("y")
    check(Func(params=[x], body=[x], comment="one"), Func(params=[y], body=[y], comment="two"), True)
    check(Func(params=[x, y], body=[x, y]), Func(params=[a, b], body=[b, a]), False)
    check(Func(params=[x, y], body=[x, x]), Func(params=[a, b], body=[a, b]), False)
    # A variable used but not defined stays free.
    check(Func(params=[], body=[x]), Func(params=[], body=[y]), False)
    check(Func(params=[], body=[x]), Func(params=[], body=[x]), True)


def test_type_hooks():
    x, y = Var("x"), Var("y")
    check(Hooked(x, 1, 2), Hooked(y, 1, 3), True)  # x binds to y; b is not compared
    check(Hooked(x, 1, 2), Hooked(y, 2, 2), False)
    assert mismatch(Hooked(x, 1, 2), Hooked(y, 2, 2)) == ([("ATTR", "a")], [("ATTR", "a")])
    check(Func(params=[], body=[Hooked(x, 1, 0), x]), Func(params=[], body=[Hooked(y, 1, 0), y]), True)
    check(Func(params=[], body=[Hooked(x, 1, 0), y]), Func(params=[], body=[Hooked(y, 1, 0), y]), False)


def test_dag_and_const_tree():
    s1, s2 = Let(1), Let(1)
    check(tvm_ffi.Array([s1, s1]), tvm_ffi.Array([s2, s2]), True)
    shared, c1, c2 = Let(1), Let(1), Let(1)
    check(tvm_ffi.Array([shared, shared]), tvm_ffi.Array([c1, c2]), False)
    assert structural_hash(tvm_ffi.Array([shared, shared])) != structural_hash(
        tvm_ffi.Array([c1, c2])
    )
    check(tvm_ffi.Array([s1, s2]), tvm_ffi.Array([s1, s1]), False)  # one-to-one
    check(Meta("t"), Meta("t"), True)
    check(Meta("t"), Meta("u"), False)


def test_tensors():
    a = tvm_ffi.from_dlpack(np.array([1.0, 2.0, 3.0], dtype="float32"))
    b = tvm_ffi.from_dlpack(np.array([1.0, 2.0, 3.0], dtype="float32"))
    c = tvm_ffi.from_dlpack(np.array([1.0, 2.0, 4.0], dtype="float32"))
    d = tvm_ffi.from_dlpack(np.array([1, 2, 3], dtype="int32"))
    check(a, b, True)
    check(a, c, False)
    check(a, c, True, skip_tensor_content=True)
    check(a, d, False, skip_tensor_content=True)


def test_structural_key():
    k1 = tvm_ffi.StructuralKey({"a": [1, 2], "b": Lit(3)})
    k2 = tvm_ffi.StructuralKey({"b": Lit(3), "a": [1, 2]})
    k3 = tvm_ffi.StructuralKey({"a": [1, 2], "b": Lit(4)})
    assert k1.__hash__() == structural_hash(k1.key) & 0xFFFFFFFFFFFFFFFF
    assert k1 == k2 and k1 != k3 and k1 == k1
    assert {k1: "one", k3: "three"}[k2] == "one"
    # As map keys too (their type's __any_hash__ / __any_equal__): k2 is k1.
    m = tvm_ffi.Map({k1: 1, k3: 3, k2: 2})
    assert len(m) == 2 and m[k1] == 2 and m[k2] == 2 and m[k3] == 3
    d = tvm_ffi.Dict({k1: 1})
    d[k2] = 2
    assert len(d) == 1 and d[k1] == 2
    with pytest.raises(TypeError):
        tvm_ffi.StructuralKey(Plain(1))


def test_unsupported_type_is_a_type_error():
    with pytest.raises(TypeError, match="StructuralHash is not supported"):
        structural_equal(Plain(1), Plain(1))
    with pytest.raises(TypeError, match="StructuralHash is not supported"):
        structural_hash(Plain(1))
    with pytest.raises(TypeError, match="StructuralHash is not supported"):
        get_first_structural_mismatch([Plain(1)], [Plain(1)])


@pytest.mark.skipif(
    os.environ.get("FFI_CORE_EXPECT_RUNTIME") != "ffi_core",
    reason="ffi-core's limits: the wheel recurses without one",
)
def test_ffi_core_limits():
    deep = []
    for _ in range(5000):
        deep = [deep]
    nested = tvm_ffi.convert(deep)
    with pytest.raises(ValueError, match="nested deeper than 4096"):
        structural_equal(nested, nested)
    with pytest.raises(ValueError, match="nested deeper than 4096"):
        structural_hash(nested)
    with pytest.raises(ValueError, match="mismatch path longer than"):
        get_first_structural_mismatch(Stubborn(1), Stubborn(2))
    strided = tvm_ffi.from_dlpack(np.arange(6, dtype="float32").reshape(2, 3)[:, ::2])
    with pytest.raises(ValueError, match="contiguous"):
        structural_equal(strided, tvm_ffi.from_dlpack(np.zeros((2, 2), dtype="float32")))
    with pytest.raises(ValueError, match="contiguous"):
        structural_hash(strided)

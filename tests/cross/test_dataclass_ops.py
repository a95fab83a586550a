"""Upstream's generic operations over values on either runtime: ffi.ReprPrint,
ffi.RecursiveEq / Lt / Le / Gt / Ge, ffi.RecursiveHash and ffi.DeepCopy.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too, except where a test says it
checks one runtime's limit.
"""

import copy
import itertools
import math
import os

import numpy as np
import pytest
import tvm_ffi
from tvm_ffi import _ffi_api as api
from tvm_ffi.core import Object
from tvm_ffi.dataclasses import py_class

_keys = itertools.count()


def key(base):
    return f"ffi_core_test.dataclass_ops.{base}_{next(_keys)}"


@py_class(key("Node"))
class Node(Object):
    name: str
    value: int
    children: tvm_ffi.List


def values():
    """A spread of values: every kind the operations treat apart."""
    shared = tvm_ffi.Array([1, 2])
    return [
        None, True, False, 0, -3, 2**62, 2**80, -(2**80), 0.0, -1.5, 1e10, "", "short",
        "a string longer than the small form", "quote\" back\\ nl\n tab\t esc\x1b nul\x00 é 漢 𝄞",
        b"", b"by\x00tes\xff", tvm_ffi.dtype("float16x4"), tvm_ffi.device("cuda", 3),
        tvm_ffi.Shape((5, 6)), tvm_ffi.Array([]), tvm_ffi.Array([42]),
        tvm_ffi.Array([1, "a", None, 2.5]), tvm_ffi.List([shared, shared]),
        tvm_ffi.Map({"k": tvm_ffi.Array([1])}), tvm_ffi.Dict({1: "one", "two": 2}),
        Node("leaf", 7, tvm_ffi.List([])),
        tvm_ffi.from_dlpack(np.zeros((3, 4), dtype="float32")),
    ]


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_repr_forms():
    assert api.ReprPrint(tvm_ffi.Array([1, "a", None, 2.5])) == '(1, "a", None, 2.5)'
    assert api.ReprPrint(tvm_ffi.Array([42])) == "(42,)"
    assert api.ReprPrint(tvm_ffi.List([True, False])) == "[True, False]"
    assert api.ReprPrint(tvm_ffi.Map({"k": tvm_ffi.Array([1])})) == '{"k": (1,)}'
    assert api.ReprPrint(tvm_ffi.Shape((5, 6))) == "Shape(5, 6)"
    assert api.ReprPrint(tvm_ffi.device("cuda", 3)) == "cuda:3"
    assert api.ReprPrint(1e10) == "1e+10"
    assert api.ReprPrint(2**80) == str(2**80)
    assert api.ReprPrint(-(2**80)) == str(-(2**80))
    assert api.ReprPrint(tvm_ffi.from_dlpack(np.zeros((3, 4), dtype="int8"))) == "int8[3, 4]@cpu:0"
    assert api.ReprPrint(Node("n", 1, tvm_ffi.List([]))).endswith('(name="n", value=1, children=[])')


@pytest.mark.parametrize("text", ["", "plain", "quote\" back\\ nl\n tab\t esc\x1b nul\x00", "é 漢 𝄞"])
def test_repr_of_strings_reads_back_as_python(text):
    import ast

    assert ast.literal_eval(api.ReprPrint(text)) == text
    assert ast.literal_eval(api.ReprPrint(tvm_ffi.Array([text]))) == (text,)


def test_repr_of_a_cycle_and_a_shared_object():
    node = Node("root", 1, tvm_ffi.List([]))
    node.children.append(node)
    assert api.ReprPrint(node).endswith('(name="root", value=1, children=[...])')
    leaf = Node("leaf", 2, tvm_ffi.List([]))
    text = api.ReprPrint(tvm_ffi.Array([leaf, leaf]))
    assert text.count('name="leaf"') == 2


def test_equality_and_hash_agree_on_every_value():
    a, b = values(), values()
    for x, y in zip(a, b):
        assert api.RecursiveEq(x, y), api.ReprPrint(x)
        assert api.RecursiveHash(x) == api.RecursiveHash(y), api.ReprPrint(x)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            if i != j and api.RecursiveEq(x, y):
                # Only values Python also calls equal may compare equal.
                assert api.RecursiveHash(x) == api.RecursiveHash(y)


def test_hash_treats_string_forms_zero_signs_and_nans_alike():
    assert api.RecursiveHash("abc") == api.RecursiveHash(tvm_ffi.convert("abc"))
    assert api.RecursiveHash(0.0) == api.RecursiveHash(-0.0)
    assert api.RecursiveHash(math.nan) == api.RecursiveHash(-math.nan)
    m1 = tvm_ffi.Dict({"a": 1, "b": 2})
    m2 = tvm_ffi.Dict({"b": 2, "a": 1})
    assert api.RecursiveEq(m1, m2) and api.RecursiveHash(m1) == api.RecursiveHash(m2)


def test_ordering():
    assert api.RecursiveLt(tvm_ffi.Array([1, 2]), tvm_ffi.Array([1, 3]))
    assert api.RecursiveLt(tvm_ffi.Array([1]), tvm_ffi.Array([1, 0]))
    assert api.RecursiveGe("b", "ab") and api.RecursiveLe(b"a", b"a")
    assert api.RecursiveLt(3, 2**70) and api.RecursiveGt(-3, -(2**70))
    assert api.RecursiveLt(Node("a", 1, tvm_ffi.List([])), Node("a", 2, tvm_ffi.List([])))
    with pytest.raises(TypeError):
        api.RecursiveLt(1, "one")
    with pytest.raises(TypeError):
        api.RecursiveLt(math.nan, 1.0)
    with pytest.raises(TypeError):
        api.RecursiveLt(tvm_ffi.Map({"a": 1}), tvm_ffi.Map({"a": 2}))
    assert not api.RecursiveEq(tvm_ffi.Map({"a": 1}), tvm_ffi.Map({"a": 2}))
    assert not api.RecursiveEq(tvm_ffi.Array([1]), tvm_ffi.List([1]))


def test_cycles_are_equal_to_themselves_but_not_ordered():
    a = Node("x", 1, tvm_ffi.List([]))
    a.children.append(a)
    b = Node("x", 1, tvm_ffi.List([]))
    b.children.append(b)
    assert api.RecursiveEq(a, b)
    with pytest.raises(ValueError):
        api.RecursiveLt(a, b)


def test_deep_copy_keeps_sharing_and_cycles():
    leaf = Node("leaf", 1, tvm_ffi.List([]))
    root = Node("root", 0, tvm_ffi.List([leaf, leaf]))
    root.children.append(root)
    copied = api.DeepCopy(root)
    assert not copied.same_as(root)
    assert copied.children[0].same_as(copied.children[1])
    assert not copied.children[0].same_as(leaf)
    assert copied.children[2].same_as(copied)
    assert api.RecursiveEq(copied, root)
    copied.children[0].value = 99
    assert leaf.value == 1
    assert copy.deepcopy(root).children[2].name == "root"


def test_deep_copy_repoints_an_array_met_inside_its_own_copy():
    inner = tvm_ffi.List([])
    arr = tvm_ffi.Array([inner])
    inner.append(arr)
    copied = api.DeepCopy(arr)
    assert copied[0][0].same_as(copied)
    assert not copied[0].same_as(inner)


def test_deep_copy_of_immutable_values():
    shape = tvm_ffi.Shape((1, 2))
    copied = api.DeepCopy(tvm_ffi.Array(["a string longer than the small form", shape]))
    assert copied[0] == "a string longer than the small form"
    assert tuple(copied[1]) == (1, 2)


def test_deep_copy_refuses_what_cannot_be_copied():
    f = tvm_ffi.convert(lambda: None)
    with pytest.raises(RuntimeError, match="not copy-constructible"):
        api.DeepCopy(tvm_ffi.Array([f]))


@pytest.mark.skipif(os.environ.get("FFI_CORE_EXPECT_RUNTIME") != "ffi_core",
                    reason="ffi-core's nesting limit; the wheel walks with its own stack")
def test_nesting_past_the_limit_is_refused_not_a_crash():
    deep, twin = tvm_ffi.Array([1]), tvm_ffi.Array([1])
    for _ in range(5000):
        deep, twin = tvm_ffi.Array([deep]), tvm_ffi.Array([twin])
    for op in (api.ReprPrint, api.RecursiveHash, api.DeepCopy, lambda x: api.RecursiveEq(x, twin)):
        with pytest.raises(ValueError, match="nested deeper than 4096"):
            op(deep)

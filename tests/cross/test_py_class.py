"""Types defined in Python (tvm_ffi.dataclasses.py_class) on either runtime.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too. Fields are kept in the
object by the runtime's field getters and setters; "__ffi_init__",
"__ffi_new__" and "__ffi_shallow_copy__" are the runtime's.
"""

import copy
import itertools
import os
import sys
from typing import Any, Optional

import pytest
import tvm_ffi
from tvm_ffi.core import Object
from tvm_ffi.dataclasses import field, py_class

_keys = itertools.count()


def key(base):
    return f"ffi_core_test.py_class.{base}_{next(_keys)}"


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_scalar_fields_round_trip():
    @py_class(key("scalars"))
    class Scalars(Object):
        i: int
        f: float
        b: bool
        s: str
        d: tvm_ffi.dtype
        dev: tvm_ffi.Device

    x = Scalars(-7, 2.5, True, "a string longer than a small one", tvm_ffi.dtype("float16x4"),
                tvm_ffi.device("cpu", 0))
    assert (x.i, x.f, x.b, x.s) == (-7, 2.5, True, "a string longer than a small one")
    assert x.d == "float16x4"
    assert str(x.dev) == str(tvm_ffi.device("cpu", 0))
    x.i = 1 << 62
    x.s = "ab"
    assert (x.i, x.s) == (1 << 62, "ab")
    with pytest.raises(TypeError):
        x.i = "not an int"


def test_keywords_defaults_and_refusals():
    @py_class(key("init"))
    class Init(Object):
        a: int
        b: int = 10
        c: str = field(default="c", kw_only=True)
        n: int = field(default_factory=lambda: 42)

    assert (Init(1).a, Init(1).b, Init(1).c, Init(1).n) == (1, 10, "c", 42)
    x = Init(1, 2, c="z", n=3)
    assert (x.a, x.b, x.c, x.n) == (1, 2, "z", 3)
    with pytest.raises(TypeError, match="missing required argument"):
        Init()
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        Init(1, nope=2)
    with pytest.raises(TypeError):
        Init(1, 2, 3, 4, 5)
    with pytest.raises(TypeError, match="multiple values"):
        Init(1, a=2)


def test_object_and_optional_fields_hold_references():
    @py_class(key("leaf"))
    class Leaf(Object):
        v: int

    @py_class(key("node"))
    class Node(Object):
        leaf: Leaf
        maybe: Optional[Leaf] = None
        anything: Any = None

    leaf = Leaf(5)
    node = Node(leaf, anything="held")
    assert node.leaf.same_as(leaf)
    assert node.maybe is None
    assert node.anything == "held"
    count = sys.getrefcount(leaf)
    node.maybe = leaf
    assert node.maybe.v == 5
    node.maybe = None
    assert sys.getrefcount(leaf) == count
    with pytest.raises(TypeError):
        node.leaf = 3


def test_shallow_copy_shares_fields():
    @py_class(key("leaf"))
    class Leaf(Object):
        v: int

    @py_class(key("pair"))
    class Pair(Object):
        left: Leaf
        tag: str

    p = Pair(Leaf(1), "t")
    q = copy.copy(p)
    assert not q.same_as(p)
    assert q.left.same_as(p.left)
    assert q.tag == "t"
    del p
    assert q.left.v == 1


def test_subclass_fields_follow_the_parent_s():
    @py_class(key("base"))
    class Base(Object):
        a: int

    @py_class(key("derived"))
    class Derived(Base):
        b: str = "b"

    d = Derived(1, "x")
    assert (d.a, d.b) == (1, "x")
    assert isinstance(d, Base)


def test_make_object_from_packed_args():
    make = tvm_ffi.get_global_func("ffi.MakeObjectFromPackedArgs")

    @py_class(key("made"))
    class Made(Object):
        a: int
        b: str = "default"

    type_key = Made.__tvm_ffi_type_info__.type_key
    m = make(type_key, "a", 3)
    assert isinstance(m, Made)
    assert (m.a, m.b) == (3, "default")
    m = make(Made.__tvm_ffi_type_info__.type_index, "b", "x", "a", 4)
    assert (m.a, m.b) == (4, "x")
    with pytest.raises(TypeError, match="Required field `a`"):
        make(type_key)
    with pytest.raises(TypeError, match="does not have field `c`"):
        make(type_key, "a", 1, "c", 2)

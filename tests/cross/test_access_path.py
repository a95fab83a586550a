"""Access paths (tvm_ffi.access_path) on either runtime.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too.
"""

import gc

import pytest
import tvm_ffi
from tvm_ffi.access_path import AccessKind, AccessPath, AccessStep


def test_steps_come_back_root_first_with_their_keys():
    key = tvm_ffi.Array([1, 2])
    path = AccessPath.root().attr("a").array_item(-3).map_item(key).map_item_missing(None)
    path = path.attr_missing("b").array_item_missing(2**40)
    assert path.depth == 6
    steps = path.to_steps()
    assert [s.kind for s in steps] == [
        AccessKind.ATTR, AccessKind.ARRAY_ITEM, AccessKind.MAP_ITEM,
        AccessKind.MAP_ITEM_MISSING, AccessKind.ATTR_MISSING, AccessKind.ARRAY_ITEM_MISSING,
    ]
    assert steps[0].key == "a" and steps[1].key == -3 and steps[5].key == 2**40
    assert steps[2].key.same_as(key) and steps[3].key is None
    assert path.parent.parent.parent.parent.parent.parent == AccessPath.root()
    assert AccessPath.root().parent is None and AccessPath.root().step is None


def test_equality_compares_steps_not_identity():
    a = AccessPath.root().map_item("k").array_item(1)
    b = AccessPath.root().map_item("k").array_item(1)
    assert a == b and a.is_prefix_of(b) and b.is_prefix_of(a)
    assert a != AccessPath.root().map_item("k").array_item_missing(1)
    assert a != AccessPath.root().map_item(1).array_item(1)
    assert AccessPath.root().map_item("k").is_prefix_of(a)
    assert not a.is_prefix_of(AccessPath.root().map_item("k"))
    # A step taken from one path extends another.
    extended = AccessPath.root()._extend(a.step)
    assert extended == AccessPath.root().array_item(1)


def test_bad_arguments_are_type_errors():
    root = AccessPath.root()
    with pytest.raises(TypeError):
        root.attr(1)
    with pytest.raises(TypeError):
        root.array_item("x")
    with pytest.raises(TypeError):
        root._extend(root)
    with pytest.raises(TypeError):
        root.is_prefix_of(tvm_ffi.Array([]))


def test_long_paths_are_released():
    path = AccessPath.root()
    for i in range(10000):
        path = path.array_item(i)
    assert len(path.to_steps()) == 10000
    del path
    gc.collect()

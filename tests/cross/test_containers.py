"""Containers and enums from upstream's Python package, on either runtime.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too: the package turns lists,
tuples and dicts into ffi.Array/ffi.Map, reads them back through the ffi.*
globals, and builds its enums (tvm_ffi.testing's) on ffi.EnumState.
"""

import os

import pytest
import tvm_ffi


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_array_from_nested_python_values():
    a = tvm_ffi.convert([1, "abc", 2.5, [3, "a string long enough to be an object"], (4,)])
    assert isinstance(a, tvm_ffi.Array)
    assert len(a) == 5
    assert a[1] == "abc"
    assert list(a[3]) == [3, "a string long enough to be an object"]
    assert 2.5 in a and "abc" in a and 7 not in a
    with pytest.raises(IndexError):
        a[5]


def test_map_keeps_insertion_order_and_equal_keys():
    m = tvm_ffi.convert({"b": 1, "a": [1, 2], 3: "three"})
    assert isinstance(m, tvm_ffi.Map)
    assert list(m.keys()) == ["b", "a", 3]
    assert [list(v) if isinstance(v, tvm_ffi.Array) else v for v in m.values()] == [1, [1, 2], "three"]
    assert m["b"] == 1 and m[3] == "three"
    assert "a" in m and "z" not in m
    assert m.get("z", 5) == 5
    with pytest.raises(KeyError):
        m["z"]


def test_list_changes_are_seen_by_every_holder():
    lst = tvm_ffi.List([1, 2, 3])
    same = lst
    lst.append(4)
    lst.insert(0, 0)
    lst[1] = "one"
    assert lst.pop() == 4
    del lst[0]
    lst.extend([5, 6])
    assert list(same) == ["one", 2, 3, 5, 6]
    lst[1:3] = [7]
    assert list(same) == ["one", 7, 5, 6]
    lst.reverse()
    assert list(lst) == [6, 5, 7, "one"]
    lst.clear()
    assert len(same) == 0


def test_dict_set_erase_and_order():
    d = tvm_ffi.Dict({"a": 1})
    for i in range(10):
        d[i] = i * i
    del d["a"]
    d["a"] = 2
    assert list(d.keys()) == list(range(10)) + ["a"]
    assert d[9] == 81 and d["a"] == 2
    assert d.pop("a") == 2
    assert len(d) == 10
    d.clear()
    assert len(d) == 0


def test_large_maps_iterate_in_the_order_both_runtimes_give():
    # Past 4 pairs upstream's maps are dense (hashed); the order is still the
    # insertion order, and a present key set again in a dense Dict moves last.
    keys = [f"key{i}" if i % 2 else i for i in range(200)]
    m = tvm_ffi.Map({k: i for i, k in enumerate(keys)})
    assert list(m.keys()) == keys
    assert all(m[k] == i for i, k in enumerate(keys))
    d = tvm_ffi.Dict({k: i for i, k in enumerate(keys)})
    for k in keys[::3]:
        del d[k]
    d[keys[1]] = -1
    expected = [k for i, k in enumerate(keys) if i % 3 and i != 1] + [keys[1]]
    assert list(d.keys()) == expected
    assert d[keys[1]] == -1 and keys[0] not in d and keys[2] in d
    small = tvm_ffi.Dict({1: 1, 2: 2})
    small[1] = 10  # small: an update keeps its place
    assert list(small.keys()) == [1, 2]


def test_shape():
    s = tvm_ffi.Shape((2, 3, 4))
    assert tuple(s) == (2, 3, 4)


def test_testing_module_enums():
    testing = pytest.importorskip("tvm_ffi.testing")
    low = testing._TestCxxIntEnum.low
    assert low._int_index == 10 and low._str_index == "low"  # an IntEnum indexes by value
    assert testing._TestCxxIntEnum.high._str_index == "high"

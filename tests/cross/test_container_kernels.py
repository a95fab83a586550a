"""Upstream-style C++ kernels that take and return containers
(tests/cross/cxx/container_kernels.cc), called from upstream's Python package.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay). The kernels read and build containers inline through upstream's
headers, so every answer here checks that ffi-core's containers have
upstream's layout, in both directions. Expected values are computed here in
Python from the inputs.
"""

import os

import numpy as np
import pytest
import tvm_ffi


@pytest.fixture(scope="module")
def lib():
    directory = os.environ.get("FFI_CORE_CXX_KERNELS_DIR")
    if not directory:
        pytest.fail("FFI_CORE_CXX_KERNELS_DIR is not set: run this file through ctest")
    return tvm_ffi.load_module(os.path.join(directory, "container_kernels.so"))


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_array_of_tensors(lib):
    arrays = [np.arange(6, dtype="float32").reshape(2, 3), np.full((4,), 0.25, dtype="float32")]
    tensors = [tvm_ffi.from_dlpack(a) for a in arrays]
    assert lib.sum_tensors(tensors) == pytest.approx(sum(float(a.sum()) for a in arrays))
    assert lib.sum_tensors(tvm_ffi.Array(tensors)) == pytest.approx(16.0)
    with pytest.raises(TypeError):
        lib.sum_tensors([tvm_ffi.from_dlpack(np.zeros(2, dtype="int32"))])
    with pytest.raises(TypeError):
        lib.sum_tensors([1, 2])


def test_nested_arrays(lib):
    rows = [[1, 2, 3], [], [10, -4]]
    assert list(lib.row_sums(rows)) == [sum(r) for r in rows]
    assert list(lib.row_sums(tvm_ffi.Array([tvm_ffi.Array(r) for r in rows]))) == [6, 0, 6]
    with pytest.raises(TypeError):
        lib.row_sums([[1, "x"]])


def test_maps_in(lib):
    for n in (1, 4, 5, 40):
        m = {f"key{i}": i * 3 for i in range(n)}
        assert lib.lookup(m, "key0") == 0
        assert lib.lookup(m, f"key{n - 1}") == (n - 1) * 3
        assert lib.lookup(m, "absent") == -1
        assert lib.describe(m) == "".join(f"{k}={v};" for k, v in sorted(m.items()))
    with pytest.raises(TypeError):
        lib.lookup({1: 2}, "a")


@pytest.mark.parametrize("n", [0, 1, 4, 5, 40, 300])
def test_maps_out(lib, n):
    m = lib.squares(n)
    assert len(m) == n
    assert {k: m[k] for k in m} == {i: i * i for i in range(n)}
    assert sorted(m.items()) == [(i, i * i) for i in range(n)]
    assert (n in m) is False and (n - 1 in m) is (n > 0)


@pytest.mark.parametrize("n", [1, 4, 5, 40])
def test_value_hashed_keys_both_ways(lib, n):
    # Each Python int past 64 bits becomes a new ffi.BigInt, so a key found
    # is found by value: in a map ffi-core's ffi.Map built, looked up by the
    # kernel's inline AnyHash/AnyEqual, and the other way round.
    base = 1 << 100
    m = tvm_ffi.Map({base + i: i for i in range(n)})
    assert all(lib.lookup_any(m, base + i) == i for i in range(n))
    assert lib.lookup_any(m, base + n) == -1 and lib.lookup_any(m, -(base + 1)) == -1
    out = lib.offset_keys(base, n)
    assert len(out) == n
    assert all(out[base + i] == i for i in range(n))
    assert (base + n) not in out
    keys = {tvm_ffi.StructuralKey([i, "x"]): i for i in range(n)}
    m = tvm_ffi.Map(keys)
    assert all(lib.lookup_any(m, tvm_ffi.StructuralKey([i, "x"])) == i for i in range(n))
    assert lib.lookup_any(m, tvm_ffi.StructuralKey([n, "x"])) == -1


def test_tuples(lib):
    t = lib.make_tuple(3, "name")
    assert len(t) == 4
    assert t[0] == 3 and t[1] == "name" and list(t[2]) == [0, 1, 2] and tuple(t[3]) == (3, 2)
    assert lib.read_tuple((5, "x", [1, 2, 3])) == 8
    assert lib.read_tuple(t[:3]) == 6
    with pytest.raises(TypeError):
        lib.read_tuple((5, "x"))
    with pytest.raises(TypeError):
        lib.read_tuple((5, 6, [1]))


def test_shape(lib):
    assert lib.volume(tvm_ffi.Shape((2, 3, 4))) == 24
    assert lib.volume(tvm_ffi.Shape(())) == 1


def test_list_and_dict_are_shared(lib):
    lst = tvm_ffi.List([1, 2])
    assert lib.list_append(lst, 7) == 3
    assert list(lst) == [1, 2, 7]
    d = tvm_ffi.Dict({"a": 1})
    for i in range(40):  # past 4 pairs the kernel's headers switch it to the dense form
        assert lib.dict_set(d, f"k{i}", i) == i + 2
    assert dict(d.items()) == {"a": 1, **{f"k{i}": i for i in range(40)}}
    assert list(d.keys()) == ["a"] + [f"k{i}" for i in range(40)]


def test_array_copy_on_write(lib):
    a = tvm_ffi.Array([1, 2, 3])
    b = lib.with_first(a, 99)
    assert list(a) == [1, 2, 3] and list(b) == [99, 2, 3]
    with pytest.raises(IndexError):
        lib.with_first([], 1)

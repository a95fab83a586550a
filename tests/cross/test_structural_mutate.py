"""Upstream's structural mutation (tvm_ffi.structural_map, structural_mutate,
StructuralMutator) on either runtime, through the built-in types' hooks
(__s_mutate__, __s_maybe_inplace_mutate__, __s_visit__): nested Array, List,
Map and Dict are rebuilt copy-on-write where something inside changed and
kept where nothing did; a map's values change, its keys do not; the leaves
(String, Bytes) pass through; a py_class object's fields are mutated through
its shallow copy."""

import itertools
import os

import tvm_ffi
from tvm_ffi import StructuralMutator, structural_map, structural_mutate, structural_walk
from tvm_ffi.core import Object
from tvm_ffi.dataclasses import py_class

_keys = itertools.count()

# Long enough to be String objects on both runtimes (short ones are inline).
LONG = "a string long enough to be a String object, not inline"


def key(base):
    return f"ffi_core_test.mutate.{base}_{next(_keys)}"


@py_class(key("Pair"), structural_eq="tree")
class Pair(Object):
    first: tvm_ffi.Array
    second: tvm_ffi.Map


def nested():
    return tvm_ffi.Array(
        [
            1,
            LONG,
            tvm_ffi.List([2, tvm_ffi.Array([3, 4])]),
            tvm_ffi.Map({"k": 5, LONG: tvm_ffi.Array([6])}),
            tvm_ffi.Dict({"d": tvm_ffi.List([7]), 8: 9}),
            tvm_ffi.Array([LONG, b"bytes"]),
        ]
    )


def as_python(value):
    if isinstance(value, (tvm_ffi.Array, tvm_ffi.List)):
        return [type(value).__name__] + [as_python(v) for v in value]
    if isinstance(value, (tvm_ffi.Map, tvm_ffi.Dict)):
        return (type(value).__name__, sorted((repr(k), as_python(v)) for k, v in value.items()))
    return value


def plus_100(i):
    return i + 100


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_map_rewrites_every_int_in_nested_containers():
    root = nested()
    before = as_python(root)
    out = structural_map(root, (int, plus_100))
    assert as_python(out) == [
        "Array",
        101,
        LONG,
        ["List", 102, ["Array", 103, 104]],
        ("Map", [("'a string long enough to be a String object, not inline'", ["Array", 106]), ("'k'", 105)]),
        ("Dict", [("'d'", ["List", 107]), ("8", 109)]),
        ["Array", LONG, b"bytes"],
    ]
    # Copy-on-write: the source is untouched.
    assert as_python(root) == before
    assert not out.same_as(root)


def test_unchanged_containers_are_kept():
    root = nested()
    assert structural_map(root, (float, lambda f: f + 1.0)).same_as(root)
    out = structural_map(root, (tvm_ffi.List, lambda lst: lst))
    assert out.same_as(root)
    # Only the changed branch is new; its unchanged siblings are the same objects.
    out = structural_map(root, (tvm_ffi.Dict, lambda d: tvm_ffi.Dict({"new": 1})))
    assert not out.same_as(root)
    for i in (2, 3, 5):
        assert out[i].same_as(root[i])
    assert as_python(out[4]) == ("Dict", [("'new'", 1)])


def test_map_keys_stay_and_values_change():
    m = tvm_ffi.Map({LONG: LONG, 1: 2})
    out = structural_map(m, (str, lambda s: s + "!"))
    assert dict(out.items()) == {LONG: LONG + "!", 1: 2}
    out = structural_map(m, (int, plus_100))
    assert dict(out.items()) == {LONG: LONG, 1: 102}
    d = tvm_ffi.Dict({tvm_ffi.Array([1]): 2})
    out = structural_map(d, (int, plus_100))
    assert [(list(k), v) for k, v in out.items()] == [([1], 102)]


def test_big_map_keeps_its_order():
    # Past four pairs upstream's maps are hashed; a changed value keeps its place.
    m = tvm_ffi.Map({f"key{i}": i for i in range(20)})
    out = structural_map(m, (int, lambda i: i * 2 if i % 3 == 0 else i))
    assert list(out.keys()) == list(m.keys())
    assert [out[k] for k in out.keys()] == [i * 2 if i % 3 == 0 else i for i in range(20)]


def test_pre_order_sees_parents_first():
    seen = []

    def record(value):
        seen.append(as_python(value))
        return value

    structural_map(tvm_ffi.Array([tvm_ffi.List([1])]), (object, record), order="pre")
    assert seen == [["Array", ["List", 1]], ["List", 1], 1]


def test_reflected_fields_of_an_object_are_mutated():
    p = Pair(first=tvm_ffi.Array([1, 2]), second=tvm_ffi.Map({"x": 3}))
    out = structural_map(p, (int, plus_100))
    assert not out.same_as(p)
    assert list(out.first) == [101, 102] and dict(out.second.items()) == {"x": 103}
    assert list(p.first) == [1, 2]
    assert structural_map(p, (float, lambda f: f)).same_as(p)


def test_mutate_callbacks_own_their_descent():
    root = tvm_ffi.Array([tvm_ffi.Array([1, 2]), tvm_ffi.List([3])])

    def reverse(arr, mutator):
        assert isinstance(mutator, StructuralMutator)
        return tvm_ffi.Array([mutator.mutate(v) for v in reversed(list(arr))])

    out = structural_mutate(root, [(tvm_ffi.Array, reverse), (int, lambda i, m: -i)])
    assert as_python(out) == ["Array", ["List", -3], ["Array", -2, -1]]

    def default(lst, mutator):
        return mutator.default_mutate(lst)

    out = structural_mutate(root, [(tvm_ffi.List, default), (int, lambda i, m: i * 10)])
    assert as_python(out) == ["Array", ["Array", 10, 20], ["List", 30]]


def test_moved_root_is_mutated():
    root = tvm_ffi.Array([tvm_ffi.List([1]), tvm_ffi.Map({"a": 2})])
    out = structural_map(root._move(), (int, plus_100))
    assert as_python(out) == ["Array", ["List", 101], ("Map", [("'a'", 102)])]


def test_walk_visits_container_items_and_map_values():
    # As upstream's __s_visit__ hooks: a map's values are walked, its keys are not.
    seen = []
    structural_walk(
        tvm_ffi.Array(
            [tvm_ffi.Map({LONG: 1, tvm_ffi.Array([10]): 2}), tvm_ffi.Dict({20: tvm_ffi.List([3])})]
        ),
        (int, lambda i: seen.append(i)),
    )
    assert seen == [1, 2, 3]


def test_a_callback_error_comes_back():
    def fail(i):
        raise ValueError(f"no {i}")

    try:
        structural_map(tvm_ffi.Array([tvm_ffi.List([7])]), (int, fail))
    except ValueError as err:
        assert "no 7" in str(err)
    else:
        raise AssertionError("the error was lost")

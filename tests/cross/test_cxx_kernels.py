"""Upstream's Python package loads the upstream-style C++ kernels (tests/cross/cxx/).

ctest runs this file twice: with the wheel's own runtime, and with the package
overlaid so that its lib/libtvm_ffi.so is ffi-core's libffi_core.so
(FFI_CORE_EXPECT_RUNTIME says which; the test checks the mapped libraries).
The kernel libraries come from FFI_CORE_CXX_KERNELS_DIR, built with the flags
tvm-ffi-config prints.
"""

import os

import numpy as np
import pytest
import tvm_ffi


def kernel(name):
    directory = os.environ.get("FFI_CORE_CXX_KERNELS_DIR")
    if not directory:
        pytest.fail("FFI_CORE_CXX_KERNELS_DIR is not set: run this file through ctest")
    return tvm_ffi.load_module(os.path.join(directory, f"{name}_kernels.so"))


def mapped_libraries():
    with open("/proc/self/maps") as maps:
        return {os.path.basename(line.split()[-1]) for line in maps if ".so" in line}


def test_runs_on_the_expected_runtime():
    expected = os.environ.get("FFI_CORE_EXPECT_RUNTIME")
    libraries = mapped_libraries()
    if expected == "ffi_core":
        assert "libffi_core.so" in libraries
        assert "libtvm_ffi.so" not in libraries
    elif expected == "wheel":
        assert "libtvm_ffi.so" in libraries
        assert "libffi_core.so" not in libraries
    else:
        pytest.fail("FFI_CORE_EXPECT_RUNTIME must be ffi_core or wheel")


@pytest.fixture(scope="module")
def typed():
    return kernel("typed")


@pytest.fixture(scope="module")
def objects():
    return kernel("object")


@pytest.fixture(scope="module")
def throwing():
    return kernel("throwing")


@pytest.mark.parametrize("n", [0, 1, 17])
def test_typed_add_one(typed, n):
    x = np.linspace(-3, 3, n, dtype=np.float32)
    y = np.full(n, 99.0, dtype=np.float32)
    assert typed.add_one(x, y) is None
    np.testing.assert_array_equal(y, x + np.float32(1))


def test_typed_scalars_and_strings(typed):
    assert typed.mul_add(6, 7, 0.25) == 6 * 7 + 0.25
    assert typed.greet("ab", 2) == "hello ab;" * 2
    long_name = "a name longer than seven bytes"
    assert typed.greet(long_name, 3) == f"hello {long_name};" * 3


def test_typed_argument_errors(typed):
    with pytest.raises(TypeError, match="Expected 3 but got 2"):
        typed.mul_add(1, 2)
    with pytest.raises(TypeError, match="add_one"):
        typed.add_one(1, 2)
    with pytest.raises(ValueError, match="sizes differ"):
        typed.add_one(np.zeros(2, np.float32), np.zeros(3, np.float32))


def test_object_fields_and_methods(objects):
    counter = objects.make_counter("apples", 5)
    assert type(counter).__name__ == "Counter"
    assert counter.name == "apples"
    assert counter.count == 5
    assert counter.step == 1.0
    counter.count = 11
    assert objects.count_of(counter) == 11
    assert counter.advance(4) == 15
    assert counter.describe() == "apples=15"
    with pytest.raises((AttributeError, TypeError)):
        counter.name = "pears"


def test_object_reflection(objects):
    counter = objects.make_counter("x", 0)
    info = type(counter).__tvm_ffi_type_info__
    assert info.type_key == "ffi_core_test.Counter"
    assert [f.name for f in info.fields] == ["name", "count", "step"]
    assert [m.name for m in info.methods] == ["advance", "describe"]
    assert info.fields[1].doc == "How many so far"


def test_object_type_checks(objects):
    with pytest.raises(TypeError, match="ffi_core_test.Counter"):
        objects.count_of(1)


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda m: m.checked_div(1, 0), ValueError, "division of 1 by zero"),
        (lambda m: m.at(5), IndexError, r"index 5 not in \[0, 3\)"),
        (lambda m: m.std_throw(-3), RuntimeError, "std: negative input"),
    ],
)
def test_exceptions_become_errors(throwing, call, exc, message):
    with pytest.raises(exc, match=message):
        call(throwing)


def test_no_error_when_nothing_throws(throwing):
    assert throwing.checked_div(9, 2) == 4
    assert throwing.at(2) == 20
    assert throwing.std_throw(8) == 8


# ---------------------------------------------------------- module queries ---


def test_module_kind_and_properties(typed):
    assert typed.kind == "library"
    assert typed.is_runnable()
    assert typed.is_binary_serializable()
    assert not typed.is_compilation_exportable()


def test_module_implements_function(typed):
    assert typed.implements_function("mul_add")
    assert typed.implements_function("greet", query_imports=True)
    assert not typed.implements_function("make_counter")


def test_module_metadata_and_doc(typed):
    schema = typed.get_function_metadata("mul_add")["type_schema"]
    assert "int" in schema and "float" in schema
    assert typed.get_function_metadata("missing") is None
    assert typed.get_function_doc("mul_add") == "a * b + c, as a float"
    assert typed.get_function_doc("greet") is None


def test_module_imports(typed, objects):
    typed.import_module(objects)
    try:
        assert [m.kind for m in typed.imports] == [objects.kind]  # the `imports_` field
        assert not typed.implements_function("make_counter")
        assert typed.implements_function("make_counter", query_imports=True)
        assert typed.get_function_metadata("make_counter", query_imports=True) is None
        with pytest.raises(RuntimeError):
            objects.import_module(typed)
    finally:
        typed.clear_imports()
    assert not typed.implements_function("make_counter", query_imports=True)
    assert typed.imports == []


def test_module_write_to_file_is_refused(typed, tmp_path):
    with pytest.raises(RuntimeError, match="WriteToFile"):
        typed.write_to_file(str(tmp_path / "out.so"))


@pytest.mark.skipif(os.environ.get("FFI_CORE_EXPECT_RUNTIME") != "ffi_core", reason="ffi-core's refusal")
def test_module_inspect_source_is_refused(typed):
    with pytest.raises(RuntimeError, match="no source to inspect"):
        typed.inspect_source()

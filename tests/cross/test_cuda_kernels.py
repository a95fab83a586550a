"""Upstream's Python package loads the upstream-style CUDA kernel library
(tests/cross/cxx/cuda_kernels.cu), on the wheel's runtime and on ffi-core's
(FFI_CORE_EXPECT_RUNTIME, as in test_cxx_kernels.py). No device is needed:
the kernels refuse host arrays before touching CUDA. The GPU run itself is
cuda_kernel_loader.c's (this environment has no GPU array library).
"""

import os

import numpy as np
import pytest
import tvm_ffi


def mapped_libraries():
    with open("/proc/self/maps") as maps:
        return {os.path.basename(line.split()[-1]) for line in maps if ".so" in line}


@pytest.fixture(scope="module")
def kernels():
    path = os.environ.get("FFI_CORE_CUDA_KERNELS")
    if not path:
        pytest.fail("FFI_CORE_CUDA_KERNELS is not set: run this file through ctest")
    return tvm_ffi.load_module(path)


def test_runs_on_the_expected_runtime(kernels):
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}
    runtime = os.environ.get("FFI_CORE_EXPECT_RUNTIME")
    assert runtime in expected, "FFI_CORE_EXPECT_RUNTIME must be ffi_core or wheel"
    libraries = mapped_libraries()
    assert expected[runtime] in libraries
    assert all(lib not in libraries for key, lib in expected.items() if key != runtime)


def test_functions_are_exported(kernels):
    assert isinstance(kernels.add_one, tvm_ffi.Function)
    assert isinstance(kernels.scale, tvm_ffi.Function)
    with pytest.raises(AttributeError, match="no_such_kernel"):
        kernels.no_such_kernel


@pytest.mark.parametrize("name, extra", [("add_one", ()), ("scale", (2.0,))])
def test_host_arrays_are_refused(kernels, name, extra):
    x = np.arange(5, dtype=np.float32)
    y = np.full(5, 7.0, dtype=np.float32)
    with pytest.raises(ValueError, match=f"{name}: x must be a CUDA tensor, got device type 1"):
        getattr(kernels, name)(x, y, *extra)
    np.testing.assert_array_equal(y, np.full(5, 7.0, dtype=np.float32))


def test_wrong_arity_is_a_type_error(kernels):
    x = np.zeros(2, np.float32)
    with pytest.raises(TypeError, match="Expected 3 but got 2"):
        kernels.scale(x, x)

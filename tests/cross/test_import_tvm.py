"""Apache TVM 0.27's Python package on either runtime: it imports (its
libraries bind upstream's C++ API and register their types, some at static
indices), and its tensors, TIR expressions and structural comparison work
the same. Building a Relax model needs the structural mutators, which
ffi-core does not provide yet."""
import os

import numpy as np
import tvm
import tvm_ffi
from tvm import tirx


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_tvm_imports_with_its_version():
    assert tvm.__version__.startswith("0.27")


def test_tvm_tensor_round_trip():
    a = tvm.runtime.tensor(np.arange(6, dtype="float32").reshape(2, 3))
    assert a.shape == (2, 3)
    np.testing.assert_array_equal(a.numpy(), np.arange(6, dtype="float32").reshape(2, 3))


def test_tir_expressions_fold_and_print():
    seven = tirx.const(3, "int32") + tirx.const(4, "int32")
    assert isinstance(seven, tirx.IntImm) and seven.value == 7
    n = tirx.Var("n", "int64")
    e = n * 2 + 1
    assert isinstance(e, tirx.Add)
    assert str(e) == "n * T.int64(2) + T.int64(1)"


def test_structural_equality_of_tir():
    n = tirx.Var("n", "int64")
    tvm.ir.assert_structural_equal(n * 2 + 1, n * 2 + 1)
    assert tvm_ffi.structural_hash(n * 2 + 1) == tvm_ffi.structural_hash(n * 2 + 1)
    assert not tvm_ffi.structural_equal(n * 2 + 1, n * 3 + 1)

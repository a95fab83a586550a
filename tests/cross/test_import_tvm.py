"""Apache TVM 0.27's Python package on either runtime: it imports (its
libraries bind upstream's C++ API and register their types, some at static
indices), and its tensors, TIR expressions and structural comparison work
the same; a Relax model builds (TVM's passes mutate structures through the
built-in types' structural hooks) into an executable, a module TVM made in
C++, that TVM's VirtualMachine runs with numpy's results."""
import os

import numpy as np
import tvm
import tvm_ffi
from tvm import relax, tirx
from tvm.script import relax as R


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


def test_relax_model_builds_and_runs_in_the_vm():
    @tvm.script.ir_module
    class Model:
        @R.function
        def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor((2, 3), "float32")):
            with R.dataflow():
                z = R.add(x, y)
                w = R.multiply(z, x)
                s = R.sum(w, axis=1)
                R.output(w, s)
            return (w, s)

    executable = relax.build(Model, tvm.target.Target("llvm"), exec_mode="compiled")
    # A module TVM made in C++, queried through the ffi.Module* globals.
    module = executable.mod
    assert isinstance(module, tvm_ffi.Module)
    assert module.kind == "relax.VMExecutable"
    assert module.implements_function("vm_load_executable")
    assert module.get_property_mask() == 1
    assert [m.kind for m in module.imports] == ["llvm"]
    vm = relax.VirtualMachine(executable, tvm.cpu())
    a = np.arange(6, dtype="float32").reshape(2, 3)
    b = np.full((2, 3), 0.5, dtype="float32")
    w, s = vm["main"](tvm.runtime.tensor(a), tvm.runtime.tensor(b))
    np.testing.assert_allclose(w.numpy(), (a + b) * a, rtol=1e-6)
    np.testing.assert_allclose(s.numpy(), ((a + b) * a).sum(axis=1), rtol=1e-6)

"""single_call: a straight-line main becomes one call of the kernel table,
whose workspace plan never lets two tensors that live at once share a byte,
states written in place staying in place, Relax's operators as TVM's
kernels for them; a main of another shape (a function outside the module, a
single kernel) stays as it is. The table's
outputs are checked where it runs: every model test of tests/tvm, on the host
and the boards, bit for bit against TVM's VM running the main as imported."""
import os
import subprocess

import numpy as np
import pytest
import tvm
from reference import MLPERF_TINY, TFLM_EXAMPLES, importer

from ffi_core_tvm import single_call as sc
from ffi_core_tvm.compile import compile_relax, planned_storage_bytes


def _values(mod):
    return [b.value for block in mod["main"].body.blocks for b in block.bindings]


def _calls(mod):
    return [v for v in _values(mod) if isinstance(v, tvm.relax.Call)
            and getattr(v.op, "name", "") in ("relax.call_tir", "relax.call_tir_inplace")]


def _table_call(mod):
    """main's one call, of the table itself (no call_tir: its lowering would
    add a copy of the result), after one storage and its tensors."""
    values = _values(mod)
    ops = [getattr(v.op, "name", "") for v in values if isinstance(v, tvm.relax.Call)]
    assert ops[0] == "relax.memory.alloc_storage" and ops.count(ops[0]) == 1
    (call,) = [v for v in values if isinstance(v, tvm.relax.Call)
               and isinstance(v.op, tvm.ir.GlobalVar)]
    assert call.op.name_hint == sc.ENTRY and not _calls(mod)
    return call


def _regions(rng, n):
    regions = []
    for _ in range(n):
        defined = int(rng.integers(0, 20))
        r = sc._Storage("region", 0, int(rng.integers(1, 300)), defined=defined)
        r.last_use = defined + int(rng.integers(0, 6))
        regions.append(r)
    return regions


@pytest.mark.parametrize("seed", range(20))
def test_plan_keeps_live_regions_apart(seed):
    regions = _regions(np.random.default_rng(seed), 12)
    size = sc._plan(regions)
    for r in regions:
        assert r.offset % sc.ALIGNMENT == 0 and r.offset + r.nbytes <= size
    for i, a in enumerate(regions):
        for b in regions[i + 1:]:
            if a.defined <= b.last_use and b.defined <= a.last_use:
                assert a.offset + a.nbytes <= b.offset or b.offset + b.nbytes <= a.offset, \
                    "two regions live at once overlap"
    # Never below the most bytes live at one step.
    live = max(sum(r.nbytes for r in regions if r.defined <= t <= r.last_use)
               for t in range(30))
    assert size >= live


def _model(folder, name):
    path = os.path.join(folder, name + ".tflite")
    if not os.path.exists(path):
        pytest.skip(f"{path} is missing")
    with open(path, "rb") as f:
        return importer()[0](f.read())[0]


@pytest.mark.parametrize("name", ["kws_ref_model", "ad01_int8"])
def test_straight_line_main_is_one_call(name):
    mod = _model(MLPERF_TINY, name)
    new, table = sc.single_call(mod, "table")
    assert table is not None
    _table_call(new)
    assert [k for k, _ in table["steps"]] == [c.args[0].name_hint for c in _calls(mod)]
    # The plan needs no more RAM than Relax's own.
    assert planned_storage_bytes(new) <= planned_storage_bytes(mod)
    source = sc.table_c_source(table)
    assert "int32_t table(" in source and source.count("{__tvm_ffi_") == len(table["steps"])


def test_state_written_in_place_is_returned_in_place():
    mod = _model(TFLM_EXAMPLES, "keyword_scrambled_8bit")
    new, table = sc.single_call(mod, "table")
    call = _table_call(new)
    # The output new, each state its own parameter, as main returned them,
    # and the table handed each state where it lies.
    params = list(new["main"].params)
    returned = list(new["main"].body.body.fields)
    assert returned[0] not in params and returned[1:] == params[1:]
    assert all(p in list(call.args) for p in params)
    assert len(table["steps"]) == len(_calls(mod))
    assert planned_storage_bytes(new) <= planned_storage_bytes(mod)


def _chain(second):
    """main(x): add(x, x), then `second` of it and x."""
    bb = tvm.relax.BlockBuilder()
    x = tvm.relax.Var("x", tvm.relax.TensorType([4], "int8"))
    with bb.function("main", [x]):
        y = bb.emit(tvm.relax.op.add(x, x))
        bb.emit_func_output(bb.emit(second(y, x)))
    return bb.finalize()


def test_other_shapes_stay():
    # A call of a function outside the module, as a kernel's neighbour.
    extern = _chain(lambda y, x: tvm.relax.call_dps_packed(
        "ext", tvm.relax.Tuple([y, x]), tvm.relax.TensorType([4], "int8")))
    new, table = sc.single_call(extern, "table")
    assert table is None and new.same_as(extern)
    # A single kernel: nothing to save.
    bb = tvm.relax.BlockBuilder()
    x = tvm.relax.Var("x", tvm.relax.TensorType([4], "int8"))
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(tvm.relax.op.add(x, x)))
    single = bb.finalize()
    new, table = sc.single_call(single, "table")
    assert table is None and new.same_as(single)
    # A dtype the table does not write (bool) between kernels.
    bb = tvm.relax.BlockBuilder()
    x = tvm.relax.Var("x", tvm.relax.TensorType([4], "int8"))
    with bb.function("main", [x]):
        y = bb.emit(tvm.relax.op.less(x, x))
        bb.emit_func_output(bb.emit(tvm.relax.op.astype(y, "int8")))
    boolean = bb.finalize()
    new, table = sc.single_call(boolean, "table")
    assert table is None and new.same_as(boolean)


def test_relax_operators_join_as_kernels():
    mod = _chain(tvm.relax.op.multiply)
    new, table = sc.single_call(mod, "table")
    _table_call(new)
    assert len(table["steps"]) == 2
    # add writes the workspace, multiply reads it and x and writes the output.
    (_, add), (_, mul) = table["steps"]
    assert add[0][0] == 0 and add[2][0] == 1 and mul[0] == add[2] and mul[2][0] == 2


def _symbols(path):
    """The global symbols an object defines."""
    out = subprocess.run(["nm", "-g", "--defined-only", path], check=True,
                         capture_output=True, text=True).stdout
    return sorted(line.split()[-1] for line in out.splitlines() if line.strip())


def test_direct_entry_is_its_own_objects(tmp_path):
    mod = _chain(tvm.relax.op.multiply)
    info = compile_relax(mod, "host", str(tmp_path), "chain")
    entry = info["entry"]
    assert entry["symbol"] == "ffi_core_chain_run" and entry["reset"] is None
    assert entry["buffers"] == ["x", "workspace", "output0"]
    assert entry["workspace_bytes"] >= 4 and entry["alignment"] == sc.ALIGNMENT
    direct = _symbols(str(tmp_path / "chain_direct.o"))
    # The entry and each kernel's packed entry, renamed for the model: no VM,
    # no system library, nothing that would clash with another model.
    kernels = [s for s in direct if s != "ffi_core_chain_run"]
    assert len(kernels) == len(direct) - 1 >= 2
    assert all(s.startswith("ffi_core_chain_kernel_") for s in kernels)
    assert _symbols(str(tmp_path / "chain_weights.o")) == ["ffi_core_chain_weights"]


def test_direct_entry_source():
    mod = _model(TFLM_EXAMPLES, "keyword_scrambled_8bit")
    _, table = sc.single_call(mod, "table")
    offsets, nbytes = sc.weights_layout(table)
    assert all(o % sc.ALIGNMENT == 0 for o in offsets)
    assert [b - a >= len(d) for a, b, d in zip(offsets, offsets[1:] + [nbytes],
                                               table["constants"])] == [True] * len(offsets)
    states = [("int8", 10, -3), ("int16", 4, 7)]
    source = sc.direct_c_source(table, "run", "weights", "reset", states)
    n_buffers = table["args"] - len(offsets)
    assert f'FFICoreTVMCheckBuffers("run", b, {n_buffers}u)' in source
    assert source.count("(void*)(weights + ") == len(offsets)
    assert "((int8_t*)s[0])[i] = (int8_t)-3;" in source
    assert "((int16_t*)s[1])[i] = (int16_t)7;" in source


def test_planned_main_where_one_new_tensor_is_returned():
    _, table = sc.single_call(_model(MLPERF_TINY, "ad01_int8"), "table")
    planned = table["planned"]
    assert planned["output"] == ((1, 640), "int8") and planned["inputs"] == [((1, 640), "int8")]
    assert planned["workspace_offset"] % sc.ALIGNMENT == 0
    assert planned["storage_bytes"] == planned["workspace_offset"] + table["workspace_bytes"]
    source = sc.table_c_source(table, pool=[7])
    assert "static const uint32_t kConstants[] = {7};" in source
    assert '"__tvm_ffi_ffi_core_planned_main"' in source
    # Without the pool's indices, or returning a state: TVM's main only.
    assert "kMain" not in sc.table_c_source(table)
    _, stateful = sc.single_call(_model(TFLM_EXAMPLES, "keyword_scrambled_8bit"), "table")
    assert stateful["planned"] is None and "kMain" not in sc.table_c_source(stateful, pool=[0])


def test_constant_pool_indices(tmp_path):
    """The executable's pool as compile.py reads it: each table constant at
    an index whose bytes are its own."""
    from ffi_core_tvm import compile as cp
    x = tvm.relax.Var("x", tvm.relax.TensorType([4], "int8"))
    c = tvm.relax.const(np.array([1, 2, 3, 4], "int8"))
    bb = tvm.relax.BlockBuilder()
    with bb.function("main", [x]):
        y = bb.emit(tvm.relax.op.add(x, c))
        bb.emit_func_output(bb.emit(tvm.relax.op.multiply(y, x)))
    compile_relax(bb.finalize(), "host", str(tmp_path), "pool")
    blob = cp._elf_symbols(str(tmp_path / "pool_bin.o"))[b"ffi_core_library_bin"]
    pool = cp._constant_pool(blob)
    assert pool.count(bytes([1, 2, 3, 4])) == 1
    assert cp._pool_indices(blob, [bytes([1, 2, 3, 4])]) == [pool.index(bytes([1, 2, 3, 4]))]
    assert cp._pool_indices(blob, [bytes([9, 9])]) is None

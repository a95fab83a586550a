"""Runs a TFLite model two ways and compares: LiteRT's reference kernels, and
ffi-core's compile path (the importer, then TVM's build and VirtualMachine on
this host)."""
import os
import sys
import zlib

import numpy as np
import tvm
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from tvm import relax

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tvm_backend", "python"))

from ffi_core_tvm.compile import pass_context  # noqa: E402

# Largest difference accepted per output dtype: integer outputs in LSBs,
# float32 as (relative, absolute).
INT_TOLERANCE_LSB = 1
FLOAT_RTOL, FLOAT_ATOL = 1e-3, 1e-4


def importer():
    """(from_tflite, UnsupportedModel) of the compile path's TFLite importer."""
    from ffi_core_tvm.tflite import UnsupportedModel, from_tflite
    return from_tflite, UnsupportedModel


def case_seed(request):
    """A seed per parametrized case, stable across runs and case order."""
    return zlib.crc32(request.node.callspec.id.encode())


def assert_refused(buf, named):
    """The importer refuses `buf` with an UnsupportedModel that names `named`."""
    from_tflite, unsupported = importer()
    try:
        from_tflite(buf)
    except unsupported as refused:
        assert named in str(refused), f"the refusal does not name {named}: {refused}"
        return
    raise AssertionError(f"taken, where a refusal naming {named} was expected")


def litert_reference(buf, inputs):
    """The model's outputs from LiteRT's reference kernels (BUILTIN_REF)."""
    it = Interpreter(model_content=buf, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    for detail, x in zip(it.get_input_details(), inputs):
        it.set_tensor(detail["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


# Where TensorFlow Lite Micro's example models are: shared/ beside the repo.
TFLM_EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                             "shared", "models", "tflm_examples")
# And MLPerf Tiny's four models.
MLPERF_TINY = os.path.join(os.path.dirname(TFLM_EXAMPLES), "mlperf_tiny")


def host_model(buf):
    """(run, input tensors, output tensors) of the model built by ffi-core's
    compile path for this host; run(*arrays) returns the outputs' arrays."""
    from_tflite, _ = importer()
    mod, ins, outs = from_tflite(buf)
    with pass_context():
        ex = relax.build(mod, tvm.target.Target("llvm"), exec_mode="compiled")
    main = relax.VirtualMachine(ex, tvm.cpu())["main"]

    def run(*xs):
        result = main(*[tvm.runtime.tensor(x) for x in xs])
        # One output comes back as a tensor, several as an array of them.
        return [result.numpy()] if hasattr(result, "numpy") else [r.numpy() for r in result]
    return run, ins, outs


def ffi_core_host(buf, inputs):
    """The model's outputs from ffi-core's compile path built for this host."""
    return host_model(buf)[0](*inputs)


def make_inputs(buf, seed):
    """Seeded inputs for the model's input tensors: quantized integers over
    their whole range, other integers small (sizes, indices), floats
    standard normal."""
    rng = np.random.default_rng(seed)
    it = Interpreter(model_content=buf, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    xs = []
    for d in it.get_input_details():
        dtype, shape = np.dtype(d["dtype"]), tuple(d["shape"])
        if dtype.kind == "f":
            xs.append(rng.standard_normal(shape).astype(dtype))
        elif d["quantization_parameters"]["scales"].size:
            info = np.iinfo(dtype)
            xs.append(rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype))
        else:
            xs.append(rng.integers(-8, 8, size=shape, endpoint=True, dtype=dtype))
    return xs


def assert_close(got, want, dtype, what="output"):
    """got (ffi-core) against want (LiteRT): integers within 1 LSB, float32
    within 1e-3 relative or 1e-4 absolute."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: shape {got.shape}, LiteRT's is {want.shape}"
    assert got.dtype == np.dtype(dtype) and want.dtype == np.dtype(dtype), \
        f"{what}: dtype {got.dtype}, LiteRT's {want.dtype}, expected {dtype}"
    if got.dtype.kind == "f":
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        bad = diff > np.maximum(FLOAT_ATOL, FLOAT_RTOL * np.abs(want.astype(np.float64)))
        limit = f"{FLOAT_RTOL} relative or {FLOAT_ATOL} absolute"
    else:
        diff = np.abs(got.astype(np.int64) - want.astype(np.int64))
        bad = diff > INT_TOLERANCE_LSB
        limit = f"{INT_TOLERANCE_LSB} LSB"
    if bad.any():
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {bad.size} values differ from LiteRT's by more than "
            f"{limit} (max {diff.max()}); first at {first}: got {got[first]}, LiteRT {want[first]}")


def check_against_litert(buf, inputs, dtype=None, exact=False, varied=True):
    """Runs `buf` on LiteRT's reference kernels and through the compile path
    with `inputs`: as many outputs, each of `dtype` (the reference's where
    None) and within the tolerance, bit for bit where `exact`. `varied`: each
    reference output takes more than two values, or the case shows little."""
    want = litert_reference(buf, inputs)
    if varied:
        assert all(np.unique(w).size > 2 for w in want), \
            f"the case's LiteRT output is nearly constant: {[np.unique(w) for w in want]}"
    got = ffi_core_host(buf, inputs)
    assert len(got) == len(want), f"{len(got)} outputs, LiteRT has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, w.dtype if dtype is None else dtype, what=f"output {i}")
        if exact:
            np.testing.assert_array_equal(g, w, err_msg=f"output {i} is not LiteRT's bit for bit")

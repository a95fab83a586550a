"""Compiles whole Relax models with TVM's compiled-mode VM and writes what
the tests need.

Per model: for a board (--cpu, a toolchain CPU name) the two objects
`export_library` puts in its tar (<model>_lib0.o with the code, which
registers itself in the system library, and <model>_devc.o with
__tvm_ffi__library_bin: the constants and function table); for the host a
shared library <model>.so. Beside them relax_<model>_data.h: the input, the
outputs numpy computes, the outputs TVM's own VirtualMachine computes on this
host, and the kind and message TVM's VM raises for bad inputs (a wrong dtype
and a wrong shape; for a tuple input, also a tuple of the wrong length and a
tensor where the tuple belongs).
"""
import argparse
import os
import tarfile
import tempfile

import numpy as np
import tvm
from tvm import relax
from tvm.script import relax as R

from gen_models import C_TYPES, LLVM_TARGETS, c_string, c_values, tvm_error

RNG = np.random.default_rng(20261122)


def f32(*shape):
    return RNG.uniform(-1.0, 1.0, size=shape).astype("float32")


def const(v):
    return relax.const(v)


def mlp_softmax():
    """Dense 16 -> 32, ReLU, dense 32 -> 10, softmax."""
    w1, b1, w2, b2 = f32(16, 32), f32(32), f32(32, 10), f32(10)
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((1, 16), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            h = bb.emit(relax.op.nn.relu(relax.op.add(relax.op.matmul(x, const(w1)), const(b1))))
            y = bb.emit(relax.op.add(relax.op.matmul(h, const(w2)), const(b2)))
            out = bb.emit_output(relax.op.nn.softmax(y))
        bb.emit_func_output(out)

    def ref(xv):
        y = np.maximum(xv @ w1 + b1, 0) @ w2 + b2
        e = np.exp(y - y.max(axis=-1, keepdims=True))
        return [(e / e.sum(axis=-1, keepdims=True)).astype("float32")]
    return bb.get(), f32(1, 16), ref, 1e-5


def conv_numpy(xv, w, acc_dtype):
    n, c, h, wd = xv.shape
    k = w.shape[0]
    xp = np.pad(xv.astype(acc_dtype), ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, k, h, wd), acc_dtype)
    for o in range(k):
        for i in range(h):
            for j in range(wd):
                out[0, o, i, j] = np.sum(xp[0, :, i:i + 3, j:j + 3] * w[o].astype(acc_dtype))
    return out


def pool_numpy(v):
    n, c, h, w = v.shape
    return v.reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def convnet_f32():
    """conv2d 1x2x8x8 (4 filters 3x3, padding 1) + ReLU, 2x2 max pool, dense 64 -> 4."""
    w, b, wd = f32(4, 2, 3, 3), f32(1, 4, 1, 1), f32(64, 4)
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((1, 2, 8, 8), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            c = bb.emit(relax.op.nn.relu(relax.op.add(relax.op.nn.conv2d(x, const(w), padding=1),
                                                      const(b))))
            p = bb.emit(relax.op.nn.max_pool2d(c, pool_size=2, strides=2))
            f = bb.emit(relax.op.reshape(p, (1, 64)))
            out = bb.emit_output(relax.op.matmul(f, const(wd)))
        bb.emit_func_output(out)

    def ref(xv):
        c = np.maximum(conv_numpy(xv, w, "float32") + b, 0)
        return [(pool_numpy(c).reshape(1, 64) @ wd).astype("float32")]
    return bb.get(), f32(1, 2, 8, 8), ref, 1e-5


def convnet_int8():
    """The same net in int8: int32 accumulation, ReLU, >> 3, clip to int8, int32 logits."""
    w = RNG.integers(-8, 8, (4, 1, 3, 3)).astype("int8")
    wd = RNG.integers(-8, 8, (64, 10)).astype("int8")
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((1, 1, 8, 8), "int8"))
    with bb.function("main", [x]):
        with bb.dataflow():
            c = bb.emit(relax.op.nn.conv2d(x, const(w), padding=1, out_dtype="int32"))
            c = bb.emit(relax.op.right_shift(relax.op.nn.relu(c), const(np.int32(3))))
            c = bb.emit(relax.op.astype(relax.op.clip(c, 0, 127), "int8"))
            p = bb.emit(relax.op.nn.max_pool2d(c, pool_size=2, strides=2))
            f = bb.emit(relax.op.reshape(p, (1, 64)))
            out = bb.emit_output(relax.op.matmul(f, const(wd), out_dtype="int32"))
        bb.emit_func_output(out)

    def ref(xv):
        c = np.clip(np.maximum(conv_numpy(xv, w, "int32"), 0) >> 3, 0, 127).astype("int8")
        return [(pool_numpy(c).reshape(1, 64).astype("int32") @ wd.astype("int32"))]
    return bb.get(), RNG.integers(-128, 128, (1, 1, 8, 8)).astype("int8"), ref, 0.0


def two_outputs():
    """One input, two results: a tuple (ReLU(x @ w1), x @ w2 - 1)."""
    w1, w2 = f32(8, 6), f32(8, 3)
    bb = relax.BlockBuilder()
    x = relax.Var("x", R.Tensor((1, 8), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            a = bb.emit(relax.op.nn.relu(relax.op.matmul(x, const(w1))))
            b = bb.emit(relax.op.subtract(relax.op.matmul(x, const(w2)), const(np.float32(1))))
            out = bb.emit_output(relax.Tuple([a, b]))
        bb.emit_func_output(out)

    def ref(xv):
        return [np.maximum(xv @ w1, 0).astype("float32"), (xv @ w2 - 1).astype("float32")]
    return bb.get(), f32(1, 8), ref, 1e-5


def tuple_io():
    """A tuple of two tensors in, a tuple out: (a + b, a * b - a)."""
    bb = relax.BlockBuilder()
    t = relax.Var("t", R.Tuple(R.Tensor((1, 8), "float32"), R.Tensor((1, 8), "float32")))
    with bb.function("main", [t]):
        with bb.dataflow():
            a = bb.emit(relax.TupleGetItem(t, 0))
            b = bb.emit(relax.TupleGetItem(t, 1))
            s = bb.emit(relax.op.add(a, b))
            p = bb.emit(relax.op.subtract(relax.op.multiply(a, b), a))
            out = bb.emit_output(relax.Tuple([s, p]))
        bb.emit_func_output(out)

    def ref(xv):
        a, b = xv
        return [(a + b).astype("float32"), (a * b - a).astype("float32")]
    return bb.get(), (f32(1, 8), f32(1, 8)), ref, 1e-6


MODELS = {"mlp_softmax": mlp_softmax, "convnet_f32": convnet_f32, "convnet_int8": convnet_int8,
          "two_outputs": two_outputs, "tuple_io": tuple_io}


def spec(name, arr):
    _, code, bits = C_TYPES[str(arr.dtype)]
    return "{%s, %d, {%s}, %d, %d}" % (name, arr.ndim, ", ".join(map(str, arr.shape)), code, bits)


def write_model(name, out_dir, cpu):
    mod, xv, ref, tol = MODELS[name]()
    expected = ref(xv)
    host_so = os.path.join(out_dir, name + ".so")
    relax.build(mod, tvm.target.Target({"kind": "llvm"}), exec_mode="compiled").export_library(
        host_so)
    if cpu != "host":
        target = tvm.target.Target(dict(kind="llvm", **LLVM_TARGETS[cpu]))
        ex = relax.build(mod, target, exec_mode="compiled", system_lib=True)
        with tempfile.TemporaryDirectory() as tmp:
            ex.export_library(os.path.join(tmp, "model.tar"))
            with tarfile.open(os.path.join(tmp, "model.tar")) as tar:
                tar.extractall(tmp)
            for part in ("lib0", "devc"):
                os.replace(os.path.join(tmp, part + ".o"),
                           os.path.join(out_dir, "%s_%s.o" % (name, part)))
    # TVM's own VM on this host, from the same model. A tuple input is one
    # argument, a tuple of tensors.
    vm = relax.VirtualMachine(tvm.runtime.load_module(host_so), tvm.cpu())
    inputs = xv if isinstance(xv, tuple) else (xv,)
    as_arg = (lambda arrays: tuple(tvm.runtime.tensor(a) for a in arrays)) if isinstance(
        xv, tuple) else (lambda arrays: tvm.runtime.tensor(arrays[0]))
    got = vm["main"](as_arg(inputs))
    got = [got.numpy()] if hasattr(got, "numpy") else [g.numpy() for g in got]
    for g, e in zip(got, expected):
        if tol == 0.0:
            assert np.array_equal(g, e), name
        else:
            np.testing.assert_allclose(g, e, rtol=tol, atol=tol)
    # Bad inputs change the first tensor (its dtype, its last dimension) or,
    # for a tuple, the tuple itself.
    first = inputs[0]
    bad_dtype = np.zeros(first.shape, "int8" if first.dtype == np.float32 else "float32")
    bad_shape = np.zeros(first.shape[:-1] + (1,), first.dtype)
    bad = [("RELAX_BAD_DTYPE", (bad_dtype,) + inputs[1:]),
           ("RELAX_BAD_SHAPE", (bad_shape,) + inputs[1:])]
    errors = [(what, tvm_error(vm["main"], as_arg(arrays))) for what, arrays in bad]
    if isinstance(xv, tuple):
        errors.append(("RELAX_BAD_ARITY", tvm_error(vm["main"], as_arg(inputs[:1]))))
        errors.append(("RELAX_BAD_NOT_TUPLE",
                       tvm_error(vm["main"], tvm.runtime.tensor(first))))

    lines = ["/* Generated by tests/tvm/gen_relax_models.py with TVM %s for %s: do not edit. */"
             % (tvm.__version__, cpu), '#include "relax_model_case.h"', "",
             '#define RELAX_MODEL_NAME "%s"' % name, "#define RELAX_MODEL_TOLERANCE %r" % tol,
             "#define RELAX_MODEL_TUPLE_INPUT %d" % (isinstance(xv, tuple))]
    for i, arr in enumerate(inputs):
        ctype, _, _ = C_TYPES[str(arr.dtype)]
        lines.append("static const %s kInputData%d[%d] = {%s};" % (ctype, i, arr.size,
                                                                    c_values(arr)))
    lines.append("static const RelaxTensor kInputs[] = {%s};" % ", ".join(
        spec("kInputData%d" % i, arr) for i, arr in enumerate(inputs)))
    outs, tvm_outs = [], []
    for i, (e, g) in enumerate(zip(expected, got)):
        octype, _, _ = C_TYPES[str(e.dtype)]
        lines.append("static const %s kNumpy%d[%d] = {%s};" % (octype, i, e.size, c_values(e)))
        lines.append("static const %s kTvm%d[%d] = {%s};" % (octype, i, g.size, c_values(g)))
        outs.append(spec("kNumpy%d" % i, e))
        tvm_outs.append("kTvm%d" % i)
    lines.append("static const RelaxTensor kOutputs[] = {%s};" % ", ".join(outs))
    lines.append("static const void* const kTvmOutputs[] = {%s};" % ", ".join(tvm_outs))
    lines.append("static const RelaxBadCall kBadCalls[] = {")
    for what, (kind, msg) in errors:
        lines.append("  {%s, \"%s\", %s}," % (what, kind, c_string(msg)))
    lines.append("};")
    with open(os.path.join(out_dir, "relax_%s_data.h" % name), "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", required=True, help="toolchain CPU name, or 'host'")
    ap.add_argument("--out", required=True)
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    for name in MODELS:
        write_model(name, opts.out, opts.cpu)


if __name__ == "__main__":
    main()

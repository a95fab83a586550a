"""Compiles the example models with Apache TVM and writes what the tests need.

For a board (--cpu, a toolchain CPU name): per model an LLVM object for that
CPU (a system library that registers itself) and TVM's C source; for the
host (--cpu host): per model a shared library (TVM's `llvm` target) and the C
source. Beside them, tvm_models_data.h: inputs, weights, the outputs numpy
computes, the outputs TVM's own runtime computes on this host, and the kind
and message TVM's runtime raises for the bad calls the tests repeat.

Run with the project's .venv python (apache-tvm installed by scripts/setup.sh).
"""
import argparse
import os
import re
import sys

import numpy as np
import tvm
from tvm import te, topi

# Toolchain CPU (toolchains/<cpu>.cmake) -> TVM LLVM target with the same ABI:
# the compile path's table (tvm_backend/python/ffi_core_tvm/targets.py).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tvm_backend", "python"))
from ffi_core_tvm.targets import LLVM_TARGETS  # noqa: E402

RNG = np.random.default_rng(20261122)


def f32(*shape):
    return RNG.uniform(-1.0, 1.0, size=shape).astype("float32")


def dense_relu(x, w, b, name):
    k = te.reduce_axis((0, w.shape[0]), name + "_k")
    acc = te.compute((x.shape[0], w.shape[1]),
                     lambda i, j: te.sum(x[i, k] * w[k, j], axis=k), name=name + "_acc")
    return te.compute(acc.shape, lambda i, j: te.max(acc[i, j] + b[j], tvm.tirx.const(0, "float32")),
                      name=name)


def dense(x, w, b, name):
    k = te.reduce_axis((0, w.shape[0]), name + "_k")
    acc = te.compute((x.shape[0], w.shape[1]),
                     lambda i, j: te.sum(x[i, k] * w[k, j], axis=k), name=name + "_acc")
    return te.compute(acc.shape, lambda i, j: acc[i, j] + b[j], name=name)


def mlp(n_in, n_hidden, n_out, tol):
    """Float MLP n_in -> n_hidden (ReLU) -> n_out, weights passed as arguments."""
    shapes = [("x", (1, n_in)), ("w1", (n_in, n_hidden)), ("b1", (n_hidden,)),
              ("w2", (n_hidden, n_out)), ("b2", (n_out,))]
    x, w1, b1, w2, b2 = (te.placeholder(s, "float32", name=n) for n, s in shapes)
    y = dense(dense_relu(x, w1, b1, "h"), w2, b2, "y")
    vals = [f32(*s) for _, s in shapes]
    h = np.maximum(vals[0] @ vals[1] + vals[2], 0)
    ref = (h @ vals[3] + vals[4]).astype("float32")
    return [x, w1, b1, w2, b2, y], vals, ref, tol


def model_mlp():
    """16 -> 32 -> 8: the hidden layer stays on the stack."""
    return mlp(16, 32, 8, 1e-5)


def model_mlp_wide():
    """8 -> 300 -> 4: the 1200-byte hidden layer needs a workspace."""
    return mlp(8, 300, 4, 1e-4)


def model_dense_int8():
    """int8 dense layer, int32 accumulation and bias, requantised by >> 6 to int8."""
    x = te.placeholder((1, 32), "int8", name="x")
    w = te.placeholder((32, 16), "int8", name="w")
    b = te.placeholder((16,), "int32", name="b")
    k = te.reduce_axis((0, 32), "k")
    acc = te.compute((1, 16), lambda i, j: te.sum(x[i, k].astype("int32") * w[k, j].astype("int32"),
                                                  axis=k), name="acc")
    y = te.compute((1, 16), lambda i, j: te.max(te.min((acc[i, j] + b[j]) >> 6, 127), -128)
                   .astype("int8"), name="y")
    vals = [RNG.integers(-128, 128, (1, 32)).astype("int8"),
            RNG.integers(-128, 128, (32, 16)).astype("int8"),
            RNG.integers(-2000, 2000, (16,)).astype("int32")]
    acc_np = vals[0].astype("int32") @ vals[1].astype("int32") + vals[2]
    ref = np.clip(acc_np >> 6, -128, 127).astype("int8")
    return [x, w, b, y], vals, ref, 0.0


def model_conv2d():
    """conv2d NCHW 1x3x8x8, 4 3x3 filters, padding 1, bias and ReLU."""
    x = te.placeholder((1, 3, 8, 8), "float32", name="x")
    w = te.placeholder((4, 3, 3, 3), "float32", name="w")
    b = te.placeholder((4,), "float32", name="b")
    conv = topi.nn.conv2d_nchw(x, w, stride=1, padding=1, dilation=1)
    y = te.compute(conv.shape, lambda n, c, i, j: te.max(conv[n, c, i, j] + b[c],
                                                         tvm.tirx.const(0, "float32")), name="y")
    vals = [f32(1, 3, 8, 8), f32(4, 3, 3, 3), f32(4)]
    xp = np.pad(vals[0], ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.zeros((1, 4, 8, 8), "float32")
    for c in range(4):
        for i in range(8):
            for j in range(8):
                ref[0, c, i, j] = np.sum(xp[0, :, i:i + 3, j:j + 3] * vals[1][c]) + vals[2][c]
    return [x, w, b, y], vals, np.maximum(ref, 0).astype("float32"), 1e-5


def model_softmax():
    """Softmax over 10 logits: exp through libm's expf."""
    x = te.placeholder((1, 10), "float32", name="x")
    k = te.reduce_axis((0, 10), "k")
    mx = te.compute((1,), lambda i: te.max(x[i, k], axis=k), name="mx")
    e = te.compute((1, 10), lambda i, j: te.exp(x[i, j] - mx[i]), name="e")
    k2 = te.reduce_axis((0, 10), "k2")
    s = te.compute((1,), lambda i: te.sum(e[i, k2], axis=k2), name="s")
    y = te.compute((1, 10), lambda i, j: e[i, j] / s[i], name="y")
    vals = [(f32(1, 10) * 4).astype("float32")]
    ex = np.exp(vals[0] - vals[0].max())
    return [x, y], vals, (ex / ex.sum()).astype("float32"), 1e-6


MODELS = {
    "mlp": model_mlp,
    "mlp_wide": model_mlp_wide,
    "dense_int8": model_dense_int8,
    "conv2d": model_conv2d,
    "softmax": model_softmax,
}

C_TYPES = {"float32": ("float", 2, 32), "int8": ("int8_t", 0, 8), "int32": ("int32_t", 0, 32)}


def c_values(arr):
    if arr.dtype == np.float32:
        return ", ".join(float(v).hex() + "f" for v in arr.ravel())
    return ", ".join(str(int(v)) for v in arr.ravel())


def c_string(text):
    out = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return '"' + out + '"'


def longest_check_message(c_source):
    """The longest argument-check message in TVM's C source (its parts joined)."""
    longest = 0
    for parts in re.findall(r"__tvm_assert_parts\[\d+\] = \{(.*?)\};", c_source):
        texts = re.findall(r'"((?:[^"\\]|\\.)*)"', parts)
        longest = max(longest, len("".join(t.encode().decode("unicode_escape") for t in texts)))
    return longest


def tvm_error(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # noqa: BLE001 - any TVM error is what we record
        return type(e).__name__, str(e)
    raise SystemExit("expected TVM's runtime to reject the call")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", required=True, help="toolchain CPU name, or 'host'")
    ap.add_argument("--out", required=True)
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    host_target = tvm.target.Target({"kind": "llvm"})
    lines = ["/* Generated by tests/tvm/gen_models.py with TVM " + tvm.__version__ +
             " for " + opts.cpu + ": do not edit. */",
             "#include \"tvm_model_case.h\"", ""]
    cases, errors, longest = [], [], 0
    for name, make in MODELS.items():
        tensors, vals, ref, tol = make()
        func = te.create_prim_func(tensors).with_attr("global_symbol", name)
        mod = tvm.IRModule({name: func})
        # TVM's C source for every target; it registers nothing itself.
        csrc = tvm.compile(mod.with_attr("system_lib_prefix", ""), tvm.target.Target("c"))
        with open(os.path.join(opts.out, name + ".c"), "w") as f:
            f.write(csrc.mod.inspect_source())
        longest = max(longest, longest_check_message(csrc.mod.inspect_source()))
        host_lib = tvm.compile(mod, host_target)
        so_path = os.path.join(opts.out, name + ".so")
        host_lib.export_library(so_path)
        if opts.cpu != "host":
            target = tvm.target.Target(dict(kind="llvm", **LLVM_TARGETS[opts.cpu]))
            obj = tvm.compile(mod.with_attr("system_lib_prefix", ""), target)
            obj.mod.write_to_file(os.path.join(opts.out, name + ".o"))
        # TVM's own runtime on this host, from the same TIR.
        host_fn = tvm.runtime.load_module(so_path)[name]
        out_np = np.zeros(ref.shape, ref.dtype)
        nd = [tvm.runtime.tensor(v) for v in vals] + [tvm.runtime.tensor(out_np)]
        host_fn(*nd)
        tvm_out = nd[-1].numpy()
        if tol == 0.0:
            assert np.array_equal(tvm_out, ref), name
        else:
            np.testing.assert_allclose(tvm_out, ref, rtol=tol, atol=tol)

        args = []
        for i, (t, v) in enumerate(zip(tensors[:-1], vals)):
            ctype, code, bits = C_TYPES[str(t.dtype)]
            # Inputs and weights stay in flash; only outputs take RAM.
            lines.append("static const %s %s_arg%d[%d] = {%s};" % (ctype, name, i, v.size,
                                                                   c_values(v)))
            args.append((name + "_arg%d" % i, v.shape, code, bits))
        ctype, code, bits = C_TYPES[str(ref.dtype)]
        lines.append("static %s %s_out[%d];" % (ctype, name, ref.size))
        lines.append("static const %s %s_numpy[%d] = {%s};" % (ctype, name, ref.size, c_values(ref)))
        lines.append("static const %s %s_tvm[%d] = {%s};" % (ctype, name, ref.size,
                                                              c_values(tvm_out)))
        args.append((name + "_out", ref.shape, code, bits))
        arg_inits = ", ".join("{%s, %d, {%s}, %d, %d}" % (d, len(s), ", ".join(map(str, s)), c, b)
                              for d, s, c, b in args)
        cases.append('  {"%s", %d, {%s}, %s_numpy, %s_tvm, %d, %s},' % (
            name, len(args), arg_inits, name, name, ref.size, repr(float(tol))))

        if name == "mlp":
            # Bad calls, as TVM's runtime reports them.
            bad = [tvm.runtime.tensor(np.zeros(vals[0].shape, "int8"))] + nd[1:]
            kind, msg = tvm_error(host_fn, *bad)
            errors.append('  {"%s", FFI_CORE_TVM_BAD_DTYPE, "%s", %s},' % (name, kind, c_string(msg)))
            kind, msg = tvm_error(host_fn, *nd[:-1])
            errors.append('  {"%s", FFI_CORE_TVM_BAD_ARG_COUNT, "%s", %s},' % (
                name, kind, c_string(msg)))
    lines += ["", "/* The longest argument-check message the models can raise. */",
              "#define TVM_MODELS_LONGEST_MESSAGE %d" % longest]
    lines += ["", "static const ModelCase kModelCases[] = {"] + cases + ["};", ""]
    lines += ["static const ModelError kModelErrors[] = {"] + errors + ["};", ""]
    with open(os.path.join(opts.out, "tvm_models_data.h"), "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()

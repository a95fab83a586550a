"""Compiles a small MLP with Apache TVM for one Cortex-M CPU.

Writes <out>/mlp.o (TVM's LLVM object: a system library that registers
itself) and <out>/mlp_data.h (an input, the weights, and numpy's output).
Usage: python compile_model.py <toolchain cpu, e.g. cortex-m4f> <out dir>
"""
import os
import sys

import numpy as np
import tvm
from tvm import te

# The TVM target of each toolchain CPU: the compile path's table.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tvm_backend", "python"))
from ffi_core_tvm.targets import llvm_target  # noqa: E402

cpu, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)

# y = relu(x @ w1 + b1) @ w2 + b2, 4 -> 16 -> 3
x = te.placeholder((1, 4), "float32", name="x")
w1 = te.placeholder((4, 16), "float32", name="w1")
b1 = te.placeholder((16,), "float32", name="b1")
w2 = te.placeholder((16, 3), "float32", name="w2")
b2 = te.placeholder((3,), "float32", name="b2")
k1 = te.reduce_axis((0, 4), "k1")
a = te.compute((1, 16), lambda i, j: te.sum(x[i, k1] * w1[k1, j], axis=k1), name="a")
h = te.compute((1, 16), lambda i, j: te.max(a[i, j] + b1[j], 0.0), name="h")
k2 = te.reduce_axis((0, 16), "k2")
z = te.compute((1, 3), lambda i, j: te.sum(h[i, k2] * w2[k2, j], axis=k2), name="z")
y = te.compute((1, 3), lambda i, j: z[i, j] + b2[j], name="y")
mod = tvm.IRModule({"mlp": te.create_prim_func([x, w1, b1, w2, b2, y]).with_attr(
    "global_symbol", "mlp")}).with_attr("system_lib_prefix", "")
target = llvm_target(cpu)
tvm.compile(mod, target).mod.write_to_file(os.path.join(out, "mlp.o"))

rng = np.random.default_rng(0)
vals = {n: rng.uniform(-1, 1, s).astype("float32") for n, s in
        [("x", (1, 4)), ("w1", (4, 16)), ("b1", (16,)), ("w2", (16, 3)), ("b2", (3,))]}
ref = np.maximum(vals["x"] @ vals["w1"] + vals["b1"], 0) @ vals["w2"] + vals["b2"]
with open(os.path.join(out, "mlp_data.h"), "w") as f:
    for n, v in list(vals.items()) + [("expected", ref.astype("float32"))]:
        f.write("static const float %s[%d] = {%s};\n" % (
            n, v.size, ", ".join(float(e).hex() + "f" for e in v.ravel())))
print("wrote", os.path.join(out, "mlp.o"), "for", cpu)

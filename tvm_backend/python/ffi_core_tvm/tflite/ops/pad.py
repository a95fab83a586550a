"""PAD and PADV2: constant padding, any type. The padded value is PADV2's
constant (stored as the tensors are quantized), else the output's zero
point (0.0 for float32, 0 for int32), as TFLite's kernels pad."""
from tvm import te
from tvm import tirx as tir

from ..model import UnsupportedModel
from ..registry import lowering
from .layout import ALL, const_ints, expect_shape, prim_func, same_type


def _pad(ctx, op, value):
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    rank = len(x.shape)
    pads = const_ints(op, op.inputs[1], "the paddings")
    if op.inputs[1].shape != (rank, 2) or any(p < 0 for p in pads):
        raise UnsupportedModel(f"{op}: paddings {pads} for rank {rank}")
    before = pads[0::2]
    expect_shape(op, out, [n + a + b for n, a, b in zip(x.shape, before, pads[1::2])])
    if not any(pads):
        return ctx.value(x)
    key = ("pad", x.shape, x.dtype, tuple(pads), value)

    def make():
        xp = te.placeholder(x.shape, x.dtype, "x")

        def y_f(*o):
            i = [a - b for a, b in zip(o, before)]
            inside = tir.all(*[tir.all(v >= 0, v < n) for v, n in zip(i, x.shape)])
            return tir.if_then_else(inside, xp[tuple(i)], tir.const(value, x.dtype))
        return prim_func([xp, te.compute(out.shape, y_f, name="y")])
    gv = ctx.kernel(key, make)
    return ctx.call(gv, [ctx.value(x)], out.shape, out.dtype)


def _zero(t):
    if t.dtype == "float32":
        return 0.0
    return int(t.zero_point[0]) if t.zero_point is not None else 0


@lowering("PAD", types=ALL, mixed=True, note="paddings constant")
def pad(ctx, op):
    return _pad(ctx, op, _zero(op.outputs[0]))


@lowering("PADV2", types=ALL, mixed=True, note="paddings and the value constant")
def padv2(ctx, op):
    x, c = op.inputs[0], op.inputs[2]
    if c is None or not c.is_constant or c.data.size != 1 or c.dtype != x.dtype:
        raise UnsupportedModel(f"{op}: the padding value is not one constant {x.dtype}")
    if x.dtype in ("int8", "int16") and (c.scale is None or c.quant() != op.outputs[0].quant()):
        raise UnsupportedModel(f"{op}: a padding value quantized unlike the output")
    value = c.data.ravel()[0]
    return _pad(ctx, op, float(value) if x.dtype == "float32" else int(value))

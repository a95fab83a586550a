"""AVERAGE_POOL_2D (int8, int16, input and output of one quantization) and
MAX_POOL_2D (int8, int16, float32)."""
from tflite.Pool2DOptions import Pool2DOptions
from tvm import te
from tvm import tirx as tir

from ... import int8_kernels as kernels
from ..model import UnsupportedModel
from ..quant import NONE, RELU, RELU6, RELU_N1_TO_1, SAME, activation_range, pool_geometry
from ..registry import lowering
from .layout import expect_shape, prim_func

# The float clamp of each fused activation, as TFLite's CalculateActivationRange.
_FLOAT_RANGES = {RELU: (0.0, None), RELU6: (0.0, 6.0), RELU_N1_TO_1: (-1.0, 1.0)}


@lowering("AVERAGE_POOL_2D", types=("int8", "int16"), options=Pool2DOptions)
def average_pool_2d(ctx, op):
    opts = op.options
    x, out = op.inputs[0], op.outputs[0]
    if x.quant() != out.quant():
        raise UnsupportedModel(f"{op}: an average pool that changes quantization")
    scale, zp = out.quant()
    act = activation_range(opts.FusedActivationFunction, scale, zp, op, x.dtype)
    window, stride, pad = pool_geometry(op, x)
    if x.dtype == "int8":
        key = ("avgpool", x.shape, out.shape, window, stride, pad, act)
    else:
        key = ("avgpool", x.shape, out.shape, window, stride, pad, act, x.dtype)
    gv = ctx.kernel(key, lambda: kernels.average_pool2d(x.shape, out.shape, window, stride,
                                                        pad, act, x.dtype))
    return ctx.call(gv, [ctx.value(x)], out.shape, x.dtype)


def _clamp_range(op, act, out):
    """(lo, hi) of the fused activation in the output's type; None where it
    does not clamp. Quantized: TFLite's clamp from the output's quantization."""
    if out.dtype == "float32":
        if act != NONE and act not in _FLOAT_RANGES:
            raise UnsupportedModel(f"{op}: fused activation {act} is not supported")
        return _FLOAT_RANGES.get(act, (None, None))
    scale, zp = out.quant()
    return activation_range(act, scale, zp, op, out.dtype)


def _pooled(kind, size, window, stride):
    """The output size of a pooling window, TFLite's SAME or VALID."""
    if kind == SAME:
        return -(-size // stride)
    return (size - window) // stride + 1


@lowering("MAX_POOL_2D", types=("int8", "int16", "float32"), options=Pool2DOptions)
def max_pool_2d(ctx, op):
    """The largest input under the window's positions inside the input (the
    padding takes no part), clamped to the fused activation's range; no
    requantization, as TFLite's kernels."""
    opts = op.options
    x, out = op.inputs[0], op.outputs[0]
    if len(x.shape) != 4 or len(out.shape) != 4:
        raise UnsupportedModel(f"{op}: a rank other than 4")
    lo, hi = _clamp_range(op, opts.FusedActivationFunction, out)
    window, stride, pad = pool_geometry(op, x)
    expect_shape(op, out, (x.shape[0], *[_pooled(opts.Padding, x.shape[1 + i], window[i],
                                                 stride[i]) for i in range(2)], x.shape[3]))
    key = ("maxpool", x.shape, out.shape, x.dtype, window, stride, pad, lo, hi)

    def make():
        _, h, w, _ = x.shape
        xp = te.placeholder(x.shape, x.dtype, "x")
        rh = te.reduce_axis((0, window[0]), "rh")
        rw = te.reduce_axis((0, window[1]), "rw")
        lowest = tir.min_value(x.dtype)

        def max_f(n, oh, ow, c):
            ih = oh * stride[0] + rh - pad[0]
            iw = ow * stride[1] + rw - pad[1]
            inside = tir.all(ih >= 0, ih < h, iw >= 0, iw < w)
            return te.max(tir.if_then_else(inside, xp[n, ih, iw, c], lowest), axis=[rh, rw])
        m = te.compute(out.shape, max_f, name="m")

        def y_f(*i):
            v = m[i]
            if lo is not None:
                v = tir.max(v, tir.const(lo, x.dtype))
            if hi is not None:
                v = tir.min(v, tir.const(hi, x.dtype))
            return v
        y = te.compute(out.shape, y_f, name="y")
        return prim_func([xp, y])
    gv = ctx.kernel(key, make)
    return ctx.call(gv, [ctx.value(x)], out.shape, out.dtype)

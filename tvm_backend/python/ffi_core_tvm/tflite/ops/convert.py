"""Type conversions: QUANTIZE (float32 to int8 or int16; int8 requantized to
int8 or int16, int16 to int8, int16 or int32), DEQUANTIZE (int8 or int16 to
float32) and CAST (between int8, int16, int32 and float32), as TFLite's
reference kernels compute them."""
import numpy as np
from tvm import te
from tvm import tirx as tir

from ...fixed_point import quantize_multiplier
from ..model import UnsupportedModel
from ..registry import lowering

_INT_RANGES = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-(1 << 31), (1 << 31) - 1)}
# QUANTIZE's outputs by input type, as TFLite's kernel takes them.
_QUANTIZE_TO = {"float32": ("int8", "int16"), "int8": ("int8", "int16"),
                "int16": ("int8", "int16", "int32")}


def _elementwise(ctx, op, name, params, fn):
    """The output of fn(element) over the whole input: one kernel, any shape."""
    x, out = op.inputs[0], op.outputs[0]
    if x.is_constant:
        raise UnsupportedModel(f"{op}: a constant input")
    if tuple(x.shape) != tuple(out.shape):
        raise UnsupportedModel(f"{op}: input of shape {list(x.shape)}, output of "
                               f"{list(out.shape)}")

    def make():
        xp = te.placeholder(x.shape, x.dtype, "x")
        y = te.compute(x.shape, lambda *i: fn(xp[i]), name="y")
        return te.create_prim_func([xp, y]).with_attr("tir.noalias", True)

    gv = ctx.kernel((name, x.shape, x.dtype, out.dtype) + tuple(params), make)
    return ctx.call(gv, [ctx.value(x)], out.shape, out.dtype)


def _round_half_away(v, lo, hi):
    """TfLiteRound (std::round: half away from zero) of a float32, first
    clamped to [lo, hi] (integers), as int32. The conversion truncates
    toward zero (one instruction where there is an FPU, no libm call), and
    v - trunc(v) is exact in float32."""
    v = tir.max(tir.min(v, tir.const(float(hi), "float32")), tir.const(float(lo), "float32"))
    t = v.astype("int32")
    frac = v - t.astype("float32")
    half = tir.const(0.5, "float32")
    return tir.Select(frac >= half, t + 1, tir.Select(frac <= -half, t - 1, t))


def _clamp_int(v, lo, hi, dtype, work="int32"):
    """v (of type `work`) saturated to [lo, hi], as `dtype`."""
    return tir.max(tir.min(v, tir.const(hi, work)), tir.const(lo, work)).astype(dtype)


@lowering("QUANTIZE", types=("float32", "int8", "int16"), mixed=True,
          note="per-tensor; int16 to int32 too")
def quantize(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if out.dtype not in _QUANTIZE_TO[x.dtype]:
        raise UnsupportedModel(f"{op}: {x.dtype} to {out.dtype} is not supported (it writes "
                               f"{', '.join(_QUANTIZE_TO[x.dtype])})")
    lo, hi = _INT_RANGES[out.dtype]
    scale, zp = out.quant()
    if x.dtype == "float32":
        # round(x / scale) in float32, as AffineQuantize; clamped past the
        # output's range first, so that the conversion to int32 is exact.
        s = tir.const(float(np.float32(scale)), "float32")

        def fn(v):
            r = _round_half_away(v / s, lo - zp - 1, hi - zp + 1)
            return _clamp_int(r + zp, lo, hi, out.dtype)

        return _elementwise(ctx, op, "quantize", (scale, zp), fn)
    in_scale, in_zp = x.quant()
    # Requantize: (x - in_zp) * in_scale / scale in TFLite's fixed point
    # (single rounding), in int64 and saturated to the output's range, as
    # TFLite saturates to int32 first.
    mantissa, right_shift = quantize_multiplier(in_scale / scale)

    def requantize(v):
        d = v.astype("int64") - tir.const(in_zp, "int64")
        scaled = (d * tir.const(mantissa, "int64") + tir.const(1 << (right_shift - 1), "int64")) \
            >> tir.const(right_shift, "int64")
        return _clamp_int(scaled + tir.const(zp, "int64"), lo, hi, out.dtype, "int64")

    return _elementwise(ctx, op, "requantize", (in_zp, mantissa, right_shift, zp), requantize)


@lowering("DEQUANTIZE", types=("int8", "int16"), mixed=True,
          note="to float32, per-tensor")
def dequantize(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if out.dtype != "float32":
        raise UnsupportedModel(f"{op}: output {out.name} is {out.dtype}, not float32")
    scale, zp = x.quant()
    s = tir.const(float(np.float32(scale)), "float32")
    return _elementwise(ctx, op, "dequantize", (scale, zp), lambda v: (
        v.astype("int32") - tir.const(zp, "int32")).astype("float32") * s)


_CAST_TYPES = ("int8", "int16", "int32", "float32")
_SATURATED = {"int8": (-128.0, 127.0), "int16": (-32768.0, 32767.0),
              "int32": (-2147483648.0, 2147483520.0)}  # the largest float32 below 2^31


@lowering("CAST", types=_CAST_TYPES, mixed=True, note="to int8, int16, int32, float32")
def cast(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if out.dtype not in _CAST_TYPES:
        raise UnsupportedModel(f"{op}: output {out.name} is {out.dtype} (it casts to "
                               f"{', '.join(_CAST_TYPES)})")

    def fn(v):
        if x.dtype == "float32" and out.dtype != "float32":
            # LiteRT's cast: toward zero, saturated to the target's range
            # (an integer is narrowed to its low bits). Clamping to integer
            # bounds before the conversion, which truncates, is the same.
            lo, hi = _SATURATED[out.dtype]
            t = tir.max(tir.min(v, tir.const(hi, "float32")),
                        tir.const(lo, "float32")).astype(out.dtype)
            if out.dtype == "int32":
                t = tir.Select(v >= tir.const(2147483648.0, "float32"),
                               tir.const(2147483647, "int32"), t)
            return t
        return v.astype(out.dtype)

    return _elementwise(ctx, op, "cast", (), fn)

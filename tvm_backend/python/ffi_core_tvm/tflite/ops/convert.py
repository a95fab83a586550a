"""QUANTIZE between integer types: a requantization to the output's scale
and zero point (TFLite's Requantize). Float input or output is not taken yet."""
from tvm import te
from tvm import tirx as tir

from ...fixed_point import multiply_by_quantized_multiplier, quantize_multiplier
from ..model import UnsupportedModel
from ..registry import lowering

_LIMITS = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-(1 << 31), (1 << 31) - 1)}
_PAIRS = {("int8", "int8"), ("int16", "int8"), ("int16", "int32")}


def _requantize(shape, in_dtype, out_dtype, in_zp, out_zp, multiplier):
    x = te.placeholder(shape, in_dtype, "x")
    mantissa, shift = multiplier
    lo, hi = _LIMITS[out_dtype]

    def y_f(*i):
        v = multiply_by_quantized_multiplier(x[i].astype("int32") - in_zp,
                                             tir.const(mantissa, "int32"),
                                             tir.const(shift, "int32"))
        # Adding the zero point and clamping in int64 keeps int32 outputs exact.
        v = v.astype("int64") + out_zp
        return tir.max(tir.min(v, tir.const(hi, "int64")), tir.const(lo, "int64")).astype(out_dtype)

    y = te.compute(shape, y_f, name="y")
    return te.create_prim_func([x, y]).with_attr("tir.noalias", True)


@lowering("QUANTIZE", types=("int8", "int16"), mixed=True,
          note="requantization: int8 to int8, int16 to int8 or int32")
def quantize(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if (x.dtype, out.dtype) not in _PAIRS:
        raise UnsupportedModel(f"{op}: {x.dtype} to {out.dtype} is not supported")
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    multiplier = quantize_multiplier(in_scale / out_scale)
    key = ("quantize", x.shape, x.dtype, out.dtype, in_zp, out_zp, multiplier)
    gv = ctx.kernel(key, lambda: _requantize(x.shape, x.dtype, out.dtype, in_zp, out_zp,
                                             multiplier))
    return ctx.call(gv, [ctx.value(x)], out.shape, out.dtype)

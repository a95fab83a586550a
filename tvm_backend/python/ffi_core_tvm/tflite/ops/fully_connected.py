"""FULLY_CONNECTED: int8 activations, int8 weights (symmetric), int32 bias;
int16 activations, int8 weights, int64 or int32 bias (TFLite's 16x8 scheme)."""
import numpy as np
from tflite.FullyConnectedOptions import FullyConnectedOptions

from ... import int8_kernels as kernels
from ..model import UnsupportedModel
from ..quant import activation_range, requant_table
from ..registry import lowering
from .conv import constants_16x8


@lowering("FULLY_CONNECTED", types=("int8",), options=FullyConnectedOptions)
def fully_connected(ctx, op):
    x, w = op.inputs[0], op.inputs[1]
    b = op.inputs[2] if len(op.inputs) > 2 else None
    out = op.outputs[0]
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    if w.zero_point is not None and np.any(w.zero_point != 0):
        raise UnsupportedModel(f"{op}: weights with a zero point")
    act = activation_range(op.options.FusedActivationFunction, out_scale, out_zp, op)
    features = w.shape[1]
    batch = int(np.prod(x.shape)) // features
    q = requant_table(b.data if b is not None else None, w.data, 0, in_zp, in_scale,
                      w.scale, out_scale)
    value = ctx.reshape(ctx.value(x), x.shape, (batch, features))
    s = ctx.constants(w.data, q)
    if "FULLY_CONNECTED" in ctx.c_kernels:
        gv = ctx.kernel(("dense", s.weights_offset), lambda: kernels.c_form(
            kernels.fully_connected_c(s, batch, features, w.shape[0], out_zp, act), q,
            once=True))
    else:
        gv = ctx.kernel(("dense", s.weights_offset), lambda: kernels.fully_connected(
            s, batch, features, w.shape[0], in_zp, out_zp, act))
    y = ctx.call(gv, [value, ctx.blob_const], (batch, w.shape[0]))
    return ctx.reshape(y, (batch, w.shape[0]), out.shape)


@lowering("FULLY_CONNECTED", types=("int16",), options=FullyConnectedOptions,
          note="16x8: int8 weights, int64 bias (int32 with quantized_bias_type INT32)")
def fully_connected_16x8(ctx, op):
    x, w = op.inputs[0], op.inputs[1]
    b = op.inputs[2] if len(op.inputs) > 2 else None
    out = op.outputs[0]
    if not w.is_constant or len(w.shape) != 2:
        raise UnsupportedModel(f"{op}: weights {w.name} are not a constant matrix")
    features, units = w.shape[1], w.shape[0]
    batch = int(np.prod(x.shape)) // features
    if batch * features != int(np.prod(x.shape)) or int(np.prod(out.shape)) != batch * units:
        raise UnsupportedModel(f"{op}: input {list(x.shape)} and output {list(out.shape)} "
                               f"for weights {list(w.shape)}")
    w_off, bias, q, act = constants_16x8(ctx, op, x, w, b, out, 0,
                                               reduced=False)
    blob = ctx.blob_placeholder()
    gv = ctx.kernel(("dense16", w_off), lambda: kernels.fully_connected_16x8(
        blob, w_off, bias, q, batch, features, units, act))
    value = ctx.reshape(ctx.value(x), x.shape, (batch, features))
    y = ctx.call(gv, [value, ctx.blob_const], (batch, units), "int16")
    return ctx.reshape(y, (batch, units), out.shape)

"""CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV: int8 activations with int8
weights per channel, and int16 activations with int8 weights (TFLite's 16x8
scheme); float32 in float_nn.py."""
import numpy as np
from tflite.Conv2DOptions import Conv2DOptions
from tflite.DepthwiseConv2DOptions import DepthwiseConv2DOptions
from tflite.TensorType import TensorType
from tflite.TransposeConvOptions import TransposeConvOptions

from ... import int8_kernels as kernels
from ...fixed_point import quantize_multiplier, requantize_output
from ..model import UnsupportedModel
from ..quant import SAME, activation_range, conv_geometry, padding, requant_table
from ..registry import lowering
from .layout import const_ints


def _conv(ctx, op, depthwise):
    opts = op.options
    x, w = op.inputs[0], op.inputs[1]
    b = op.inputs[2] if len(op.inputs) > 2 else None
    out = op.outputs[0]
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    act = activation_range(opts.FusedActivationFunction, out_scale, out_zp, op)
    stride, dilation, pad = conv_geometry(op, x, w)
    channels = out.shape[3]
    q = requant_table(b.data if b is not None else None, w.data, 3 if depthwise else 0,
                      in_zp, in_scale, w.scale, out_scale)
    if q.shape[0] != channels:
        raise UnsupportedModel(f"{op}: {q.shape[0]} filters for {channels} channels")
    c_conv = not depthwise and "CONV_2D" in ctx.c_kernels
    c_depthwise = depthwise and "DEPTHWISE_CONV_2D" in ctx.c_kernels and w.shape[3] == x.shape[3]
    if not depthwise:
        # A channel of zero weights sums to 0 for every input: its output is
        # its bias requantized, everywhere.
        ctx.constant_channels[out.index] = {
            int(c): requantize_output(*(int(v) for v in q[c]), out_zp, *act)
            for c in np.flatnonzero(~w.data.reshape(channels, -1).any(1))}
    if c_conv:
        w_data, q = kernels.conv2d_c_constants(w.data, q)
    elif c_depthwise:
        window = None
        if ctx.outputs_given and tuple(w.shape[1:3]) == (3, 3) and tuple(dilation) == (1, 1):
            window = (w.data, x.shape[1:3], out.shape[1:3], stride, pad, in_zp, out_zp, act)
        w_data, q = w.data, kernels.depthwise_c_table(q, ctx.constant_channels.get(x.index, {}),
                                                      window)
    else:
        w_data = w.data
    s = ctx.constants(w_data, q)
    key = ("dwconv" if depthwise else "conv", s.weights_offset)
    args = (s, x.shape, w.shape, out.shape, stride, dilation, pad, in_zp, out_zp, act)
    # A table that marks channels needs the C kernels' code for them; the
    # requantization form: s8_mode's over the rows the kernel reads (a
    # convolution's live ones, a depthwise one's every channel's).
    rows = q[:channels]
    marked = (c_conv or c_depthwise) and bool((rows[:, 2] & kernels.TABLE_MARK).any())
    if c_depthwise:
        gv = ctx.kernel(key, lambda: kernels.c_form(kernels.c_marked(
            kernels.depthwise_conv2d_c(*args), marked), rows, general=kernels.S8_SCALAR))
    elif depthwise:
        gv = ctx.kernel(key, lambda: kernels.depthwise_conv2d(*args))
    elif c_conv:
        live = rows[(rows[:, 2] & kernels.TABLE_MARK) == 0]
        gv = ctx.kernel(key, lambda: kernels.c_form(kernels.c_marked(
            kernels.conv2d_c(*args), marked), live))
    else:
        gv = ctx.kernel(key, lambda: kernels.conv2d(*args))
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape)


@lowering("CONV_2D", types=("int8",), options=Conv2DOptions)
def conv_2d(ctx, op):
    return _conv(ctx, op, depthwise=False)


@lowering("DEPTHWISE_CONV_2D", types=("int8",), options=DepthwiseConv2DOptions)
def depthwise_conv_2d(ctx, op):
    return _conv(ctx, op, depthwise=True)


def constants_16x8(ctx, op, x, w, b, out, axis, reduced=True):
    """(weights offset, bias or None, requantization table) in the blob and
    the int16 clamp of a 16x8 operator (int16 activations of zero
    point 0, int8 weights symmetric per tensor or per channel along `axis`),
    whose output channels are w's `axis`. The bias is (offset, dtype): int64,
    or int32 where the options' quantized_bias_type says INT32 (LiteRT then
    sums in int32 and scales with the 32-bit multiply, so the table holds
    32-bit mantissas); `reduced`: the table's kind for an int64 bias
    (_reduced_multipliers). The table is (offset, double): `double` where
    the 32-bit multiply rounds twice, as LiteRT's int32-bias convolutions do
    (`reduced` ones; its FULLY_CONNECTED rounds once)."""
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    if in_zp != 0 or out_zp != 0:
        raise UnsupportedModel(f"{op}: int16 with a zero point")
    channels = w.shape[axis]
    if (w.dtype != "int8" or w.scale is None or len(w.scale) not in (1, channels)
            or (w.per_channel and w.quant_axis != axis)
            or (w.zero_point is not None and np.any(w.zero_point != 0))):
        raise UnsupportedModel(f"{op}: weights {w.name} are not int8 quantized symmetrically "
                               f"per tensor or per output channel")
    narrow = getattr(op.options, "QuantizedBiasType", 0) == TensorType.INT32
    bias_dtype = "int32" if narrow else "int64"
    if b is not None and (b.dtype != bias_dtype or not b.is_constant or b.shape != (channels,)):
        raise UnsupportedModel(f"{op}: int16 with a bias {b.name} other than {channels} "
                               f"constant {bias_dtype} values")
    act = activation_range(op.options.FusedActivationFunction, out_scale, out_zp, op, "int16")
    w_scales = np.broadcast_to(np.asarray(w.scale, "float64"), (channels,))
    w_off = ctx.pack(w.data.astype("int8"))
    bias = (ctx.pack(b.data.astype(bias_dtype)), bias_dtype) if b is not None else None
    q_off = ctx.pack(_reduced_multipliers(op, in_scale * w_scales / out_scale,
                                          reduced and not narrow))
    return w_off, bias, (q_off, reduced and narrow), act


def _conv_16x8(ctx, op, depthwise):
    x, w = op.inputs[0], op.inputs[1]
    b = op.inputs[2] if len(op.inputs) > 2 else None
    out = op.outputs[0]
    if not w.is_constant or len(w.shape) != 4 or len(x.shape) != 4 or len(out.shape) != 4:
        raise UnsupportedModel(f"{op}: weights not constant, or tensors not all 4-D")
    if out.shape[3] != (w.shape[3] if depthwise else w.shape[0]):
        raise UnsupportedModel(f"{op}: weights of shape {list(w.shape)} for output "
                               f"{list(out.shape)}")
    if depthwise and w.shape[3] % x.shape[3] != 0:
        raise UnsupportedModel(f"{op}: {w.shape[3]} channels for {x.shape[3]} input channels")
    if not depthwise and w.shape[3] != x.shape[3]:
        raise UnsupportedModel(f"{op}: weights of shape {list(w.shape)} for input "
                               f"{list(x.shape)}")
    w_off, bias, q, act = constants_16x8(ctx, op, x, w, b, out, 3 if depthwise else 0)
    stride, dilation, pad = conv_geometry(op, x, w)
    blob = ctx.blob_placeholder()
    gv = ctx.kernel(("dwconv16" if depthwise else "conv16", w_off), lambda: kernels.conv2d_16x8(
        blob, w_off, bias, q, x.shape, w.shape, out.shape, stride, dilation, pad, act,
        depthwise))
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "int16")


@lowering("CONV_2D", types=("int16",), options=Conv2DOptions,
          note="16x8: int8 weights, int64 bias (int32 with quantized_bias_type INT32)")
def conv_2d_16x8(ctx, op):
    return _conv_16x8(ctx, op, depthwise=False)


@lowering("DEPTHWISE_CONV_2D", types=("int16",), options=DepthwiseConv2DOptions,
          note="16x8: int8 weights, int64 bias")
def depthwise_conv_2d_16x8(ctx, op):
    return _conv_16x8(ctx, op, depthwise=True)


def transpose_conv_geometry(op):
    """(input, weights, bias or None, output, stride, padding) of a
    TRANSPOSE_CONV, whose inputs are (output shape, weights OHWI, input,
    optional bias). The padding is TFLite's: computed from the output's size
    as a convolution's would be from its input's."""
    shape, w, x = op.inputs[:3]
    b = op.inputs[3] if len(op.inputs) > 3 else None
    out = op.outputs[0]
    if const_ints(op, shape, "the output shape") != list(out.shape):
        raise UnsupportedModel(f"{op}: the output shape input differs from output {out.name}'s "
                               f"shape {list(out.shape)}")
    if not w.is_constant:
        raise UnsupportedModel(f"{op}: the weights {w.name} are not constant")
    if len(x.shape) != 4 or len(w.shape) != 4 or len(out.shape) != 4:
        raise UnsupportedModel(f"{op}: tensors are not all 4-D")
    if w.shape[3] != x.shape[3] or w.shape[0] != out.shape[3] or x.shape[0] != out.shape[0]:
        raise UnsupportedModel(f"{op}: weights of shape {list(w.shape)} for input "
                               f"{list(x.shape)} and output {list(out.shape)}")
    if b is not None and (not b.is_constant or b.shape != (out.shape[3],)):
        raise UnsupportedModel(f"{op}: the bias {b.name} is not a constant of "
                               f"{out.shape[3]} values")
    opts = op.options
    stride = (opts.StrideH, opts.StrideW)
    if min(stride) < 1:
        raise UnsupportedModel(f"{op}: stride {list(stride)}")
    # LiteRT takes only an input of the size a convolution of the output
    # would give.
    for i in range(2):
        size, k, s = out.shape[1 + i], w.shape[1 + i], stride[i]
        expected = (size + s - 1) // s if opts.Padding == SAME else (size + s - k) // s
        if x.shape[1 + i] != expected:
            raise UnsupportedModel(f"{op}: input of shape {list(x.shape)} for output "
                                   f"{list(out.shape)}")
    return x, w, b, out, stride, padding(opts.Padding, out.shape[1:3], w.shape[1:3], stride)


def _reduced_multipliers(op, scales, reduced=True):
    """q[C, 2]: TFLite's 64-bit MultiplyByQuantizedMultiplier's 16-bit
    multiplier and its right shift, per channel, as LiteRT's convolutions
    scale (its double-rounding form); with `reduced` false, the 32-bit
    mantissa and its shift, as LiteRT's FULLY_CONNECTED scales (measured:
    the 16-bit form differs from it by one LSB in a few outputs)."""
    q = np.zeros((len(scales), 2), "int32")
    for c, scale in enumerate(scales):
        mantissa, right_shift = quantize_multiplier(scale)
        if not reduced:
            q[c] = mantissa, right_shift
            continue
        q[c, 0] = (mantissa + (1 << 15)) >> 16 if mantissa < 0x7FFF0000 else 0x7FFF
        q[c, 1] = right_shift - 16
    if q[:, 1].min() < 1:
        raise UnsupportedModel(f"{op}: a requantization multiplier too large for int16")
    return q


@lowering("TRANSPOSE_CONV", types=("int8", "int16"), options=TransposeConvOptions,
          note="output shape constant; int16: int64 bias (int32 with quantized_bias_type "
               "INT32)")
def transpose_conv(ctx, op):
    x, w, b, out, stride, pad = transpose_conv_geometry(op)
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    act = activation_range(op.options.FusedActivationFunction, out_scale, out_zp, op, x.dtype)
    channels = out.shape[3]
    if x.dtype == "int8":
        if (w.dtype != "int8" or w.scale is None or len(w.scale) not in (1, channels)
                or (w.per_channel and w.quant_axis != 0)):
            raise UnsupportedModel(f"{op}: weights {w.name} are not int8 quantized per tensor "
                                   f"or per output channel")
        w_scales = np.broadcast_to(np.asarray(w.scale, "float64"), (channels,))
        if b is not None and b.dtype != "int32":
            raise UnsupportedModel(f"{op}: bias {b.name} is {b.dtype}, not int32")
        # The zero point is not folded into the table's bias (in_zp 0 here):
        # the kernel subtracts it from each input.
        q = requant_table(b.data if b is not None else None, w.data, 0, 0, in_scale,
                          w_scales, out_scale)
        s = ctx.constants(w.data, q)
        gv = ctx.kernel(("tconv", s.weights_offset), lambda: kernels.transpose_conv2d(
            s, x.shape, w.shape, out.shape, stride, pad, in_zp, out_zp, act))
        return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape)
    w_off, bias, q, act = constants_16x8(ctx, op, x, w, b, out, 0)
    blob = ctx.blob_placeholder()
    gv = ctx.kernel(("tconv16", w_off), lambda: kernels.transpose_conv2d_16x8(
        blob, w_off, bias, q, x.shape, w.shape, out.shape, stride, pad, act))
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "int16")

"""What several lowerings share: fused activations as clamp ranges, the
per-channel requantization table, TFLite's padding arithmetic and a window
operator's geometry."""
import numpy as np

from ..fixed_point import quantize_multiplier
from .model import UnsupportedModel

NONE, RELU, RELU_N1_TO_1, RELU6 = 0, 1, 2, 3
SAME, VALID = 0, 1
_RANGES = {"int8": (-128, 127), "int16": (-32768, 32767)}


def activation_range(act, scale, zp, op, dtype="int8"):
    """The quantized clamp [lo, hi] of fused activation `act` on an output
    of `scale` and `zp`, as TFLite's CalculateActivationRangeQuantized."""
    lo, hi = _RANGES[dtype]

    def q(v):
        # TFLite divides in float32 and rounds half away from zero.
        r = float(np.float32(v) / np.float32(scale))
        return zp + int(np.sign(r) * np.floor(abs(r) + 0.5))
    if act == NONE:
        return lo, hi
    if act == RELU:
        return max(lo, q(0.0)), hi
    if act == RELU6:
        return max(lo, q(0.0)), min(hi, q(6.0))
    if act == RELU_N1_TO_1:
        return max(lo, q(-1.0)), min(hi, q(1.0))
    raise UnsupportedModel(f"{op}: fused activation {act} is not supported")


def requant_table(bias, weights, channel_axis, in_zp, in_scale, w_scales, out_scale):
    """q[C, 3] per output channel: the bias with the input zero point's share
    folded in (bias - in_zp * sum(w)), mantissa, right shift."""
    w = np.moveaxis(weights.astype("int64"), channel_axis, 0)
    channels = w.shape[0]
    w_scales = np.broadcast_to(np.asarray(w_scales, "float64"), (channels,))
    folded = (bias.astype("int64") if bias is not None else 0) - in_zp * w.reshape(channels, -1).sum(1)
    if np.any(np.abs(folded) >= 1 << 31):
        raise UnsupportedModel("a bias with the zero point folded in overflows int32")
    table = np.zeros((channels, 3), "int32")
    table[:, 0] = folded
    for c in range(channels):
        table[c, 1:] = quantize_multiplier(in_scale * float(w_scales[c]) / out_scale)
    return table


def same_padding(size, kernel, stride, dilation):
    """(output size, padding before) of TFLite's SAME padding."""
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return out, total // 2


def padding(kind, in_hw, kernel_hw, stride, dilation=(1, 1)):
    """(top, left) padding of a 2-D window for TFLite's Padding enum."""
    if kind == SAME:
        return tuple(same_padding(in_hw[i], kernel_hw[i], stride[i], dilation[i])[1]
                     for i in range(2))
    return (0, 0)


def _positive(op, what, values):
    if min(values) < 1:
        raise UnsupportedModel(f"{op}: {what} {list(values)}")
    return values


def conv_geometry(op, x, w):
    """(stride, dilation, padding) of a CONV_2D or DEPTHWISE_CONV_2D with
    input x and weights w (OHWI or 1HWO), from its options."""
    opts = op.options
    stride = _positive(op, "stride", (opts.StrideH, opts.StrideW))
    dilation = _positive(op, "dilation", (opts.DilationHFactor, opts.DilationWFactor))
    return stride, dilation, padding(opts.Padding, x.shape[1:3], w.shape[1:3], stride, dilation)


def pool_geometry(op, x):
    """(window, stride, padding) of a pool over input x, from its options."""
    opts = op.options
    window = _positive(op, "window", (opts.FilterHeight, opts.FilterWidth))
    stride = _positive(op, "stride", (opts.StrideH, opts.StrideW))
    return window, stride, padding(opts.Padding, x.shape[1:3], window, stride)

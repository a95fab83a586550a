"""CONV_2D and DEPTHWISE_CONV_2D: int8 activations, int8 weights per channel."""
from tflite.Conv2DOptions import Conv2DOptions
from tflite.DepthwiseConv2DOptions import DepthwiseConv2DOptions

from ... import int8_kernels as kernels
from ..model import UnsupportedModel
from ..quant import activation_range, padding, requant_table
from ..registry import lowering


def _conv(ctx, op, depthwise):
    opts = op.options
    x, w = op.inputs[0], op.inputs[1]
    b = op.inputs[2] if len(op.inputs) > 2 else None
    out = op.outputs[0]
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    act = activation_range(opts.FusedActivationFunction, out_scale, out_zp, op)
    stride = (opts.StrideH, opts.StrideW)
    dilation = (opts.DilationHFactor, opts.DilationWFactor)
    pad = padding(opts.Padding, x.shape[1:3], w.shape[1:3], stride, dilation)
    channels = out.shape[3]
    q = requant_table(b.data if b is not None else None, w.data, 3 if depthwise else 0,
                      in_zp, in_scale, w.scale, out_scale)
    if q.shape[0] != channels:
        raise UnsupportedModel(f"{op}: {q.shape[0]} filters for {channels} channels")
    s = ctx.constants(w.data, q)
    key = ("dwconv" if depthwise else "conv", s.weights_offset)
    args = (s, x.shape, w.shape, out.shape, stride, dilation, pad, in_zp, out_zp, act)
    if depthwise:
        gv = ctx.kernel(key, lambda: kernels.depthwise_conv2d(*args))
    else:
        gv = ctx.kernel(key, lambda: kernels.conv2d(*args, dsp=ctx.dsp))
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape)


@lowering("CONV_2D", types=("int8",), options=Conv2DOptions)
def conv_2d(ctx, op):
    return _conv(ctx, op, depthwise=False)


@lowering("DEPTHWISE_CONV_2D", types=("int8",), options=DepthwiseConv2DOptions)
def depthwise_conv_2d(ctx, op):
    return _conv(ctx, op, depthwise=True)

"""AVERAGE_POOL_2D: int8, input and output of one quantization."""
from tflite.Pool2DOptions import Pool2DOptions

from ... import int8_kernels as kernels
from ..model import UnsupportedModel
from ..quant import activation_range, padding
from ..registry import lowering


@lowering("AVERAGE_POOL_2D", types=("int8",), options=Pool2DOptions)
def average_pool_2d(ctx, op):
    opts = op.options
    x, out = op.inputs[0], op.outputs[0]
    if x.quant() != out.quant():
        raise UnsupportedModel(f"{op}: an average pool that changes quantization")
    scale, zp = out.quant()
    act = activation_range(opts.FusedActivationFunction, scale, zp, op)
    window = (opts.FilterHeight, opts.FilterWidth)
    stride = (opts.StrideH, opts.StrideW)
    pad = padding(opts.Padding, x.shape[1:3], window, stride)
    key = ("avgpool", x.shape, out.shape, window, stride, pad, act)
    gv = ctx.kernel(key, lambda: kernels.average_pool2d(x.shape, out.shape, window, stride,
                                                        pad, act))
    return ctx.call(gv, [ctx.value(x)], out.shape)

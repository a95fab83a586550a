"""SOFTMAX: int8 logits to int8 probabilities over the last axis."""
import numpy as np
from tflite.SoftmaxOptions import SoftmaxOptions

from ... import int8_kernels as kernels
from ..registry import lowering


@lowering("SOFTMAX", types=("int8",), options=SoftmaxOptions)
def softmax(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    n = x.shape[-1]
    batch = int(np.prod(x.shape)) // n
    value = ctx.reshape(ctx.value(x), x.shape, (batch, n))
    key = ("softmax", batch, n, in_scale, in_zp, op.options.Beta, out_scale, out_zp)
    gv = ctx.kernel(key, lambda: kernels.softmax(batch, n, in_scale, op.options.Beta,
                                                 out_scale, out_zp))
    y = ctx.call(gv, [value], (batch, n))
    return ctx.reshape(y, (batch, n), out.shape)

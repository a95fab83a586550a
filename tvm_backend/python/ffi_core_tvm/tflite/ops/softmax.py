"""SOFTMAX: int8 logits to int8 or int16 probabilities over the last axis."""
import numpy as np
from tflite.SoftmaxOptions import SoftmaxOptions

from ... import int8_kernels as kernels
from ..model import UnsupportedModel
from ..registry import lowering


@lowering("SOFTMAX", types=("int8",), options=SoftmaxOptions, mixed=True,
          note="int8 or int16 output")
def softmax(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if out.dtype not in ("int8", "int16"):
        raise UnsupportedModel(f"{op}: {out.dtype} output is not supported")
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    n = x.shape[-1]
    batch = int(np.prod(x.shape)) // n
    value = ctx.reshape(ctx.value(x), x.shape, (batch, n))
    key = ("softmax", batch, n, in_scale, in_zp, op.options.Beta, out_scale, out_zp, out.dtype)
    gv = ctx.kernel(key, lambda: kernels.softmax(batch, n, in_scale, op.options.Beta,
                                                 out_scale, out_zp, out.dtype))
    y = ctx.call(gv, [value], (batch, n), out.dtype)
    return ctx.reshape(y, (batch, n), out.shape)

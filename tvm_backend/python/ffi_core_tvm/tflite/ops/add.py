"""ADD: two int8 activations of one shape, TFLite's rescaled integer sum."""
from tflite.AddOptions import AddOptions

from ... import int8_kernels as kernels
from ...fixed_point import quantize_multiplier
from ..model import UnsupportedModel
from ..quant import activation_range
from ..registry import lowering


@lowering("ADD", types=("int8",), options=AddOptions)
def add(ctx, op):
    a, b = op.inputs
    out = op.outputs[0]
    if a.shape != b.shape or a.is_constant or b.is_constant:
        raise UnsupportedModel(f"{op}: takes two activations of one shape")
    (s1, z1), (s2, z2), (so, zo) = a.quant(), b.quant(), out.quant()
    left_shift = 20
    twice_max = 2.0 * max(s1, s2)
    m1 = quantize_multiplier(s1 / twice_max)
    m2 = quantize_multiplier(s2 / twice_max)
    mo = quantize_multiplier(twice_max / ((1 << left_shift) * so))
    act = activation_range(op.options.FusedActivationFunction, so, zo, op)
    key = ("add", a.shape, z1, z2, zo, m1, m2, mo, act)
    gv = ctx.kernel(key, lambda: kernels.add(a.shape, z1, z2, zo, m1, m2, mo, act, left_shift))
    return ctx.call(gv, [ctx.value(a), ctx.value(b)], out.shape)

"""Element-wise binary operators on int8 and int16 (TFLite's 16x8 scheme):
ADD, SUB, MUL, MINIMUM, MAXIMUM, SQUARED_DIFFERENCE, PRELU.

Operands broadcast as numpy does (TFLite's Broadcast*Slow kernels compute
each element with the same arithmetic as the element-wise ones). Either
operand may be a constant: it is read from the weight blob.
"""
import numpy as np
from tflite.AddOptions import AddOptions
from tflite.MulOptions import MulOptions
from tflite.SubOptions import SubOptions
from tvm import te
from tvm import tirx as tir

from ... import int8_kernels, weight_blob
from ...fixed_point import multiply_double_rounding, quantize_multiplier
from ..model import UnsupportedModel
from ..quant import activation_range
from ..registry import lowering


def _broadcast_shape(op, inputs):
    try:
        shape = tuple(np.broadcast_shapes(*[t.shape for t in inputs]))
    except ValueError:
        raise UnsupportedModel(f"{op}: shapes {[list(t.shape) for t in inputs]} do not "
                               "broadcast") from None
    if shape != tuple(op.outputs[0].shape):
        raise UnsupportedModel(f"{op}: output shape {list(op.outputs[0].shape)}, not "
                               f"{list(shape)}")
    return shape


class _Operand:
    """One operand of an element-wise kernel: an activation (a placeholder)
    or a constant (packed into the weight blob, read from it)."""

    def __init__(self, ctx, t, name):
        self.t = t
        self.name = name
        self.shape = tuple(t.shape)
        self.offset = ctx.pack(t.data) if t.is_constant else None

    def reader(self, out_shape, blob):
        """read(idx) -> int32: the operand's element under output index idx;
        returns (read, placeholder or None)."""
        shape, t = self.shape, self.t
        lead = len(out_shape) - len(shape)

        def index(idx):
            # A dimension the operand broadcasts along reads its one element.
            return [idx[lead + k] if shape[k] == out_shape[lead + k] else 0
                    for k in range(len(shape))]

        if self.offset is None:
            x = te.placeholder(shape, t.dtype, self.name)
            return (lambda idx: x[tuple(index(idx))].astype("int32")), x
        size = t.data.dtype.itemsize

        def read(idx):
            flat = 0
            for i, n in zip(index(idx), shape):
                flat = flat * n + i
            return weight_blob.read(blob, self.offset + flat * size, t.dtype).astype("int32")
        return read, None


def elementwise(ctx, op, name, key, f, inputs=None):
    """The kernel y[idx] = f(x0(idx), x1(idx), ...) of an element-wise
    operator over its (broadcast) inputs, cast to the output's type; f
    computes in int32 and clamps. `key`: what besides the shapes and operands
    makes the kernel distinct."""
    inputs = op.inputs if inputs is None else inputs
    out = op.outputs[0]
    shape = _broadcast_shape(op, inputs)
    operands = [_Operand(ctx, t, n) for t, n in zip(inputs, "abcd")]
    consts = [o.offset for o in operands if o.offset is not None]
    if len(consts) == len(operands):
        raise UnsupportedModel(f"{op}: every operand is a constant")

    def make():
        blob = ctx.blob_placeholder() if consts else None
        readers, params = [], []
        for o in operands:
            read, x = o.reader(shape, blob)
            readers.append(read)
            if x is not None:
                params.append(x)
        if consts:
            params.append(blob)
        y = te.compute(shape, lambda *idx: f(*[r(idx) for r in readers]).astype(out.dtype),
                       name="y")
        return te.create_prim_func(params + [y]).with_attr("tir.noalias", True)

    full_key = (name, tuple(t.shape for t in inputs), out.dtype, tuple(consts), key)
    gv = ctx.kernel(full_key, make)
    values = [ctx.value(t) for t in inputs if not t.is_constant]
    values += [ctx.blob_const] if consts else []
    return ctx.call(gv, values, out.shape, out.dtype)


def _scale(x, multiplier):
    """TFLite's MultiplyByQuantizedMultiplier by a compile-time (mantissa,
    right shift), rounded as LiteRT's reference kernels round (twice)."""
    mantissa, right_shift = multiplier
    if mantissa == 0:
        return tir.const(0, "int32")
    return multiply_double_rounding(x, mantissa, right_shift)


def _clamp(v, lo, hi):
    return tir.max(tir.min(v, tir.const(hi, "int32")), tir.const(lo, "int32"))


def _int16_zero_points(op, tensors):
    if op.outputs[0].dtype == "int16" and any(t.quant()[1] != 0 for t in tensors):
        raise UnsupportedModel(f"{op}: int16 tensors with a zero point")


def add_sub_value(sign, left_shift, z1, m1, z2, m2, mo, zo, act):
    """f(x, y): ADD's (sign 1) or SUB's (-1) output of int32 inputs x, y, as
    TFLite's reference kernel computes it: the zero points, the inputs'
    headroom `left_shift`, the multipliers (mantissa, right shift), the
    clamp."""
    def scaled(v, zp, m):
        return _scale((v - zp) << left_shift, m)

    def f(x, y):
        if sign > 0:
            s = scaled(x, z1, m1) + scaled(y, z2, m2)
        else:
            s = scaled(x, z1, m1) - scaled(y, z2, m2)
        return _clamp(_scale(s, mo) + zo, *act)
    return f


def _add_sub(ctx, op, sign):
    a, b = op.inputs
    out = op.outputs[0]
    dtype = out.dtype
    if dtype == "int16":
        if op.options.PotScaleInt16:
            raise UnsupportedModel(f"{op}: int16 with pot_scale_int16 (power-of-two scales)")
        _int16_zero_points(op, [a, b, out])
    (s1, z1), (s2, z2), (so, zo) = a.quant(), b.quant(), out.quant()
    # TFLite's headroom: 20 bits for int8, 15 for int16.
    left_shift = 20 if dtype == "int8" else 15
    twice_max = 2.0 * max(s1, s2)
    m1 = quantize_multiplier(s1 / twice_max)
    m2 = quantize_multiplier(s2 / twice_max)
    mo = quantize_multiplier(twice_max / ((1 << left_shift) * so))
    act = activation_range(op.options.FusedActivationFunction, so, zo, op, dtype)
    f = add_sub_value(sign, left_shift, z1, m1, z2, m2, mo, zo, act)
    if sign > 0 and _add_c_takes(ctx, op, (m1, m2, mo)):
        shape = tuple(out.shape)
        gv = ctx.kernel(("add_s8", shape, z1, z2, zo, m1, m2, mo, act),
                        lambda: int8_kernels.add_c(shape, z1, m1, z2, m2, mo, zo, act))
        return ctx.call(gv, [ctx.value(a), ctx.value(b)], out.shape)
    name = "add" if sign > 0 else "sub"
    return elementwise(ctx, op, name, (z1, z2, zo, m1, m2, mo, act), f)


def _add_c_takes(ctx, op, multipliers):
    """Whether int8 ADD calls the C micro-kernel (targets.c_kernel_ops): two
    activations of the output's shape, no multiplier above one (none shifts
    left, so no sum overflows)."""
    a, b = op.inputs
    out = op.outputs[0]
    return ("ADD" in ctx.c_kernels and out.dtype == "int8"
            and not a.is_constant and not b.is_constant
            and tuple(a.shape) == tuple(b.shape) == tuple(out.shape)
            and all(m > 0 and r >= 31 for m, r in multipliers))


@lowering("ADD", types=("int8", "int16"), options=AddOptions,
          note="int16: general scales (pot_scale_int16 false)")
def add(ctx, op):
    return _add_sub(ctx, op, 1)


@lowering("SUB", types=("int8", "int16"), options=SubOptions,
          note="int16: general scales (pot_scale_int16 false)")
def sub(ctx, op):
    return _add_sub(ctx, op, -1)


def _f32(v):
    """A value as TFLite's Prepare computes it from float scales: in float32."""
    return float(np.float32(v))


@lowering("MUL", types=("int8", "int16"), options=MulOptions)
def mul(ctx, op):
    a, b = op.inputs
    out = op.outputs[0]
    _int16_zero_points(op, [a, b, out])
    (s1, z1), (s2, z2), (so, zo) = a.quant(), b.quant(), out.quant()
    m = quantize_multiplier(_f32(np.float32(s1) * np.float32(s2) / np.float32(so)))
    act = activation_range(op.options.FusedActivationFunction, so, zo, op, out.dtype)

    def f(x, y):
        return _clamp(_scale((x - z1) * (y - z2), m) + zo, *act)
    return elementwise(ctx, op, "mul", (z1, z2, zo, m, act), f)


def _same_quantization(op):
    """MINIMUM and MAXIMUM compare stored values: every tensor must share
    one quantization (TFLite's converter gives them one)."""
    q = [t.quant() for t in op.inputs + op.outputs]
    if any(v != q[0] for v in q):
        raise UnsupportedModel(f"{op}: operands and output of different quantization")


@lowering("MINIMUM", types=("int8", "int16"))
def minimum(ctx, op):
    _same_quantization(op)
    return elementwise(ctx, op, "minimum", (), tir.min)


@lowering("MAXIMUM", types=("int8", "int16"))
def maximum(ctx, op):
    _same_quantization(op)
    return elementwise(ctx, op, "maximum", (), tir.max)


@lowering("SQUARED_DIFFERENCE", types=("int8",))
def squared_difference(ctx, op):
    a, b = op.inputs
    (s1, z1), (s2, z2), (so, zo) = a.quant(), b.quant(), op.outputs[0].quant()
    # TFLite's headroom: 7 bits, squared by the product.
    left_shift = 7
    twice_max = 2.0 * max(s1, s2)
    m1 = quantize_multiplier(s1 / twice_max)
    m2 = quantize_multiplier(s2 / twice_max)
    mo = quantize_multiplier(twice_max * twice_max / ((1 << 2 * left_shift) * so))

    def f(x, y):
        d = _scale((x - z1) << left_shift, m1) - _scale((y - z2) << left_shift, m2)
        return _clamp(_scale(d * d, mo) + zo, -128, 127)
    return elementwise(ctx, op, "sqdiff", (z1, z2, zo, m1, m2, mo), f)


@lowering("PRELU", types=("int8",))
def prelu(ctx, op):
    x, alpha = op.inputs
    (sx, zx), (sa, za), (so, zo) = x.quant(), alpha.quant(), op.outputs[0].quant()
    m_pos = quantize_multiplier(_f32(np.float32(sx) / np.float32(so)))
    m_neg = quantize_multiplier(_f32(np.float32(sx) * np.float32(sa) / np.float32(so)))

    def f(v, a):
        v = v - zx
        y = tir.Select(v >= 0, _scale(v, m_pos), _scale(v * (a - za), m_neg))
        return _clamp(y + zo, -128, 127)
    return elementwise(ctx, op, "prelu", (zx, za, zo, m_pos, m_neg), f)

"""Unary int8 operators as lookup tables: RELU, RELU6, RELU_N1_TO_1,
LEAKY_RELU, ABS, RSQRT, NEG.

An int8 input has 256 values, so each lowering computes the 256 outputs at
compile time with the integer steps of LiteRT's reference kernel
(gemmlowp.py) and the kernel reads y = table[x + 128] from the weight blob:
one load per element, whatever the operator's arithmetic.
"""
import math

import numpy as np
from tflite.LeakyReluOptions import LeakyReluOptions
from tvm import te

from ..gemmlowp import (float_table, inv_sqrt_multiplier, libm, mbqm, quantize, rdpot, srdhm16,
                        wrap16)
from ..model import UnsupportedModel
from ..registry import lowering

_INPUTS = np.arange(-128, 128)


def lookup(ctx, op, name, table):
    """The kernel y = table[x + 128] of an int8 unary operator; `table`: the
    256 outputs (ints), clamped to int8 here."""
    x, out = op.inputs[0], op.outputs[0]
    if out.dtype != "int8" or tuple(x.shape) != tuple(out.shape):
        raise UnsupportedModel(f"{op}: takes an int8 tensor to one of its shape")
    offset = ctx.pack(np.clip(np.asarray(table, np.int64), -128, 127).astype(np.int8))

    def make():
        xp = te.placeholder(x.shape, "int8", "x")
        blob = ctx.blob_placeholder()
        y = te.compute(x.shape, lambda *i: blob[offset + 128 + xp[i].astype("int32")], name="y")
        return te.create_prim_func([xp, blob, y]).with_attr("tir.noalias", True)
    gv = ctx.kernel((name, tuple(x.shape), offset), make)
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "int8")


def _f32(v):
    return float(np.float32(v))


def _ratio(a, b):
    """a / b as TFLite's Prepare computes it from float scales: in float32."""
    return _f32(np.float32(a) / np.float32(b))


def _relu_x(ctx, op, name, lo, hi):
    """RELU, RELU6, RELU_N1_TO_1: requantized, clamped to [lo, hi] (reals)."""
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    m = quantize(_ratio(si, so))

    def bound(v):
        # roundf of a float32 quotient: half away from zero.
        q = np.float32(v) / np.float32(so)
        return zo + int(math.copysign(math.floor(abs(float(q)) + 0.5), float(q)))
    qmin = max(-128, bound(lo))
    qmax = 127 if hi is None else min(127, bound(hi))
    table = [min(qmax, max(qmin, zo + mbqm(int(v) - zi, *m))) for v in _INPUTS]
    return lookup(ctx, op, name, table)


@lowering("RELU", types=("int8",))
def relu(ctx, op):
    return _relu_x(ctx, op, "relu", 0.0, None)


@lowering("RELU6", types=("int8",))
def relu6(ctx, op):
    return _relu_x(ctx, op, "relu6", 0.0, 6.0)


@lowering("RELU_N1_TO_1", types=("int8",))
def relu_n1_to_1(ctx, op):
    return _relu_x(ctx, op, "relu_n1_to_1", -1.0, 1.0)


@lowering("LEAKY_RELU", types=("int8",), options=LeakyReluOptions)
def leaky_relu(ctx, op):
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    alpha = np.float32(op.options.Alpha)
    m_alpha = quantize(_f32(np.float32(si) * alpha / np.float32(so)))
    m_identity = quantize(_ratio(si, so))
    table = [zo + mbqm(v - zi, *(m_identity if v >= zi else m_alpha)) for v in map(int, _INPUTS)]
    return lookup(ctx, op, "leaky_relu", table)


@lowering("ABS", types=("int8",))
def abs_(ctx, op):
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    m = quantize(_ratio(si, so))
    same = np.float32(si) == np.float32(so)
    table = [zo + (abs(v - zi) if same else mbqm(abs(v - zi), *m)) for v in map(int, _INPUTS)]
    return lookup(ctx, op, "abs", table)


@lowering("RSQRT", types=("int8",),
          note="an input below the zero point (a negative real) reads int8's top")
def rsqrt(ctx, op):
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    # TFLite: 1 / (sqrt(input scale) * output scale), sqrt and product in float32.
    m = quantize(1.0 / _f32(np.sqrt(np.float32(si)) * np.float32(so)))
    shift = 20  # TFLite's kShift: keeps 1/sqrt(v) an integer

    def out(v):
        v -= zi
        if v <= 0:
            return 127
        inv, inv_shift = inv_sqrt_multiplier(v)
        return zo + mbqm(mbqm(1, inv, inv_shift + shift), m[0], m[1] - shift)
    return lookup(ctx, op, "rsqrt", [out(int(v)) for v in _INPUTS])


@lowering("NEG", types=("int8",), note="negates the stored value, as LiteRT does")
def neg(ctx, op):
    # LiteRT's NEG ignores the quantization: -q in int8, so -(-128) wraps to -128.
    return lookup(ctx, op, "neg", [(-int(v) + 128) % 256 - 128 for v in _INPUTS])


@lowering("LOGISTIC", types=("int8",),
          note="int8: LiteRT's float32 table; int16: its interpolated sigmoid table")
def logistic(ctx, op):
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    if np.float32(so) != np.float32(1 / 256):
        raise UnsupportedModel(f"{op}: output scale {so}, TFLite's is 1/256")

    def sigmoid(v):
        return np.float32(1) / (np.float32(1) + np.float32(libm("expf")(-v)))
    return lookup(ctx, op, "logistic", float_table(si, zi, so, zo, sigmoid))


@lowering("TANH", types=("int8",),
          note="int8: LiteRT's float32 table; int16: its interpolated sigmoid table")
def tanh(ctx, op):
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    return lookup(ctx, op, "tanh", float_table(si, zi, so, zo, libm("tanhf")))


def _int16_multiplier(real):
    """TFLite's HardSwishPrepare: QuantizeMultiplier, its mantissa rounded to
    16 bits."""
    mantissa, exponent = quantize(real)
    if mantissa >= (1 << 31) - 1 - (1 << 15):
        return (1 << 15) - 1, exponent
    return (mantissa + (1 << 15)) >> 16, exponent


@lowering("HARD_SWISH", types=("int8",))
def hard_swish(ctx, op):
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    hires = np.float32(1 / 128) * np.float32(si)
    out_m, out_e = _int16_multiplier(_f32(hires / np.float32(so)))
    relu_m, relu_e = _int16_multiplier(_f32(hires / np.float32(3 / 32768)))
    if out_e > 0:
        raise UnsupportedModel(f"{op}: output scale below input scale / 128")

    def sat16(v):
        return max(-(1 << 15), min((1 << 15) - 1, v))

    def out(v):
        # TFLite's reference HardSwish on int16 fixed point.
        x = (v - zi) * 128
        preshift = srdhm16(x, out_m)
        relu = x
        if relu_e > 0:
            relu = sat16(relu << (relu_e - 1))
        relu = srdhm16(relu, relu_m)
        if relu_e > 0:
            relu = sat16(relu << 1)
        elif relu_e < 0:
            relu = rdpot(relu, -relu_e)
        relu = (relu + (1 << 15)) >> 1
        product = relu * preshift
        y = wrap16(rdpot(int(product / (1 << 15)), -out_e) + zo)  # truncating high half
        return y
    return lookup(ctx, op, "hard_swish", [out(int(v)) for v in _INPUTS])

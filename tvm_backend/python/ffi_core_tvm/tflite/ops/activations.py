"""Unary int8 operators as lookup tables: RELU, RELU6, RELU_N1_TO_1,
LEAKY_RELU, ABS, RSQRT, NEG, LOGISTIC, TANH, HARD_SWISH; and int16 LOGISTIC
and TANH, interpolated in TFLite's sigmoid table.

An int8 input has 256 values, so each lowering computes the 256 outputs at
compile time with the integer steps of LiteRT's reference kernel
(gemmlowp.py) and the kernel reads y = table[x + 128] from the weight blob:
one load per element, whatever the operator's arithmetic.
"""
import math

import numpy as np
from tflite.LeakyReluOptions import LeakyReluOptions
from tvm import te
from tvm import tirx as tir

from ...weight_blob import read
from ..gemmlowp import (float_table, inv_sqrt_multiplier, libm, mbqm, quantize, rdpot, srdhm16,
                        trunc_div_pot, wrap16)
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


def _sigmoid_table():
    """TFLite's sigmoid_table_uint16: 65536 sigmoid(i / 24) for i in 0..255,
    each raised by half the sag of the chord to the next (the error linear
    interpolation makes there), so that interpolation errs both ways; the
    last is uint16's top."""
    def f(x):
        return 65536 / (1 + np.exp(-x))
    x = np.arange(256) / 24
    sag = f(x + 1 / 48) - (f(x) + f(x + 1 / 24)) / 2
    table = np.floor(f(x) + sag / 2 + 0.5).astype(np.int64)
    table[-1] = 65535
    return table


def _int16_sigmoid(ctx, op, name, pot_shifts):
    """int16 LOGISTIC and TANH as TFLite's reference computes them: the input
    brought to a scale where 2^17 stands for 32/3 (tanh: 16/3), then linear
    interpolation in a 256-entry sigmoid table (tanh x = 2 sigmoid(2x) - 1).
    `pot_shifts`: the input shifts TFLite takes for a power-of-two scale."""
    x, out = op.inputs[0], op.outputs[0]
    (si, zi), (so, zo) = x.quant(), out.quant()
    if zi or zo or np.float32(so) != np.float32(1 / 32768):
        raise UnsupportedModel(f"{op}: int16 takes zero points 0 and output scale 1/32768")
    if tuple(x.shape) != tuple(out.shape):
        raise UnsupportedModel(f"{op}: output shape {list(out.shape)}")
    # TFLite's CheckedLog2, in float32.
    log2 = np.float32(np.log(np.float32(si))) * (np.float32(1) / np.float32(np.log(np.float32(2))))
    rounded = math.copysign(math.floor(abs(float(log2)) + 0.5), float(log2))
    shift = 12 + int(rounded)
    if abs(float(log2 - np.float32(rounded))) < 1e-3 and shift in pot_shifts:
        multiplier, shift = 3 << shift, 0
    else:
        # Scale by 3 * 4096, doubled while at most 32767 / 2, truncated.
        real, shift = float(si) * 4096.0 * 3.0, 0
        while real <= 32767.0 / 2.0 and shift <= 30:
            shift, real = shift + 1, real * 2.0
        multiplier = int(real)
    rounding = (1 << (shift - 1)) if shift > 0 else 0
    if multiplier * 32768 + rounding >= 1 << 31:
        raise UnsupportedModel(f"{op}: input scale {si} overflows TFLite's int32 rescaling")
    bits = 9 if name == "logistic" else 8  # fraction bits interpolated
    offset = ctx.pack(_sigmoid_table().astype(np.uint16).view(np.int16))

    def make():
        xp = te.placeholder(x.shape, "int16", "x")
        blob = ctx.blob_placeholder()

        def entry(i):
            return read(blob, offset + 2 * i, "int16").astype("int32") & 0xFFFF

        def y(*i):
            c = tir.const
            v = (xp[i].astype("int32") * c(multiplier, "int32") + c(rounding, "int32")) >> shift
            a = tir.abs(v)
            k = tir.min(a >> bits, c(254, "int32"))
            lo = entry(k)
            interp = (lo << bits) + (a & ((1 << bits) - 1)) * (entry(k + 1) - lo)
            if name == "logistic":
                r = tir.Select(a >> bits >= 255, c(0x7FFF << 10, "int32"), interp)
                r = tir.Select(v >= 0, r + (1 << 9), c((1 << 25) + (1 << 9) - 1, "int32") - r)
                return (r >> 10).astype("int16")
            r = tir.Select(a >> bits >= 255, c(0xFFFF << 8, "int32"), interp)
            r = tir.Select(v >= 0, r - c((1 << 23) - (1 << 7), "int32"),
                           c((1 << 23) + (1 << 7) - 1, "int32") - r)
            return (r >> 8).astype("int16")
        yt = te.compute(x.shape, y, name="y")
        return te.create_prim_func([xp, blob, yt]).with_attr("tir.noalias", True)
    gv = ctx.kernel((name + "16", tuple(x.shape), multiplier, shift, offset), make)
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "int16")


@lowering("LOGISTIC", types=("int8", "int16"),
          note="int8: LiteRT's float32 table; int16: its interpolated sigmoid table")
def logistic(ctx, op):
    if op.inputs[0].dtype == "int16":
        return _int16_sigmoid(ctx, op, "logistic", (0,))
    (si, zi), (so, zo) = op.inputs[0].quant(), op.outputs[0].quant()
    if np.float32(so) != np.float32(1 / 256):
        raise UnsupportedModel(f"{op}: output scale {so}, TFLite's is 1/256")

    def sigmoid(v):
        return np.float32(1) / (np.float32(1) + np.float32(libm("expf")(-v)))
    return lookup(ctx, op, "logistic", float_table(si, zi, so, zo, sigmoid))


@lowering("TANH", types=("int8", "int16"),
          note="int8: LiteRT's float32 table; int16: its interpolated sigmoid table")
def tanh(ctx, op):
    if op.inputs[0].dtype == "int16":
        return _int16_sigmoid(ctx, op, "tanh", (0, 1))
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
        # SaturatingDoublingHighMul: the high half, truncated.
        return wrap16(rdpot(trunc_div_pot(relu * preshift, 15), -out_e) + zo)
    return lookup(ctx, op, "hard_swish", [out(int(v)) for v in _INPUTS])

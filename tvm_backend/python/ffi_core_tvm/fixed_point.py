"""TFLite's fixed-point requantization, at compile time (numpy) and in TIR.

A real multiplier M becomes an int32 mantissa m in [2^30, 2^31) and a right
shift r with M = m * 2^-r. TFLite's reference kernels, TFLite Micro's and
CMSIS-NN's scale with two roundings (gemmlowp's SaturatingRoundingDoublingHighMul,
then RoundingDivideByPOT): multiply_double_rounding and its per-channel form,
which the int8 kernels use. LiteRT's optimized kernels round once
(TFLITE_SINGLE_ROUNDING), y = (x * m + 2^(r-1)) >> r, and so does LiteRT's
reference FULLY_CONNECTED (multiply_once_per_channel; TFLite Micro's rounds
twice, 1 LSB apart over anomaly detection): over a deep model the two forms
differ by tens of LSB (ResNet-8's softmax: up to 47), and the compile path
follows LiteRT's reference kernels, equal to them on MLPerf Tiny's models.
"""
import math

from tvm import tirx as tir


def quantize_multiplier(real):
    """(mantissa, right shift) of a positive real multiplier, as TFLite's
    QuantizeMultiplier gives (mantissa, 31 - right shift)."""
    if real <= 0.0:
        raise ValueError(f"requantization multiplier {real} is not positive")
    frac, exponent = math.frexp(real)
    mantissa = round(frac * (1 << 31))
    if mantissa == 1 << 31:
        mantissa //= 2
        exponent += 1
    if exponent > 30:
        raise ValueError(f"requantization multiplier {real} is too large for int32")
    if exponent < -31:
        return 0, 1
    return int(mantissa), 31 - exponent


def _int32(v):
    return (v + (1 << 31)) % (1 << 32) - (1 << 31)


def requantize(x, mantissa, right_shift):
    """x requantized as the int8 kernels' int32 arithmetic does it, wrapping
    included (fixed_point.multiply_double_rounding_per_channel), before the
    zero point."""
    left, exponent = max(31 - right_shift, 0), max(right_shift - 31, 0)
    high = _int32((_int32(x << left) * mantissa + (1 << 30)) >> 31)
    mask = _int32((1 << exponent) - 1)
    threshold = (mask >> 1) + (1 if high < 0 else 0)
    return _int32((high >> exponent) + (1 if (high & mask) > threshold else 0))


def requantize_output(x, mantissa, right_shift, zp, lo, hi):
    """An output of sum-plus-bias x: requantize's, plus the zero point,
    clamped to [lo, hi]."""
    return min(max(requantize(x, mantissa, right_shift) + zp, lo), hi)


def multiply_double_rounding(x, mantissa, right_shift):
    """TFLite's MultiplyByQuantizedMultiplier as LiteRT's reference kernels of
    the element-wise operators and the integer LSTM compute it (no
    TFLITE_SINGLE_ROUNDING): a
    left shift where the multiplier is above one, gemmlowp's
    SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT, each
    rounding half away from zero. `mantissa` (positive) and `right_shift`
    are compile-time ints (quantize_multiplier); x is int32.

    With a positive mantissa the product has x's sign, and the high mul's
    nudge and truncating division come to (x * m + 2^30) >> 31 for either
    sign: each value is used once, so the expression does not grow."""
    shift = 31 - right_shift
    if shift > 0:
        x = x * tir.const(1 << shift, "int32")
    product = x.astype("int64") * tir.const(mantissa, "int64")
    high = ((product + tir.const(1 << 30, "int64")) >> tir.const(31, "int64")).astype("int32")
    return rounding_divide_by_pot(high, max(-shift, 0))


def rounding_divide_by_pot(x, exponent):
    """gemmlowp's RoundingDivideByPOT of int32 x by 2^exponent (a compile-time
    int): half away from zero, (x + 2^(e-1) - (x < 0)) >> e."""
    if exponent == 0:
        return x
    half = tir.const(1 << (exponent - 1), "int32")
    return (x + half + (x >> tir.const(31, "int32"))) >> tir.const(exponent, "int32")


def multiply_once_per_channel(x, mantissa, right_shift):
    """round(x * mantissa / 2^right_shift), ties up, in int64: one rounding;
    the mantissa and right shift int32 TIR values (a per-channel table), the
    shift at least 1 (quantize_multiplier's)."""
    shift = right_shift.astype("int64")
    product = x.astype("int64") * mantissa.astype("int64")
    rounding = tir.const(1, "int64") << (shift - tir.const(1, "int64"))
    return ((product + rounding) >> shift).astype("int32")


def multiply_double_rounding_per_channel(x, mantissa, right_shift):
    """multiply_double_rounding with the mantissa and right shift read at run
    time (int32 TIR values, from a per-channel table): the left shift where
    the multiplier is above one, (x * m + 2^30) >> 31 as above, then
    gemmlowp's RoundingDivideByPOT in its masked form, which is exact for any
    exponent, 0 included."""
    zero = tir.const(0, "int32")
    left = tir.max(tir.const(31, "int32") - right_shift, zero)
    exponent = tir.max(right_shift - tir.const(31, "int32"), zero)
    product = (x << left).astype("int64") * mantissa.astype("int64")
    high = ((product + tir.const(1 << 30, "int64")) >> tir.const(31, "int64")).astype("int32")
    mask = (tir.const(1, "int32") << exponent) - tir.const(1, "int32")
    threshold = (mask >> tir.const(1, "int32")) + tir.Select(high < zero, 1, 0)
    return (high >> exponent) + tir.Select((high & mask) > threshold, 1, 0)

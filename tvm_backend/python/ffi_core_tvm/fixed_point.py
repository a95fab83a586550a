"""TFLite's fixed-point requantization, at compile time (numpy) and in TIR.

A real multiplier M becomes an int32 mantissa m in [2^30, 2^31) and a right
shift r with M = m * 2^-r. At run time y = (x * m + 2^(r-1)) >> r in int64:
one rounding, half up, as TFLite's kernels compute it when built with
TFLITE_SINGLE_ROUNDING, as LiteRT is (its outputs match this bit for bit;
the older double rounding differs by up to 3 LSB over anomaly detection's
ten layers).
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


def multiply_by_quantized_multiplier(x, mantissa, right_shift, least_shift=0):
    """round(x * mantissa / 2^right_shift), ties up; int32 in, int32 out.

    least_shift: a right shift known at compile time not to be exceeded
    downwards. From 33 on, the low word of the product cannot change the
    result: with P = hi * 2^32 + lo, floor((P + 2^(r-1)) / 2^r) equals
    floor((hi + 2^(r-33)) / 2^(r-32)) because lo / 2^32 is a fraction added to
    an integer. So only the product's high word (one SMMUL/SMULL on Arm) and
    32-bit shifts are needed, not 64-bit arithmetic.
    """
    if least_shift >= 33:
        high = ((x.astype("int64") * mantissa.astype("int64")) >> 32).astype("int32")
        # The shifts are in 0..31 (right_shift in 33..63); the masks say so
        # to TVM's bound analysis, which otherwise takes the result for a
        # small number and drops the clamp that follows.
        low = tir.const(31, "int32")
        rounding = tir.const(1, "int32") << ((right_shift - tir.const(33, "int32")) & low)
        return (high + rounding) >> ((right_shift - tir.const(32, "int32")) & low)
    shift = right_shift.astype("int64")
    product = x.astype("int64") * mantissa.astype("int64")
    rounding = tir.const(1, "int64") << (shift - tir.const(1, "int64"))
    return ((product + rounding) >> shift).astype("int32")


def rounding_divide_by_pot(x, exponent, dtype="int32"):
    """x / 2^exponent rounded to nearest, halves away from zero (gemmlowp's
    RoundingDivideByPOT); `exponent` known at compile time."""
    if exponent == 0:
        return x
    mask = tir.const((1 << exponent) - 1, dtype)
    one, zero = tir.const(1, dtype), tir.const(0, dtype)
    threshold = (mask >> one) + tir.Select(x < zero, one, zero)
    return (x >> tir.const(exponent, dtype)) + tir.Select((x & mask) > threshold, one, zero)


def multiply_by_quantized_multiplier_twice_rounded(x, mantissa, right_shift):
    """round(x * mantissa / 2^right_shift) as TFLite computes it without
    TFLITE_SINGLE_ROUNDING: gemmlowp's saturating rounding doubling high
    multiply (halves away from zero), then a rounding right shift. LiteRT's
    integer LSTM (its tensor utilities) rounds this way, unlike its other
    kernels (multiply_by_quantized_multiplier). `mantissa` and `right_shift`
    (quantize_multiplier's) are Python ints; int32 in, int32 out."""
    left = max(0, 31 - right_shift)
    right = max(0, right_shift - 31)
    if left:
        x = x << tir.const(left, "int32")
    product = x.astype("int64") * tir.const(mantissa, "int64")
    nudge = tir.Select(product >= tir.const(0, "int64"), tir.const(1 << 30, "int64"),
                       tir.const(1 - (1 << 30), "int64"))
    # The one overflow, INT32_MIN squared, needs a negative mantissa.
    high = tir.truncdiv(product + nudge, tir.const(1 << 31, "int64")).astype("int32")
    return rounding_divide_by_pot(high, right)

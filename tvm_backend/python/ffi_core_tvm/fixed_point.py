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


def multiply_by_quantized_multiplier(x, mantissa, right_shift):
    """round(x * mantissa / 2^right_shift), ties up; int32 in, int32 out."""
    shift = right_shift.astype("int64")
    product = x.astype("int64") * mantissa.astype("int64")
    rounding = tir.const(1, "int64") << (shift - tir.const(1, "int64"))
    return ((product + rounding) >> shift).astype("int32")

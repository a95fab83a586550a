"""TFLite's reference integer arithmetic on Python ints, at compile time.

An int8 unary operator has 256 possible inputs, so its lowering computes the
256 outputs here, with the very integer steps of LiteRT's reference kernel
(gemmlowp's fixed point, rounding half away from zero), and the kernel
looks them up. Values wrap to int32 where the C++ does.
"""
import ctypes
import ctypes.util
import functools
import math

import numpy as np

INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def wrap32(x):
    return (x + (1 << 31)) % (1 << 32) - (1 << 31)


def srdhm(a, b):
    """SaturatingRoundingDoublingHighMul."""
    if a == b == INT32_MIN:
        return INT32_MAX
    ab = a * b
    v = ab + ((1 << 30) if ab >= 0 else 1 - (1 << 30))
    q = abs(v) >> 31
    return q if v >= 0 else -q


def rdpot(x, exponent):
    """RoundingDivideByPOT."""
    if exponent == 0:
        return x
    mask = (1 << exponent) - 1
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if (x & mask) > threshold else 0)


def saturating_mul_pot(x, exponent):
    """SaturatingRoundingMultiplyByPOT<exponent> on int32."""
    if exponent <= 0:
        return rdpot(x, -exponent)
    return max(INT32_MIN, min(INT32_MAX, x << exponent))


def mbqm(x, mantissa, shift):
    """MultiplyByQuantizedMultiplier(x, mantissa, shift), shift as TFLite's
    (left positive), rounded twice as the reference kernels are built."""
    left, right = max(shift, 0), max(-shift, 0)
    return rdpot(srdhm(wrap32(x * (1 << left)), mantissa), right)


def quantize(real):
    """TFLite's QuantizeMultiplier: (mantissa, shift), left shift positive;
    (0, 0) for zero; negative reals give a negative mantissa."""
    if real == 0.0:
        return 0, 0
    frac, exponent = np.frexp(real)
    f = float(frac) * (1 << 31)
    q = int(math.copysign(math.floor(abs(f) + 0.5), f))  # std::round
    if q == 1 << 31:
        q //= 2
        exponent += 1
    if exponent < -31:
        return 0, 0
    return q, int(exponent)


def inv_sqrt_multiplier(value):
    """GetInvSqrtQuantizedMultiplierExp(value, reverse_shift=-1): (mantissa,
    shift) of 1/sqrt(value), by gemmlowp's Newton-Raphson in 3 integer bits."""
    if value <= 1:
        return INT32_MAX, 0
    shift = 11
    while value >= 1 << 29:
        value //= 4
        shift += 1
    pairs = (32 - value.bit_length() - 1) // 2 - 1
    shift -= pairs
    value <<= 2 * pairs
    half_input = rdpot(value >> 1, 1)
    half_three = (1 << 28) + (1 << 27)
    x = 1 << 28  # 1.0
    for _ in range(5):
        x3 = saturating_mul_pot(srdhm(srdhm(x, x), x), 6)
        x = saturating_mul_pot(wrap32(srdhm(half_three, x) - srdhm(half_input, x3)), 3)
    x = srdhm(x, 1518500250)  # sqrt(2) / 2
    if shift < 0:
        x <<= -shift
        shift = 0
    return x, -shift


@functools.lru_cache(maxsize=None)
def libm(name):
    """The C library's float32 function `name` (expf, tanhf): LiteRT's tables
    call them, and numpy's float32 versions may differ by an ulp."""
    fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return fn


def float_table(in_scale, in_zp, out_scale, out_zp, transform):
    """TFLite's LUTPopulate<int8_t>: the 256 int8 outputs of a float32
    function, dequantized, transformed and requantized in float32, for the
    inputs -128..127."""
    f32 = np.float32
    inverse = f32(1) / f32(out_scale)
    table = []
    for v in range(-128, 128):
        y = f32(transform(f32(f32(in_scale) * f32(v - in_zp)))) * inverse
        q = math.copysign(math.floor(abs(float(y)) + 0.5), float(y))  # TfLiteRound
        table.append(int(max(-128, min(127, q + out_zp))))
    return table


def srdhm16(a, b):
    """SaturatingRoundingDoublingHighMul on int16."""
    if a == b == -(1 << 15):
        return (1 << 15) - 1
    ab = a * b
    v = ab + ((1 << 14) if ab >= 0 else 1 - (1 << 14))
    return trunc_div_pot(v, 15)


def trunc_div_pot(x, exponent):
    """x / 2^exponent truncated toward zero, as C's integer division."""
    q = abs(x) >> exponent
    return q if x >= 0 else -q


def wrap16(x):
    return (x + (1 << 15)) % (1 << 16) - (1 << 15)


def int16_lut(input_scale, input_zp, output_scale, transform):
    """TFLite's LUTPopulate<int16_t> in double (the form its int16 SOFTMAX
    takes): 513 int16 samples of `transform` over the int16 input range,
    each lowered by half the error that interpolating from it makes at the
    midpoint, for LUTLookup (lut_lookup16) to interpolate between."""
    def rnd(v):  # TfLiteRound: half away from zero
        return math.copysign(math.floor(abs(v) + 0.5), v)

    input_min = input_scale * (-32768 - input_zp)
    input_max = input_scale * (32767 - input_zp)
    output_min, output_max = output_scale * -32768, output_scale * 32767
    step = (input_max - input_min) / 512
    inverse = 65536.0 / (output_max - output_min)
    table = []
    for i in range(512):
        val = transform(input_min + i * step)
        midpoint = transform(input_min + i * step + step / 2)
        following = transform(input_min + (i + 1) * step)
        interpolated = rnd((following * inverse + rnd(val * inverse)) / 2)
        bias = rnd((interpolated - rnd(midpoint * inverse)) / 2)
        table.append(min(max(rnd(val * inverse) - bias, -32768.0), 32767.0))
    table.append(min(max(rnd(transform(input_max) * inverse), -32768.0), 32767.0))
    return np.asarray(table, np.int64).astype(np.int16)


def _exp_on_quarter(a):
    """gemmlowp's exp_on_interval_between_negative_one_quarter_and_0_excl:
    exp(a) for Q0.31 a in [-1/4, 0), a Taylor expansion around -1/8."""
    x = wrap32(a + (1 << 28))
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_over_4 = saturating_mul_pot(x4, -2)
    poly = saturating_mul_pot(wrap32(srdhm(wrap32(x4_over_4 + x3), 715827883) + x2), -1)
    return wrap32(1895147668 + srdhm(1895147668, wrap32(x + poly)))


_EXP_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
               (2, 39332535), (3, 720401), (4, 242))


def exp_on_negative_values(a, integer_bits):
    """gemmlowp's exp_on_negative_values on int32: exp(a) for a <= 0 read
    with `integer_bits`, as Q0.31: the exp of a's part in [-1/4, 0), times
    exp(-2^k) for each bit k set in the rest."""
    frac = 31 - integer_bits
    quarter = 1 << (frac - 2)
    a_mod_quarter = wrap32((a & (quarter - 1)) - quarter)
    result = _exp_on_quarter(saturating_mul_pot(a_mod_quarter, integer_bits))
    remainder = wrap32(a_mod_quarter - a)
    for exponent, multiplier in _EXP_BARREL:
        if integer_bits > exponent and remainder & (1 << (frac + exponent)):
            result = srdhm(result, multiplier)
    if integer_bits > 5 and a < -(1 << (36 - integer_bits)):
        result = 0
    return INT32_MAX if a == 0 else result


def softmax_input_scaling(beta, input_scale, integer_bits):
    """TFLite's PreprocessSoftmaxScaling (double rounding build): the
    multiplier and left shift that bring an input difference to
    Q(integer_bits), and CalculateInputRadius's bound below which a
    difference is left out."""
    real = min(beta * input_scale * (1 << (31 - integer_bits)), (1 << 31) - 1.0)
    mantissa, left_shift = quantize(real)
    radius = math.floor(((1 << integer_bits) - 1) * (1 << (31 - integer_bits))
                        / 2.0 ** left_shift)
    return mantissa, left_shift, -radius

"""gemmlowp's 16-bit fixed-point logistic and tanh, as TIR integer arithmetic.

TFLite's integer LSTM applies gemmlowp::logistic and gemmlowp::tanh to int16
values read as FixedPoint<int16_t, N> (N integer bits, 15 - N fractional
bits) and gets Q0.15 results. These follow gemmlowp's algorithms step by
step, so that every rounding is the same: exp(x) for x < 0 as a Taylor
polynomial on [-1/4, 0) times a constant per set bit of the rest, then
1 / (1 + x) or (1 - x) / (1 + x) by three Newton-Raphson steps.

Values are int32 expressions holding int16 values; where gemmlowp's int16
arithmetic wraps around (plain addition, subtraction, negation) wrap16 does
too. `bind(expr)` gives a variable bound to expr (a TIR Bind in the kernel
being built), so that a value used several times is computed once.
"""
from tvm import tirx as tir

from .fixed_point import rounding_divide_by_pot

_MIN, _MAX = -32768, 32767


def _c(v):
    return tir.const(v, "int32")


def _const(raw32):
    """A gemmlowp constant given as 32-bit raw value, as its int16 raw value
    (rounded 16 bits to the right, as RescaleConstantInitializer does)."""
    mask = (1 << 16) - 1
    threshold = (mask >> 1) + (raw32 < 0)
    return _c((raw32 >> 16) + ((raw32 & mask) > threshold))


def wrap16(x):
    return ((x + _c(1 << 15)) & _c(0xFFFF)) - _c(1 << 15)


def _mul(bind, a, b):
    """SaturatingRoundingDoublingHighMul on int16: a * b / 2^15, halves away
    from zero; -1 * -1 saturates."""
    ab = bind(a * b)
    # (ab + nudge) / 2^15 truncated toward zero, as shifts.
    q = tir.Select(ab >= _c(0), (ab + _c(1 << 14)) >> _c(15),
                   _c(0) - ((_c((1 << 14) - 1) - ab) >> _c(15)))
    return bind(tir.Select(tir.all(a == _c(_MIN), b == _c(_MIN)), _c(_MAX), q))


def _divide(bind, x, exponent):
    return bind(rounding_divide_by_pot(x, exponent))


def _shift_left_saturating(bind, x, k):
    """SaturatingRoundingMultiplyByPOT<k> on int16, k >= 0."""
    if k == 0:
        return x
    limit = (1 << (15 - k)) - 1
    return bind(tir.Select(x > _c(limit), _c(_MAX),
                           tir.Select(x < _c(-limit), _c(_MIN), wrap16(x << _c(k)))))


def _exp_on_quarter(bind, a):
    """exp(a) for a in [-1/4, 0), a and the result Q0.15: a Taylor expansion
    around -1/8."""
    e_minus_eighth = _const(1895147668)
    one_third = _const(715827883)
    x = bind(wrap16(a + _c(1 << 12)))
    x2 = _mul(bind, x, x)
    x3 = _mul(bind, x2, x)
    x4 = _mul(bind, x2, x2)
    x4_over_4 = _divide(bind, x4, 2)
    third = _mul(bind, bind(wrap16(x4_over_4 + x3)), one_third)
    poly = _divide(bind, bind(wrap16(third + x2)), 1)
    total = e_minus_eighth + _mul(bind, e_minus_eighth, bind(wrap16(x + poly)))
    return bind(tir.max(tir.min(total, _c(_MAX)), _c(_MIN)))


_BARREL = ((-2, 1672461947), (-1, 1302514674), (0, 790015084), (1, 290630308),
           (2, 39332535), (3, 720401), (4, 242))


def _exp_on_negative_values(bind, a, integer_bits):
    """exp(a) for a <= 0 with `integer_bits`, as Q0.15."""
    frac = 15 - integer_bits
    quarter = 1 << (frac - 2)
    a_mod_quarter = bind(wrap16((a & _c(quarter - 1)) - _c(quarter)))
    result = _exp_on_quarter(bind, _shift_left_saturating(bind, a_mod_quarter, integer_bits))
    remainder = bind(wrap16(a_mod_quarter - a))
    for exponent, multiplier in _BARREL:
        if integer_bits > exponent:
            bit = remainder & _c(1 << (frac + exponent))
            scaled = _mul(bind, result, _const(multiplier))
            result = bind(tir.Select(bit != _c(0), scaled, result))
    if integer_bits > 5:
        below = _const(-(1 << (36 - integer_bits)))
        result = bind(tir.Select(a < below, _c(0), result))
    return bind(tir.Select(a == _c(0), _c(_MAX), result))


def _newton_reciprocal(bind, a):
    """x ~ 2 / (1 + a) for Q0.15 a in (0, 1], as Q2.13: three Newton-Raphson
    steps for the reciprocal of (1 + a) / 2 from 48/17 - 32/17 * (1 + a) / 2."""
    s = bind(a + _c(_MAX))
    half_denominator = bind(wrap16(tir.truncdiv(s + tir.Select(s >= _c(0), _c(1), _c(-1)),
                                                _c(2))))
    x = bind(wrap16(_const(1515870810) + _mul(bind, half_denominator, _const(-1010580540))))
    for _ in range(3):
        one_minus = bind(wrap16(_c(1 << 13) - _mul(bind, half_denominator, x)))
        x = bind(wrap16(x + _shift_left_saturating(bind, _mul(bind, x, one_minus), 2)))
    return x


def logistic(bind, a, integer_bits):
    """gemmlowp::logistic of int16 `a` with `integer_bits`: Q0.15."""
    positive = a > _c(0)
    magnitude = bind(tir.Select(positive, a, wrap16(-a)))
    e = _exp_on_negative_values(bind, bind(wrap16(-magnitude)), integer_bits)
    if_positive = _shift_left_saturating(bind, _newton_reciprocal(bind, e), 1)
    if_negative = wrap16(_c(_MAX) - if_positive)
    return tir.Select(a == _c(0), _c(1 << 14), tir.Select(positive, if_positive, if_negative))


def tanh(bind, a, integer_bits):
    """gemmlowp::tanh of int16 `a` with `integer_bits`: Q0.15."""
    negative = a < _c(0)
    minus_magnitude = bind(tir.Select(negative, a, wrap16(-a)))
    # exp(-2|a|): the same raw value read with one more integer bit.
    e = _exp_on_negative_values(bind, minus_magnitude, integer_bits + 1)
    t = _shift_left_saturating(bind, bind(wrap16(_newton_reciprocal(bind, e) - _c(1 << 13))), 2)
    return tir.Select(a == _c(0), _c(0), tir.Select(negative, wrap16(-t), t))

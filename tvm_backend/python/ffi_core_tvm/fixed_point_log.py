"""TFLite's 32-bit fixed-point log(x) for x >= 1, as TIR integer arithmetic.

TFLite's integer LOG_SOFTMAX takes the log of a row's sum of exps with
log_x_for_x_greater_than_or_equal_to_1 (kernels/internal/common.h), built on
gemmlowp's FixedPoint<int32_t>: the input's power of two from its leading
zeros, the rest by a rational approximation around sqrt(sqrt(2)) with one
Newton-Raphson reciprocal. These follow its steps one by one, so that every
rounding and saturation is the same.

Values are int32 expressions; where gemmlowp's int32 arithmetic is a plain
addition or subtraction it wraps around here too (wrap32). `bind(expr)`
gives a value held once in the kernel being built, so that a value used
several times is computed once; it holds int32 values only.
"""
from tvm import tirx as tir

_MIN, _MAX = -(1 << 31), (1 << 31) - 1


def _c(v, dtype="int32"):
    return tir.const(v, dtype)


def _i64(v):
    return v.astype("int64")


def wrap32(v64):
    """An int64 value's low 32 bits, as int32 (C's wrapping add)."""
    return v64.astype("int32")


def add(a, b):
    return wrap32(_i64(a) + _i64(b))


def sub(a, b):
    return wrap32(_i64(a) - _i64(b))


def _saturate(v64):
    return tir.max(tir.min(v64, _c(_MAX, "int64")), _c(_MIN, "int64")).astype("int32")


def mul(bind, a, b):
    """SaturatingRoundingDoublingHighMul: a * b / 2^31, halves away from
    zero; INT32_MIN * INT32_MIN saturates."""
    ab = _i64(a) * _i64(b)  # a and b are bound: repeating the product costs no growth
    nudge = tir.Select(ab >= _c(0, "int64"), _c(1 << 30, "int64"), _c(1 - (1 << 30), "int64"))
    q = tir.truncdiv(ab + nudge, _c(1 << 31, "int64")).astype("int32")
    return bind(tir.Select(tir.all(a == _c(_MIN), b == _c(_MIN)), _c(_MAX), q))


def divide_by_pot(bind, x, exponent):
    """RoundingDivideByPOT by a compile-time exponent, as gemmlowp masks it
    (no intermediate overflows)."""
    if exponent == 0:
        return x
    mask = (1 << exponent) - 1
    threshold = _c(mask >> 1) + tir.Select(x < _c(0), _c(1), _c(0))
    return bind((x >> _c(exponent)) + tir.Select((x & _c(mask)) > threshold, _c(1), _c(0)))


def multiply_by_pot(bind, x, exponent):
    """SaturatingRoundingMultiplyByPOT<exponent> (compile time): a saturating
    left shift, or a rounding right one."""
    if exponent <= 0:
        return divide_by_pot(bind, x, -exponent)
    limit = (1 << (31 - exponent)) - 1
    return bind(tir.Select(x > _c(limit), _c(_MAX),
                           tir.Select(x < _c(-limit), _c(_MIN), x << _c(exponent))))


def shift_left_saturating(bind, x, exponent):
    """SaturatingRoundingMultiplyByPOTParam with a run-time exponent >= 0."""
    e = _i64(exponent)
    limit = (_c(1, "int64") << (_c(31, "int64") - e)) - _c(1, "int64")
    x64 = _i64(x)
    return bind(tir.Select(x64 > limit, _c(_MAX),
                           tir.Select(x64 < -limit, _c(_MIN), wrap32(x64 << e))))


def leading_zeros(v):
    """CountLeadingZeros of a non-negative int32 read as uint32: 32 less its
    bit length, by comparisons (no count-leading-zeros instruction needed)."""
    return _c(32) - sum(tir.Select(v >= _c(1 << k), _c(1), _c(0)) for k in range(31))


def rounding_half_sum(bind, a, b):
    """(a + b) / 2 rounded half away from zero, in int64."""
    s = _i64(a) + _i64(b)
    sign = tir.Select(s >= _c(0, "int64"), _c(1, "int64"), _c(-1, "int64"))
    return bind(tir.truncdiv(s + sign, _c(2, "int64")).astype("int32"))


def one_over_one_plus_x(bind, a):
    """gemmlowp's one_over_one_plus_x_for_x_in_0_1: 1 / (1 + a), a and the
    result Q0.31, by three Newton-Raphson steps in Q2.29."""
    half_denominator = rounding_half_sum(bind, a, _c(_MAX))
    x = bind(add(_c(1515870810), mul(bind, half_denominator, _c(-1010580540))))
    for _ in range(3):
        one_minus = bind(sub(_c(1 << 29), mul(bind, half_denominator, x)))
        x = bind(add(x, multiply_by_pot(bind, mul(bind, x, one_minus), 2)))
    # ExactMulByPot<-1> (Q2.29 read as Q1.30), then Rescale<0>.
    return multiply_by_pot(bind, x, 1)


def log_x(bind, value, input_bits, output_bits):
    """log_x_for_x_greater_than_or_equal_to_1<output_bits>(value), value a
    positive Q(input_bits).(31 - input_bits); the result Q(output_bits)."""
    accum_bits = output_bits + 1
    log_2, sqrt_sqrt_half, sqrt_half = 1488522236, 1805811301, 1518500250
    alpha_n, alpha_d, alpha_i, alpha_f = 117049297, 127690142, 1057819769, 638450708
    shifted_quarter = _c(536870912 >> accum_bits)  # Rescale<accum_bits>(1/4), exact

    def pow_2_adj(headroom, saturating_op):
        # (input_bits - headroom) as Q(accum_bits), then -+ 1/4, saturating.
        whole = multiply_by_pot(bind, _c(input_bits) - headroom, 31 - accum_bits)
        return bind(_saturate(saturating_op(_i64(whole), _i64(shifted_quarter))))

    z_a = value
    headroom_a = bind(leading_zeros(z_a))  # headroom + 1
    r_a_tmp = shift_left_saturating(bind, z_a, headroom_a - _c(1))
    r_a = multiply_by_pot(bind, mul(bind, r_a_tmp, _c(sqrt_half)), 1)
    z_a_adj = pow_2_adj(headroom_a, lambda a, b: a + b)
    z_b = mul(bind, z_a, _c(sqrt_half))
    headroom_b = bind(leading_zeros(z_b) - _c(1))
    r_b = shift_left_saturating(bind, z_a, headroom_b)
    z_b_adj = pow_2_adj(headroom_b, lambda a, b: a - b)
    r = bind(tir.min(r_a, r_b))
    z_adj = bind(tir.max(z_a_adj, z_b_adj))

    p = rounding_half_sum(bind, r, _c(sqrt_sqrt_half))
    q = bind(sub(r, _c(sqrt_sqrt_half)))
    q = bind(add(q, q))
    common_sq = mul(bind, q, q)
    num = bind(add(mul(bind, q, r), mul(bind, mul(bind, q, common_sq), _c(alpha_n))))
    inner = bind(add(add(_c(alpha_i), q), mul(bind, _c(alpha_d), common_sq)))
    denom_minus_one = bind(add(mul(bind, p, inner), mul(bind, _c(alpha_f), q)))
    recip = one_over_one_plus_x(bind, denom_minus_one)
    num_scaled = multiply_by_pot(bind, num, -accum_bits)  # Rescale<accum_bits> from Q0
    total = bind(add(mul(bind, z_adj, _c(log_2)), mul(bind, num_scaled, recip)))
    return multiply_by_pot(bind, total, accum_bits - output_bits)

"""SOFTMAX of int16 logits and LOG_SOFTMAX of int8 ones against LiteRT's
reference kernels, bit for bit: TFLite's exp and 1/(1+x) tables,
interpolated; its fixed-point exp and log (tflite_builder.py,
reference.py)."""
import numpy as np
import pytest
from reference import assert_refused, case_seed, check_against_litert, make_inputs
from tflite_builder import ModelBuilder


def softmax16(shape, in_scale, beta=1.0, out_scale=1 / 32768, zero_point=0):
    b = ModelBuilder()
    x = b.tensor(shape, "int16", "x", scale=in_scale, zero_point=zero_point)
    y = b.tensor(shape, "int16", "y", scale=out_scale, zero_point=0)
    b.operator("SOFTMAX", [x], [y], {"beta": beta})
    return b.finish([x], [y])


# Input scales from below TFLite's exp table step (10 / 65535, a multiplier
# under one) to far above it (a multiplier above one, for which the inputs
# keep within +-600 so that the row's exps are not all 0 but the top one).
SOFTMAX16 = [
    pytest.param((3, 10), 0.0005, 1.0, 32768, id="softmax16"),
    pytest.param((2, 4, 7), 0.0002, 1.0, 32768, id="softmax16_3d"),
    pytest.param((5, 33), 0.001, 0.7, 32768, id="softmax16_beta0.7"),
    pytest.param((2, 6), 0.00003, 1.0, 32768, id="softmax16_close_logits"),
    pytest.param((4, 5), 0.01, 1.0, 600, id="softmax16_wide"),
    pytest.param((1, 1, 2, 64), 0.0004, 2.0, 32768, id="softmax16_64_beta2"),
]


@pytest.mark.parametrize("shape, in_scale, beta, spread", SOFTMAX16)
def test_softmax_int16(shape, in_scale, beta, spread, request):
    buf = softmax16(shape, in_scale, beta)
    x = make_inputs(buf, case_seed(request))[0]
    if spread < 32768:
        x = (x.astype(np.int64) * spread // 32768).astype(np.int16)
    check_against_litert(buf, [x], "int16", exact=True)


def test_softmax_int16_equal_logits():
    """A row of equal logits: each gets 1/n."""
    buf = softmax16((3, 8), 0.001)
    x = np.repeat(np.asarray([[-32768], [0], [32767]], np.int16), 8, axis=1)
    check_against_litert(buf, [x], "int16", exact=True, varied=False)


REFUSALS = [
    pytest.param(dict(out_scale=1 / 256), "output scale", id="softmax16_output_scale"),
    pytest.param(dict(zero_point=3), "zero point", id="softmax16_zero_point"),
]


@pytest.mark.parametrize("params, named", REFUSALS)
def test_refused_by_name(params, named):
    assert_refused(softmax16((2, 5), 0.001, **params), named)


def log_softmax8(shape, in_scale, in_zp, out_scale=16 / 256, out_zp=127):
    b = ModelBuilder()
    x = b.tensor(shape, "int8", "x", scale=in_scale, zero_point=in_zp)
    y = b.tensor(shape, "int8", "y", scale=out_scale, zero_point=out_zp)
    b.operator("LOG_SOFTMAX", [x], [y])
    return b.finish([x], [y])


# Input scales from close logits (sums near the row's size) to wide ones,
# where TFLite's bound on a difference leaves most out (-128).
LOG_SOFTMAX8 = [
    pytest.param((3, 10), 0.05, -3, id="log_softmax8"),
    pytest.param((2, 4, 7), 0.1, 10, id="log_softmax8_3d"),
    pytest.param((5, 33), 0.01, 0, id="log_softmax8_close_logits"),
    pytest.param((4, 300), 0.02, 0, id="log_softmax8_300"),
    pytest.param((3, 6), 0.3, 5, id="log_softmax8_wide"),
    pytest.param((2, 16), 0.002, -100, id="log_softmax8_very_close"),
]


@pytest.mark.parametrize("shape, in_scale, in_zp", LOG_SOFTMAX8)
def test_log_softmax_int8(shape, in_scale, in_zp, request):
    buf = log_softmax8(shape, in_scale, in_zp)
    check_against_litert(buf, make_inputs(buf, case_seed(request)), "int8", exact=True)


def test_log_softmax_int8_every_difference():
    """Each row holds every int8 value once, in an order of its own."""
    buf = log_softmax8((3, 256), 0.04, 0)
    rng = np.random.default_rng(7)
    x = np.stack([rng.permutation(256) - 128 for _ in range(3)]).astype(np.int8)
    check_against_litert(buf, [x], "int8", exact=True)


def test_log_softmax_int8_equal_logits():
    """Rows of equal logits: each -log(n)."""
    buf = log_softmax8((3, 12), 0.05, 0)
    x = np.repeat(np.asarray([[-128], [0], [127]], np.int8), 12, axis=1)
    check_against_litert(buf, [x], "int8", exact=True, varied=False)


@pytest.mark.parametrize("params", [dict(out_scale=1 / 256), dict(out_zp=0)],
                         ids=["log_softmax8_output_scale", "log_softmax8_output_zero_point"])
def test_log_softmax_output_refused(params):
    """TFLite takes only an output of scale 16/256 and zero point 127."""
    assert_refused(log_softmax8((2, 5), 0.05, 0, **params), "16/256")


def test_log_softmax_tiny_input_scale_refused():
    """An input scale whose multiplier into Q5.26 is below one, which
    TFLite's Prepare rejects."""
    assert_refused(log_softmax8((2, 5), 1e-9, 0), "below 2^-26")

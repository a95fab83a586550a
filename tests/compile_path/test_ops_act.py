"""The compile path against LiteRT's reference kernels, exactly: int8 and
int16 LOGISTIC and TANH, int8 HARD_SWISH, LOG_SOFTMAX and SUM
(tflite_builder.py, reference.py). Unary operators see every int8 input
value, and int16 ones a sweep of their range."""
import zlib

import numpy as np
import pytest
from reference import assert_close, ffi_core_host, litert_reference
from tflite_builder import ModelBuilder


def _unary(op, dtype, x, out, shape):
    mb = ModelBuilder()
    tx = mb.tensor(shape, dtype, "x", scale=x[0], zero_point=x[1])
    y = mb.tensor(shape, dtype, "y", scale=out[0], zero_point=out[1])
    mb.operator(op, [tx], [y])
    return mb.finish([tx], [y])


def _assert_exact(got, want, dtype):
    assert np.unique(want).size > 2, f"nearly constant: {np.unique(want)}"
    assert_close(got, want, dtype)
    bad = got != want
    assert not bad.any(), \
        f"{int(bad.sum())} differ, at {np.argwhere(bad)[:5].tolist()}: got {got[bad][:5]}, " \
        f"LiteRT {want[bad][:5]}"


UNARY8 = [
    pytest.param("LOGISTIC", (0.05, -10), (1 / 256, -128), id="logistic"),
    pytest.param("LOGISTIC", (0.11, 40), (1 / 256, -128), id="logistic_wide"),
    pytest.param("LOGISTIC", (0.013, -128), (1 / 256, -128), id="logistic_narrow"),
    pytest.param("TANH", (0.03, 5), (1 / 128, 0), id="tanh"),
    pytest.param("TANH", (0.09, -20), (1 / 128, 0), id="tanh_wide"),
    pytest.param("TANH", (0.02, 0), (0.01, 3), id="tanh_other_output_scale"),
    pytest.param("HARD_SWISH", (0.05, -10), (0.04, -20), id="hard_swish"),
    pytest.param("HARD_SWISH", (0.1, 30), (0.03, -128), id="hard_swish_wide"),
    pytest.param("HARD_SWISH", (0.01, 0), (0.008, -5), id="hard_swish_narrow"),
    pytest.param("HARD_SWISH", (0.02, 3), (0.15, 10), id="hard_swish_coarse_output"),
]


@pytest.mark.parametrize("op, x, out", UNARY8)
def test_unary_int8_every_input(op, x, out):
    buf = _unary(op, "int8", x, out, (2, 128))
    inputs = [np.arange(-128, 128, dtype=np.int8).reshape(2, 128)]
    _assert_exact(ffi_core_host(buf, inputs)[0], litert_reference(buf, inputs)[0], "int8")

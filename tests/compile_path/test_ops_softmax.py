"""SOFTMAX of int16 logits against LiteRT's reference kernel, bit for bit:
TFLite's exp and 1/(1+x) tables, interpolated (tflite_builder.py,
reference.py)."""
import zlib

import numpy as np
import pytest
from reference import check_against_litert, importer, make_inputs
from tflite_builder import ModelBuilder


def softmax16(shape, in_scale, beta=1.0, out_scale=1 / 32768, zero_point=0):
    b = ModelBuilder()
    x = b.tensor(shape, "int16", "x", scale=in_scale, zero_point=zero_point)
    y = b.tensor(shape, "int16", "y", scale=out_scale, zero_point=0)
    b.operator("SOFTMAX", [x], [y], {"beta": beta})
    return b.finish([x], [y])


def _seed(request):
    """A seed per case, stable across runs and case order."""
    return zlib.crc32(request.node.callspec.id.encode())


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
    x = make_inputs(buf, _seed(request))[0]
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
    from_tflite, unsupported = importer()
    with pytest.raises(unsupported) as refused:
        from_tflite(softmax16((2, 5), 0.001, **params))
    assert named in str(refused.value), f"the refusal does not name {named}: {refused.value}"

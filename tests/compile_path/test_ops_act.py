"""The compile path against LiteRT's reference kernels, exactly: int8 and
int16 LOGISTIC and TANH, int8 HARD_SWISH and SUM; int16 SUM against TFLite
Micro's kernel (tflite_builder.py, reference.py). Unary operators see every
int8 input value, and int16 ones a sweep of their range."""
import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from reference import assert_close, assert_refused, case_seed, ffi_core_host, litert_reference
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


def _sum(shape, axes, keep_dims, x, out, dtype="int8"):
    mb = ModelBuilder()
    tx = mb.tensor(shape, dtype, "x", scale=x[0], zero_point=x[1])
    axis = mb.tensor((len(axes),), "int32", "axis", data=list(axes))
    reduced = [a % len(shape) for a in axes]
    out_shape = [1 if i in reduced else d for i, d in enumerate(shape) if keep_dims or i not in
                 reduced]
    y = mb.tensor(out_shape, dtype, "y", scale=out[0], zero_point=out[1])
    mb.operator("SUM", [tx, axis], [y], {"keep_dims": keep_dims})
    return mb.finish([tx], [y])


SUMS = [
    pytest.param((2, 5, 3), (1,), True, (0.05, -4), (0.2, 6), id="sum_middle_keepdims"),
    pytest.param((3, 4, 6), (0, 2), False, (0.02, 3), (0.4, 1), id="sum_two_axes"),
    pytest.param((4, 7), (-1,), False, (0.1, 0), (0.5, 0), id="sum_last_axis"),
]


@pytest.mark.parametrize("shape, axes, keep_dims, x, out", SUMS)
def test_sum_int8(shape, axes, keep_dims, x, out, request):
    """LiteRT's reference SUM reads int8 data as uint8 (its kReference branch
    instantiates the uint8 kernel): the two agree on inputs from 0 to 127
    whose sums land in 0..127, which these are. The lowering computes the
    int8 SUM of TFLite Micro and of LiteRT's optimized kernel."""
    buf = _sum(shape, axes, keep_dims, x, out)
    rng = np.random.default_rng(case_seed(request))
    inputs = [rng.integers(0, 127, size=shape, endpoint=True).astype(np.int8)]
    want = litert_reference(buf, inputs)[0]
    assert want.min() > 0 and want.max() < 127, "the sums reach int8's top or bottom"
    _assert_exact(ffi_core_host(buf, inputs)[0], want, "int8")


SUMS16 = [
    pytest.param((2, 5, 3), (1,), True, 0.001, 0.004, id="sum_int16_middle_keepdims"),
    pytest.param((3, 4, 6), (0, 2), False, 0.0002, 0.003, id="sum_int16_two_axes"),
    pytest.param((4, 7), (-1,), False, 0.002, 0.003, id="sum_int16_last_axis_saturating"),
    pytest.param((3, 3, 2, 5), (0, 2, 3), False, 0.0001, 0.001, id="sum_int16_three_axes"),
]


def _litert_optimized(buf, inputs):
    it = Interpreter(model_content=buf, experimental_op_resolver_type=OpResolverType.BUILTIN)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], inputs[0])
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


@pytest.mark.parametrize("shape, axes, keep_dims, x_scale, out_scale", SUMS16)
def test_sum_int16(shape, axes, keep_dims, x_scale, out_scale, request):
    """LiteRT's reference SUM reads int16 data as uint8 too, and computes
    nothing of int16's; the lowering is TFLite Micro's int16 SUM, bit for
    bit, and within 1 LSB of LiteRT's optimized kernel (which rounds its
    multiplier otherwise)."""
    runtime = pytest.importorskip("tflite_micro.python.tflite_micro.runtime")
    buf = _sum(shape, axes, keep_dims, (x_scale, 0), (out_scale, 0), "int16")
    rng = np.random.default_rng(case_seed(request))
    inputs = [rng.integers(-32768, 32767, size=shape, endpoint=True).astype(np.int16)]
    tflm = runtime.Interpreter.from_bytes(buf)
    tflm.set_input(inputs[0], 0)
    tflm.invoke()
    got = ffi_core_host(buf, inputs)[0]
    _assert_exact(got, tflm.get_output(0), "int16")
    assert_close(got, _litert_optimized(buf, inputs), "int16")


def test_sum_int16_zero_point_refused():
    """TFLite's int16 is symmetric: a zero point is refused by name."""
    assert_refused(_sum((2, 3), (1,), False, (0.01, 5), (0.02, 0), "int16"), "zero point")


UNARY16 = [
    pytest.param("LOGISTIC", 1 / 4096, id="logistic_int16_pot"),
    pytest.param("LOGISTIC", 0.0003, id="logistic_int16"),
    pytest.param("LOGISTIC", 1 / 1024, id="logistic_int16_pot_wide"),
    pytest.param("TANH", 1 / 4096, id="tanh_int16_pot"),
    pytest.param("TANH", 1 / 2048, id="tanh_int16_pot_shift1"),
    pytest.param("TANH", 0.00021, id="tanh_int16"),
    pytest.param("TANH", 0.0011, id="tanh_int16_wide"),
]


@pytest.mark.parametrize("op, scale", UNARY16)
def test_unary_int16_sweep(op, scale):
    """Every 13th int16 value from the bottom, and the top."""
    buf = _unary(op, "int16", (scale, 0), (1 / 32768, 0), (3, 1681))
    x = np.concatenate([np.arange(-32768, 32767, 13), [32767]])
    inputs = [x.astype(np.int16).reshape(3, 1681)]
    _assert_exact(ffi_core_host(buf, inputs)[0], litert_reference(buf, inputs)[0], "int16")

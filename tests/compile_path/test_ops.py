"""The compile path against LiteRT, one operator at a time.

Each case writes a one-operator int8 model (tflite_builder.py), runs it on
LiteRT's reference kernels and through ffi-core's compile path on this host
(reference.py), and compares the outputs. The refusal cases check that what
the importer does not cover is refused by name, as UnsupportedModel.
"""
import numpy as np
import pytest
from reference import assert_refused, case_seed, check_against_litert, litert_reference, make_inputs
from tflite_builder import (ModelBuilder, conv_model, fully_connected_model, int8_weights,
                            pool_model)

# The int8 operands' spread, for choosing scales that keep outputs off the
# rails: uniform int8 values have a standard deviation of about 74.
INT8_STD = 74.0
OUT_SCALE, OUT_ZP = 0.06, -20  # 6.0 (RELU6's top) is 100 LSB above zero
OUT_STD = 2.4  # the real output spread the scales aim at: about 40 LSB
W_SCALE = 0.004  # the weights' scale, per-channel scales spread around it


def _bias(b, rng, in_scale, w_scales):
    scales = in_scale * w_scales
    data = rng.integers(-2000, 2000, size=len(scales), dtype=np.int32)
    return b.tensor((len(scales),), "int32", "bias", scale=scales, zero_point=0, data=data)


def _in_scale(w_shape, w_axis):
    """The input scale that aims the output at OUT_STD: each output sums
    the products of one output channel's weights."""
    terms = int(np.prod(w_shape)) // w_shape[w_axis]
    return OUT_STD / (np.sqrt(terms) * INT8_STD * INT8_STD * W_SCALE)


def conv(rng, per_channel=True, **geometry):
    """CONV_2D or DEPTHWISE_CONV_2D (conv_model's geometry)."""
    def tensors(b, in_shape, w_shape, w_axis, out_shape):
        in_scale = _in_scale(w_shape, w_axis)
        x = b.tensor(in_shape, "int8", "x", scale=in_scale, zero_point=5)
        wt, w_scales = int8_weights(b, rng, w_shape, w_axis, per_channel, W_SCALE)
        # LiteRT's quantized convolutions require the bias.
        y = b.tensor(out_shape, "int8", "y", scale=OUT_SCALE, zero_point=OUT_ZP)
        return x, [x, wt, _bias(b, rng, in_scale, w_scales)], y
    return conv_model(tensors, **geometry)


def fully_connected(rng, per_channel=False, **geometry):
    def tensors(b, in_shape, w_shape, w_axis, out_shape):
        in_scale = _in_scale(w_shape, w_axis)
        x = b.tensor(in_shape, "int8", "x", scale=in_scale, zero_point=-7)
        wt, w_scales = int8_weights(b, rng, w_shape, w_axis, per_channel, W_SCALE)
        y = b.tensor(out_shape, "int8", "y", scale=OUT_SCALE, zero_point=OUT_ZP)
        return x, [x, wt, _bias(b, rng, in_scale, w_scales)], y
    return fully_connected_model(tensors, **geometry)


def average_pool(rng, **geometry):
    # Pooling keeps the input's quantization; 6.0 is at 110, inside int8.
    return pool_model("AVERAGE_POOL_2D", "int8", (0.05, -10), **geometry)


def add(rng, shape=(1, 5, 5, 3), a=(0.02, 3), c=(0.07, -9), out=(0.08, 2), act="NONE"):
    b = ModelBuilder()
    ta = b.tensor(shape, "int8", "a", scale=a[0], zero_point=a[1])
    tc = b.tensor(shape, "int8", "c", scale=c[0], zero_point=c[1])
    y = b.tensor(shape, "int8", "y", scale=out[0], zero_point=out[1])
    b.operator("ADD", [ta, tc], [y], {"fused_activation_function": act})
    return b.finish([ta, tc], [y])


def reshape(rng, in_shape=(1, 2, 3, 4), out_shape=(1, 24)):
    b = ModelBuilder()
    x = b.tensor(in_shape, "int8", "x", scale=0.1, zero_point=4)
    shape = b.tensor((len(out_shape),), "int32", "shape", data=out_shape)
    y = b.tensor(out_shape, "int8", "y", scale=0.1, zero_point=4)
    b.operator("RESHAPE", [x, shape], [y], {"new_shape": list(out_shape)})
    return b.finish([x], [y])


def softmax(rng, shape=(1, 10), in_scale=0.05, in_zp=-3, beta=1.0):
    b = ModelBuilder()
    x = b.tensor(shape, "int8", "x", scale=in_scale, zero_point=in_zp)
    # TFLite's int8 softmax output: scale 1/256, zero point -128.
    y = b.tensor(shape, "int8", "y", scale=1 / 256, zero_point=-128)
    b.operator("SOFTMAX", [x], [y], {"beta": beta})
    return b.finish([x], [y])


CASES = [
    pytest.param(conv, {}, id="conv_same_s1_perchannel"),
    pytest.param(conv, dict(padding="VALID", per_channel=False), id="conv_valid_pertensor"),
    pytest.param(conv, dict(stride=2, in_shape=(1, 8, 8, 3)), id="conv_same_s2_even"),
    pytest.param(conv, dict(stride=2, padding="VALID", in_shape=(1, 9, 8, 2)),
                 id="conv_valid_s2"),
    pytest.param(conv, dict(act="RELU"), id="conv_relu"),
    pytest.param(conv, dict(act="RELU6", kernel=(1, 1), channels=6), id="conv_1x1_relu6"),
    pytest.param(conv, dict(dilation=2, in_shape=(1, 8, 8, 2)), id="conv_dilation2"),
    pytest.param(conv, dict(stride=(2, 1), in_shape=(1, 8, 6, 3)), id="conv_stride_2x1"),
    pytest.param(conv, dict(kernel=(2, 3)), id="conv_2x3"),
    pytest.param(conv, dict(in_shape=(2, 5, 5, 3)), id="conv_batch2"),
    pytest.param(conv, dict(depthwise=True, channels=1), id="dwconv_same_s1_perchannel"),
    pytest.param(conv, dict(depthwise=True, channels=1, padding="VALID", per_channel=False),
                 id="dwconv_valid_pertensor"),
    pytest.param(conv, dict(depthwise=True, channels=1, stride=2, in_shape=(1, 8, 8, 4)),
                 id="dwconv_same_s2"),
    pytest.param(conv, dict(depthwise=True, channels=2, act="RELU6"),
                 id="dwconv_multiplier2_relu6"),
    pytest.param(conv, dict(depthwise=True, channels=1, act="RELU", stride=2, padding="VALID",
                            in_shape=(1, 9, 9, 5)), id="dwconv_valid_s2_relu"),
    pytest.param(conv, dict(depthwise=True, channels=1, dilation=2, in_shape=(1, 8, 8, 3)),
                 id="dwconv_dilation2"),
    pytest.param(fully_connected, {}, id="fc_batch3"),
    pytest.param(fully_connected, dict(in_shape=(2, 2, 8), units=5, act="RELU"),
                 id="fc_flattened_batch4_relu"),
    pytest.param(fully_connected, dict(in_shape=(1, 2, 2, 4), act="RELU6"), id="fc_4d_relu6"),
    pytest.param(fully_connected, dict(per_channel=True, in_shape=(2, 12)),
                 id="fc_perchannel"),
    pytest.param(fully_connected, dict(in_shape=(2, 3, 8), units=5, keep_num_dims=True),
                 id="fc_keep_num_dims"),
    pytest.param(average_pool, {}, id="avgpool_same_s2"),
    pytest.param(average_pool, dict(padding="VALID"), id="avgpool_valid_s2"),
    pytest.param(average_pool, dict(window=(2, 2), stride=1, act="RELU6"),
                 id="avgpool_same_s1_relu6"),
    pytest.param(add, {}, id="add_scales_differ"),
    pytest.param(add, dict(a=(0.1, -20), c=(0.01, 0), out=(0.05, -5), act="RELU"),
                 id="add_relu"),
    pytest.param(add, dict(shape=(2, 7), a=(0.03, 0), c=(0.03, 0), out=(0.03, 0)),
                 id="add_same_scales"),
    pytest.param(reshape, {}, id="reshape_4d_to_2d"),
    pytest.param(reshape, dict(in_shape=(2, 12), out_shape=(1, 3, 8)), id="reshape_2d_to_3d"),
    pytest.param(softmax, {}, id="softmax_1x10"),
    pytest.param(softmax, dict(shape=(2, 3, 7), in_scale=0.1, in_zp=10, beta=0.5),
                 id="softmax_3d_beta0.5"),
    pytest.param(softmax, dict(shape=(1, 4), in_scale=0.01, in_zp=0), id="softmax_close_logits"),
]


@pytest.mark.parametrize("make, params", CASES)
def test_matches_litert(make, params, request):
    rng = np.random.default_rng(case_seed(request))
    buf = make(rng, **params)
    check_against_litert(buf, make_inputs(buf, case_seed(request)), "int8", exact=True)


# ---- refusals: what the importer does not cover, named ----

def custom_op(rng):
    b = ModelBuilder()
    x = b.tensor((1, 4), "int8", "x", scale=0.1, zero_point=0)
    y = b.tensor((1, 4), "int8", "y", scale=0.1, zero_point=0)
    b.operator("CUSTOM", [x], [y], custom_code="FfiCoreTestOp")
    return b.finish([x], [y])


def gelu(rng):
    """GELU's code is above 127: only the builtin_code field holds it."""
    b = ModelBuilder()
    x = b.tensor((1, 8), "int8", "x", scale=0.05, zero_point=0)
    y = b.tensor((1, 8), "int8", "y", scale=0.05, zero_point=0)
    b.operator("GELU", [x], [y], {"approximate": False})
    return b.finish([x], [y])


def add_int16_pot(rng):
    """int16 ADD with power-of-two scales (AddOptions' default pot_scale_int16)."""
    b = ModelBuilder()
    a = b.tensor((1, 4, 4, 3), "int16", "a", scale=2 ** -10, zero_point=0)
    c = b.tensor((1, 4, 4, 3), "int16", "c", scale=2 ** -9, zero_point=0)
    y = b.tensor((1, 4, 4, 3), "int16", "y", scale=2 ** -9, zero_point=0)
    b.operator("ADD", [a, c], [y], {})
    return b.finish([a, c], [y])


def fc_hybrid(rng):
    """float32 activations with int8 weights (TFLite's hybrid scheme)."""
    b = ModelBuilder()
    x = b.tensor((2, 6), "float32", "xf")
    w = b.tensor((3, 6), "int8", "w_int8", scale=0.02, zero_point=0,
                 data=rng.integers(-127, 127, size=(3, 6), endpoint=True))
    bias = b.tensor((3,), "float32", "bias", data=rng.standard_normal(3))
    y = b.tensor((2, 3), "float32", "y")
    b.operator("FULLY_CONNECTED", [x, w, bias], [y], {})
    return b.finish([x], [y])


def conv_dilation_0(rng):
    return conv(rng, dilation=0)


def avgpool_window_0(rng):
    return average_pool(rng, window=(0, 3), padding="SAME")


REFUSALS = [
    # (model, runs on LiteRT, what the message must name)
    pytest.param(conv_dilation_0, False, "dilation [0, 0]", id="conv_dilation_0"),
    pytest.param(avgpool_window_0, False, "window [0, 3]", id="avgpool_window_0"),
    pytest.param(custom_op, False, "CUSTOM", id="custom_op"),
    pytest.param(gelu, True, "GELU", id="gelu_code_above_127"),
    pytest.param(add_int16_pot, True, "pot_scale_int16", id="add_int16_pot"),
    pytest.param(fc_hybrid, True, "w_int8", id="fc_hybrid"),
]


@pytest.mark.parametrize("make, runs_on_litert, named", REFUSALS)
def test_refused_by_name(make, runs_on_litert, named, request):
    buf = make(np.random.default_rng(case_seed(request)))
    if runs_on_litert:
        # A valid model, so the refusal is the importer's and not the model's.
        litert_reference(buf, make_inputs(buf, 0))
    assert_refused(buf, named)

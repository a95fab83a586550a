"""TFLite's 16x8 scheme against LiteRT: int16 activations (zero points 0),
int8 weights symmetric per tensor or per channel, int64 bias (int32 where the
options name it), for CONV_2D,
DEPTHWISE_CONV_2D and FULLY_CONNECTED; and int16 AVERAGE_POOL_2D.

Each case is a one-operator model (tflite_builder.py) run on LiteRT's
reference kernels and through the compile path on this host (reference.py);
the outputs must be equal bit for bit.
"""
import numpy as np
import pytest
from reference import assert_refused, case_seed, check_against_litert, make_inputs
from tflite_builder import conv_model, fully_connected_model, int8_weights, pool_model

# Uniform int16 values have a standard deviation of about 18900; the scales
# aim each output at a real spread of about 2.4, some 4000 LSB.
INT16_STD = 18900.0
INT8_STD = 74.0
W_SCALE = 0.004
OUT_STD = 2.4
OUT_SCALE = OUT_STD / 4000


def _bias(b, rng, in_scale, w_scales, dtype="int64"):
    """A bias worth about one output spread (int32: a hundredth of it, which
    int32 holds)."""
    scales = in_scale * w_scales
    spread = OUT_STD if dtype == "int64" else OUT_STD / 100
    data = np.round(rng.standard_normal(len(scales)) * spread / scales).astype(dtype)
    return b.tensor((len(scales),), dtype, "bias", scale=scales, zero_point=0, data=data)


def _bias_option(bias, bias_type, named):
    """An int32 bias is LiteRT's when the options name it (quantized_bias_type
    INT32); `named` false leaves it unnamed, as a refusal case wants."""
    if bias and bias_type == "int32" and named:
        return {"quantized_bias_type": "INT32"}
    return {}


def _in_scale(w_shape, w_axis):
    """The input scale that aims the output at OUT_STD: each output sums
    the products of one output channel's weights."""
    terms = int(np.prod(w_shape)) // w_shape[w_axis]
    return OUT_STD / (np.sqrt(terms) * INT16_STD * INT8_STD * W_SCALE)


def _tensors(rng, per_channel, bias, bias_type):
    """The tensors of a 16x8 convolution or dense model, for conv_model and
    fully_connected_model."""
    def tensors(b, in_shape, w_shape, w_axis, out_shape):
        in_scale = _in_scale(w_shape, w_axis)
        x = b.tensor(in_shape, "int16", "x", scale=in_scale, zero_point=0)
        wt, w_scales = int8_weights(b, rng, w_shape, w_axis, per_channel, W_SCALE)
        inputs = [x, wt] + ([_bias(b, rng, in_scale, w_scales, bias_type)] if bias else [])
        return x, inputs, b.tensor(out_shape, "int16", "y", scale=OUT_SCALE, zero_point=0)
    return tensors


def conv(rng, depthwise=False, per_channel=True, bias=True, bias_type="int64", named=True,
         **geometry):
    """CONV_2D or DEPTHWISE_CONV_2D (conv_model's geometry); LiteRT's
    depthwise one has no quantized_bias_type."""
    options = {} if depthwise else _bias_option(bias, bias_type, named)
    return conv_model(_tensors(rng, per_channel, bias, bias_type), depthwise=depthwise,
                      options=options, **geometry)


def fully_connected(rng, per_channel=False, bias=True, bias_type="int64", named=True,
                    **geometry):
    return fully_connected_model(_tensors(rng, per_channel, bias, bias_type),
                                 options=_bias_option(bias, bias_type, named), **geometry)


def average_pool(rng, **geometry):
    # 6.0 (RELU6's top) at 12000, inside int16.
    return pool_model("AVERAGE_POOL_2D", "int16", (0.0005, 0), **geometry)


CASES = [
    pytest.param(conv, {}, id="conv_same"),
    pytest.param(conv, dict(padding="VALID", stride=2, in_shape=(1, 8, 9, 2)), id="conv_valid_s2"),
    pytest.param(conv, dict(dilation=2, kernel=(2, 3)), id="conv_dilated"),
    pytest.param(conv, dict(per_channel=False), id="conv_pertensor"),
    pytest.param(conv, dict(act="RELU"), id="conv_relu"),
    pytest.param(conv, dict(act="RELU6", in_shape=(2, 5, 5, 4), channels=3), id="conv_relu6_batch2"),
    pytest.param(conv, dict(kernel=(1, 1), in_shape=(1, 4, 4, 8), channels=6), id="conv_1x1"),
    pytest.param(conv, dict(depthwise=True, channels=1), id="dwconv_same"),
    pytest.param(conv, dict(depthwise=True, channels=2, stride=2, padding="VALID"),
                 id="dwconv_mult2_valid_s2"),
    pytest.param(conv, dict(depthwise=True, channels=1, dilation=2, act="RELU6"),
                 id="dwconv_dilated_relu6"),
    pytest.param(conv, dict(depthwise=True, channels=1, per_channel=False, bias=False),
                 id="dwconv_pertensor_nobias"),
    pytest.param(fully_connected, {}, id="fc"),
    pytest.param(fully_connected, dict(per_channel=True), id="fc_per_channel"),
    pytest.param(fully_connected, dict(act="RELU", bias=False), id="fc_relu_nobias"),
    pytest.param(fully_connected, dict(in_shape=(2, 3, 12), units=5, keep_num_dims=True),
                 id="fc_keep_num_dims"),
    pytest.param(conv, dict(bias_type="int32", in_shape=(2, 12, 12, 8), channels=16),
                 id="conv_bias32"),
    pytest.param(conv, dict(bias_type="int32", per_channel=False, stride=2, act="RELU6"),
                 id="conv_bias32_pertensor_s2_relu6"),
    pytest.param(fully_connected, dict(bias_type="int32"), id="fc_bias32"),
    pytest.param(fully_connected, dict(bias_type="int32", per_channel=True, act="RELU"),
                 id="fc_bias32_per_channel_relu"),
    pytest.param(average_pool, {}, id="avgpool_same"),
    pytest.param(average_pool, dict(padding="VALID", window=(2, 3), stride=1),
                 id="avgpool_valid"),
    pytest.param(average_pool, dict(act="RELU6"), id="avgpool_relu6"),
    pytest.param(average_pool, dict(in_shape=(2, 6, 6, 3), window=(6, 6), padding="VALID"),
                 id="avgpool_global_batch2"),
]


@pytest.mark.parametrize("make, params", CASES)
def test_matches_litert(make, params, request):
    rng = np.random.default_rng(case_seed(request))
    buf = make(rng, **params)
    check_against_litert(buf, make_inputs(buf, case_seed(request)), "int16", exact=True)


# An int32 bias that the options do not name (LiteRT would read it as
# int64), and a depthwise one (LiteRT takes int64 alone there): refused by name.
REFUSALS = [
    pytest.param(conv, {}, id="conv_int32_bias_unnamed"),
    pytest.param(fully_connected, {}, id="fc_int32_bias_unnamed"),
    pytest.param(conv, dict(depthwise=True), id="dwconv_int32_bias"),
]


@pytest.mark.parametrize("make, params", REFUSALS)
def test_int32_bias_refused(make, params, request):
    buf = make(np.random.default_rng(case_seed(request)), bias_type="int32", named=False, **params)
    assert_refused(buf, "int64")

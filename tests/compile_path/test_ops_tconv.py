"""TRANSPOSE_CONV and RESIZE_BILINEAR against LiteRT, for each type they take.

Each case is a one-operator model (tflite_builder.py) run on LiteRT's
reference kernels and through the compile path on this host (reference.py).
Integer outputs must equal LiteRT's bit for bit; float32 ones within
reference.py's tolerance.
"""
import numpy as np
import pytest
from reference import assert_refused, case_seed, check_against_litert, make_inputs
from tflite_builder import ModelBuilder

# Each activation type's quantization: int16 is symmetric in TFLite.
QUANT = {"int8": (0.05, 3), "int16": (0.001, 0), "float32": (None, None)}


# Uniform int8 and int16 values have standard deviations of about 74 and
# 18900; the scales aim each output at a real spread of about 2.4.
STD = {"int8": 74.0, "int16": 18900.0}
OUT_STD = 2.4
W_SCALE = 0.004
OUT_QUANT = {"int8": (0.06, -20), "int16": (OUT_STD / 4000, 0)}


def transpose_conv(rng, dtype, in_shape=(1, 3, 3, 2), channels=3, kernel=(3, 3), stride=2,
                   padding="SAME", act="NONE", per_channel=True, bias=True, out_hw=None,
                   bias_type=None):
    """TRANSPOSE_CONV; out_hw: the output's height and width, by default the
    largest that TFLite takes for the input; bias_type: int16's, int64 unless
    int32 (then named by the options' quantized_bias_type)."""
    n, h, w, ci = in_shape
    options = {"padding": padding, "stride_h": stride, "stride_w": stride,
               "fused_activation_function": act}
    if out_hw is None:
        out_hw = ((h * stride, w * stride) if padding == "SAME" else
                  ((h - 1) * stride + kernel[0], (w - 1) * stride + kernel[1]))
    out_shape = (n, *out_hw, channels)
    w_shape = (channels, *kernel, ci)
    b = ModelBuilder()
    shape = b.tensor((4,), "int32", "output_shape", data=np.asarray(out_shape))
    if dtype == "float32":
        x = b.tensor(in_shape, dtype, "x")
        wt = b.tensor(w_shape, dtype, "w", data=rng.standard_normal(w_shape) * 0.5)
        bt = b.tensor((channels,), dtype, "bias", data=rng.standard_normal(channels))
        y = b.tensor(out_shape, dtype, "y")
    else:
        # Each output sums about this many taps.
        taps = kernel[0] * kernel[1] * ci / (stride * stride)
        in_scale = OUT_STD / (np.sqrt(taps) * STD[dtype] * 74.0 * W_SCALE)
        x = b.tensor(in_shape, dtype, "x", scale=in_scale, zero_point=5 if dtype == "int8" else 0)
        w_scales = W_SCALE * (rng.uniform(0.5, 1.5, channels) if per_channel
                              else np.ones(channels))
        wt = b.tensor(w_shape, "int8", "w", scale=w_scales if per_channel else W_SCALE,
                      zero_point=0, data=rng.integers(-127, 127, size=w_shape, endpoint=True))
        bias_type = bias_type or ("int32" if dtype == "int8" else "int64")
        bt = b.tensor((channels,), bias_type, "bias", scale=in_scale * w_scales, zero_point=0,
                      data=rng.integers(-2000, 2000, size=channels) * (1 if dtype == "int8"
                                                                         else 300))
        if dtype == "int16" and bias_type == "int32":
            options["quantized_bias_type"] = "INT32"
        scale, zp = OUT_QUANT[dtype]
        y = b.tensor(out_shape, dtype, "y", scale=scale, zero_point=zp)
    # TFLite's order: output shape, weights, input, bias.
    b.operator("TRANSPOSE_CONV", [shape, wt, x] + ([bt] if bias else []), [y], options)
    return b.finish([x], [y])


def resize_bilinear(dtype, shape=(1, 3, 4, 2), size=(7, 5), align_corners=False,
                    half_pixel_centers=False):
    b = ModelBuilder()
    scale, zp = QUANT[dtype]
    x = b.tensor(shape, dtype, "x", scale=scale, zero_point=zp)
    sizes = b.tensor((2,), "int32", "size", data=np.asarray(size))
    y = b.tensor((shape[0], *size, shape[3]), dtype, "y", scale=scale, zero_point=zp)
    b.operator("RESIZE_BILINEAR", [x, sizes], [y],
               {"align_corners": align_corners, "half_pixel_centers": half_pixel_centers})
    return b.finish([x], [y])


def _each(make, params, id, types):
    return [pytest.param(make, t, params, id=f"{id}_{t}") for t in types]


TYPES = ("int8", "int16", "float32")
RESIZE_TYPES = TYPES
CASES = [
    *_each(transpose_conv, {}, "tconv_same_s2", TYPES),
    *_each(transpose_conv, dict(padding="VALID"), "tconv_valid_s2", TYPES),
    *_each(transpose_conv, dict(stride=1, in_shape=(1, 4, 5, 3)), "tconv_same_s1", TYPES),
    *_each(transpose_conv, dict(stride=1, padding="VALID", kernel=(2, 3)), "tconv_valid_s1_2x3",
           TYPES),
    *_each(transpose_conv, dict(per_channel=False, bias=False), "tconv_pertensor_nobias",
           TYPES),
    *_each(transpose_conv, dict(act="RELU"), "tconv_relu", TYPES),
    *_each(transpose_conv, dict(act="RELU6", stride=3, kernel=(2, 2)), "tconv_relu6_s3", TYPES),
    *_each(transpose_conv, dict(out_hw=(5, 6)), "tconv_same_odd_output", TYPES),
    *_each(transpose_conv, dict(in_shape=(2, 2, 3, 4), channels=5, kernel=(3, 2)),
           "tconv_batch2", TYPES),

    *_each(transpose_conv, dict(bias_type="int32", in_shape=(2, 6, 6, 8), channels=16),
           "tconv_bias32", ("int16",)),
    *_each(transpose_conv, dict(bias_type="int32", per_channel=False, act="RELU"),
           "tconv_bias32_pertensor_relu", ("int16",)),

    *_each(resize_bilinear, {}, "bilinear_up", RESIZE_TYPES),
    *_each(resize_bilinear, dict(align_corners=True), "bilinear_align", RESIZE_TYPES),
    *_each(resize_bilinear, dict(half_pixel_centers=True), "bilinear_half", RESIZE_TYPES),
    *_each(resize_bilinear, dict(size=(2, 3)), "bilinear_down", RESIZE_TYPES),
    *_each(resize_bilinear, dict(size=(2, 3), half_pixel_centers=True), "bilinear_down_half",
           RESIZE_TYPES),
    *_each(resize_bilinear, dict(shape=(2, 3, 5, 1), size=(8, 13), half_pixel_centers=True),
           "bilinear_batch2_half", RESIZE_TYPES),
    *_each(resize_bilinear, dict(size=(1, 4), align_corners=True), "bilinear_align_one_row",
           ("int8", "float32")),
]


@pytest.mark.parametrize("make, dtype, params", CASES)
def test_matches_litert(make, dtype, params, request):
    rng = np.random.default_rng(case_seed(request))
    buf = make(dtype, **params) if make is resize_bilinear else make(rng, dtype, **params)
    check_against_litert(buf, make_inputs(buf, case_seed(request)), dtype,
                         exact=dtype != "float32")


# ---- refusals ----

def _bilinear_both_options():
    return resize_bilinear("int8", align_corners=True, half_pixel_centers=True)


def _tconv_int16_int32_bias():
    """An int32 bias without quantized_bias_type INT32, which LiteRT would
    read as int64."""
    b = ModelBuilder()
    shape = b.tensor((4,), "int32", "output_shape", data=np.asarray((1, 4, 4, 1)))
    w = b.tensor((1, 3, 3, 1), "int8", "w", scale=0.01, zero_point=0,
                 data=np.ones((1, 3, 3, 1)))
    x = b.tensor((1, 2, 2, 1), "int16", "x", scale=0.001, zero_point=0)
    bias = b.tensor((1,), "int32", "bias", scale=0.00001, zero_point=0, data=[3])
    y = b.tensor((1, 4, 4, 1), "int16", "y", scale=0.001, zero_point=0)
    b.operator("TRANSPOSE_CONV", [shape, w, x, bias], [y],
               {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    return b.finish([x], [y])


def _tconv_shape_mismatch():
    """An output shape input unlike the output tensor's shape."""
    b = ModelBuilder()
    shape = b.tensor((4,), "int32", "output_shape", data=np.asarray((1, 4, 4, 1)))
    w = b.tensor((1, 3, 3, 1), "float32", "w", data=np.ones((1, 3, 3, 1)))
    x = b.tensor((1, 2, 2, 1), "float32", "x")
    y = b.tensor((1, 3, 3, 1), "float32", "y")
    b.operator("TRANSPOSE_CONV", [shape, w, x], [y],
               {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    return b.finish([x], [y])


REFUSALS = [
    pytest.param(_tconv_int16_int32_bias, "int64", id="tconv_int16_int32_bias"),
    pytest.param(_tconv_shape_mismatch, "output shape", id="tconv_output_shape_mismatch"),
    pytest.param(_bilinear_both_options, "align_corners with half_pixel_centers",
                 id="bilinear_align_and_half"),
]


@pytest.mark.parametrize("make, named", REFUSALS)
def test_refused_by_name(make, named):
    assert_refused(make(), named)

"""The compile path's float32 operators against LiteRT's reference kernels,
one operator per model (tflite_builder.py, reference.py), and a small whole
float32 model (conv, depthwise conv, average pool, fully connected, softmax).
"""
import zlib

import numpy as np
import pytest
import tflite_builder
from reference import (assert_close, case_seed, check_against_litert, ffi_core_host, importer,
                       litert_reference, make_inputs)
from tflite_builder import ModelBuilder, conv_model, fully_connected_model, pool_model

# Options tables of operators the builder does not know yet.
tflite_builder._OPTIONS.update({
    "DIV": "DivOptions", "LEAKY_RELU": "LeakyReluOptions", "MEAN": "ReducerOptions",
    "SUM": "ReducerOptions", "REDUCE_MAX": "ReducerOptions", "LOG_SOFTMAX": "LogSoftmaxOptions",
})
F = "float32"


def _const(b, rng, shape, name, scale=1.0):
    return b.tensor(shape, F, name, data=(scale * rng.standard_normal(shape)).astype(F))


def conv(rng, **geometry):
    """CONV_2D or DEPTHWISE_CONV_2D (conv_model's geometry)."""
    def tensors(b, in_shape, w_shape, w_axis, out_shape):
        x = b.tensor(in_shape, F, "x")
        # LiteRT's convolutions require the bias.
        inputs = [x, _const(b, rng, w_shape, "w", 0.3),
                  _const(b, rng, (w_shape[w_axis],), "bias")]
        return x, inputs, b.tensor(out_shape, F, "y")
    return conv_model(tensors, **geometry)


def fully_connected(rng, bias=True, **geometry):
    def tensors(b, in_shape, w_shape, w_axis, out_shape):
        x = b.tensor(in_shape, F, "x")
        inputs = [x, _const(b, rng, w_shape, "w", 0.3)]
        inputs.append(_const(b, rng, (w_shape[w_axis],), "bias") if bias else -1)
        return x, inputs, b.tensor(out_shape, F, "y")
    return fully_connected_model(tensors, **geometry)


def average_pool(rng, **geometry):
    return pool_model("AVERAGE_POOL_2D", F, **geometry)


def softmax(rng, shape=(2, 10), beta=1.0, log=False):
    b = ModelBuilder()
    x = b.tensor(shape, F, "x")
    y = b.tensor(shape, F, "y")
    if log:
        b.operator("LOG_SOFTMAX", [x], [y])
    else:
        b.operator("SOFTMAX", [x], [y], {"beta": beta})
    return b.finish([x], [y])


def binary(rng, op, shape=(1, 4, 5, 3), other=None, const=False, act=None, positive=False):
    """`op` of an activation of `shape` and a second operand of shape `other`
    (broadcast), an activation or a constant; `positive`: the second operand
    is kept away from zero (DIV)."""
    other = shape if other is None else other
    b = ModelBuilder()
    a = b.tensor(shape, F, "a")
    if const:
        data = rng.standard_normal(other).astype(F)
        if positive:
            data = (np.abs(data) + 0.5).astype(F)
        c = b.tensor(other, F, "c", data=data)
    else:
        c = b.tensor(other, F, "c")
    y = b.tensor(np.broadcast_shapes(shape, other), F, "y")
    b.operator(op, [a, c], [y], {"fused_activation_function": act} if act else None)
    return b.finish([a] if const else [a, c], [y])


def unary(rng, op, shape=(2, 3, 4), options=None):
    b = ModelBuilder()
    x = b.tensor(shape, F, "x")
    y = b.tensor(shape, F, "y")
    b.operator(op, [x], [y], options)
    return b.finish([x], [y])


def prelu(rng, shape=(1, 3, 3, 4), alpha_shape=(4,)):
    b = ModelBuilder()
    x = b.tensor(shape, F, "x")
    alpha = b.tensor(alpha_shape, F, "alpha",
                     data=rng.uniform(0.05, 0.5, alpha_shape).astype(F))
    y = b.tensor(shape, F, "y")
    b.operator("PRELU", [x, alpha], [y])
    return b.finish([x], [y])


def reduce(rng, op, shape=(2, 3, 4, 5), axes=(1, 2), keep_dims=False):
    rank = len(shape)
    norm = {a % rank for a in axes}
    out = tuple(1 if k in norm else n for k, n in enumerate(shape) if keep_dims or k not in norm)
    b = ModelBuilder()
    x = b.tensor(shape, F, "x")
    ax = b.tensor((len(axes),), "int32", "axes", data=np.asarray(axes, np.int32))
    y = b.tensor(out, F, "y")
    b.operator(op, [x, ax], [y], {"keep_dims": keep_dims})
    return b.finish([x], [y])


def small_model(rng):
    """A whole float32 model: conv 3x3 (RELU6) -> depthwise 3x3 stride 2
    (multiplier 2, RELU) -> average pool -> fully connected -> softmax."""
    b = ModelBuilder()
    x = b.tensor((1, 8, 8, 2), F, "input")
    c1 = b.tensor((1, 8, 8, 4), F, "conv")
    b.operator("CONV_2D", [x, _const(b, rng, (4, 3, 3, 2), "conv_w", 0.4),
                           _const(b, rng, (4,), "conv_b")], [c1],
               {"padding": "SAME", "stride_h": 1, "stride_w": 1,
                "fused_activation_function": "RELU6"})
    c2 = b.tensor((1, 4, 4, 8), F, "dwconv")
    b.operator("DEPTHWISE_CONV_2D", [c1, _const(b, rng, (1, 3, 3, 8), "dw_w", 0.4),
                                     _const(b, rng, (8,), "dw_b")], [c2],
               {"padding": "SAME", "stride_h": 2, "stride_w": 2, "depth_multiplier": 2,
                "fused_activation_function": "RELU"})
    p = b.tensor((1, 2, 2, 8), F, "pool")
    b.operator("AVERAGE_POOL_2D", [c2], [p],
               {"padding": "VALID", "stride_h": 2, "stride_w": 2, "filter_height": 2,
                "filter_width": 2})
    logits = b.tensor((1, 5), F, "logits")
    b.operator("FULLY_CONNECTED", [p, _const(b, rng, (5, 32), "fc_w", 0.3),
                                   _const(b, rng, (5,), "fc_b")], [logits])
    y = b.tensor((1, 5), F, "probabilities")
    b.operator("SOFTMAX", [logits], [y], {"beta": 1.0})
    return b.finish([x], [y])


def _p(make, params, id):
    return pytest.param(make, params, id=id)


CASES = [
    _p(conv, {}, "conv_same_s1"),
    _p(conv, dict(padding="VALID", act="RELU"), "conv_valid_relu"),
    _p(conv, dict(stride=2, in_shape=(1, 8, 8, 3), act="RELU6"), "conv_same_s2_relu6"),
    _p(conv, dict(dilation=2, in_shape=(1, 8, 8, 2), kernel=(2, 3)), "conv_dilation2_2x3"),
    _p(conv, dict(in_shape=(2, 5, 5, 3), act="RELU_N1_TO_1"), "conv_batch2_relun1"),
    _p(conv, dict(depthwise=True, channels=1), "dwconv_same_s1"),
    _p(conv, dict(depthwise=True, channels=3, act="RELU6"), "dwconv_multiplier3_relu6"),
    _p(conv, dict(depthwise=True, channels=2, stride=2, padding="VALID",
                  in_shape=(1, 9, 9, 2)), "dwconv_multiplier2_valid_s2"),
    _p(fully_connected, {}, "fc_batch3"),
    _p(fully_connected, dict(in_shape=(1, 2, 2, 4), act="RELU", bias=False),
       "fc_4d_relu_nobias"),
    _p(fully_connected, dict(in_shape=(2, 3, 6), units=4, keep_num_dims=True),
       "fc_keep_num_dims"),
    _p(average_pool, {}, "avgpool_same_s2"),
    _p(average_pool, dict(padding="VALID", act="RELU"), "avgpool_valid_relu"),
    _p(softmax, {}, "softmax"),
    _p(softmax, dict(shape=(1, 3, 7), beta=0.4), "softmax_3d_beta"),
    _p(softmax, dict(log=True), "log_softmax"),
    _p(binary, dict(op="ADD"), "add"),
    _p(binary, dict(op="ADD", other=(3,), const=True, act="RELU6"), "add_const_broadcast_relu6"),
    _p(binary, dict(op="ADD", shape=(1, 4, 1, 3), other=(1, 1, 5, 1)), "add_both_broadcast"),
    _p(binary, dict(op="SUB", other=(1, 1, 5, 3), act="RELU"), "sub_broadcast_relu"),
    _p(binary, dict(op="SUB", other=(), const=True), "sub_scalar_const"),
    _p(binary, dict(op="MUL", act="RELU_N1_TO_1"), "mul_relun1"),
    _p(binary, dict(op="MUL", other=(5, 1), const=True), "mul_const_broadcast"),
    _p(binary, dict(op="DIV", other=(3,), const=True, positive=True), "div_const"),
    _p(binary, dict(op="DIV", other=(3,), const=True, positive=True, act="RELU"), "div_relu"),
    _p(binary, dict(op="MINIMUM"), "minimum"),
    _p(binary, dict(op="MAXIMUM", other=(1, 1, 1, 3), const=True), "maximum_const"),
    _p(binary, dict(op="SQUARED_DIFFERENCE", other=(1, 5, 3)), "squared_difference_broadcast"),
    _p(unary, dict(op="ABS"), "abs"),
    _p(unary, dict(op="NEG"), "neg"),
    _p(unary, dict(op="RELU"), "relu"),
    _p(unary, dict(op="RELU6", shape=(4, 40)), "relu6"),
    _p(unary, dict(op="RELU_N1_TO_1"), "relu_n1_to_1"),
    _p(unary, dict(op="LEAKY_RELU", options={"alpha": 0.2}), "leaky_relu"),
    _p(unary, dict(op="HARD_SWISH", shape=(4, 40)), "hard_swish"),
    _p(unary, dict(op="LOGISTIC"), "logistic"),
    _p(unary, dict(op="TANH"), "tanh"),
    _p(prelu, {}, "prelu_per_channel"),
    _p(prelu, dict(alpha_shape=(1, 1, 4)), "prelu_3d_alpha"),
    _p(reduce, dict(op="MEAN"), "mean"),
    _p(reduce, dict(op="MEAN", axes=(1, 2), keep_dims=True, shape=(1, 4, 4, 3)),
       "mean_keep_dims"),
    _p(reduce, dict(op="SUM", axes=(-1,)), "sum_last_axis"),
    _p(reduce, dict(op="SUM", axes=(0, 3), keep_dims=True), "sum_keep_dims"),
    _p(reduce, dict(op="MEAN", axes=(0, 1, 2)), "mean_leading_axes"),
    _p(reduce, dict(op="SUM", axes=(1, -3)), "sum_repeated_axis"),
    _p(reduce, dict(op="REDUCE_MAX", axes=(2,)), "reduce_max"),
    _p(reduce, dict(op="REDUCE_MAX", axes=(1, -1), keep_dims=True), "reduce_max_keep_dims"),
    _p(small_model, {}, "model_conv_dwconv_pool_fc_softmax"),
]


def _positive(inputs):
    """RSQRT's inputs, away from zero."""
    return [np.abs(x) + np.float32(0.1) for x in inputs]


@pytest.mark.parametrize("make, params", CASES)
def test_matches_litert(make, params, request):
    rng = np.random.default_rng(case_seed(request))
    buf = make(rng, **params)
    check_against_litert(buf, make_inputs(buf, case_seed(request)), F)


def test_rsqrt_matches_litert():
    buf = unary(None, "RSQRT")
    inputs = _positive(make_inputs(buf, 7))
    assert_close(ffi_core_host(buf, inputs)[0], litert_reference(buf, inputs)[0], F)


def test_float_refusals_name_what():
    from_tflite, unsupported = importer()
    b = ModelBuilder()
    x = b.tensor((1, 4, 6), F, "x")
    c = b.tensor((1, 3, 6), F, "c")
    y = b.tensor((1, 4, 6), F, "y")
    b.operator("ADD", [x, c], [y])
    with pytest.raises(unsupported, match="c of shape"):
        from_tflite(b.finish([x, c], [y]))


@pytest.mark.parametrize("op", ["TANH", "LOGISTIC", "HARD_SWISH", "RELU_N1_TO_1", "SOFTMAX",
                                "LOG_SOFTMAX"])
def test_far_inputs_match_litert(op):
    """Inputs far out, where exponentials overflow or saturate."""
    x = (np.random.default_rng(zlib.crc32(op.encode())).standard_normal((2, 3, 4)) * 30).astype(F)
    x.flat[:6] = [100, -100, 1e-8, -1e-8, 40, -90]
    if op == "SOFTMAX":
        buf = softmax(None, shape=x.shape)
    elif op == "LOG_SOFTMAX":
        buf = softmax(None, shape=x.shape, log=True)
    else:
        buf = unary(None, op)
    assert_close(ffi_core_host(buf, [x])[0], litert_reference(buf, [x])[0], F)


def test_registry_takes_disjoint_types():
    """ADD's int8 and float32 lowerings are two registrations; a second
    float32 one is refused, and the table shows one row with both types."""
    from ffi_core_tvm.tflite import registry
    assert "float32" in registry.types("ADD")  # every family registered
    with pytest.raises(ValueError, match="ADD has two lowerings for float32"):
        registry.lowering("ADD", types=("float32",))(lambda ctx, op: None)
    row = next(e for e in registry.lowerings() if e.op == "ADD")
    assert {"int8", "float32"} <= set(row.types)
    assert registry.find("ADD", "float32").fn is not registry.find("ADD", "int8").fn

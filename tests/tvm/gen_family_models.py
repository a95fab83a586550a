"""Writes one small TFLite model per operator family of the compile path
(tvm_backend/python/ffi_core_tvm/tflite/ops/), several operators chained
where that is natural, with tests/compile_path/tflite_builder.py (no
TensorFlow). tests/tvm/CMakeLists.txt compiles each for the board's CPU and
runs it in the board's firmware (gen_tflite_test.py, run_tflite_test.cc)
against LiteRT's reference kernels (BUILTIN_REF).

The shapes are tiny: each model but slicing's and float32's fits the
micro:bit's 16 KB of RAM beside the runtime, and each adds a second or two
to a board's build. The weights and constants are seeded; the scales
keep the outputs varied (checked) and mostly off their rails.

    gen_family_models.py --cpu CPU --out DIR
writes DIR/<family>.tflite and, in one process (TVM's import is most of a
model's time), DIR/<family>/ as gen_tflite_test.py writes a model's
directory, against LiteRT's reference kernels.
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "compile_path"))

import tflite_builder  # noqa: E402
from gen_tflite_test import write_test  # noqa: E402
from test_ops_lstm import lstm_model  # noqa: E402
from tflite_builder import ModelBuilder  # noqa: E402

# Options tables of operators tflite_builder does not list.
for _op, _table in (("DIV", "DivOptions"), ("LOG_SOFTMAX", "LogSoftmaxOptions"),
                    ("SVDF", "SVDFOptions")):
    tflite_builder._OPTIONS.setdefault(_op, _table)

F = "float32"


class Chain:
    """A model built operator by operator; `seed` makes its constants."""

    def __init__(self, seed):
        self.b = ModelBuilder()
        self.rng = np.random.default_rng(seed)
        self.inputs = []

    def act(self, shape, dtype, name, q=None, is_input=False):
        scale, zp = q if q is not None else (None, None)
        t = self.b.tensor(shape, dtype, name, scale=scale, zero_point=zp)
        if is_input:
            self.inputs.append(t)
        return t

    def ints(self, values, name, dtype="int32"):
        values = np.asarray(values)
        return self.b.tensor(values.shape, dtype, name, data=values)

    def weights(self, shape, axis, name, scale=0.004):
        """Symmetric int8 weights, per channel along `axis`; returns (tensor,
        scales)."""
        scales = scale * self.rng.uniform(0.5, 1.5, shape[axis])
        data = self.rng.integers(-127, 127, size=shape, endpoint=True)
        return self.b.tensor(shape, "int8", name, scale=scales, zero_point=0, quant_axis=axis,
                             data=data), scales

    def bias(self, scales, name, spread, dtype="int32"):
        """A bias of about `spread` in real terms."""
        data = np.round(self.rng.standard_normal(len(scales)) * spread / scales)
        return self.b.tensor((len(scales),), dtype, name, scale=scales, zero_point=0, data=data)

    def floats(self, shape, name, scale=1.0, offset=0.0):
        data = (offset + scale * self.rng.standard_normal(shape)).astype(F)
        return self.b.tensor(shape, F, name, data=data)

    def op(self, name, ins, outs, options=None):
        self.b.operator(name, ins, outs, options)
        return outs[0] if len(outs) == 1 else outs

    def finish(self, outputs):
        return self.b.finish(self.inputs, outputs)


def conv_options(stride, act="NONE", padding="SAME", **extra):
    return {"padding": padding, "stride_h": stride, "stride_w": stride,
            "fused_activation_function": act, **extra}


def conv():
    """TRANSPOSE_CONV (stride 2) -> CONV_2D (RELU6), and -> DEPTHWISE_CONV_2D
    (multiplier 2, stride 2, RELU), int8, per-channel weights."""
    m = Chain(1)
    x = m.act((1, 3, 3, 4), "int8", "x", (0.03, 5), is_input=True)
    w1, s1 = m.weights((3, 3, 3, 4), 0, "tconv_w", 0.01)
    t = m.act((1, 6, 6, 3), "int8", "tconv", (0.04, -4))
    m.op("TRANSPOSE_CONV", [m.ints([1, 6, 6, 3], "output_shape"), w1, x,
                            m.bias(0.03 * s1, "tconv_b", 0.3)], [t],
         {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    w2, s2 = m.weights((4, 3, 3, 3), 0, "conv_w", 0.01)
    y1 = m.op("CONV_2D", [t, w2, m.bias(0.04 * s2, "conv_b", 0.5)],
              [m.act((1, 6, 6, 4), "int8", "conv", (0.05, -60))], conv_options(1, "RELU6"))
    w3, s3 = m.weights((1, 3, 3, 6), 3, "dw_w", 0.02)
    y2 = m.op("DEPTHWISE_CONV_2D", [t, w3, m.bias(0.04 * s3, "dw_b", 0.5)],
              [m.act((1, 3, 3, 6), "int8", "dwconv", (0.05, -100))],
              conv_options(2, "RELU", depth_multiplier=2))
    return m.finish([y1, y2])


def pool_reduce():
    """AVERAGE_POOL_2D -> MAX_POOL_2D -> RESHAPE -> FULLY_CONNECTED ->
    ARG_MAX, and MEAN and REDUCE_MAX of the pools, int8."""
    q = (0.05, -10)
    m = Chain(2)
    x = m.act((1, 6, 6, 4), "int8", "x", q, is_input=True)
    avg = m.op("AVERAGE_POOL_2D", [x], [m.act((1, 6, 6, 4), "int8", "avg", q)],
               {"padding": "SAME", "stride_h": 1, "stride_w": 1, "filter_height": 2,
                "filter_width": 2})
    mx = m.op("MAX_POOL_2D", [avg], [m.act((1, 3, 3, 4), "int8", "max", q)],
              {"padding": "SAME", "stride_h": 2, "stride_w": 2, "filter_height": 3,
               "filter_width": 3, "fused_activation_function": "RELU6"})
    flat = m.op("RESHAPE", [mx, m.ints([1, 36], "shape")],
                [m.act((1, 36), "int8", "flat", q)], {"new_shape": [1, 36]})
    w, s = m.weights((8, 36), 0, "fc_w", 0.01)
    fc = m.act((1, 8), "int8", "fc", (0.2, 3))
    m.op("FULLY_CONNECTED", [flat, w, m.bias(0.05 * s, "fc_b", 1.0)], [fc])
    arg = m.act((1,), "int32", "arg_max")
    m.op("ARG_MAX", [fc, m.ints([1], "arg_axis")], [arg], {"output_type": 2})
    mean = m.act((1, 4), "int8", "mean", (0.02, 0))
    m.op("MEAN", [avg, m.ints([1, 2], "mean_axes")], [mean], {"keep_dims": False})
    rmax = m.act((1, 6, 6, 1), "int8", "reduce_max", q)
    m.op("REDUCE_MAX", [avg, m.ints([3], "max_axis")], [rmax], {"keep_dims": True})
    return m.finish([fc, arg, mean, rmax])


def elementwise():
    """SUB (RELU) -> MUL by a constant -> SQUARED_DIFFERENCE -> ADD, and
    MINIMUM -> MAXIMUM (broadcast) and PRELU beside, int8."""
    m = Chain(3)
    shape = (1, 4, 4, 3)
    a = m.act(shape, "int8", "a", (0.02, 3), is_input=True)
    b = m.act(shape, "int8", "b", (0.03, -9), is_input=True)
    d = m.op("SUB", [a, b], [m.act(shape, "int8", "difference", (0.03, -100))],
             {"fused_activation_function": "RELU"})
    c = m.b.tensor((3,), "int8", "c", scale=0.01, zero_point=0, data=[50, -90, 120])
    p = m.op("MUL", [d, c], [m.act(shape, "int8", "product", (0.02, 0))])
    sq = m.op("SQUARED_DIFFERENCE", [p, a], [m.act(shape, "int8", "squared_difference",
                                                   (0.05, -128))])
    y = m.op("ADD", [sq, b], [m.act(shape, "int8", "sum", (0.06, -30))])
    q = (0.05, 1)
    u = m.act(shape, "int8", "u", q, is_input=True)
    v = m.act((1, 4, 1, 3), "int8", "v", q, is_input=True)
    lo = m.op("MINIMUM", [u, v], [m.act(shape, "int8", "minimum", q)])
    hi = m.op("MAXIMUM", [lo, u], [m.act(shape, "int8", "maximum", q)])
    alpha = m.b.tensor((3,), "int8", "alpha", scale=0.004, zero_point=0, data=[30, 100, -60])
    pr = m.op("PRELU", [u, alpha], [m.act(shape, "int8", "prelu", (0.04, -10))])
    return m.finish([y, hi, pr])


def activations():
    """LEAKY_RELU -> HARD_SWISH -> TANH; RELU6 -> LOGISTIC; RELU -> RSQRT;
    NEG -> RELU_N1_TO_1; ABS; int8, on every input value."""
    m = Chain(4)
    shape = (2, 128)
    x = m.act(shape, "int8", "x", (0.05, -10), is_input=True)

    def unary(op, src, name, q, options=None):
        return m.op(op, [src], [m.act(shape, "int8", name, q)], options)
    leaky = unary("LEAKY_RELU", x, "leaky_relu", (0.04, -20), {"alpha": 0.2})
    swish = unary("HARD_SWISH", leaky, "hard_swish", (0.03, -60))
    tanh = unary("TANH", swish, "tanh", (1 / 128, 0))
    relu6 = unary("RELU6", x, "relu6", (0.03, -100))
    logistic = unary("LOGISTIC", relu6, "logistic", (1 / 256, -128))
    relu = unary("RELU", x, "relu", (0.03, -128))
    rsqrt = unary("RSQRT", relu, "rsqrt", (0.05, -128))
    neg = unary("NEG", x, "neg", (0.05, 10))
    clip = unary("RELU_N1_TO_1", neg, "relu_n1_to_1", (0.01, 0))
    absolute = unary("ABS", x, "abs", (0.03, -128))
    return m.finish([tanh, logistic, rsqrt, clip, absolute])


def softmax():
    """SOFTMAX to int8 and to int16 outputs."""
    m = Chain(5)
    x = m.act((2, 10), "int8", "x", (0.05, -3), is_input=True)
    y8 = m.op("SOFTMAX", [x], [m.act((2, 10), "int8", "softmax", (1 / 256, -128))],
              {"beta": 1.0})
    y16 = m.op("SOFTMAX", [x], [m.act((2, 10), "int16", "softmax16", (1 / 65536, -32768))],
               {"beta": 0.5})
    return m.finish([y8, y16])


def layout():
    """PAD -> SPACE_TO_DEPTH -> DEPTH_TO_SPACE -> RESIZE_BILINEAR ->
    RESIZE_NEAREST_NEIGHBOR -> TRANSPOSE -> SQUEEZE, int8 of one
    quantization, as TFLite's converter gives these operators."""
    q = (0.05, 3)
    m = Chain(6)

    def t(shape, name):
        return m.act(shape, "int8", name, q)
    x = m.act((1, 4, 4, 2), "int8", "x", q, is_input=True)
    p = m.op("PAD", [x, m.ints([[0, 0], [1, 1], [0, 2], [0, 0]], "paddings")],
             [t((1, 6, 6, 2), "pad")])
    s2d = m.op("SPACE_TO_DEPTH", [p], [t((1, 3, 3, 8), "space_to_depth")], {"block_size": 2})
    d2s = m.op("DEPTH_TO_SPACE", [s2d], [t((1, 6, 6, 2), "depth_to_space")], {"block_size": 2})
    bil = m.op("RESIZE_BILINEAR", [d2s, m.ints([7, 5], "bilinear_size")],
               [t((1, 7, 5, 2), "bilinear")], {"half_pixel_centers": True})
    nn = m.op("RESIZE_NEAREST_NEIGHBOR", [bil, m.ints([4, 6], "nearest_size")],
              [t((1, 4, 6, 2), "nearest")])
    tr = m.op("TRANSPOSE", [nn, m.ints([0, 3, 1, 2], "perm")], [t((1, 2, 4, 6), "transpose")])
    sq = m.op("SQUEEZE", [tr], [t((2, 4, 6), "squeeze")], {"squeeze_dims": [0]})
    return m.finish([sq])


def slicing():
    """SPLIT -> CONCATENATION -> STRIDED_SLICE -> GATHER -> EXPAND_DIMS ->
    PADV2 -> RESHAPE; PACK -> UNPACK -> SLICE, and SPLIT_V beside; int8 of
    one quantization."""
    q = (0.05, 3)
    m = Chain(11)

    def t(shape, name):
        return m.act(shape, "int8", name, q)
    x = m.act((2, 4, 6), "int8", "x", q, is_input=True)
    halves = m.op("SPLIT", [m.ints([2], "split_axis"), x],
                  [t((2, 4, 3), "half0"), t((2, 4, 3), "half1")], {"num_splits": 2})
    cat = m.op("CONCATENATION", halves, [t((4, 4, 3), "concat")], {"axis": 0})
    ss = m.op("STRIDED_SLICE", [cat, m.ints([0, -1, 0], "begin"), m.ints([4, 0, 3], "end"),
                                m.ints([2, -2, 1], "strides")], [t((2, 2, 3), "strided")])
    g = m.op("GATHER", [ss, m.ints([2, 0, 1, 1], "indices")], [t((2, 2, 4), "gather")],
             {"axis": 2})
    e = m.op("EXPAND_DIMS", [g, m.ints([0], "expand_axis")], [t((1, 2, 2, 4), "expand")])
    pv = m.op("PADV2", [e, m.ints([[0, 0], [0, 1], [1, 0], [0, 0]], "paddings"),
                        m.b.tensor((), "int8", "pad_value", scale=q[0], zero_point=q[1],
                                   data=-50)], [t((1, 3, 3, 4), "padv2")])
    flat = m.op("RESHAPE", [pv, m.ints([3, 12], "shape")], [t((3, 12), "reshape")],
                {"new_shape": [3, 12]})
    packed = m.op("PACK", halves, [t((2, 2, 4, 3), "pack")], {"values_count": 2, "axis": 1})
    rows = m.op("UNPACK", [packed], [t((2, 4, 3), "row0"), t((2, 4, 3), "row1")],
                {"num": 2, "axis": 0})
    sl = m.op("SLICE", [rows[1], m.ints([1, 0, 1], "slice_begin"),
                        m.ints([1, -1, 2], "slice_size")], [t((1, 4, 2), "slice")])
    parts = m.op("SPLIT_V", [x, m.ints([1, -1, 2], "sizes"), m.ints([1], "split_v_axis")],
                 [t((2, 1, 6), "part0"), t((2, 1, 6), "part1"), t((2, 2, 6), "part2")],
                 {"num_splits": 3})
    return m.finish([flat, sl, parts[2]])


def convert():
    """float32 -> QUANTIZE (int8) -> QUANTIZE (int16) -> QUANTIZE (int8) ->
    DEQUANTIZE (float32); CAST int16 -> int32 and float32 -> int32 beside."""
    m = Chain(7)
    x = m.act((2, 12), F, "x", is_input=True)
    q8 = m.op("QUANTIZE", [x], [m.act((2, 12), "int8", "q8", (0.02, -7))])
    q16 = m.op("QUANTIZE", [q8], [m.act((2, 12), "int16", "q16", (0.0003, 0))])
    r8 = m.op("QUANTIZE", [q16], [m.act((2, 12), "int8", "r8", (0.03, 5))])
    f = m.op("DEQUANTIZE", [r8], [m.act((2, 12), F, "dequantized")])
    wide = m.op("CAST", [q16], [m.act((2, 12), "int32", "q16_as_int32")])
    scaled = m.op("MUL", [x, m.floats((), "ten", 0.0, 10.0)], [m.act((2, 12), F, "scaled")])
    ints = m.op("CAST", [scaled], [m.act((2, 12), "int32", "cast")])
    return m.finish([f, wide, ints])


def int16x8():
    """TFLite's 16x8 scheme: CONV_2D -> DEPTHWISE_CONV_2D -> AVERAGE_POOL_2D
    -> FULLY_CONNECTED -> ADD -> LOGISTIC, and TANH, MUL and MEAN beside;
    int16 activations (zero point 0), int8 weights, int64 biases."""
    m = Chain(8)
    x = m.act((1, 5, 5, 2), "int16", "x", (0.0001, 0), is_input=True)
    w1, s1 = m.weights((4, 3, 3, 2), 0, "conv_w")
    c1 = m.op("CONV_2D", [x, w1, m.bias(0.0001 * s1, "conv_b", 0.5, "int64")],
              [m.act((1, 5, 5, 4), "int16", "conv", (0.0002, 0))], conv_options(1, "RELU"))
    w2, s2 = m.weights((1, 3, 3, 4), 3, "dw_w", 0.01)
    c2 = m.op("DEPTHWISE_CONV_2D", [c1, w2, m.bias(0.0002 * s2, "dw_b", 0.3, "int64")],
              [m.act((1, 5, 5, 4), "int16", "dwconv", (0.0001, 0))],
              conv_options(1, depth_multiplier=1))
    pool = m.op("AVERAGE_POOL_2D", [c2], [m.act((1, 2, 2, 4), "int16", "pool", (0.0001, 0))],
                {"padding": "VALID", "stride_h": 2, "stride_w": 2, "filter_height": 2,
                 "filter_width": 2})
    w3, s3 = m.weights((6, 16), 0, "fc_w", 0.02)
    fc = m.op("FULLY_CONNECTED", [pool, w3, m.bias(0.0001 * s3, "fc_b", 0.5, "int64")],
              [m.act((1, 6), "int16", "fc", (0.0002, 0))])
    c = m.b.tensor((6,), "int16", "offset", scale=0.0001, zero_point=0,
                   data=m.rng.integers(-20000, 20000, 6))
    s = m.op("ADD", [fc, c], [m.act((1, 6), "int16", "sum", (0.0003, 0))],
             {"pot_scale_int16": False})
    y = m.op("LOGISTIC", [s], [m.act((1, 6), "int16", "logistic", (1 / 32768, 0))])
    th = m.op("TANH", [c2], [m.act((1, 5, 5, 4), "int16", "tanh", (1 / 32768, 0))])
    prod = m.op("MUL", [c2, c1], [m.act((1, 5, 5, 4), "int16", "product", (0.00001, 0))])
    mean = m.op("MEAN", [prod, m.ints([1, 2], "axes")],
                [m.act((1, 4), "int16", "mean", (0.00002, 0))], {"keep_dims": False})
    return m.finish([y, th, mean])


def float32():
    """A float32 model: CONV_2D (RELU6) -> DEPTHWISE_CONV_2D ->
    TRANSPOSE_CONV -> AVERAGE_POOL_2D -> FULLY_CONNECTED -> DIV ->
    LOG_SOFTMAX, with element-wise, activation and reduction operators
    beside."""
    m = Chain(9)
    x = m.act((1, 4, 4, 2), F, "x", is_input=True)

    def t(shape, name):
        return m.act(shape, F, name)
    c1 = m.op("CONV_2D", [x, m.floats((4, 3, 3, 2), "conv_w", 0.4), m.floats((4,), "conv_b")],
              [t((1, 4, 4, 4), "conv")], conv_options(1, "RELU6"))
    c2 = m.op("DEPTHWISE_CONV_2D", [c1, m.floats((1, 3, 3, 4), "dw_w", 0.4),
                                    m.floats((4,), "dw_b")], [t((1, 2, 2, 4), "dwconv")],
              conv_options(2, depth_multiplier=1))
    c3 = m.op("TRANSPOSE_CONV", [m.ints([1, 4, 4, 3], "output_shape"),
                                 m.floats((3, 3, 3, 4), "tconv_w", 0.3), c2,
                                 m.floats((3,), "tconv_b")], [t((1, 4, 4, 3), "tconv")],
              {"padding": "SAME", "stride_h": 2, "stride_w": 2})
    pool = m.op("AVERAGE_POOL_2D", [c3], [t((1, 2, 2, 3), "pool")],
                {"padding": "VALID", "stride_h": 2, "stride_w": 2, "filter_height": 2,
                 "filter_width": 2})
    fc = m.op("FULLY_CONNECTED", [pool, m.floats((5, 12), "fc_w", 0.3), m.floats((5,), "fc_b")],
              [t((1, 5), "fc")])
    div = m.op("DIV", [fc, m.floats((5,), "divisor", 0.2, 1.5)], [t((1, 5), "div")])
    y = m.op("LOG_SOFTMAX", [div], [t((1, 5), "log_softmax")])
    # Element-wise and activations on the first convolution's output.
    sub = m.op("SUB", [c1, m.floats((4,), "centre", 1.0, 2.0)], [t((1, 4, 4, 4), "sub")])
    mul = m.op("MUL", [sub, sub], [t((1, 4, 4, 4), "square")])
    mx = m.op("MAXIMUM", [sub, m.floats((1, 1, 1, 4), "floor", 0.5)], [t((1, 4, 4, 4), "max")])
    mn = m.op("MINIMUM", [mx, mul], [t((1, 4, 4, 4), "min")])
    sqd = m.op("SQUARED_DIFFERENCE", [mn, sub], [t((1, 4, 4, 4), "sqdiff")])
    add = m.op("ADD", [sqd, m.floats((4,), "shift", 0.5)], [t((1, 4, 4, 4), "add")],
               {"fused_activation_function": "RELU_N1_TO_1"})
    th = m.op("TANH", [sub], [t((1, 4, 4, 4), "tanh")])
    lg = m.op("LOGISTIC", [th], [t((1, 4, 4, 4), "logistic")])
    hs = m.op("HARD_SWISH", [sub], [t((1, 4, 4, 4), "hard_swish")])
    lr = m.op("LEAKY_RELU", [hs], [t((1, 4, 4, 4), "leaky_relu")], {"alpha": 0.1})
    pr = m.op("PRELU", [sub, m.floats((4,), "alpha", 0.1, 0.2)], [t((1, 4, 4, 4), "prelu")])
    ab = m.op("ABS", [pr], [t((1, 4, 4, 4), "abs")])
    ng = m.op("NEG", [lr], [t((1, 4, 4, 4), "neg")])
    pos = m.op("ADD", [ab, m.floats((), "epsilon", 0.0, 0.5)], [t((1, 4, 4, 4), "positive")])
    rs = m.op("RSQRT", [pos], [t((1, 4, 4, 4), "rsqrt")])
    acts = m.op("CONCATENATION", [add, lg, ng, rs], [t((1, 4, 4, 16), "activations")],
                {"axis": 3})
    mean = m.op("MEAN", [acts, m.ints([1, 2], "mean_axes")], [t((1, 16), "mean")],
                {"keep_dims": False})
    total = m.op("SUM", [c1, m.ints([1, 2], "sum_axes")], [t((1, 4), "sum")],
                 {"keep_dims": False})
    mx2 = m.op("REDUCE_MAX", [c3, m.ints([3], "max_axis")], [t((1, 4, 4), "reduce_max")],
               {"keep_dims": False})
    return m.finish([y, mean, total, mx2])


def svdf():
    """SVDF with int16 state (TFLite's integer SVDF) -> FULLY_CONNECTED, a
    stateful model run over sequences of calls."""
    m = Chain(10)
    n_input, units, rank, memory = 12, 4, 2, 4
    filters = units * rank
    in_scale, wf_scale, wt_scale = 0.02, 0.01, 0.008
    state_scale = in_scale * wf_scale * 74 * 60 * np.sqrt(n_input) / 40 / 256
    out_scale = state_scale * wt_scale * (30000 / 1.7) * 40 * 256 * np.sqrt(rank * memory) / 40
    x = m.act((1, n_input), "int8", "x", (in_scale, 3), is_input=True)
    wf = m.b.tensor((filters, n_input), "int8", "wf", scale=wf_scale, zero_point=0,
                    data=m.rng.integers(-127, 127, (filters, n_input), endpoint=True))
    wt = m.b.tensor((filters, memory), "int16", "wt", scale=wt_scale, zero_point=0,
                    data=m.rng.integers(-30000, 30000, (filters, memory), endpoint=True))
    bias = m.b.tensor((units,), "int32", "bias", scale=state_scale * wt_scale, zero_point=0,
                      data=m.rng.integers(-3000, 3000, units))
    state = m.b.tensor((1, filters * memory), "int16", "state", scale=state_scale,
                       zero_point=0, is_variable=True)
    # LiteRT's integer SVDF takes RELU alone: the clamp at the zero point.
    h = m.op("SVDF", [x, wf, wt, bias, state], [m.act((1, units), "int8", "svdf",
                                                       (out_scale, -128))],
             {"rank": rank, "fused_activation_function": "RELU"})
    w, s = m.weights((3, units), 0, "fc_w", 0.01)
    # The SVDF's outputs reach about 80 LSB above its zero point.
    y = m.op("FULLY_CONNECTED", [h, w, m.bias(out_scale * s, "fc_b", 20 * out_scale)],
             [m.act((1, 3), "int8", "y", (2 * out_scale, 0))])
    return m.finish([y, h])


def lstm():
    """UNIDIRECTIONAL_SEQUENCE_LSTM (int8, int16 cell state; both states
    carried over sequences of calls): tests/compile_path's model, one batch
    of three steps."""
    return lstm_model(np.random.default_rng(12), batch=1, steps=3)


FAMILIES = {f.__name__: f for f in (conv, pool_reduce, elementwise, activations, softmax,
                                      layout, slicing, convert, int16x8, float32, svdf,
                                      lstm)}


def varied(name, lite):
    """Each output of three values or more must take more than two across
    the calls, or the family shows little."""
    for k in range(len(lite[0])):
        values = np.concatenate([np.ravel(outs[k]) for outs in lite])
        if lite[0][k].size > 2 and np.unique(values).size <= 2:
            sys.exit(f"{name}: output {k} is nearly constant: {np.unique(values)}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", required=True)
    ap.add_argument("--out", required=True)
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    for name, make in FAMILIES.items():
        path = os.path.join(opts.out, f"{name}.tflite")
        buf = make()
        with open(path, "wb") as f:
            f.write(buf)
        out = os.path.join(opts.out, name)
        os.makedirs(out, exist_ok=True)
        varied(name, write_test(buf, argparse.Namespace(
            model=path, name=name, suite="family", cpu=opts.cpu, out=out, no_litert=False)))


if __name__ == "__main__":
    main()

"""float32 activations: RELU, RELU6, RELU_N1_TO_1, LEAKY_RELU, PRELU (alpha
broadcast to the input), HARD_SWISH, LOGISTIC, TANH, as TFLite's reference
kernels compute them."""
from tflite.LeakyReluOptions import LeakyReluOptions
from tvm import tirx as tir

from ... import float_kernels as kernels
from ..registry import lowering
from .float_elementwise import elementwise, unary


def _f(v):
    return tir.const(v, "float32")


@lowering("RELU", types=("float32",))
def relu_float(ctx, op):
    return unary(ctx, op, lambda x: kernels.clamp(x, (0.0, None)), "frelu")


@lowering("RELU6", types=("float32",))
def relu6_float(ctx, op):
    return unary(ctx, op, lambda x: kernels.clamp(x, (0.0, 6.0)), "frelu6")


@lowering("RELU_N1_TO_1", types=("float32",))
def relu_n1_to_1_float(ctx, op):
    return unary(ctx, op, lambda x: kernels.clamp(x, (-1.0, 1.0)), "frelu1")


@lowering("LEAKY_RELU", types=("float32",), options=LeakyReluOptions)
def leaky_relu_float(ctx, op):
    alpha = float(op.options.Alpha)
    return unary(ctx, op, lambda x: tir.Select(x > _f(0.0), x, x * _f(alpha)), "fleaky",
                  (alpha,))


@lowering("PRELU", types=("float32",))
def prelu_float(ctx, op):
    return elementwise(ctx, op, op.inputs[:2],
                       lambda x, a: tir.Select(x >= _f(0.0), x, x * a), "fprelu")


@lowering("HARD_SWISH", types=("float32",))
def hard_swish_float(ctx, op):
    return unary(ctx, op, lambda x: x * kernels.clamp(x + _f(3.0), (0.0, 6.0)) / _f(6.0),
                  "fhswish")


@lowering("LOGISTIC", types=("float32",))
def logistic_float(ctx, op):
    return unary(ctx, op, lambda x: _f(1.0) / (_f(1.0) + tir.exp(-x)), "flogistic")


@lowering("TANH", types=("float32",))
def tanh_float(ctx, op):
    return unary(ctx, op, tir.tanh, "ftanh")

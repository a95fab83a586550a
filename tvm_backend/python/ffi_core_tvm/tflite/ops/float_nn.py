"""float32 CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED,
AVERAGE_POOL_2D, SOFTMAX and LOG_SOFTMAX: float32 activations, weights and
biases (packed in the weight blob as float32)."""
import numpy as np
from tflite.Conv2DOptions import Conv2DOptions
from tflite.DepthwiseConv2DOptions import DepthwiseConv2DOptions
from tflite.FullyConnectedOptions import FullyConnectedOptions
from tflite.Pool2DOptions import Pool2DOptions
from tflite.SoftmaxOptions import SoftmaxOptions
from tflite.TransposeConvOptions import TransposeConvOptions

from ... import float_kernels as kernels
from ..model import UnsupportedModel
from ..quant import NONE, RELU, RELU6, RELU_N1_TO_1, conv_geometry, pool_geometry
from ..registry import lowering
from .conv import transpose_conv_geometry

_FLOAT_RANGES = {NONE: (None, None), RELU: (0.0, None), RELU6: (0.0, 6.0),
                 RELU_N1_TO_1: (-1.0, 1.0)}


def float_activation_range(act, op):
    """(lo, hi) of fused activation `act` on a float output, None for no
    bound, as TFLite's CalculateActivationRange."""
    if act not in _FLOAT_RANGES:
        raise UnsupportedModel(f"{op}: fused activation {act} is not supported")
    return _FLOAT_RANGES[act]


def _float_constant(ctx, op, t, what):
    """The byte offset of float32 constant `t` in the weight blob."""
    if t is None:
        return None
    if not t.is_constant or t.dtype != "float32":
        kind = f"{t.dtype} constant" if t.is_constant else "computed tensor"
        raise UnsupportedModel(f"{op}: {what} must be a float32 constant, not the {kind} "
                               f"{t.name}")
    return ctx.pack(t.data.astype("float32"))


def _bias(op):
    return op.inputs[2] if len(op.inputs) > 2 else None


def _conv(ctx, op, depthwise):
    opts = op.options
    x, w, b, out = op.inputs[0], op.inputs[1], _bias(op), op.outputs[0]
    act = float_activation_range(opts.FusedActivationFunction, op)
    stride, dilation, pad = conv_geometry(op, x, w)
    channels = out.shape[3]
    if w.shape[3 if depthwise else 0] != channels or (b is not None and b.shape != (channels,)):
        raise UnsupportedModel(f"{op}: weights or bias do not match {channels} output channels")
    if depthwise and channels % x.shape[3]:
        raise UnsupportedModel(f"{op}: {channels} output channels for {x.shape[3]} inputs")
    w_off = _float_constant(ctx, op, w, "the filter")
    b_off = _float_constant(ctx, op, b, "the bias")
    args = (ctx.blob_placeholder(), w_off, b_off, x.shape, w.shape, out.shape, stride,
            dilation, pad, act)
    make = kernels.depthwise_conv2d if depthwise else kernels.conv2d
    gv = ctx.kernel(("fdwconv" if depthwise else "fconv", w_off), lambda: make(*args))
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "float32")


@lowering("CONV_2D", types=("float32",), options=Conv2DOptions)
def conv_2d_float(ctx, op):
    return _conv(ctx, op, depthwise=False)


@lowering("DEPTHWISE_CONV_2D", types=("float32",), options=DepthwiseConv2DOptions)
def depthwise_conv_2d_float(ctx, op):
    return _conv(ctx, op, depthwise=True)


@lowering("TRANSPOSE_CONV", types=("float32",), options=TransposeConvOptions,
          note="float32: float32 weights (not hybrid)")
def transpose_conv_float(ctx, op):
    x, w, b, out, stride, pad = transpose_conv_geometry(op)
    act = float_activation_range(op.options.FusedActivationFunction, op)
    w_off = _float_constant(ctx, op, w, "the filter")
    b_off = _float_constant(ctx, op, b, "the bias")
    blob = ctx.blob_placeholder()
    gv = ctx.kernel(("ftconv", w_off), lambda: kernels.transpose_conv2d(
        blob, w_off, b_off, x.shape, w.shape, out.shape, stride, pad, act))
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "float32")


@lowering("FULLY_CONNECTED", types=("float32",), options=FullyConnectedOptions,
          note="float32: float32 weights (not hybrid)")
def fully_connected_float(ctx, op):
    x, w, b, out = op.inputs[0], op.inputs[1], _bias(op), op.outputs[0]
    act = float_activation_range(op.options.FusedActivationFunction, op)
    if len(w.shape) != 2 or (b is not None and b.shape != (w.shape[0],)):
        raise UnsupportedModel(f"{op}: weights of shape {list(w.shape)}")
    units, features = w.shape
    size = int(np.prod(x.shape))
    if size % features:
        raise UnsupportedModel(f"{op}: input of shape {list(x.shape)} for {features} features")
    batch = size // features
    # keep_num_dims or not, the output holds batch rows of units values.
    if int(np.prod(out.shape)) != batch * units:
        raise UnsupportedModel(f"{op}: output of shape {list(out.shape)}")
    w_off = _float_constant(ctx, op, w, "the weights")
    b_off = _float_constant(ctx, op, b, "the bias")
    value = ctx.reshape(ctx.value(x), x.shape, (batch, features))
    blob = ctx.blob_placeholder()
    gv = ctx.kernel(("fdense", w_off), lambda: kernels.fully_connected(
        blob, w_off, b_off, batch, features, units, act))
    y = ctx.call(gv, [value, ctx.blob_const], (batch, units), "float32")
    return ctx.reshape(y, (batch, units), out.shape)


@lowering("AVERAGE_POOL_2D", types=("float32",), options=Pool2DOptions)
def average_pool_2d_float(ctx, op):
    opts = op.options
    x, out = op.inputs[0], op.outputs[0]
    act = float_activation_range(opts.FusedActivationFunction, op)
    window, stride, pad = pool_geometry(op, x)
    key = ("favgpool", x.shape, out.shape, window, stride, pad, act)
    gv = ctx.kernel(key, lambda: kernels.average_pool2d(x.shape, out.shape, window, stride,
                                                        pad, act))
    return ctx.call(gv, [ctx.value(x)], out.shape, "float32")


def _softmax(ctx, op, beta, log):
    x, out = op.inputs[0], op.outputs[0]
    n = x.shape[-1]
    batch = int(np.prod(x.shape)) // n
    value = ctx.reshape(ctx.value(x), x.shape, (batch, n))
    gv = ctx.kernel(("flogsoftmax" if log else "fsoftmax", batch, n, beta),
                    lambda: kernels.softmax(batch, n, beta, log))
    y = ctx.call(gv, [value], (batch, n), "float32")
    return ctx.reshape(y, (batch, n), out.shape)


@lowering("SOFTMAX", types=("float32",), options=SoftmaxOptions)
def softmax_float(ctx, op):
    return _softmax(ctx, op, float(op.options.Beta), log=False)


@lowering("LOG_SOFTMAX", types=("float32",))
def log_softmax_float(ctx, op):
    return _softmax(ctx, op, 1.0, log=True)

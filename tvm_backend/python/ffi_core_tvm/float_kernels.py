"""Kernels of TFLite's float32 operators, as TIR PrimFuncs.

Layouts are TFLite's, as in int8_kernels.py. Float weights and biases are
float32 parts of the model's one weight blob (weight_blob.py), read at
offsets fixed at compile time. Each kernel sums in TFLite's reference order
and clamps its fused activation's range (lo, hi), where None is no bound.
"""
from tvm import te
from tvm import tirx as tir

from .int8_kernels import (_accumulate_in_place, _prim_func, _tap, pool_window, transposed_tap,
                          window_axes)
from .weight_blob import read


def blob_reader(blob, offset, shape):
    """r(i0, i1, ...): the float32 at that row-major index of the array of
    `shape` packed at byte `offset` of the blob."""
    def r(*idx):
        flat = idx[0] if idx else 0
        for i, n in zip(idx[1:], shape[1:]):
            flat = flat * n + i
        return read(blob, offset + flat * 4, "float32")
    return r


def clamp(v, act):
    """v within the fused activation's float range (lo, hi); None: no bound."""
    lo, hi = act
    if hi is not None:
        v = tir.min(v, tir.const(hi, "float32"))
    if lo is not None:
        v = tir.max(v, tir.const(lo, "float32"))
    return v


def _biased(x, blob, acc_f, out_shape, bias_offset, channels, act):
    acc = te.compute(out_shape, acc_f, name="acc")
    bias = blob_reader(blob, bias_offset, (channels,)) if bias_offset is not None else None

    def y_f(*idx):
        v = acc[idx]
        if bias is not None:
            v = v + bias(idx[-1])
        return clamp(v, act)

    y = te.compute(out_shape, y_f, name="y")
    return _accumulate_in_place(_prim_func([x, blob, y]), "acc", "y", unroll=1)


def conv2d(blob, w_offset, b_offset, in_shape, w_shape, out_shape, stride, dilation, pad, act):
    """CONV_2D: y = sum(x * w) + bias; padded positions add nothing."""
    x = te.placeholder(in_shape, "float32", "x")
    w = blob_reader(blob, w_offset, w_shape)
    kh, kw, ci = window_axes(w_shape, channels=True)

    def acc_f(n, oh, ow, c):
        ih, iw, inside = _tap(x, oh, ow, kh, kw, stride, dilation, pad)
        v = tir.if_then_else(inside, x[n, ih, iw, ci] * w(c, kh, kw, ci),
                             tir.const(0.0, "float32"))
        return te.sum(v, axis=[kh, kw, ci])

    return _biased(x, blob, acc_f, out_shape, b_offset, out_shape[3], act)


def depthwise_conv2d(blob, w_offset, b_offset, in_shape, w_shape, out_shape, stride, dilation,
                     pad, act):
    """DEPTHWISE_CONV_2D: output channel c reads input channel c // multiplier."""
    co = w_shape[3]
    multiplier = co // in_shape[3]
    x = te.placeholder(in_shape, "float32", "x")
    w = blob_reader(blob, w_offset, w_shape)
    kh, kw = window_axes(w_shape)

    def acc_f(n, oh, ow, c):
        ih, iw, inside = _tap(x, oh, ow, kh, kw, stride, dilation, pad)
        v = tir.if_then_else(inside, x[n, ih, iw, c // multiplier] * w(0, kh, kw, c),
                             tir.const(0.0, "float32"))
        return te.sum(v, axis=[kh, kw])

    return _biased(x, blob, acc_f, out_shape, b_offset, co, act)


def transpose_conv2d(blob, w_offset, b_offset, in_shape, w_shape, out_shape, stride, pad, act):
    """TRANSPOSE_CONV: y = sum(x * w) over the taps that reach each output,
    plus the bias."""
    x = te.placeholder(in_shape, "float32", "x")
    w = blob_reader(blob, w_offset, w_shape)
    kh, kw, ci = window_axes(w_shape, channels=True)

    def acc_f(n, oh, ow, c):
        ih, iw, hit = transposed_tap(x, oh, ow, kh, kw, stride, pad)
        v = tir.if_then_else(hit, x[n, ih, iw, ci] * w(c, kh, kw, ci), tir.const(0.0, "float32"))
        return te.sum(v, axis=[kh, kw, ci])

    return _biased(x, blob, acc_f, out_shape, b_offset, out_shape[3], act)


def fully_connected(blob, w_offset, b_offset, batch, in_features, out_features, act):
    """FULLY_CONNECTED: y[b, o] = sum_i x[b, i] * w[o, i] + bias[o]."""
    x = te.placeholder((batch, in_features), "float32", "x")
    w = blob_reader(blob, w_offset, (out_features, in_features))
    i = te.reduce_axis((0, in_features), "i")
    return _biased(x, blob, lambda b, o: te.sum(x[b, i] * w(o, i), axis=i),
                   (batch, out_features), b_offset, out_features, act)


def average_pool2d(in_shape, out_shape, window, stride, pad, act):
    """AVERAGE_POOL_2D: the mean of the window's positions inside the input."""
    x = te.placeholder(in_shape, "float32", "x")
    total, count = pool_window(x, out_shape, window, stride, pad, lambda v: v,
                               tir.const(0.0, "float32"))

    def avg_f(n, oh, ow, c):
        return clamp(total[n, oh, ow, c] / count(oh, ow).astype("float32"), act)

    y = te.compute(out_shape, avg_f, name="y")
    return _accumulate_in_place(_prim_func([x, y]), "total", "y", unroll=1)


def softmax(batch, n, beta, log=False):
    """SOFTMAX over the last axis: exp((x - max) * beta) / sum; with `log`,
    LOG_SOFTMAX: x - max - log(sum(exp(x - max)))."""
    x = te.placeholder((batch, n), "float32", "x")
    k = te.reduce_axis((0, n), "k")
    top = te.compute((batch,), lambda b: te.max(x[b, k], axis=k), name="top")
    scale = tir.const(1.0 if log else beta, "float32")
    e = te.compute((batch, n), lambda b, i: tir.exp((x[b, i] - top[b]) * scale), name="e")
    j = te.reduce_axis((0, n), "j")
    total = te.compute((batch,), lambda b: te.sum(e[b, j], axis=j), name="total")
    if log:
        y = te.compute((batch, n), lambda b, i: x[b, i] - top[b] - tir.log(total[b]), name="y")
    else:
        y = te.compute((batch, n), lambda b, i: e[b, i] / total[b], name="y")
    return _prim_func([x, y])

"""Integer kernels of TFLite's quantized operators (int8, and the 16x8
scheme's int16 activations with int8 weights), as scheduled TIR PrimFuncs.

Layouts are TFLite's: activations NHWC, conv weights OHWI, depthwise weights
1HW(C*multiplier), fully connected weights OI. Each convolution reads its
input through a bounds test (a padded position reads the input's zero
point), so no padded copy is made; the zero point's share, in_zp * sum(w),
is folded into the bias at compile time (tflite/quant.py), and accumulates
into one int32 per output that the schedule keeps beside the
requantization, so no int32 tensor is stored. Per-channel requantization
comes as an int32 table q[C, 3]: bias, mantissa, right shift
(fixed_point.py).

A model's constants are one int8 tensor (weight_blob.py), so that a firmware
can place it aligned in flash and use it in place; a kernel reads its
weights and table at offsets fixed at compile time (a Slice).
"""
import numpy as np
from tvm import s_tir, te
from tvm import tirx as tir

from .fixed_point import (multiply_double_rounding_per_channel, multiply_once_per_channel,
                          requantize_output)
from .weight_blob import read


class Slice:
    """Where one operator's constants sit in the model's weight blob."""

    def __init__(self, blob_size, weights_offset, table_offset):
        self.blob = te.placeholder((blob_size,), "int8", "weights")
        self.weights_offset = weights_offset
        self.table_offset = table_offset

    def weights(self, shape):
        """w[i0, i1, ...], row-major int8 at weights_offset."""
        def read(*idx):
            flat = idx[0]
            for i, n in zip(idx[1:], shape[1:]):
                flat = flat * n + i
            return self.blob[self.weights_offset + flat]
        return read

    def shift(self, c):
        """q[c, 2], the right shift, from its low byte alone (it is below 64).
        One load, and a range TVM's bound analysis sees as 0..255: read as a
        whole word, the analysis assumed the shifted value small and removed
        the clamp to int8 that follows."""
        return self.blob[self.table_offset + c * 12 + 8].astype("uint8").astype("int32")

    def table(self, c, k):
        """q[c, k] of the int32 table (little-endian, 4-byte aligned)."""
        at = self.table_offset + (c * 3 + k) * 4
        b = [self.blob[at + i] for i in range(4)]
        low = [v.astype("uint8").astype("int32") for v in b[:3]]
        return low[0] | (low[1] << 8) | (low[2] << 16) | (b[3].astype("int32") << 24)


def _clamp_int8(v, lo, hi):
    return tir.max(tir.min(v, tir.const(hi, "int32")), tir.const(lo, "int32")).astype("int8")


def _requantize(acc, s, c, out_zp, act, once=False):
    """TFLite's per-channel requantization as LiteRT's reference kernels
    compute it: rounding twice (as TFLite Micro's and CMSIS-NN's do too;
    LiteRT's optimized kernels round once and differ by up to 47 LSB over
    ResNet-8), but `once` for FULLY_CONNECTED, whose reference rounds once."""
    multiply = multiply_once_per_channel if once else multiply_double_rounding_per_channel
    scaled = multiply(acc + s.table(c, 0), s.table(c, 1), s.shift(c))
    return _clamp_int8(scaled + tir.const(out_zp, "int32"), *act)


def _accumulate_in_place(func, acc_name, out_name, unroll=8):
    """Computes each output's accumulator inside the loop that writes it,
    its innermost reduction unrolled by `unroll` where the extent allows."""
    sch = s_tir.Schedule(func)
    acc = sch.get_sblock(acc_name)
    sch.compute_at(acc, sch.get_loops(sch.get_sblock(out_name))[-1])
    inner = sch.get_loops(acc)[-1]
    extent = int(sch.get(inner).extent)
    if unroll > 1 and extent % unroll == 0 and extent > unroll:
        _, lanes = sch.split(inner, [None, unroll])
        sch.unroll(lanes)
    return sch.mod["main"]


def _prim_func(tensors):
    return te.create_prim_func(tensors).with_attr("tir.noalias", True)


def _requantized_nhwc(x, s, out_shape, acc_f, out_zp, act):
    """A convolution's kernel: acc_f's sums per output, requantized per channel."""
    acc = te.compute(out_shape, acc_f, name="acc")
    y = te.compute(out_shape, lambda n, oh, ow, c: _requantize(acc[n, oh, ow, c], s, c, out_zp,
                                                              act), name="y")
    return _accumulate_in_place(_prim_func([x, s.blob, y]), "acc", "y")


def window_axes(w_shape, channels=False):
    """The reduction axes of a convolution's kernel taps (kh, kw), from its
    weights' shape (OHWI or 1HWO); with `channels`, also of its input
    channels (ci, the weights' last dimension)."""
    _, kh_n, kw_n, ci_n = w_shape
    axes = (te.reduce_axis((0, kh_n), "kh"), te.reduce_axis((0, kw_n), "kw"))
    return axes + (te.reduce_axis((0, ci_n), "ci"),) if channels else axes


def _tap(x, oh, ow, kh, kw, stride, dilation, pad):
    """(ih, iw, inside) of the input position under a kernel tap."""
    _, h, w, _ = x.shape
    ih = oh * stride[0] + kh * dilation[0] - pad[0]
    iw = ow * stride[1] + kw * dilation[1] - pad[1]
    return ih, iw, tir.all(ih >= 0, ih < h, iw >= 0, iw < w)


def _padded_read(x, n, oh, ow, kh, kw, channel, stride, dilation, pad, in_zp):
    """The input under a kernel tap as int32; the zero point where it falls in the padding."""
    ih, iw, inside = _tap(x, oh, ow, kh, kw, stride, dilation, pad)
    return tir.if_then_else(inside, x[n, ih, iw, channel].astype("int32"), in_zp)


def conv2d(s, in_shape, w_shape, out_shape, stride, dilation, pad, in_zp, out_zp, act):
    """CONV_2D: y = requantize(sum(x * w) + bias - in_zp * sum(w))."""
    ci_n = w_shape[3]
    x = te.placeholder(in_shape, "int8", "x")
    w = s.weights(w_shape)
    kh, kw = window_axes(w_shape)
    ci = te.reduce_axis((0, ci_n), "ci")

    def acc_f(n, oh, ow, c):
        xv = _padded_read(x, n, oh, ow, kh, kw, ci, stride, dilation, pad, in_zp)
        return te.sum(xv * w(c, kh, kw, ci).astype("int32"), axis=[kh, kw, ci])

    return _requantized_nhwc(x, s, out_shape, acc_f, out_zp, act)


def _call_c(symbol, inputs, out_shape, args):
    """A kernel that calls the C micro-kernel `symbol`, ffi_core_<stem> of
    tvm_backend/kernels/<stem>.c, with the inputs and the output, then
    `args`, compile-time ints. The PrimFunc's attribute ffi_core_c_kernel
    names the file for compile.py, which links it in."""
    def body(ins, outs):
        ptrs = [t.access_ptr("r") for t in ins] + [outs[0].access_ptr("w")]
        return tir.Evaluate(tir.call_extern("int32", symbol, *ptrs,
                                            *[tir.const(int(a), "int32") for a in args]))

    y = te.extern(out_shape, list(inputs), body, name="y", dtype="int8")
    return _prim_func(list(inputs) + [y]).with_attr("ffi_core_c_kernel",
                                                    symbol[len("ffi_core_"):])


# s8_primitives.h's S8Mode: a Helium kernel's requantization forms.
S8_SCALAR, S8_SCALAR_ONCE, S8_TWICE_LEFT, S8_TWICE_FIXED, S8_TWICE, S8_ONCE = range(6)


def c_form(kernel, rows, once=False, general=S8_TWICE_LEFT):
    """A C kernel's PrimFunc with the attribute ffi_core_c_kernel_form: the
    form s8_mode gives its table's `rows` on Helium (the lowest shift picks
    it; `general`, the kernel's form for any table, below 31). compile.py
    builds a model's C kernels with only the forms its kernels take
    (FFI_CORE_S8_FORMS) beside each kind's general one."""
    low = int((np.asarray(rows)[:, 2] & 0xFF).min()) if len(rows) else 63
    if once:
        form = S8_ONCE if low >= 33 else S8_SCALAR_ONCE
    else:
        form = S8_TWICE if low >= 32 else S8_TWICE_FIXED if low == 31 else general
    return kernel.with_attr("ffi_core_c_kernel_form", form)


def c_marked(kernel, marked):
    """A C kernel's PrimFunc, with the attribute ffi_core_c_kernel_marked
    where its table marks channels (TABLE_MARK): compile.py builds a model's
    C kernels without the code for them where none does."""
    return kernel.with_attr("ffi_core_c_kernel_marked", True) if marked else kernel


def _extern(symbol, x, s, out_shape, *args):
    """_call_c of the input and the weight blob."""
    return _call_c(symbol, [x, s.blob], out_shape, args)


def add_c(shape, a_zp, a_multiplier, b_zp, b_multiplier, out_multiplier, out_zp, act):
    """ADD of two int8 tensors of `shape` (tflite/ops/elementwise.py's
    arithmetic) from the C micro-kernel ffi_core_add_s8 (add_s8.c): the
    zero points, the multipliers as (mantissa, right shift), the clamp."""
    a = te.placeholder(shape, "int8", "a")
    b = te.placeholder(shape, "int8", "b")
    size = 1
    for n in shape:
        size *= int(n)
    return _call_c("ffi_core_add_s8", [a, b], shape,
                   [size, a_zp, *a_multiplier, b_zp, *b_multiplier, *out_multiplier, out_zp,
                    *act])


# A table row's mark for the C kernels, bit 8 of the shift's word (whose
# low byte alone they read as the shift; s8_primitives.h's S8_TABLE_MARK).
TABLE_MARK = 1 << 8


def conv2d_c_constants(weights, table):
    """(weights, table) as ffi_core_conv_s8 takes them: a pruned channel's
    (weights all 0, so that its sum is 0 for every input and its output
    one value) dropped from the OHWI weights, its table row moved after
    every live channel's, marked (TABLE_MARK) with its output channel from
    bit 16.
    Unchanged where no channel, or every channel, is pruned."""
    rows = weights.reshape(weights.shape[0], -1)
    pruned = ~rows.any(1)
    if not pruned.any() or pruned.all() or len(pruned) >= 1 << 15:
        return weights, table
    order = np.concatenate([np.flatnonzero(~pruned), np.flatnonzero(pruned)])
    marked = table[order].copy()
    live = int((~pruned).sum())
    marked[live:, 2] |= TABLE_MARK | (order[live:] << 16)
    return weights[~pruned], marked


# A marked depthwise row's second flag (bit 9; s8_primitives.h's
# S8_TABLE_VALUES): the channel's outputs follow the table (depthwise_c_table).
TABLE_VALUES = 1 << 9


def window_classes(size, out, stride, pad):
    """Each output's class along one axis of a 3x3 window (the taps of its
    three that lie inside the input), numbered in order of first
    appearance, and each class's taps (1 inside, 0 in the padding): the
    numbering depthwise_conv_s8.c's dw3_classes gives."""
    taps, classes = [], []
    for o in range(out):
        inside = tuple(int(0 <= o * stride - pad + k < size) for k in range(3))
        if inside not in taps:
            taps.append(inside)
        classes.append(taps.index(inside))
    return classes, taps


def depthwise_c_table(table, constant_inputs, window=None):
    """The table as ffi_core_depthwise_conv_s8 takes it, where
    `constant_inputs` ({channel: int8 value}) names input channels every
    element of which is one value (a CONV_2D's pruned channels): each such
    channel's row marked (TABLE_MARK) with the value in bits 16 to 23, so
    that the kernel computes the channel's outputs from the value and its
    taps in the padding rather than from its inputs.

    `window`, for a 3x3 window at dilation 1 (weights (1, 3, 3, C), the
    input's and output's (height, width), stride, padding, in_zp, out_zp,
    (lo, hi)): each marked channel's outputs, one for each pair of row and
    column classes (window_classes; at most nine), worked out here and
    appended to the table as a row of three words (their bytes in order,
    row class by column class) a marked channel, in the channels' order,
    each such row flagged TABLE_VALUES: the DSP kernel then stores them
    rather than requantizing them at run time."""
    if not constant_inputs:
        return table
    marked = table.copy()
    for c, v in constant_inputs.items():
        marked[c, 2] |= TABLE_MARK | ((v & 0xFF) << 16)
    if window is None:
        return marked
    weights, in_hw, out_hw, stride, pad, in_zp, out_zp, (lo, hi) = window
    rows = window_classes(in_hw[0], out_hw[0], stride[0], pad[0])[1]
    cols = window_classes(in_hw[1], out_hw[1], stride[1], pad[1])[1]
    if len(rows) * len(cols) > 9:
        return marked
    outputs = []
    for c in sorted(constant_inputs):
        k = weights[0, :, :, c].astype("int64")
        d, base = constant_inputs[c] - in_zp, int(k.sum()) * in_zp
        bias, mantissa, shift = (int(v) for v in table[c])
        values = bytearray(12)
        for i, (r, cc) in enumerate((r, cc) for r in rows for cc in cols):
            inside = int((np.outer(r, cc) * k).sum())
            values[i] = requantize_output(inside * d + base + bias, mantissa, shift, out_zp, lo,
                                          hi) & 0xFF
        outputs.append(np.frombuffer(bytes(values), "<i4"))
        marked[c, 2] |= TABLE_VALUES
    return np.concatenate([marked, np.array(outputs, "int32").reshape(-1, 3)])


def conv2d_c(s, in_shape, w_shape, out_shape, stride, dilation, pad, in_zp, out_zp, act):
    """conv2d's results from the C micro-kernel ffi_core_conv_s8 (conv_s8.c)."""
    x = te.placeholder(in_shape, "int8", "x")
    n, h, w, ci = in_shape
    _, oh, ow, co = out_shape
    return _extern("ffi_core_conv_s8", x, s, out_shape, s.weights_offset, s.table_offset, n, h,
                   w, ci, oh, ow, co, w_shape[1], w_shape[2], *stride, *dilation, *pad, in_zp,
                   out_zp, *act)


def depthwise_conv2d(s, in_shape, w_shape, out_shape, stride, dilation, pad, in_zp, out_zp, act):
    """DEPTHWISE_CONV_2D: output channel c reads input channel c // multiplier."""
    ci_n = in_shape[3]
    co = w_shape[3]
    multiplier = co // ci_n
    x = te.placeholder(in_shape, "int8", "x")
    w = s.weights(w_shape)
    kh, kw = window_axes(w_shape)

    def acc_f(n, oh, ow, c):
        xv = _padded_read(x, n, oh, ow, kh, kw, c // multiplier, stride, dilation, pad, in_zp)
        return te.sum(xv * w(0, kh, kw, c).astype("int32"), axis=[kh, kw])

    return _requantized_nhwc(x, s, out_shape, acc_f, out_zp, act)


def depthwise_conv2d_c(s, in_shape, w_shape, out_shape, stride, dilation, pad, in_zp, out_zp,
                       act):
    """depthwise_conv2d's results from the C micro-kernel
    ffi_core_depthwise_conv_s8 (depthwise_conv_s8.c), channel multiplier 1."""
    x = te.placeholder(in_shape, "int8", "x")
    n, h, w, ch = in_shape
    _, oh, ow, _ = out_shape
    return _extern("ffi_core_depthwise_conv_s8", x, s, out_shape, s.weights_offset,
                   s.table_offset, n, h, w, ch, oh, ow, w_shape[1], w_shape[2], *stride,
                   *dilation, *pad, in_zp, out_zp, *act)


def transposed_tap(x, oh, ow, kh, kw, stride, pad):
    """(ih, iw, hit) of the input position that a transposed convolution's
    tap (kh, kw) scatters to output (oh, ow): ih * stride + kh - pad = oh.
    The gather form of TFLite's scatter loop; `hit` is false where no input
    position lands there."""
    _, h, w, _ = x.shape
    th = oh + pad[0] - kh
    tw = ow + pad[1] - kw
    ih = tir.floordiv(th, stride[0])
    iw = tir.floordiv(tw, stride[1])
    hit = tir.all(th >= 0, tw >= 0, tir.floormod(th, stride[0]) == 0,
                  tir.floormod(tw, stride[1]) == 0, ih < h, iw < w)
    return ih, iw, hit


def transpose_conv2d(s, in_shape, w_shape, out_shape, stride, pad, in_zp, out_zp, act):
    """TRANSPOSE_CONV: y = requantize(sum((x - in_zp) * w) + bias), the sum
    over the taps that reach each output. Where taps fall outside the input
    depends on the position, so the zero point is subtracted per product
    rather than folded into the bias (the table's bias is the bias alone).
    LiteRT's kernel requantizes with double rounding (it is built without
    TFLITE_SINGLE_ROUNDING), and so does this one."""
    x = te.placeholder(in_shape, "int8", "x")
    w = s.weights(w_shape)
    kh, kw, ci = window_axes(w_shape, channels=True)

    def acc_f(n, oh, ow, c):
        ih, iw, hit = transposed_tap(x, oh, ow, kh, kw, stride, pad)
        xv = x[n, ih, iw, ci].astype("int32") - tir.const(in_zp, "int32")
        return te.sum(tir.if_then_else(hit, xv * w(c, kh, kw, ci).astype("int32"), 0),
                      axis=[kh, kw, ci])

    acc = te.compute(out_shape, acc_f, name="acc")

    def y_f(n, oh, ow, c):
        scaled = multiply_double_rounding_per_channel(acc[n, oh, ow, c] + s.table(c, 0),
                                                      s.table(c, 1), s.shift(c))
        return _clamp_int8(scaled + tir.const(out_zp, "int32"), *act)

    y = te.compute(out_shape, y_f, name="y")
    return _accumulate_in_place(_prim_func([x, s.blob, y]), "acc", "y")


def _int64_at(blob, at):
    """The little-endian int64 at byte offset `at` of the blob."""
    low = read(blob, at, "int32").astype("uint32").astype("int64")
    return (read(blob, at + 4, "int32").astype("int64") << tir.const(32, "int64")) | low


def transpose_conv2d_16x8(blob, w_offset, bias, q, in_shape, w_shape, out_shape,
                          stride, pad, act):
    """TRANSPOSE_CONV of int16 activations (zero points 0) and int8 weights:
    int64 sums, requantized as _requantize_16x8."""
    _, kh_n, kw_n, ci_n = w_shape
    x = te.placeholder(in_shape, "int16", "x")
    kh, kw, ci = window_axes(w_shape, channels=True)

    def weight(c, i, j, k):
        return blob[w_offset + ((c * kh_n + i) * kw_n + j) * ci_n + k]

    def acc_f(n, oh, ow, c):
        ih, iw, hit = transposed_tap(x, oh, ow, kh, kw, stride, pad)
        product = _product_16x8(x[n, ih, iw, ci], weight(c, kh, kw, ci))
        return te.sum(tir.if_then_else(hit, product, tir.const(0, "int64")), axis=[kh, kw, ci])

    return _requantized_16x8(x, blob, bias, q, out_shape, acc_f, act)


def _requantize_16x8(v, blob, bias, q, c, act):
    """int64 sum v of channel c plus its bias, scaled as TFLite's 64-bit
    MultiplyByQuantizedMultiplier does: (v * m + 2^(r-1)) >> r, m and r from
    q[c] (int32 pairs: a 16-bit or a 32-bit multiplier), clamped to int16.
    `bias`: (offset, dtype) or None; with an int32 bias, TFLite sums in
    int32, so the sum wraps there before the bias is added. `q`: (offset,
    double); `double`: scaled instead as the 32-bit multiply with double
    rounding (LiteRT's int32-bias convolutions)."""
    q_offset, double = q
    if bias is not None:
        offset, dtype = bias
        if dtype == "int32":
            v = (v.astype("int32") + read(blob, offset + c * 4, "int32")).astype("int64")
        else:
            v = v + _int64_at(blob, offset + c * 8)
    m = read(blob, q_offset + c * 8, "int32").astype("int64")
    # The shift from its low byte alone, as Slice.shift reads it.
    r = blob[q_offset + c * 8 + 4].astype("uint8").astype("int64")
    if double:
        scaled = multiply_double_rounding_per_channel(v.astype("int32"), m.astype("int32"),
                                                      r.astype("int32")).astype("int64")
    else:
        scaled = (v * m + (tir.const(1, "int64") << (r - tir.const(1, "int64")))) >> r
    lo, hi = act
    return tir.max(tir.min(scaled, tir.const(hi, "int64")),
                   tir.const(lo, "int64")).astype("int16")


def _requantized_16x8(x, blob, bias, q, out_shape, acc_f, act):
    """A 16x8 kernel: acc_f's int64 sums per output (channel last),
    requantized per channel."""
    acc = te.compute(out_shape, acc_f, name="acc")
    y = te.compute(out_shape, lambda *i: _requantize_16x8(acc[i], blob, bias, q,
                                                          i[-1], act), name="y")
    return _accumulate_in_place(_prim_func([x, blob, y]), "acc", "y")


def _product_16x8(xv, wv):
    """An int16 input times an int8 weight, in int32 as TFLite multiplies,
    widened to the int64 sum."""
    return (xv.astype("int32") * wv.astype("int32")).astype("int64")


def conv2d_16x8(blob, w_offset, bias, q, in_shape, w_shape, out_shape, stride,
                dilation, pad, act, depthwise=False):
    """CONV_2D or DEPTHWISE_CONV_2D of int16 activations (zero points 0, so
    the padding adds nothing) and int8 weights: int64 sums, requantized as
    _requantize_16x8."""
    _, kh_n, kw_n, w_last = w_shape
    ci_n = in_shape[3]
    x = te.placeholder(in_shape, "int16", "x")
    kh, kw = window_axes(w_shape)

    def weight(c, i, j, k):
        return blob[w_offset + ((c * kh_n + i) * kw_n + j) * w_last + k]

    zero = tir.const(0, "int64")
    if depthwise:
        multiplier = w_last // ci_n

        def acc_f(n, oh, ow, c):
            ih, iw, inside = _tap(x, oh, ow, kh, kw, stride, dilation, pad)
            product = _product_16x8(x[n, ih, iw, c // multiplier], weight(0, kh, kw, c))
            return te.sum(tir.if_then_else(inside, product, zero), axis=[kh, kw])
    else:
        ci = te.reduce_axis((0, ci_n), "ci")

        def acc_f(n, oh, ow, c):
            ih, iw, inside = _tap(x, oh, ow, kh, kw, stride, dilation, pad)
            product = _product_16x8(x[n, ih, iw, ci], weight(c, kh, kw, ci))
            return te.sum(tir.if_then_else(inside, product, zero), axis=[kh, kw, ci])

    return _requantized_16x8(x, blob, bias, q, out_shape, acc_f, act)


def fully_connected_16x8(blob, w_offset, bias, q, batch, in_features, out_features,
                         act):
    """FULLY_CONNECTED of int16 activations and int8 weights (OI)."""
    x = te.placeholder((batch, in_features), "int16", "x")
    i = te.reduce_axis((0, in_features), "i")

    def acc_f(b, o):
        return te.sum(_product_16x8(x[b, i], blob[w_offset + o * in_features + i]), axis=i)

    return _requantized_16x8(x, blob, bias, q, (batch, out_features), acc_f, act)


def fully_connected(s, batch, in_features, out_features, in_zp, out_zp, act):
    """FULLY_CONNECTED: y[b, o] = requantize(sum_i x[b, i] * w[o, i] + bias - in_zp * sum_i w[o, i])."""
    x = te.placeholder((batch, in_features), "int8", "x")
    w = s.weights((out_features, in_features))
    i = te.reduce_axis((0, in_features), "i")

    def acc_f(b, o):
        return te.sum(x[b, i].astype("int32") * w(o, i).astype("int32"), axis=i)
    acc = te.compute((batch, out_features), acc_f, name="acc")
    y = te.compute((batch, out_features),
                   lambda b, o: _requantize(acc[b, o], s, o, out_zp, act, once=True), name="y")
    return _accumulate_in_place(_prim_func([x, s.blob, y]), "acc", "y")


def fully_connected_c(s, batch, in_features, out_features, out_zp, act):
    """fully_connected's results from the C micro-kernel
    ffi_core_fully_connected_s8 (fully_connected_s8.c)."""
    x = te.placeholder((batch, in_features), "int8", "x")
    return _extern("ffi_core_fully_connected_s8", x, s, (batch, out_features), s.weights_offset,
                   s.table_offset, batch, in_features, out_features, out_zp, *act)


def pool_window(x, out_shape, window, stride, pad, value, zero):
    """(total, count) of an average pool: total[n, oh, ow, c] sums
    value(x[n, ih, iw, c]) over the window's positions inside the input (the
    padding adds `zero`), count(oh, ow) is how many those are."""
    h, w_ = int(x.shape[1]), int(x.shape[2])
    rh = te.reduce_axis((0, window[0]), "rh")
    rw = te.reduce_axis((0, window[1]), "rw")

    def sum_f(n, oh, ow, c):
        ih = oh * stride[0] + rh - pad[0]
        iw = ow * stride[1] + rw - pad[1]
        inside = tir.all(ih >= 0, ih < h, iw >= 0, iw < w_)
        return te.sum(tir.if_then_else(inside, value(x[n, ih, iw, c]), zero), axis=[rh, rw])

    def along(o, s, k, p, size):
        start = o * s - p
        return tir.min(start + k, size) - tir.max(start, 0)

    def count(oh, ow):
        return along(oh, stride[0], window[0], pad[0], h) * along(ow, stride[1], window[1],
                                                                   pad[1], w_)

    return te.compute(out_shape, sum_f, name="total"), count


def average_pool2d(in_shape, out_shape, window, stride, pad, act, dtype="int8"):
    """AVERAGE_POOL_2D of int8 or int16 over the window's positions inside
    the input, rounded half away from zero as TFLite does (input and output
    share quantization); the sum in int32."""
    x = te.placeholder(in_shape, dtype, "x")
    total, count = pool_window(x, out_shape, window, stride, pad, lambda v: v.astype("int32"), 0)

    def avg_f(n, oh, ow, c):
        cnt = count(oh, ow)
        t = total[n, oh, ow, c]
        half = tir.truncdiv(cnt, 2)
        rounded = tir.Select(t > 0, tir.truncdiv(t + half, cnt), tir.truncdiv(t - half, cnt))
        if dtype == "int16":
            lo, hi = act
            return tir.max(tir.min(rounded, tir.const(hi, "int32")),
                           tir.const(lo, "int32")).astype("int16")
        return _clamp_int8(rounded, *act)

    y = te.compute(out_shape, avg_f, name="y")
    return _accumulate_in_place(_prim_func([x, y]), "total", "y")


def softmax(batch, n, in_scale, beta, out_scale, out_zp, out_dtype="int8"):
    """SOFTMAX of int8 logits to int8 or int16 probabilities, in float32 over
    the last axis (a handful of values per inference)."""
    x = te.placeholder((batch, n), "int8", "x")
    k = te.reduce_axis((0, n), "k")
    top = te.compute((batch,), lambda b: te.max(x[b, k].astype("int32"), axis=k), name="top")
    scale = float(in_scale * beta)
    e = te.compute((batch, n), lambda b, i: tir.exp(
        (x[b, i].astype("int32") - top[b]).astype("float32") * tir.const(scale, "float32")),
        name="e")
    j = te.reduce_axis((0, n), "j")
    total = te.compute((batch,), lambda b: te.sum(e[b, j], axis=j), name="total")
    inv_out = tir.const(1.0 / out_scale, "float32")

    def y_f(b, i):
        v = tir.round(e[b, i] / total[b] * inv_out).astype("int32") + out_zp
        if out_dtype == "int16":
            return tir.max(tir.min(v, 32767), -32768).astype("int16")
        return _clamp_int8(v, -128, 127)

    y = te.compute((batch, n), y_f, name="y")
    return _prim_func([x, y])

"""SOFTMAX: int8 logits to int8 or int16 probabilities, and int16 logits to
int16 probabilities (TFLite's exp and 1/(1+x) tables); LOG_SOFTMAX of int8
(TFLite's fixed-point exp and log); over the last axis."""
import math

import numpy as np
from tflite.SoftmaxOptions import SoftmaxOptions
from tvm import tirx as tir
from tvm.script.ir_builder import tirx as T

from ... import fixed_point_log as fx
from ... import int8_kernels as kernels
from ...fixed_point import multiply_double_rounding, quantize_multiplier
from ...ir_kernel import local, prim_func
from ...weight_blob import read
from ..gemmlowp import (exp_on_negative_values, int16_lut, mbqm, quantize, saturating_mul_pot,
                        softmax_input_scaling)
from ..model import UnsupportedModel
from ..registry import lowering


@lowering("SOFTMAX", types=("int8", "int16"), options=SoftmaxOptions, mixed=True,
          note="int8: int8 or int16 output; int16: TFLite's exp and 1/(1+x) tables")
def softmax(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if x.dtype == "int16":
        return _softmax16(ctx, op)
    if out.dtype not in ("int8", "int16"):
        raise UnsupportedModel(f"{op}: {out.dtype} output is not supported")
    in_scale, in_zp = x.quant()
    out_scale, out_zp = out.quant()
    n = x.shape[-1]
    batch = int(np.prod(x.shape)) // n
    value = ctx.reshape(ctx.value(x), x.shape, (batch, n))
    key = ("softmax", batch, n, in_scale, in_zp, op.options.Beta, out_scale, out_zp, out.dtype)
    gv = ctx.kernel(key, lambda: kernels.softmax(batch, n, in_scale, op.options.Beta,
                                                 out_scale, out_zp, out.dtype))
    y = ctx.call(gv, [value], (batch, n), out.dtype)
    return ctx.reshape(y, (batch, n), out.shape)


_RANGE = 65535.0  # int16's span, by which TFLite scales its tables


def _lookup(blob, offset, value):
    """TFLite's LUTLookup of an int16 value (int32 here) in the 513-entry
    table at `offset`: its top 9 bits pick an entry, the low 7 interpolate to
    the next."""
    index = (value >> 7) + 256
    base = read(blob, offset + 2 * index, "int16").astype("int32")
    slope = read(blob, offset + 2 * index + 2, "int16").astype("int32") - base
    return (base + ((slope * (value & 0x7F) + 64) >> 7)).astype("int16").astype("int32")


def _clamp16(v):
    return tir.max(tir.min(v, tir.const(32767, "int32")), tir.const(-32768, "int32"))


def _leading_zeros(v):
    """The leading zero bits of a positive int32: 32 less its bit length,
    counted by comparisons (a CPU without a count-leading-zeros instruction
    gets no library call)."""
    return 32 - sum(tir.Select(v >= (1 << k), 1, 0) for k in range(31))


def _softmax16(ctx, op):
    """TFLite's SoftmaxInt16: exp(x - max) from a table over [-10, 0], the sum
    of a row's in int32, 1/sum from a table of 1/(1+x) after bringing the
    sum to [1, 2), and each exp scaled by it into [0, 32767]; a kernel of
    scalar steps (ir_kernel.py)."""
    x, out = op.inputs[0], op.outputs[0]
    (si, zi), (so, zo) = x.quant(), out.quant()
    if out.dtype != "int16" or zi or zo:
        raise UnsupportedModel(f"{op}: int16 takes an int16 output and zero points 0")
    if abs(so - 1 / 32768) > 0.001 / 32768:
        raise UnsupportedModel(f"{op}: output scale {so}, TFLite's is 1/32768")
    # TFLite multiplies the scale by beta in float32, then divides in double.
    scale_beta = float(np.float32(si) * np.float32(op.options.Beta))
    mantissa, right_shift = quantize_multiplier(scale_beta / (10.0 / 65535.0))
    # math.exp: the C library's, as TFLite's std::exp.
    exp_off = ctx.pack(int16_lut(10.0 / _RANGE, 32767, 2.0 / _RANGE, math.exp))
    inv_off = ctx.pack(int16_lut(1.0 / _RANGE, -32768, 2.0 / _RANGE, lambda v: 1.0 / (1.0 + v)))
    n = x.shape[-1]
    batch = int(np.prod(x.shape)) // n

    def make():
        args = [("x", (batch, n), "int16"), ("weights", (ctx.blob.size,), "int8"),
                ("y", (batch, n), "int16")]
        with prim_func("softmax16", args) as (ib, (xb, blob, yb)):
            acc = T.alloc_buffer((1,), "int32")  # on the stack, as ir_kernel.local
            with T.serial(0, batch) as b:
                T.buffer_store(acc, tir.const(-32768, "int32"), [0])
                with T.serial(0, n) as i:
                    T.buffer_store(acc, tir.max(acc[0], xb[b, i].astype("int32")), [0])
                top = local(acc[0])
                # Each exp is kept in the output until the sum's reciprocal
                # is known, as TFLite does.
                T.buffer_store(acc, tir.const(0, "int32"), [0])
                with T.serial(0, n) as i:
                    diff = local(multiply_double_rounding(xb[b, i].astype("int32") - top,
                                                          mantissa, right_shift))
                    e = local(_lookup(blob, exp_off, local(_clamp16(diff + 32767))))
                    T.buffer_store(yb, e.astype("int16"), [b, i])
                    T.buffer_store(acc, acc[0] + e, [0])
                total = local(acc[0])
                lead = local(_leading_zeros(total))  # headroom + 1
                shifted = ((total.astype("int64") << (lead.astype("int64") - 1))
                           + (1 << 13)) >> 14
                recip = local(_lookup(blob, inv_off, local(
                    _clamp16(shifted.astype("int32") - (1 << 15) - (1 << 16)))))
                r = tir.const(31, "int64") - lead.astype("int64")
                with T.serial(0, n) as i:
                    v = (yb[b, i].astype("int64") * recip.astype("int64")
                         + (tir.const(1, "int64") << (r - 1))) >> r
                    T.buffer_store(yb, tir.max(tir.min(v, tir.const(32767, "int64")),
                                               tir.const(0, "int64")).astype("int16"), [b, i])
        return ib.get()
    gv = ctx.kernel(("softmax16", batch, n, mantissa, right_shift, exp_off), make)
    value = ctx.reshape(ctx.value(x), x.shape, (batch, n))
    y = ctx.call(gv, [value, ctx.blob_const], (batch, n), "int16")
    return ctx.reshape(y, (batch, n), out.shape)


@lowering("LOG_SOFTMAX", types=("int8",),
          note="int8: TFLite's fixed-point exp and log (output scale 16/256, zero point 127)")
def log_softmax(ctx, op):
    """TFLite's integer LogSoftmax: a row's differences from its top, brought
    to Q5.26; the sum of their exps (Q12.19) and its log (Q5.26) at run
    time; each output the difference less the log, in 1/16ths from 127.
    A difference (-255..0) has 256 values, so its Q5.26 value and its exp
    are two tables computed here."""
    x, out = op.inputs[0], op.outputs[0]
    (si, _), (so, zo) = x.quant(), out.quant()
    if out.dtype != "int8" or np.float32(so) != np.float32(16 / 256) or zo != 127:
        raise UnsupportedModel(f"{op}: takes an int8 output of scale 16/256 and zero point 127")
    if tuple(x.shape) != tuple(out.shape):
        raise UnsupportedModel(f"{op}: output shape {list(out.shape)}")
    mantissa, left_shift, diff_min = softmax_input_scaling(1.0, float(si), 5)
    if left_shift < 0:  # TFLite checks for a multiplier above one
        raise UnsupportedModel(f"{op}: input scale {si} below 2^-26")
    reverse_m, reverse_shift = quantize((1 << (31 - left_shift)) / float(mantissa))
    q5 = [mbqm(-d, mantissa, left_shift) if -d >= diff_min else 0 for d in range(256)]
    # Each exp as the sum adds it: Rescale<12> of a Q0.31 value.
    exps = [saturating_mul_pot(exp_on_negative_values(v, 5), -12) if -d >= diff_min else 0
            for d, v in enumerate(q5)]
    q5_off = ctx.pack(np.asarray(q5, np.int32))
    exp_off = ctx.pack(np.asarray(exps, np.int32))
    n = x.shape[-1]
    batch = int(np.prod(x.shape)) // n

    def make():
        args = [("x", (batch, n), "int8"), ("weights", (ctx.blob.size,), "int8"),
                ("y", (batch, n), "int8")]
        with prim_func("log_softmax", args) as (ib, (xb, blob, yb)):
            acc = T.alloc_buffer((1,), "int32")  # on the stack, as ir_kernel.local
            with T.serial(0, batch) as b:
                T.buffer_store(acc, tir.const(-128, "int32"), [0])
                with T.serial(0, n) as i:
                    T.buffer_store(acc, tir.max(acc[0], xb[b, i].astype("int32")), [0])
                top = local(acc[0])

                def table(offset, i):
                    d = top - xb[b, i].astype("int32")
                    return read(blob, offset + 4 * d, "int32")
                T.buffer_store(acc, tir.const(0, "int32"), [0])
                with T.serial(0, n) as i:
                    T.buffer_store(acc, fx.add(acc[0], table(exp_off, i)), [0])
                log = local(fx.log_x(local, local(acc[0]), 12, 5))
                # The smallest difference kept: above both TFLite's bound and
                # the one at which the output would wrap.
                floor = multiply_double_rounding(fx.add(log, tir.const(-(1 << 31), "int32")),
                                                 reverse_m, 31 - reverse_shift)
                floor = local(tir.max(tir.const(diff_min - 1, "int32"), floor))
                with T.serial(0, n) as i:
                    d = xb[b, i].astype("int32") - top
                    v = fx.divide_by_pot(local, fx.sub(table(q5_off, i), log), 22)
                    v = tir.max(tir.min(v + 127, tir.const(127, "int32")),
                                tir.const(-128, "int32"))
                    T.buffer_store(yb, tir.Select(d > floor, v, tir.const(-128, "int32"))
                                   .astype("int8"), [b, i])
        return ib.get()
    gv = ctx.kernel(("log_softmax", batch, n, q5_off), make)
    value = ctx.reshape(ctx.value(x), x.shape, (batch, n))
    y = ctx.call(gv, [value, ctx.blob_const], (batch, n), "int8")
    return ctx.reshape(y, (batch, n), out.shape)

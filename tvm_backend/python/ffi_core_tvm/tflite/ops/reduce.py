"""Reductions over constant axes: MEAN, REDUCE_MAX and SUM (int8, int16)
and ARG_MAX (int8 in; int32 or int64 out)."""
import numpy as np
from tflite.ArgMaxOptions import ArgMaxOptions
from tflite.ReducerOptions import ReducerOptions
from tvm import te
from tvm import tirx as tir

from ...fixed_point import multiply_double_rounding, quantize_multiplier
from ..model import UnsupportedModel
from ..registry import lowering

_RANGE = {"int8": (-128, 127), "int16": (-32768, 32767)}


def _axes(op, x, axis):
    if not axis.is_constant:
        raise UnsupportedModel(f"{op}: axes computed at run time")
    rank = len(x.shape)
    axes = sorted({int(a) % rank for a in np.ravel(axis.data)} if rank else set())
    if any(not -rank <= int(a) < rank for a in np.ravel(axis.data)):
        raise UnsupportedModel(f"{op}: axis out of range")
    return axes


def _reduction(ctx, op, name, key, axes, combine, finish):
    """y = finish(combine over `axes` of x (int32), count); combine: 'sum' or 'max'."""
    x, out = op.inputs[0], op.outputs[0]
    kept = [d for d in range(len(x.shape)) if d not in axes]
    count = int(np.prod([x.shape[d] for d in axes])) if axes else 1
    if int(np.prod(out.shape)) != int(np.prod([x.shape[d] for d in kept])):
        raise UnsupportedModel(f"{op}: output shape {list(out.shape)}")
    out_shape = tuple(x.shape[d] for d in kept)

    def make():
        xp = te.placeholder(x.shape, x.dtype, "x")
        rs = [te.reduce_axis((0, x.shape[d]), f"r{d}") for d in axes]

        def index(idx):
            it_idx, it_r = iter(idx), iter(rs)
            return tuple(next(it_r) if d in axes else next(it_idx) for d in range(len(x.shape)))
        reducer = te.sum if combine == "sum" else te.max
        acc = te.compute(out_shape, lambda *i: reducer(xp[index(i)].astype("int32"), axis=rs),
                         name="acc")
        y = te.compute(out_shape, lambda *i: finish(acc[i], count).astype(out.dtype), name="y")
        return te.create_prim_func([xp, y]).with_attr("tir.noalias", True)
    gv = ctx.kernel((name, tuple(x.shape), tuple(axes), key), make)
    y = ctx.call(gv, [ctx.value(x)], out_shape, out.dtype)
    return ctx.reshape(y, out_shape, out.shape)


def _mean_or_sum(ctx, op, name):
    x, axis = op.inputs[:2]
    out = op.outputs[0]
    axes = _axes(op, x, axis)
    (si, zi), (so, zo) = x.quant(), out.quant()
    if x.dtype == "int16" and (zi or zo):
        raise UnsupportedModel(f"{op}: int16 tensors with a zero point")
    mantissa, right_shift = quantize_multiplier(si / so)
    lo, hi = _RANGE[out.dtype]
    count = int(np.prod([x.shape[d] for d in axes])) if axes else 1
    if name == "mean":
        # TFLite folds 1/count into the multiplier: shifted up by up to
        # log2(count) bits first, then divided (truncating).
        shift = min(count.bit_length() - 1, 32, 31 + (31 - right_shift))
        mantissa = (mantissa << shift) // count
        right_shift += shift

    def finish(total, n):
        v = multiply_double_rounding(total - tir.const(zi * n, "int32"), mantissa, right_shift)
        return tir.max(tir.min(v + zo, tir.const(hi, "int32")), tir.const(lo, "int32"))
    return _reduction(ctx, op, name, (zi, zo, mantissa, right_shift), axes, "sum", finish)


@lowering("MEAN", types=("int8", "int16"), options=ReducerOptions)
def mean(ctx, op):
    return _mean_or_sum(ctx, op, "mean")


@lowering("SUM", types=("int8", "int16"), options=ReducerOptions,
          note="int8, int16: as TFLite Micro (LiteRT's reference kernel reads them as "
               "uint8)")
def sum_(ctx, op):
    return _mean_or_sum(ctx, op, "sum")


@lowering("REDUCE_MAX", types=("int8", "int16"), options=ReducerOptions)
def reduce_max(ctx, op):
    x, axis = op.inputs[:2]
    if x.quant() != op.outputs[0].quant():
        raise UnsupportedModel(f"{op}: a maximum that changes quantization")
    axes = _axes(op, x, axis)
    return _reduction(ctx, op, "reduce_max", (), axes, "max", lambda m, n: m)


@lowering("ARG_MAX", types=("int8",), options=ArgMaxOptions, mixed=True,
          note="int32 or int64 indices")
def arg_max(ctx, op):
    x, axis = op.inputs[:2]
    out = op.outputs[0]
    if x.dtype != "int8" or out.dtype not in ("int32", "int64"):
        raise UnsupportedModel(f"{op}: {x.dtype} to {out.dtype}")
    axes = _axes(op, x, axis)
    if len(axes) != 1:
        raise UnsupportedModel(f"{op}: takes one axis")
    a = axes[0]
    n = x.shape[a]
    out_shape = tuple(d for i, d in enumerate(x.shape) if i != a)

    def make():
        xp = te.placeholder(x.shape, x.dtype, "x")

        def at(idx, k):
            return xp[tuple(idx[:a]) + (k,) + tuple(idx[a:])]
        r = te.reduce_axis((0, n), "r")
        top = te.compute(out_shape, lambda *i: te.max(at(i, r), axis=r), name="top")
        # The first index holding the maximum, as TFLite's ArgMinMax keeps.
        k = te.reduce_axis((0, n), "k")
        y = te.compute(out_shape, lambda *i: te.min(tir.Select(
            at(i, k) == top[i], k.astype(out.dtype), tir.const(n, out.dtype)), axis=k), name="y")
        return te.create_prim_func([xp, y]).with_attr("tir.noalias", True)
    gv = ctx.kernel(("arg_max", tuple(x.shape), x.dtype, a, out.dtype), make)
    y = ctx.call(gv, [ctx.value(x)], out_shape, out.dtype)
    return ctx.reshape(y, out_shape, out.shape)

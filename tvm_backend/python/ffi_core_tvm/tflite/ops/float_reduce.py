"""float32 MEAN, SUM and REDUCE_MAX over constant axes, keep_dims or not."""
import numpy as np
from tflite.ReducerOptions import ReducerOptions
from tvm import te
from tvm import tirx as tir

from ..model import UnsupportedModel
from ..registry import lowering

_NOTE = "float32: constant axes"


def _axes(op, rank):
    """The reduced axes, sorted, each once (negative ones count from the end)."""
    axes_t = op.inputs[1]
    if not axes_t.is_constant:
        raise UnsupportedModel(f"{op}: the axes must be a constant")
    axes = [int(a) for a in np.ravel(axes_t.data)]
    if any(not -rank <= a < rank for a in axes):
        raise UnsupportedModel(f"{op}: axes {axes} for an input of {rank} dimensions")
    return tuple(sorted({a % rank for a in axes}))


def _reduce(ctx, op, kind):
    x, out = op.inputs[0], op.outputs[0]
    shape = tuple(x.shape)
    axes = _axes(op, len(shape))
    keep = bool(op.options.KeepDims)
    want = tuple(1 if k in axes else n for k, n in enumerate(shape) if keep or k not in axes)
    if int(np.prod(want)) != int(np.prod(out.shape)):
        raise UnsupportedModel(f"{op}: output of shape {list(out.shape)}, not {list(want)}")
    count = int(np.prod([shape[k] for k in axes]))

    def make():
        xp = te.placeholder(shape, "float32", "x")
        rs = {k: te.reduce_axis((0, shape[k]), f"r{k}") for k in axes}

        def index(idx):
            free = iter(idx)
            full = []
            for k in range(len(shape)):
                if k in axes:
                    if keep:
                        next(free)
                    full.append(rs[k])
                else:
                    full.append(next(free))
            return tuple(full)

        def f(*idx):
            v = xp[index(idx)]
            if not axes:
                return v
            if kind == "max":
                return te.max(v, axis=list(rs.values()))
            return te.sum(v, axis=list(rs.values()))

        y = te.compute(want, f, name="r")
        if kind == "mean" and axes:
            total = y
            y = te.compute(want, lambda *i: total[i] / tir.const(float(count), "float32"),
                           name="y")
        return te.create_prim_func([xp, y]).with_attr("tir.noalias", True)

    gv = ctx.kernel((f"f{kind}", shape, axes, keep), make)
    y = ctx.call(gv, [ctx.value(x)], want, "float32")
    return ctx.reshape(y, want, out.shape)


@lowering("MEAN", types=("float32",), options=ReducerOptions, note=_NOTE)
def mean_float(ctx, op):
    return _reduce(ctx, op, "mean")


@lowering("SUM", types=("float32",), options=ReducerOptions, note=_NOTE)
def sum_float(ctx, op):
    return _reduce(ctx, op, "sum")


@lowering("REDUCE_MAX", types=("float32",), options=ReducerOptions, note=_NOTE)
def reduce_max_float(ctx, op):
    return _reduce(ctx, op, "max")

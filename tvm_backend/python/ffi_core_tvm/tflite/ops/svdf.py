"""SVDF: int8 input and output, int8 feature weights, int8 or int16 time
weights and activation state (TFLite Micro's integer SVDF; TFLite's takes
the int16 state alone).

Two stages, as the reference computes them. The state holds, per filter,
the last `memory` feature values: each call shifts it one place left and
writes the newest value, the input's dot product with the filter's feature
weights rescaled to the state's scale, in place (the state's one buffer is
main's argument). The output is, per unit, the bias plus the dot products of
its `rank` filters' memories with their time weights, rescaled to the
output's scale.
"""
import numpy as np
from tflite.SVDFOptions import SVDFOptions
from tvm import te
from tvm import tirx as tir
from tvm.script.ir_builder import tirx as T

from ... import weight_blob
from ...fixed_point import multiply_double_rounding, quantize_multiplier
from ...ir_kernel import prim_func
from ..model import UnsupportedModel
from ..quant import NONE, RELU
from ..registry import lowering

_LIMITS = {"int8": (-128, 127), "int16": (-32768, 32767)}


def _f32(*values):
    """The product/quotient chain TFLite computes in float: a * b / c."""
    a, b, c = (np.float32(v) for v in values)
    return float(np.float32(np.float32(a * b) / c))


def _scaled(acc, multiplier):
    mantissa, shift = multiplier
    return multiply_double_rounding(acc, mantissa, shift)


def _clamp(v, dtype):
    lo, hi = _LIMITS[dtype]
    return tir.max(tir.min(v, tir.const(hi, "int32")), tir.const(lo, "int32")).astype(dtype)


def _feature_kernel(ctx, batch, n_input, n_filter, memory, state_dtype, wf_off, in_zp, state_zp,
                    m1):
    """The new state, written in place over the old: each filter's memory
    shifted left by one, its newest value the rescaled feature dot product."""
    args = [("x", (batch, n_input), "int8"), ("state", (batch, n_filter * memory), state_dtype),
            ("weights", (ctx.blob.size,), "int8")]
    with prim_func("svdf_state", args) as (ib, (x, state, blob)):
        acc = T.alloc_buffer((1,), "int32")
        with T.serial(0, batch) as b:
            with T.serial(0, n_filter) as f:
                T.buffer_store(acc, tir.const(0, "int32"), [0])
                with T.serial(0, n_input) as c:
                    w = weight_blob.read(blob, wf_off + f * n_input + c, "int8").astype("int32")
                    T.buffer_store(acc, acc[0] + w * (x[b, c].astype("int32") - in_zp), [0])
                # Oldest first: each value moves before its place is written.
                with T.serial(0, memory - 1) as m:
                    T.buffer_store(state, state[b, f * memory + m + 1], [b, f * memory + m])
                newest = _clamp(_scaled(acc[0], m1) + state_zp, state_dtype)
                T.buffer_store(state, newest, [b, f * memory + memory - 1])
    return ib.get()


def _time_kernel(ctx, batch, n_filter, memory, rank, state_dtype, wt_off, bias_off, state_zp,
                 m2, out_zp, lo, hi):
    """The output: per unit, bias plus its filters' memories dotted with
    their time weights, rescaled."""
    blob = ctx.blob_placeholder()
    state = te.placeholder((batch, n_filter * memory), state_dtype, "state")
    units = n_filter // rank
    r = te.reduce_axis((0, rank), "r")
    m = te.reduce_axis((0, memory), "m")

    def acc_f(b, u):
        f = u * rank + r
        w = weight_blob.read(blob, wt_off + (f * memory + m) * np.dtype(state_dtype).itemsize,
                             state_dtype).astype("int32")
        return te.sum(w * (state[b, f * memory + m].astype("int32") - state_zp), axis=[r, m])

    acc = te.compute((batch, units), acc_f, name="acc")

    def y_f(b, u):
        total = acc[b, u]
        if bias_off is not None:
            total = total + weight_blob.read(blob, bias_off + u * 4, "int32")
        v = _scaled(total, m2) + out_zp
        return tir.max(tir.min(v, tir.const(hi, "int32")), tir.const(lo, "int32")).astype("int8")

    y = te.compute((batch, units), y_f, name="y")
    return te.create_prim_func([state, blob, y]).with_attr("tir.noalias", True)


@lowering("SVDF", types=("int8",), options=SVDFOptions, mixed=True,
          note="int8 or int16 state (variable tensor)")
def svdf(ctx, op):
    if len(op.inputs) != 5:
        raise UnsupportedModel(f"{op}: {len(op.inputs)} inputs, not 5")
    x, wf, wt, bias, state = op.inputs
    out = op.outputs[0]
    rank = op.options.Rank
    if state is None or not state.is_variable:
        raise UnsupportedModel(f"{op}: the activation state is not a variable tensor")
    if x.dtype != "int8" or out.dtype != "int8" or wf.dtype != "int8" or not wf.is_constant:
        raise UnsupportedModel(f"{op}: takes int8 input, output and constant feature weights")
    if state.dtype not in ("int8", "int16") or wt.dtype != state.dtype or not wt.is_constant:
        raise UnsupportedModel(f"{op}: time weights and state must both be int8 or int16, "
                               "the weights constant")
    if bias is not None and (bias.dtype != "int32" or not bias.is_constant):
        raise UnsupportedModel(f"{op}: the bias must be constant int32")
    if len(x.shape) != 2 or len(wf.shape) != 2 or len(wt.shape) != 2:
        raise UnsupportedModel(f"{op}: input and weights must be two-dimensional")
    batch, n_input = x.shape
    n_filter, memory = wt.shape
    if rank < 1 or n_filter % rank or wf.shape != (n_filter, n_input) or \
            state.shape != (batch, n_filter * memory) or out.shape != (batch, n_filter // rank):
        raise UnsupportedModel(f"{op}: shapes do not agree with rank {rank}")
    in_scale, in_zp = x.quant()
    wf_scale, _ = wf.quant()
    wt_scale, _ = wt.quant()
    state_scale, state_zp = state.quant()
    out_scale, out_zp = out.quant()
    lo, hi = _LIMITS["int8"]
    # The integer reference kernels apply no activation; RELU is the clamp
    # to the int8 range only when the output's zero point is its lowest value.
    act = op.options.FusedActivationFunction
    if act not in (NONE, RELU) or (act == RELU and out_zp != lo):
        raise UnsupportedModel(f"{op}: fused activation {act} (the reference ignores it)")
    m1 = quantize_multiplier(_f32(in_scale, wf_scale, state_scale))
    m2 = quantize_multiplier(_f32(state_scale, wt_scale, out_scale))
    wf_off = ctx.pack(wf.data)
    wt_off = ctx.pack(wt.data)
    bias_off = ctx.pack(bias.data) if bias is not None else None
    new_gv = ctx.kernel(("svdf_state", wf_off), lambda: _feature_kernel(
        ctx, batch, n_input, n_filter, memory, state.dtype, wf_off, in_zp, state_zp, m1))
    new_state, = ctx.call_inplace(new_gv, [ctx.value(x), ctx.state(state), ctx.blob_const], [1])
    ctx.set_state(state, new_state)
    y_gv = ctx.kernel(("svdf", wt_off), lambda: _time_kernel(
        ctx, batch, n_filter, memory, rank, state.dtype, wt_off, bias_off, state_zp, m2, out_zp,
        lo, hi))
    return ctx.call(y_gv, [new_state, ctx.blob_const], out.shape)

"""UNIDIRECTIONAL_SEQUENCE_LSTM: TFLite's integer LSTM (8x8_16: int8 input,
weights and hidden state, int16 cell state), without peephole, CIFG,
projection or layer normalization.

Per time step, each gate (input, forget, cell, output) is two rescaled dot
products, of the input with its input weights and of the hidden state with
its recurrent weights, each with its zero point's share folded into a bias
at compile time, summed in int16 (Q3.12) with saturation; then gemmlowp's
fixed-point logistic (tanh for the cell gate) gives Q0.15. The new cell is
forget * cell + input * cell gate at the cell state's scale (a power of
two), clipped; the new hidden state is output gate * tanh(cell) rescaled to
the hidden state's scale. LiteRT's requantizations here round twice
(fixed_point.multiply_double_rounding), as measured.

One kernel walks the whole sequence: the recurrence makes each step wait on
the last. The hidden and cell states are variable tensors (ctx.state),
which the kernel updates in place (every gate of a step is computed before
the step writes h); the gates' scratch is one more output, so that all of the kernel's memory is in
Relax's plan (model.json's ram_bytes), none on a heap of its own.
"""
import math

import numpy as np
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.UnidirectionalSequenceLSTMOptions import UnidirectionalSequenceLSTMOptions
from tvm import tirx as tir
from tvm.script.ir_builder import tirx as T

from ... import fixed_point_int16 as fx
from ... import weight_blob
from ...fixed_point import (multiply_double_rounding, quantize_multiplier,
                            rounding_divide_by_pot)
from ...ir_kernel import local, prim_func
from ..model import UnsupportedModel
from ..registry import lowering

# Input indices: the input, then per gate (input, forget, cell, output) the
# input weights, the recurrent weights and the bias; the states.
_X, _W_IN, _W_REC, _PEEPHOLE, _BIAS, _PROJECTION, _H, _C, _LAYER_NORM = \
    0, (1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11), (12, 13, 14, 15), (16, 17), 18, 19, (20, 21, 22, 23)
# Without layer normalization the gates are Q3.12.
_GATE_BITS = 3


def _f32(a, b, c):
    """a * b / c in float32, as TFLite computes its effective scales."""
    a, b, c = np.float32(a), np.float32(b), np.float32(c)
    return float(np.float32(np.float32(a * b) / c))


def _clamp(v, lo, hi):
    return tir.max(tir.min(v, tir.const(hi, "int32")), tir.const(lo, "int32"))


def _check(op):
    ins = op.inputs + [None] * (24 - len(op.inputs))
    if len(op.inputs) not in (20, 24):
        raise UnsupportedModel(f"{op}: {len(op.inputs)} inputs, not 20 or 24")
    present = lambda idx: [i for i in idx if ins[i] is not None]  # noqa: E731
    if ins[_W_IN[0]] is None or ins[_W_REC[0]] is None:
        raise UnsupportedModel(f"{op}: CIFG (no input gate) is not supported")
    if present(_PEEPHOLE):
        raise UnsupportedModel(f"{op}: peephole connections are not supported")
    if present(_PROJECTION):
        raise UnsupportedModel(f"{op}: projection is not supported")
    if present(_LAYER_NORM):
        raise UnsupportedModel(f"{op}: layer normalization is not supported")
    x, h, c, y = ins[_X], ins[_H], ins[_C], op.outputs[0]
    if x.dtype != "int8" or y.dtype != "int8":
        raise UnsupportedModel(f"{op}: takes int8 input and output (the integer LSTM)")
    for t in (h, c):
        if t is None or not t.is_variable:
            raise UnsupportedModel(f"{op}: the hidden and cell states must be variable tensors")
    if h.dtype != "int8" or c.dtype != "int16":
        raise UnsupportedModel(f"{op}: takes an int8 hidden state and an int16 cell state, "
                               f"not {h.dtype} and {c.dtype}")
    for i in _W_IN + _W_REC:
        w = ins[i]
        if w is None or w.dtype != "int8" or not w.is_constant or w.quant()[1] != 0:
            raise UnsupportedModel(f"{op}: input {i} must be constant int8 weights, "
                                   "zero point 0")
    for i in _BIAS:
        b = ins[i]
        if b is None or b.dtype != "int32" or not b.is_constant:
            raise UnsupportedModel(f"{op}: input {i} must be a constant int32 bias")
    opts = op.options
    if opts.FusedActivationFunction != ActivationFunctionType.TANH:
        raise UnsupportedModel(f"{op}: activation {opts.FusedActivationFunction}, not TANH")
    if opts.DiagonalRecurrentTensors:
        raise UnsupportedModel(f"{op}: diagonal recurrent weights are not supported")
    if len(op.intermediates) != 5:
        raise UnsupportedModel(f"{op}: {len(op.intermediates)} intermediate tensors, not 5 "
                               "(the hidden state's effective scale is the fifth)")
    if len(x.shape) != 3:
        raise UnsupportedModel(f"{op}: the input must be three-dimensional")
    time_major = bool(opts.TimeMajor)
    steps, batch = x.shape[:2] if time_major else x.shape[1::-1]
    n_input = x.shape[2]
    n_cell = ins[_W_IN[0]].shape[0]
    for i in _W_IN:
        if ins[i].shape != (n_cell, n_input):
            raise UnsupportedModel(f"{op}: input weights {i} are not {n_cell}x{n_input}")
    for i in _W_REC:
        if ins[i].shape != (n_cell, n_cell):
            raise UnsupportedModel(f"{op}: recurrent weights {i} are not {n_cell}x{n_cell}")
    for i in _BIAS:
        if ins[i].shape != (n_cell,):
            raise UnsupportedModel(f"{op}: bias {i} is not of {n_cell}")
    if h.shape != (batch, n_cell) or c.shape != (batch, n_cell) or \
            y.shape != x.shape[:2] + (n_cell,):
        raise UnsupportedModel(f"{op}: state or output shapes do not agree with the input")
    return ins, time_major, steps, batch, n_input, n_cell


@lowering("UNIDIRECTIONAL_SEQUENCE_LSTM", types=("int8",),
          options=UnidirectionalSequenceLSTMOptions, mixed=True,
          note="integer (int8, int16 cell state); no peephole, CIFG, projection or layer norm")
def unidirectional_sequence_lstm(ctx, op):
    ins, time_major, steps, batch, n_input, n_cell = _check(op)
    x, h, c, y = ins[_X], ins[_H], ins[_C], op.outputs[0]
    in_scale, in_zp = x.quant()
    h_scale, h_zp = h.quant()
    c_scale, _ = c.quant()
    cell_exp = math.frexp(c_scale)[1] - 1
    # tanh of the cell takes 15 + cell_exp integer bits, at most 6.
    if c_scale != 2.0 ** cell_exp or not -15 <= cell_exp <= -9:
        raise UnsupportedModel(f"{op}: cell state scale {c_scale} is not 2^-15 ... 2^-9")
    hidden_scale, hidden_zp = op.intermediates[4].quant()
    gate_scale = 2.0 ** -(15 - _GATE_BITS)
    m_in = [quantize_multiplier(_f32(ins[i].quant()[0], in_scale, gate_scale)) for i in _W_IN]
    m_rec = [quantize_multiplier(_f32(ins[i].quant()[0], h_scale, gate_scale)) for i in _W_REC]
    m_hidden = quantize_multiplier(float(
        np.float32(np.float32(2.0 ** -15) / np.float32(hidden_scale)) * np.float32(2.0 ** -15)))
    clip = 0
    if op.options.CellClip > 0:
        clip = int(min(max(np.float32(op.options.CellClip) / np.float32(c_scale), -32768.0),
                       32767.0))
    w_in = np.stack([ins[i].data for i in _W_IN])
    w_rec = np.stack([ins[i].data for i in _W_REC])
    # The zero points' shares of the dot products, folded into the biases.
    bias_in = np.stack([ins[b].data.astype(np.int64) - in_zp * ins[w].data.astype(np.int64).sum(1)
                        for b, w in zip(_BIAS, _W_IN)])
    bias_rec = np.stack([-h_zp * ins[w].data.astype(np.int64).sum(1) for w in _W_REC])
    biases = np.stack([bias_in, bias_rec], axis=-1)
    if np.abs(biases).max() >= 2 ** 31:
        raise UnsupportedModel(f"{op}: folded biases overflow int32")
    w_in_off = ctx.pack(w_in)
    w_rec_off = ctx.pack(w_rec)
    bias_off = ctx.pack(biases.astype(np.int32))
    cfg = dict(time_major=time_major, steps=steps, batch=batch, n_input=n_input, n_cell=n_cell,
               w_in_off=w_in_off, w_rec_off=w_rec_off, bias_off=bias_off, m_in=m_in,
               m_rec=m_rec, m_hidden=m_hidden, hidden_zp=hidden_zp, cell_exp=cell_exp,
               clip=clip)
    gv = ctx.kernel(("lstm", w_in_off), lambda: _kernel(ctx, **cfg))
    # The states are written in place (arguments 1 and 2). The last output
    # is the gates' scratch: a tensor Relax plans with the model's other
    # intermediates, not an allocation inside the kernel.
    out, new_h, new_c, _ = ctx.call_inplace(
        gv, [ctx.value(x), ctx.state(h), ctx.state(c), ctx.blob_const],
        [(y.shape, "int8"), 1, 2, ((4, n_cell), "int16")])
    ctx.set_state(h, new_h)
    ctx.set_state(c, new_c)
    return out


def _kernel(ctx, time_major, steps, batch, n_input, n_cell, w_in_off, w_rec_off, bias_off,
            m_in, m_rec, m_hidden, hidden_zp, cell_exp, clip):
    seq = (steps, batch) if time_major else (batch, steps)
    i32 = lambda v: tir.const(v, "int32")  # noqa: E731
    # h and c: the states, read and written in place.
    args = [("x", seq + (n_input,), "int8"), ("h", (batch, n_cell), "int8"),
            ("c", (batch, n_cell), "int16"), ("weights", (ctx.blob.size,), "int8"),
            ("y", seq + (n_cell,), "int8"), ("gates", (4, n_cell), "int16")]
    with prim_func("lstm", args) as (ib, (x, h, c, blob, y, gates)):
        acc = T.alloc_buffer((1,), "int32")
        with T.serial(0, batch) as b:
            with T.serial(0, steps) as t:
                at = (t, b) if time_major else (b, t)
                for g in range(4):
                    with T.serial(0, n_cell) as j:
                        _gate(T, blob, x, h, gates, acc, at, b, g, j, n_input, n_cell,
                              w_in_off, w_rec_off, bias_off, m_in[g], m_rec[g])
                with T.serial(0, n_cell) as j:
                    gi, gf, gc, go = (local(gates[g, j].astype("int32"))
                                      for g in range(4))
                    # forget * cell (Q0.15 * cell), plus input * cell gate
                    # (Q0.15 * Q0.15) at the cell's scale; the int16 casts
                    # are TFLite's, its sums fit.
                    kept = fx.wrap16(rounding_divide_by_pot(
                        local(gf * c[b, j].astype("int32")), 15))
                    added = fx.wrap16(rounding_divide_by_pot(
                        local(gi * gc), 30 + cell_exp))
                    cell = local(_clamp(kept + added, -32768, 32767))
                    if clip > 0:
                        cell = local(_clamp(cell, -clip, clip))
                    T.buffer_store(c, cell.astype("int16"), [b, j])
                    th = local(fx.tanh(local, cell, 15 + cell_exp))
                    hv = multiply_double_rounding(
                        local(go * th), *m_hidden) + i32(hidden_zp)
                    hv = local(_clamp(hv, -128, 127)).astype("int8")
                    T.buffer_store(h, hv, [b, j])
                    T.buffer_store(y, hv, list(at) + [j])
    return ib.get()


def _gate(T, blob, x, h, gates, acc, at, b, g, j, n_input, n_cell, w_in_off, w_rec_off,
          bias_off, m_in, m_rec):
    """Gate g of cell j: the two rescaled dot products summed with saturation,
    then its activation."""
    row = g * n_cell + j
    bias = lambda k: weight_blob.read(blob, bias_off + (row * 2 + k) * 4, "int32")  # noqa: E731
    T.buffer_store(acc, bias(0), [0])
    with T.serial(0, n_input) as k:
        w = weight_blob.read(blob, w_in_off + row * n_input + k, "int8").astype("int32")
        T.buffer_store(acc, acc[0] + w * x[tuple(at) + (k,)].astype("int32"), [0])
    v = local(_clamp(multiply_double_rounding(acc[0], *m_in),
                      -32768, 32767))
    T.buffer_store(acc, bias(1), [0])
    with T.serial(0, n_cell) as k:
        w = weight_blob.read(blob, w_rec_off + row * n_cell + k, "int8").astype("int32")
        T.buffer_store(acc, acc[0] + w * h[b, k].astype("int32"), [0])
    v = local(_clamp(multiply_double_rounding(acc[0], *m_rec) + v,
                      -32768, 32767))
    act = fx.tanh if g == 2 else fx.logistic
    T.buffer_store(gates, act(local, v, _GATE_BITS).astype("int16"), [g, j])

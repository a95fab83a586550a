"""UNIDIRECTIONAL_SEQUENCE_LSTM, integer (int8 activations and weights,
int16 cell state), run as sequences of calls with the hidden and cell states
carried from one call to the next (main's extra inputs, updated in place, and
outputs), against
LiteRT's reference kernels, whose interpreter keeps its variable tensors
between invocations. Outputs and both states are compared after each call.
"""
import os
import zlib

import numpy as np
import pytest
import tflite_builder
import tvm
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from reference import TFLM_EXAMPLES, assert_close, case_seed, host_model
from tflite_builder import ModelBuilder
from tvm import relax

from ffi_core_tvm.compile import pass_context, planned_storage_bytes
from ffi_core_tvm.tflite import UnsupportedModel, from_tflite

tflite_builder._OPTIONS.setdefault("UNIDIRECTIONAL_SEQUENCE_LSTM",
                                   "UnidirectionalSequenceLSTMOptions")
CALLS = 4


def _compare_sequence(buf, seed):
    """CALLS calls from the reset state (the zero points): the model's
    outputs and every state, against LiteRT's."""
    run, ins, outs = host_model(buf)
    states = [t for t in ins if t.is_variable]
    assert states and outs[-len(states):] == states
    it = Interpreter(model_content=buf, experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                     experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    rng = np.random.default_rng(seed)
    state = [np.full(t.shape, t.zero_point[0], t.dtype) for t in states]
    for call in range(CALLS):
        x = rng.integers(-128, 127, ins[0].shape, endpoint=True, dtype=np.int8)
        got = run(x, *state)
        state = got[len(got) - len(states):]
        it.set_tensor(it.get_input_details()[0]["index"], x)
        it.invoke()
        want = [it.get_tensor(d["index"]) for d in it.get_output_details()]
        for k, w in enumerate(want):
            assert_close(got[k], w, str(w.dtype), f"call {call}: output {k}")
        for t, s in zip(states, state):
            assert_close(s, it.get_tensor(t.index), t.dtype, f"call {call}: state {t.name}")


@pytest.mark.parametrize("name", ["trained_lstm_int8", "micro_speech_lstm"])
def test_example_model_sequence(name):
    path = os.path.join(TFLM_EXAMPLES, f"{name}.tflite")
    if not os.path.exists(path):
        pytest.skip("../shared/models/tflm_examples is not beside this checkout")
    _compare_sequence(open(path, "rb").read(), zlib.crc32(name.encode()))


def lstm_model(rng, batch=2, steps=3, n_input=6, n_cell=5, time_major=False, in_zp=7,
               h_zp=-3, cell_exp=-11, cell_clip=3.0, peephole=False, cifg=False):
    b = ModelBuilder()
    in_scale, h_scale = 0.05, 0.008
    seq = (steps, batch) if time_major else (batch, steps)
    x = b.tensor(seq + (n_input,), "int8", "x", scale=in_scale, zero_point=in_zp)
    inputs = [x]
    w_scales = []
    for name, cols in [(f"w_in{g}", n_input) for g in range(4)] + \
            [(f"w_rec{g}", n_cell) for g in range(4)]:
        scale = float(rng.uniform(0.003, 0.012))
        w_scales.append(scale)
        inputs.append(b.tensor((n_cell, cols), "int8", name, scale=scale, zero_point=0,
                               data=rng.integers(-127, 127, (n_cell, cols), endpoint=True)))
    inputs += [-1, -1, -1]
    if peephole:
        inputs[10] = b.tensor((n_cell,), "int16", "w_peep", scale=0.001, zero_point=0,
                              data=rng.integers(-300, 300, n_cell))
    for g in range(4):
        inputs.append(b.tensor((n_cell,), "int32", f"bias{g}", scale=in_scale * w_scales[g],
                               zero_point=0, data=rng.integers(-2000, 2000, n_cell)))
    if cifg:
        inputs[1] = inputs[5] = inputs[12] = -1
    inputs += [-1, -1]
    h = b.tensor((batch, n_cell), "int8", "h", scale=h_scale, zero_point=h_zp, is_variable=True)
    c = b.tensor((batch, n_cell), "int16", "c", scale=2.0 ** cell_exp, zero_point=0,
                 is_variable=True)
    inputs += [h, c, -1, -1, -1, -1]
    mids = [b.tensor((0,), "float32", f"mid{g}") for g in range(4)]
    mids.append(b.tensor((0,), "int8", "hidden", scale=h_scale, zero_point=h_zp))
    y = b.tensor(seq + (n_cell,), "int8", "y", scale=h_scale, zero_point=h_zp)
    b.operator("UNIDIRECTIONAL_SEQUENCE_LSTM", inputs, [y],
               {"fused_activation_function": "TANH", "cell_clip": cell_clip,
                "time_major": time_major}, intermediates=mids)
    return b.finish([x], [y])


LSTM_CASES = {
    "batch_major": {},
    "time_major": {"time_major": True, "batch": 1, "steps": 4},
    "cell_2e-12_no_clip": {"cell_exp": -12, "cell_clip": 0.0, "in_zp": -128, "h_zp": 0},
}


@pytest.mark.parametrize("params", LSTM_CASES.values(), ids=LSTM_CASES.keys())
def test_lstm_sequence(params, request):
    seed = case_seed(request)
    _compare_sequence(lstm_model(np.random.default_rng(seed), **params), seed)


@pytest.mark.parametrize("variant, message", [("peephole", "peephole"), ("cifg", "CIFG")])
def test_lstm_refuses(variant, message):
    buf = lstm_model(np.random.default_rng(0), **{variant: True})
    with pytest.raises(UnsupportedModel, match=f"UNIDIRECTIONAL_SEQUENCE_LSTM #0: {message}"):
        from_tflite(buf)


def test_lstm_memory_is_planned():
    """No workspace call in the built kernel (a firmware's heap holds the plan
    alone): with 200 cells the gates take 1600 bytes, which TVM would put on
    the heap rather than the stack; they are in the plan instead. The states
    are written in place: the plan is the gates and the output alone. The
    module's kernel `reset` gives each state its zero point."""
    n_cell = 200
    mod, ins, outs = from_tflite(lstm_model(np.random.default_rng(1), n_cell=n_cell))
    with pass_context():
        ex = relax.build(mod, tvm.target.Target("llvm"), exec_mode="compiled")
    assert "TVMBackendAllocWorkspace" not in ex.mod.imports[0].inspect_source("ll")
    assert planned_storage_bytes(mod) == 4 * n_cell * 2 + int(np.prod(outs[0].shape))
    h, c = (tvm.runtime.tensor(np.ones(t.shape, t.dtype)) for t in ins[1:])
    relax.VirtualMachine(ex, tvm.cpu()).module.get_function("reset", True)(h, c)
    assert (h.numpy() == ins[1].zero_point[0]).all() and (c.numpy() == 0).all()

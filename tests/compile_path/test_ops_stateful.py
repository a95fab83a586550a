"""Stateful operators (SVDF) and what keyword_scrambled_8bit needs besides
(QUANTIZE between integer types, SOFTMAX to int16), run as sequences of calls
with the state carried from one call to the next.

A variable tensor is one more input and one more output of main (after the
model's own), updated in place; the test passes each call's returned state
to the next, from the reset state: the zero point (real 0), as TFLite Micro
resets it.

The SVDF reference is TFLite Micro's interpreter (PyPI tflite-micro): LiteRT
takes only int16 state and crashes on keyword_scrambled_8bit's int8 state.
The installed build differs from TFLite Micro's current source in two ways
the comparisons allow for: it rounds requantizations twice (gemmlowp's
doubling high multiply, then a rounding shift; LiteRT and this compile path
round once), at most 1 LSB; and it clamps a new state value before adding the
state's zero point, so that the sum wraps around in int8 (the source now adds
it first, as this compile path does).
"""
import os
import zlib

import numpy as np
import pytest
import tflite_builder
import tvm
from reference import TFLM_EXAMPLES, assert_close, case_seed, host_model, litert_reference
from tflite_builder import ModelBuilder
from tvm import relax

from ffi_core_tvm.compile import pass_context, planned_storage_bytes
from ffi_core_tvm.tflite import UnsupportedModel, from_tflite

tflite_builder._OPTIONS.setdefault("SVDF", "SVDFOptions")
STEPS = 5


def _reset(states):
    return [np.full(t.shape, t.zero_point[0], t.dtype) for t in states]


def _tflm(buf):
    runtime = pytest.importorskip("tflite_micro.python.tflite_micro.runtime")
    return runtime.Interpreter.from_bytes(
        buf, intrepreter_config=runtime.InterpreterConfig.kPreserveAllTensors)


def _tflm_tensor(it, t):
    return np.asarray(it.GetTensor(t.index, 0)["tensor_data"]).reshape(t.shape)


def _assert_state(got, want, t, what):
    """got (new state, zero point added before the clamp) against the
    installed TFLite Micro's (clamped, then the zero point added with int8
    wrap-around), within 1 LSB: c, the value it clamped, gives ours."""
    want = want.astype(np.int64)
    zp = int(t.zero_point[0])
    if t.dtype == "int8" and zp:
        c = (want - zp + 128) % 256 - 128
        lo, hi = np.clip(c + zp, -128, 127), np.clip(c + zp, -128, 127)
        # A clamped c stands for any value beyond it.
        lo = np.where(c == 127, np.clip(127 + zp, -128, 127), lo)
        hi = np.where(c == 127, 127, hi)
        lo = np.where(c == -128, -128, lo)
        hi = np.where(c == -128, np.clip(-128 + zp, -128, 127), hi)
        got = got.astype(np.int64)
        bad = (got < lo - 1) | (got > hi + 1)
        assert not bad.any(), f"{what}: {int(bad.sum())} state values differ"
    else:
        assert_close(got, want.astype(t.dtype), t.dtype, what)


def svdf_model(rng, state_dtype="int8", batch=1, n_input=12, units=4, rank=1, memory=5,
               state_zp=-7, in_zp=3, act="NONE"):
    filters = units * rank
    b = ModelBuilder()
    in_scale, wf_scale, wt_scale = 0.02, 0.01, 0.008
    # State values of about 40 LSB: the feature sums spread by ~74 * 127 * sqrt(n_input).
    state_scale = in_scale * wf_scale * 74 * 60 * np.sqrt(n_input) / 40
    big = state_dtype == "int16"
    if big:
        state_scale /= 256
        state_zp = 0
    wt_max = 30000 if big else 127
    # Outputs of about 40 LSB: states of ~40 LSB (int8) or ~40 * 256 (int16).
    state_std = 40 * (256 if big else 1)
    out_scale = state_scale * wt_scale * (wt_max / 1.7) * state_std * np.sqrt(rank * memory) / 40
    x = b.tensor((batch, n_input), "int8", "x", scale=in_scale, zero_point=in_zp)
    wf = b.tensor((filters, n_input), "int8", "wf", scale=wf_scale, zero_point=0,
                  data=rng.integers(-127, 127, (filters, n_input), endpoint=True))
    wt = b.tensor((filters, memory), state_dtype, "wt", scale=wt_scale, zero_point=0,
                  data=rng.integers(-wt_max, wt_max, (filters, memory), endpoint=True))
    bias = b.tensor((units,), "int32", "bias", scale=state_scale * wt_scale, zero_point=0,
                    data=rng.integers(-3000, 3000, units))
    state = b.tensor((batch, filters * memory), state_dtype, "state", scale=state_scale,
                     zero_point=state_zp, is_variable=True)
    y = b.tensor((batch, units), "int8", "y", scale=out_scale, zero_point=-5)
    b.operator("SVDF", [x, wf, wt, bias, state], [y],
               {"rank": rank, "fused_activation_function": act})
    return b.finish([x], [y])


SVDF_CASES = {
    "int8_state": {},
    "int8_state_rank2_batch2": {"rank": 2, "batch": 2},
    "int8_state_zp0": {"state_zp": 0, "memory": 3},
    "int16_state": {"state_dtype": "int16"},
    "int16_state_rank2": {"state_dtype": "int16", "rank": 2, "memory": 4},
}


@pytest.mark.parametrize("params", SVDF_CASES.values(), ids=SVDF_CASES.keys())
def test_svdf_sequence(params, request):
    rng = np.random.default_rng(case_seed(request))
    buf = svdf_model(rng, **params)
    run, ins, outs = host_model(buf)
    assert [t.is_variable for t in ins] == [False, True]
    assert [t.is_variable for t in outs] == [False, True]
    it = _tflm(buf)
    state = _reset(ins[1:])
    for step in range(STEPS):
        x = rng.integers(-128, 127, ins[0].shape, endpoint=True, dtype=np.int8)
        y, *state = run(x, *state)
        it.set_input(x, 0)
        it.invoke()
        np.testing.assert_array_equal(y, it.get_output(0))
        _assert_state(state[0], _tflm_tensor(it, ins[1]), ins[1], f"step {step}: state")


def test_svdf_state_in_place_and_reset():
    """main writes the new state into the state it is given (the tensor it
    returns is that one) and allocates its output alone; the module's
    kernel `reset` fills the state with its zero point."""
    rng = np.random.default_rng(5)
    mod, ins, outs = from_tflite(svdf_model(rng, batch=2))
    assert planned_storage_bytes(mod) == int(np.prod(outs[0].shape))
    with pass_context():
        vm = relax.VirtualMachine(relax.build(mod, tvm.target.Target("llvm"),
                                              exec_mode="compiled"), tvm.cpu())
    state = tvm.runtime.tensor(rng.integers(-128, 127, ins[1].shape, endpoint=True,
                                            dtype=np.int8))
    before = state.numpy()
    x = rng.integers(-128, 127, ins[0].shape, endpoint=True, dtype=np.int8)
    _, new = vm["main"](tvm.runtime.tensor(x), state)
    assert np.array_equal(state.numpy(), new.numpy())
    memories = state.numpy().reshape(2, -1, 5)  # batch, filter, memory
    assert np.array_equal(memories[..., :4], before.reshape(2, -1, 5)[..., 1:]), \
        "each memory shifted by one"
    vm.module.get_function("reset", True)(state)
    assert (state.numpy() == ins[1].zero_point[0]).all()


def test_svdf_refuses_other_activations():
    buf = svdf_model(np.random.default_rng(0), act="RELU6")
    with pytest.raises(UnsupportedModel, match="SVDF #0: fused activation"):
        from_tflite(buf)


def quantize_model(in_dtype, out_dtype):
    b = ModelBuilder()
    x = b.tensor((2, 9), in_dtype, "x", scale=0.0007 if in_dtype == "int16" else 0.05,
                 zero_point=0 if in_dtype == "int16" else 4)
    scale, zp = {"int8": (0.03, -9), "int32": (0.00011, 0)}[out_dtype]
    y = b.tensor((2, 9), out_dtype, "y", scale=scale, zero_point=zp)
    b.operator("QUANTIZE", [x], [y])
    return b.finish([x], [y])


@pytest.mark.parametrize("in_dtype, out_dtype",
                         [("int8", "int8"), ("int16", "int8"), ("int16", "int32")])
def test_quantize(in_dtype, out_dtype):
    buf = quantize_model(in_dtype, out_dtype)
    run = host_model(buf)[0]
    info = np.iinfo(in_dtype)
    rng = np.random.default_rng(zlib.crc32(f"{in_dtype}{out_dtype}".encode()))
    x = rng.integers(info.min, info.max, (2, 9), endpoint=True, dtype=in_dtype)
    assert_close(run(x)[0], litert_reference(buf, [x])[0], out_dtype)


def test_keyword_scrambled_sequence():
    """The whole model over a sequence: every output, and every SVDF's state."""
    path = os.path.join(TFLM_EXAMPLES, "keyword_scrambled_8bit.tflite")
    if not os.path.exists(path):
        pytest.skip("../shared/models/tflm_examples is not beside this checkout")
    buf = open(path, "rb").read()
    run, ins, outs = host_model(buf)
    states = ins[1:]
    assert len(states) == 7 and all(t.is_variable for t in states) and outs[1:] == states
    it = _tflm(buf)
    rng = np.random.default_rng(31)
    state = _reset(states)
    for step in range(STEPS):
        x = rng.integers(-8192, 8192, ins[0].shape, dtype=np.int16)
        got = run(x, *state)
        state = got[1:]
        it.set_input(x, 0)
        it.invoke()
        np.testing.assert_array_equal(got[0], it.get_output(0))
        for t, s in zip(states, state):
            _assert_state(s, _tflm_tensor(it, t), t, f"step {step}: state {t.name}")


def test_softmax_int8_to_int16():
    b = ModelBuilder()
    x = b.tensor((3, 10), "int8", "x", scale=0.07, zero_point=2)
    y = b.tensor((3, 10), "int16", "y", scale=1 / 65536, zero_point=-32768)
    b.operator("SOFTMAX", [x], [y], {"beta": 1.0})
    buf = b.finish([x], [y])
    x = np.random.default_rng(7).integers(-128, 127, (3, 10), endpoint=True, dtype=np.int8)
    assert_close(host_model(buf)[0](x)[0], litert_reference(buf, [x])[0], "int16")

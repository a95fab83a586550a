"""QUANTIZE, DEQUANTIZE and CAST against LiteRT's reference kernels: every
pair of types they take, with inputs chosen to reach rounding ties,
saturation and narrowing."""
import zlib

import numpy as np
import pytest
from reference import assert_close, ffi_core_host, importer, litert_reference
from tflite_builder import ModelBuilder

SHAPE = (2, 3, 17)
_QUANT = {"int8": (0.05, -7), "int16": (0.002, 0)}


def _model(op, in_dtype, out_dtype, in_quant=None, out_quant=None):
    b = ModelBuilder()
    iq = dict(scale=in_quant[0], zero_point=in_quant[1]) if in_quant else {}
    oq = dict(scale=out_quant[0], zero_point=out_quant[1]) if out_quant else {}
    x = b.tensor(SHAPE, in_dtype, "x", **iq)
    y = b.tensor(SHAPE, out_dtype, "y", **oq)
    b.operator(op, [x], [y])
    return b.finish([x], [y])


def _inputs(rng, dtype, spread):
    """Floats: multiples of a quarter of `spread` (rounding ties), plus
    noise, out to beyond the output's range; integers: their whole range."""
    if dtype == "float32":
        ties = rng.integers(-1200, 1200, size=SHAPE) * (spread / 4)
        noisy = rng.standard_normal(SHAPE) * spread * 100
        return np.where(rng.random(SHAPE) < 0.5, ties, noisy).astype(np.float32)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=SHAPE, endpoint=True, dtype=dtype)


def _check(buf, x, out_dtype):
    want = litert_reference(buf, [x])[0]
    assert np.unique(want).size > 2
    assert_close(ffi_core_host(buf, [x])[0], want, out_dtype)
    if out_dtype != "float32":
        # The reference arithmetic, bit for bit.
        np.testing.assert_array_equal(ffi_core_host(buf, [x])[0], want)


def _seed(*parts):
    return zlib.crc32(repr(parts).encode())


@pytest.mark.parametrize("out_dtype", ["int8", "int16"])
def test_quantize_float(out_dtype):
    scale, zp = {"int8": (0.05, -7), "int16": (0.0005, 3)}[out_dtype]
    buf = _model("QUANTIZE", "float32", out_dtype, out_quant=(scale, zp))
    _check(buf, _inputs(np.random.default_rng(_seed(out_dtype)), "float32", scale), out_dtype)


@pytest.mark.parametrize("in_dtype, out_dtype, in_quant, out_quant", [
    ("int8", "int8", (0.05, -7), (0.08, 10)),
    ("int8", "int8", (0.05, -7), (0.011, 3)),
    ("int8", "int16", (0.05, -7), (0.0003, 0)),
    ("int16", "int8", (0.0004, 0), (0.05, 5)),
    ("int16", "int16", (0.0004, 0), (0.0007, 0)),
    ("int16", "int32", (0.0004, 0), (0.00001, 0)),
], ids=["int8_int8_down", "int8_int8_up", "int8_int16", "int16_int8", "int16_int16",
        "int16_int32"])
def test_requantize(in_dtype, out_dtype, in_quant, out_quant):
    buf = _model("QUANTIZE", in_dtype, out_dtype, in_quant, out_quant)
    x = _inputs(np.random.default_rng(_seed(in_dtype, out_dtype, in_quant)), in_dtype, 0)
    _check(buf, x, out_dtype)


@pytest.mark.parametrize("in_dtype", ["int8", "int16"])
def test_dequantize(in_dtype):
    buf = _model("DEQUANTIZE", in_dtype, "float32", in_quant=_QUANT[in_dtype])
    _check(buf, _inputs(np.random.default_rng(_seed(in_dtype)), in_dtype, 0), "float32")


_CASTS = [(a, b) for a in ("int8", "int16", "int32", "float32")
          for b in ("int8", "int16", "int32", "float32") if a != b]


@pytest.mark.parametrize("in_dtype, out_dtype", _CASTS, ids=[f"{a}_{b}" for a, b in _CASTS])
def test_cast(in_dtype, out_dtype):
    buf = _model("CAST", in_dtype, out_dtype)
    rng = np.random.default_rng(_seed("cast", in_dtype, out_dtype))
    if in_dtype == "float32":
        # Beyond every target's range at the tails: LiteRT saturates.
        x = (rng.standard_normal(SHAPE) * 300).astype(np.float32)
        x.flat[:6] = [-1e10, 3e9, 2147483648.0, -2147483648.0, 70000.9, -40000.2]
    else:
        x = _inputs(rng, in_dtype, 0)
    _check(buf, x, out_dtype)


def float_io_model(rng):
    """A quantized model with float32 input and output: QUANTIZE, int8
    FULLY_CONNECTED, DEQUANTIZE, float32 SOFTMAX."""
    b = ModelBuilder()
    x = b.tensor((2, 16), "float32", "input")
    q = b.tensor((2, 16), "int8", "quantized", scale=0.03, zero_point=4)
    b.operator("QUANTIZE", [x], [q])
    w = b.tensor((6, 16), "int8", "w", scale=0.01, zero_point=0,
                 data=rng.integers(-127, 127, size=(6, 16), endpoint=True))
    bias = b.tensor((6,), "int32", "bias", scale=0.0003, zero_point=0,
                    data=rng.integers(-1000, 1000, size=6))
    h = b.tensor((2, 6), "int8", "hidden", scale=0.04, zero_point=-3)
    b.operator("FULLY_CONNECTED", [q, w, bias], [h])
    f = b.tensor((2, 6), "float32", "logits")
    b.operator("DEQUANTIZE", [h], [f])
    y = b.tensor((2, 6), "float32", "probabilities")
    b.operator("SOFTMAX", [f], [y], {"beta": 1.0})
    return b.finish([x], [y])


def test_float_io_model():
    rng = np.random.default_rng(_seed("float_io_model"))
    buf = float_io_model(rng)
    x = (rng.standard_normal((2, 16)) * 1.5).astype(np.float32)
    want = litert_reference(buf, [x])[0]
    assert np.unique(want).size > 2
    assert_close(ffi_core_host(buf, [x])[0], want, "float32")


def test_refusals_name_what():
    from_tflite, unsupported = importer()
    with pytest.raises(unsupported, match="DEQUANTIZE #0: output y is int16"):
        from_tflite(_model("DEQUANTIZE", "int8", "int16", _QUANT["int8"], _QUANT["int16"]))
    with pytest.raises(unsupported, match="QUANTIZE #0: int8 to int32 is not supported"):
        from_tflite(_model("QUANTIZE", "int8", "int32", _QUANT["int8"], (0.001, 0)))

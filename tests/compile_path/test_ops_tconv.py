"""TRANSPOSE_CONV and RESIZE_BILINEAR against LiteRT, for each type they take.

Each case is a one-operator model (tflite_builder.py) run on LiteRT's
reference kernels and through the compile path on this host (reference.py).
Integer outputs must equal LiteRT's bit for bit; float32 ones within
reference.py's tolerance.
"""
import zlib

import numpy as np
import pytest
from reference import assert_close, ffi_core_host, importer, litert_reference, make_inputs
from tflite_builder import ModelBuilder

# Each activation type's quantization: int16 is symmetric in TFLite.
QUANT = {"int8": (0.05, 3), "int16": (0.001, 0), "float32": (None, None)}


def resize_bilinear(dtype, shape=(1, 3, 4, 2), size=(7, 5), align_corners=False,
                    half_pixel_centers=False):
    b = ModelBuilder()
    scale, zp = QUANT[dtype]
    x = b.tensor(shape, dtype, "x", scale=scale, zero_point=zp)
    sizes = b.tensor((2,), "int32", "size", data=np.asarray(size))
    y = b.tensor((shape[0], *size, shape[3]), dtype, "y", scale=scale, zero_point=zp)
    b.operator("RESIZE_BILINEAR", [x, sizes], [y],
               {"align_corners": align_corners, "half_pixel_centers": half_pixel_centers})
    return b.finish([x], [y])


def _each(make, params, id, types):
    return [pytest.param(make, t, params, id=f"{id}_{t}") for t in types]


RESIZE_TYPES = ("int8", "int16", "float32")
CASES = [
    *_each(resize_bilinear, {}, "bilinear_up", RESIZE_TYPES),
    *_each(resize_bilinear, dict(align_corners=True), "bilinear_align", RESIZE_TYPES),
    *_each(resize_bilinear, dict(half_pixel_centers=True), "bilinear_half", RESIZE_TYPES),
    *_each(resize_bilinear, dict(size=(2, 3)), "bilinear_down", RESIZE_TYPES),
    *_each(resize_bilinear, dict(size=(2, 3), half_pixel_centers=True), "bilinear_down_half",
           RESIZE_TYPES),
    *_each(resize_bilinear, dict(shape=(2, 3, 5, 1), size=(8, 13), half_pixel_centers=True),
           "bilinear_batch2_half", RESIZE_TYPES),
    *_each(resize_bilinear, dict(size=(1, 4), align_corners=True), "bilinear_align_one_row",
           ("int8", "float32")),
]


def _seed(request):
    """A seed per case, stable across runs and case order."""
    return zlib.crc32(request.node.callspec.id.encode())


@pytest.mark.parametrize("make, dtype, params", CASES)
def test_matches_litert(make, dtype, params, request):
    rng = np.random.default_rng(_seed(request))
    buf = make(dtype, **params) if make is resize_bilinear else make(rng, dtype, **params)
    inputs = make_inputs(buf, _seed(request))
    want = litert_reference(buf, inputs)
    assert all(np.unique(w).size > 2 for w in want), \
        f"the case's LiteRT output is nearly constant: {[np.unique(w) for w in want]}"
    got = ffi_core_host(buf, inputs)
    assert len(got) == len(want), f"{len(got)} outputs, LiteRT has {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        assert_close(g, w, dtype, what=f"output {i}")
        if dtype != "float32":
            np.testing.assert_array_equal(g, w, err_msg=f"output {i} is not LiteRT's bit for bit")


# ---- refusals ----

def _bilinear_both_options():
    return resize_bilinear("int8", align_corners=True, half_pixel_centers=True)


REFUSALS = [
    pytest.param(_bilinear_both_options, "align_corners with half_pixel_centers",
                 id="bilinear_align_and_half"),
]


@pytest.mark.parametrize("make, named", REFUSALS)
def test_refused_by_name(make, named):
    from_tflite, unsupported = importer()
    with pytest.raises(unsupported) as refused:
        from_tflite(make())
    assert named in str(refused.value), f"the refusal does not name {named}: {refused.value}"

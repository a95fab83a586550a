"""The C micro-kernels (tvm_backend/kernels), built for this host with their
portable primitives, against the TE kernels they replace on the boards
(int8_kernels.conv2d, fully_connected): equal outputs, bit for bit, over
random shapes, inputs, weights and requantization tables. The boards'
MLPerf Tiny and TFLM tests check the DSP primitives the same way, against
TVM's VM on the host."""
import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest
import tvm
from tvm import te

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tvm_backend", "python"))

from ffi_core_tvm import int8_kernels as kernels  # noqa: E402
from ffi_core_tvm.compile import C_KERNEL_FLAGS, KERNELS_DIR, pass_context  # noqa: E402
from ffi_core_tvm.fixed_point import (multiply_double_rounding_per_channel,  # noqa: E402
                                      quantize_multiplier, requantize)
from ffi_core_tvm.targets import c_compiler  # noqa: E402
from ffi_core_tvm.tflite.ops.elementwise import add_sub_value  # noqa: E402
from ffi_core_tvm.weight_blob import WeightBlob  # noqa: E402


def _build(tmp_path_factory, defines):
    path = str(tmp_path_factory.mktemp("c_kernels") / "kernels.so")
    sources = [os.path.join(KERNELS_DIR, f) for f in ("conv_s8.c", "fully_connected_s8.c",
                                                          "s8_gemm.c", "depthwise_conv_s8.c",
                                                          "add_s8.c")]
    subprocess.run(c_compiler("host") + C_KERNEL_FLAGS + defines + ["-shared", "-o", path]
                   + sources, check=True)
    return ctypes.CDLL(path)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return _build(tmp_path_factory, [])


# CONV_2D as built without the DSP extension (channels not in fours gathered
# byte by byte) and as with it (kernel rows read a word at a time).
@pytest.fixture(scope="module", params=[[], ["-DCONV_ROW_WEIGHTS=1024"]], ids=["gathered", "rows"])
def conv_library(request, tmp_path_factory):
    return _build(tmp_path_factory, request.param)


def _constants(rng, weights, channels, low_shifts):
    """The weight blob of `weights` and a random requantization table, its
    multipliers from 2^-3.5 to 2^1.5 (right shifts below 31, a left shift
    first, to 35; some below 33, where the kernels scale in 64 bits) or its
    right shifts all from 33 on (the product's high word alone)."""
    table = np.zeros((channels, 3), "int32")
    table[:, 0] = rng.integers(-50000, 50000, channels)
    exponents = rng.uniform(-3.5, 1.5, channels) if low_shifts else rng.uniform(-30, -8, channels)
    for c in range(channels):
        table[c, 1:] = quantize_multiplier(2.0 ** exponents[c])
    if not low_shifts:
        table[:, 2] = np.maximum(table[:, 2], 33)
    blob = WeightBlob()
    w_off = blob.add(weights)
    q_off = blob.add(table)
    data = blob.data()
    return data, kernels.Slice(data.size, w_off, q_off)


def test_requantize_matches_reference(tmp_path):
    """s8_requantize's one multiply-accumulate against TFLite's two
    roundings step by step, over every shift and edge values
    (tests/c/s8_requantize_test.c, also a ctest on every target)."""
    check = str(tmp_path / "s8_requantize_test")
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "c",
                          "s8_requantize_test.c")
    subprocess.run(c_compiler("host") + C_KERNEL_FLAGS + ["-I", KERNELS_DIR, "-o", check, source],
                   check=True)
    run = subprocess.run([check], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_requantize_in_python():
    """fixed_point.requantize, which works out a pruned channel's constant output
    at compile time, against the TE kernels' arithmetic
    (multiply_double_rounding_per_channel) over sums, biases and every
    shift, wrapping included."""
    rng = np.random.default_rng(7)
    n = 4000
    x = (rng.integers(-(1 << 31), 1 << 31, n) >> rng.integers(0, 32, n)).astype("int32")
    m = rng.integers(1 << 30, 1 << 31, n).astype("int32")
    m[::9] = 0
    shift = rng.integers(1, 63, n).astype("int32")
    args = [te.placeholder((n,), "int32", name) for name in ("x", "m", "s")]
    y = te.compute((n,), lambda i: multiply_double_rounding_per_channel(
        args[0][i], args[1][i], args[2][i]), name="y")
    with pass_context():
        lib = tvm.compile(te.create_prim_func(args + [y]), target="llvm")
    out = tvm.runtime.tensor(np.zeros(n, "int32"))
    lib(*[tvm.runtime.tensor(a) for a in (x, m, shift)], out)
    expected = [requantize(int(a), int(b), int(c)) for a, b, c in zip(x, m, shift)]
    np.testing.assert_array_equal(out.numpy(), expected)


def _te(func, *arrays, out):
    with pass_context():
        lib = tvm.compile(func, target="llvm")
    y = tvm.runtime.tensor(np.zeros(out, "int8"))
    lib(*[tvm.runtime.tensor(a) for a in arrays], y)
    return y.numpy()


def _ptr(a):
    return a.ctypes.data_as(ctypes.c_void_p)


def _act(rng):
    if rng.random() < 0.5:
        return (-128, 127)
    return tuple(int(v) for v in sorted(rng.integers(-128, 128, 2)))


CONVS = [
    # (batch, h, w, ci, co, kh, kw, stride, dilation, same padding)
    (1, 5, 5, 8, 16, 1, 1, 1, 1, False),
    (1, 7, 3, 64, 6, 1, 1, 1, 1, False),
    (1, 6, 6, 16, 5, 3, 3, 1, 1, True),
    (2, 9, 7, 32, 7, 3, 3, 2, 1, True),
    (1, 8, 8, 3, 8, 3, 3, 2, 1, True),
    (1, 11, 9, 1, 9, 10, 4, 2, 1, True),
    (1, 7, 7, 6, 3, 3, 2, 1, 2, True),
    (1, 4, 5, 5, 4, 2, 2, 1, 1, False),
    (1, 1, 1, 12, 3, 1, 1, 1, 1, False),
    (1, 4, 3, 16, 5, 1, 1, 1, 1, False),  # columns of 16 and 32, constants to the GEMM
    (1, 3, 3, 32, 4, 1, 1, 1, 1, False),
    # Channels in fours but not eights: a kernel row's run (12 inputs) and
    # a dilated kernel's taps one by one end on a lone group.
    (1, 6, 5, 4, 3, 3, 3, 2, 1, True),
    (1, 7, 6, 12, 5, 3, 3, 1, 2, True),
    # Channels not in fours, kernel rows read a word at a time: the last
    # rows' words would pass the image's end (gathered instead), two channels
    # (a row of 6 rounded to 8), and weights too many to copy (bytes gathered).
    (1, 5, 5, 3, 4, 3, 3, 1, 1, False),
    (1, 6, 4, 2, 5, 3, 3, 1, 1, True),
    (1, 5, 5, 3, 32, 3, 3, 1, 1, True),
]


@pytest.mark.parametrize("shape", CONVS)
@pytest.mark.parametrize("low_shifts", [False, True])
def test_conv_s8(conv_library, shape, low_shifts):
    n, h, w, ci, co, kh, kw, stride, dil, same = shape
    rng = np.random.default_rng(abs(hash((shape, low_shifts))) % 2**32)
    if same:
        oh, ow = -(-h // stride), -(-w // stride)
        pad = tuple(max(((o - 1) * stride + (k - 1) * dil + 1 - size), 0) // 2
                    for o, k, size in ((oh, kh, h), (ow, kw, w)))
    else:
        oh, ow = (h - (kh - 1) * dil - 1) // stride + 1, (w - (kw - 1) * dil - 1) // stride + 1
        pad = (0, 0)
    weights = rng.integers(-128, 128, (co, kh, kw, ci), dtype="int8")
    blob, s = _constants(rng, weights, co, low_shifts)
    x = rng.integers(-128, 128, (n, h, w, ci), dtype="int8")
    in_zp, out_zp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    act = _act(rng)
    args = ((n, h, w, ci), weights.shape, (n, oh, ow, co), (stride, stride), (dil, dil), pad,
            in_zp, out_zp, act)
    expected = _te(kernels.conv2d(s, *args), x, blob, out=(n, oh, ow, co))
    y = np.zeros((n, oh, ow, co), "int8")
    conv_library.ffi_core_conv_s8(_ptr(x), _ptr(blob), _ptr(y), s.weights_offset, s.table_offset, n,
                             h, w, ci, oh, ow, co, kh, kw, stride, stride, dil, dil, *pad, in_zp,
                             out_zp, *act)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("shape", [(2, 6, 6, 16, 13, 1, 1, 1, 1, False),
                                   (1, 5, 4, 8, 9, 3, 3, 1, 1, True),
                                   (1, 9, 7, 3, 8, 3, 3, 2, 1, True)])
@pytest.mark.parametrize("live", ["first", "last", "one", "most"])
def test_conv_s8_pruned(conv_library, shape, live):
    """Channels of zero weights dropped from the C kernel's constants
    (conv2d_c_constants): its outputs against the TE kernel's, which reads
    every channel's weights."""
    n, h, w, ci, co, kh, kw, stride, dil, same = shape
    rng = np.random.default_rng(abs(hash((shape, live, "pruned"))) % 2**32)
    oh, ow = (-(-h // stride), -(-w // stride)) if same else (h - kh + 1, w - kw + 1)
    pad = tuple(max((o - 1) * stride + k - size, 0) // 2 for o, k, size in
                ((oh, kh, h), (ow, kw, w))) if same else (0, 0)
    weights = rng.integers(-128, 128, (co, kh, kw, ci), dtype="int8")
    keep = {"first": np.arange(co) < co // 2, "last": np.arange(co) >= co - 3,
            "one": np.arange(co) == co // 3, "most": rng.random(co) < 0.7}[live]
    keep[0] |= not keep.any()
    weights[~keep] = 0
    table = np.zeros((co, 3), "int32")
    table[:, 0] = rng.integers(-1 << 30, 1 << 30, co) >> rng.integers(0, 31, co)
    for c in range(co):
        table[c, 1:] = quantize_multiplier(2.0 ** rng.uniform(-36, -2))
    x = rng.integers(-128, 128, (n, h, w, ci), dtype="int8")
    in_zp, out_zp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    act = _act(rng)
    args = ((n, h, w, ci), weights.shape, (n, oh, ow, co), (stride, stride), (dil, dil), pad,
            in_zp, out_zp, act)
    outputs = []
    for consts in ((weights, table), kernels.conv2d_c_constants(weights, table)):
        blob = WeightBlob()
        w_off, q_off = blob.add(consts[0]), blob.add(consts[1])
        data = blob.data()
        s = kernels.Slice(data.size, w_off, q_off)
        if not outputs:
            outputs.append(_te(kernels.conv2d(s, *args), x, data, out=(n, oh, ow, co)))
            continue
        assert consts[0].shape[0] == keep.sum()
        y = np.zeros((n, oh, ow, co), "int8")
        conv_library.ffi_core_conv_s8(_ptr(x), _ptr(data), _ptr(y), w_off, q_off, n, h, w, ci, oh,
                                      ow, co, kh, kw, stride, stride, dil, dil, *pad, in_zp,
                                      out_zp, *act)
        outputs.append(y)
    np.testing.assert_array_equal(outputs[1], outputs[0])


@pytest.mark.parametrize("batch,features,units", [(1, 640, 128), (1, 5, 7), (2, 16, 10),
                                                  (3, 27, 4), (1, 128, 2)])
@pytest.mark.parametrize("low_shifts", [False, True])
def test_fully_connected_s8(library, batch, features, units, low_shifts):
    rng = np.random.default_rng(batch * 1000 + features * 10 + units + low_shifts)
    weights = rng.integers(-128, 128, (units, features), dtype="int8")
    blob, s = _constants(rng, weights, units, low_shifts)
    x = rng.integers(-128, 128, (batch, features), dtype="int8")
    in_zp, out_zp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    act = _act(rng)
    expected = _te(kernels.fully_connected(s, batch, features, units, in_zp, out_zp, act), x,
                   blob, out=(batch, units))
    y = np.zeros((batch, units), "int8")
    library.ffi_core_fully_connected_s8(_ptr(x), _ptr(blob), _ptr(y), s.weights_offset,
                                        s.table_offset, batch, features, units, out_zp, *act)
    np.testing.assert_array_equal(y, expected)


DEPTHWISE = [
    # (batch, h, w, channels, kh, kw, stride, dilation, same padding)
    (1, 25, 5, 64, 3, 3, 1, 1, True),
    (1, 12, 12, 8, 3, 3, 2, 1, True),
    (1, 7, 9, 6, 3, 3, 1, 1, False),
    (2, 6, 6, 13, 3, 3, 2, 1, True),
    (1, 9, 7, 4, 3, 2, 1, 2, True),
    (1, 5, 5, 3, 5, 5, 1, 1, True),
    (1, 1, 1, 12, 1, 1, 1, 1, False),
]


@pytest.mark.parametrize("shape", DEPTHWISE)
@pytest.mark.parametrize("low_shifts", [False, True])
def test_depthwise_conv_s8(library, shape, low_shifts):
    n, h, w, ch, kh, kw, stride, dil, same = shape
    rng = np.random.default_rng(abs(hash((shape, low_shifts, "dw"))) % 2**32)
    if same:
        oh, ow = -(-h // stride), -(-w // stride)
        pad = tuple(max(((o - 1) * stride + (k - 1) * dil + 1 - size), 0) // 2
                    for o, k, size in ((oh, kh, h), (ow, kw, w)))
    else:
        oh, ow = (h - (kh - 1) * dil - 1) // stride + 1, (w - (kw - 1) * dil - 1) // stride + 1
        pad = (0, 0)
    weights = rng.integers(-128, 128, (1, kh, kw, ch), dtype="int8")
    blob, s = _constants(rng, weights, ch, low_shifts)
    x = rng.integers(-128, 128, (n, h, w, ch), dtype="int8")
    in_zp, out_zp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    act = _act(rng)
    args = ((n, h, w, ch), weights.shape, (n, oh, ow, ch), (stride, stride), (dil, dil), pad,
            in_zp, out_zp, act)
    expected = _te(kernels.depthwise_conv2d(s, *args), x, blob, out=(n, oh, ow, ch))
    y = np.zeros((n, oh, ow, ch), "int8")
    library.ffi_core_depthwise_conv_s8(_ptr(x), _ptr(blob), _ptr(y), s.weights_offset,
                                       s.table_offset, n, h, w, ch, oh, ow, kh, kw, stride,
                                       stride, dil, dil, *pad, in_zp, out_zp, *act)
    np.testing.assert_array_equal(y, expected)


@pytest.mark.parametrize("shape", [(6, 6, 1, True), (3, 3, 1, True), (12, 12, 2, True),
                                   (7, 5, 2, True), (6, 6, 1, False), (2, 5, 1, True)])
def test_depthwise_c_table_values(shape):
    """The outputs depthwise_c_table works out for a 3x3 window's channels
    of one value (a row of them after the table a marked channel, flagged
    TABLE_VALUES): each output's, at its row and column classes
    (window_classes), equal to the TE kernel's over such an input."""
    h, w, stride, same = shape
    ch = 9
    rng = np.random.default_rng(abs(hash((shape, "values"))) % 2**32)
    oh, ow = (-(-h // stride), -(-w // stride)) if same else (h - 2, w - 2)
    pad = tuple(max((o - 1) * stride + 3 - size, 0) // 2 for o, size in ((oh, h), (ow, w))) \
        if same else (0, 0)
    weights = rng.integers(-128, 128, (1, 3, 3, ch), dtype="int8")
    blob, s = _constants(rng, weights, ch, False)
    table = np.frombuffer(blob.tobytes()[s.table_offset:s.table_offset + 12 * ch],
                          "<i4").reshape(ch, 3)
    constant = {int(c): int(rng.integers(-128, 128)) for c in rng.choice(ch, 6, replace=False)}
    x = rng.integers(-128, 128, (1, h, w, ch), dtype="int8")
    for c, v in constant.items():
        x[..., c] = v
    in_zp, out_zp = int(rng.integers(-128, 128)), int(rng.integers(-128, 128))
    act = _act(rng)
    args = ((1, h, w, ch), weights.shape, (1, oh, ow, ch), (stride, stride), (1, 1), pad, in_zp,
            out_zp, act)
    expected = _te(kernels.depthwise_conv2d(s, *args), x, blob, out=(1, oh, ow, ch))
    marked = kernels.depthwise_c_table(table, constant, (weights, (h, w), (oh, ow), (stride, stride),
                                                         pad, in_zp, out_zp, act))
    rows = kernels.window_classes(h, oh, stride, pad[0])[0]
    cols, col_taps = kernels.window_classes(w, ow, stride, pad[1])
    assert marked.shape == (ch + len(constant), 3)
    values = marked[ch:].view("int8").reshape(len(constant), 12)
    for k, c in enumerate(sorted(constant)):
        assert marked[c, 2] & kernels.TABLE_MARK and marked[c, 2] & kernels.TABLE_VALUES
        given = values[k][[rows[i] * len(col_taps) + cols[j] for i in range(oh) for j in range(ow)]]
        np.testing.assert_array_equal(given.reshape(oh, ow), expected[0, :, :, c])
    for c in set(range(ch)) - set(constant):
        assert marked[c, 2] == table[c, 2]


@pytest.mark.parametrize("shape", [(1, 8, 8, 16), (1, 5, 3, 7), (2, 1, 1, 1), (1, 3, 2)])
@pytest.mark.parametrize("scales", [(0.05, 0.02, 0.06), (0.02, 0.05, 0.03), (0.04, 0.04, 0.1),
                                    (0.1, 0.003, 0.2)])
def test_add_s8(library, shape, scales):
    """ADD as its lowering computes it with the C kernel's arguments (the
    multipliers TFLite derives from the scales), either input the larger."""
    rng = np.random.default_rng(abs(hash((shape, scales, "add"))) % 2**32)
    s1, s2, so = scales
    twice_max = 2.0 * max(s1, s2)
    m1 = quantize_multiplier(s1 / twice_max)
    m2 = quantize_multiplier(s2 / twice_max)
    mo = quantize_multiplier(twice_max / ((1 << 20) * so))
    z1, z2, zo = (int(v) for v in rng.integers(-128, 128, 3))
    act = _act(rng)
    f = add_sub_value(1, 20, z1, m1, z2, m2, mo, zo, act)
    a = te.placeholder(shape, "int8", "a")
    b = te.placeholder(shape, "int8", "b")
    y = te.compute(shape, lambda *i: f(a[i].astype("int32"), b[i].astype("int32")).astype("int8"))
    xa = rng.integers(-128, 128, shape, dtype="int8")
    xb = rng.integers(-128, 128, shape, dtype="int8")
    expected = _te(te.create_prim_func([a, b, y]), xa, xb, out=shape)
    out = np.zeros(shape, "int8")
    library.ffi_core_add_s8(_ptr(xa), _ptr(xb), _ptr(out), xa.size, z1, *m1, z2, *m2, *mo, zo,
                            *act)
    np.testing.assert_array_equal(out, expected)


def test_marked_code_and_forms_only_where_tables_take_them():
    """compile.py leaves the C kernels' code for marked channels out
    (FFI_CORE_S8_MARKED=0) unless a kernel of the model says its table
    marks some (int8_kernels.c_marked), and builds the Helium forms its
    kernels' tables take (int8_kernels.c_form, s8_mode's choice)."""
    from ffi_core_tvm.compile import c_kernel_defines
    x = te.placeholder((4,), "int8", "x")
    plain = te.create_prim_func([x, te.compute((4,), lambda i: x[i], name="y")])
    none = ["-DFFI_CORE_S8_MARKED=0", "-DFFI_CORE_S8_FORMS=0x0"]
    assert c_kernel_defines(tvm.IRModule({"k": plain})) == none
    assert c_kernel_defines(tvm.IRModule({"k": kernels.c_marked(plain, False)})) == none
    assert c_kernel_defines(tvm.IRModule({"k": plain, "m": kernels.c_marked(plain, True)}))[0] == (
        "-DFFI_CORE_S8_FORMS=0x0")

    def forms(rows, **kw):
        f = kernels.c_form(plain, np.array([[0, 1 << 30, s] for s in rows]), **kw)
        return c_kernel_defines(tvm.IRModule({"k": f}))[-1]

    # The lowest shift picks the form, as s8_mode does; a mark's bits are not the shift's.
    assert forms([32, 40]) == f"-DFFI_CORE_S8_FORMS={1 << kernels.S8_TWICE:#x}"
    assert forms([31, 40 | kernels.TABLE_MARK]) == (
        f"-DFFI_CORE_S8_FORMS={1 << kernels.S8_TWICE_FIXED:#x}")
    assert forms([30]) == f"-DFFI_CORE_S8_FORMS={1 << kernels.S8_TWICE_LEFT:#x}"
    assert forms([30], general=kernels.S8_SCALAR) == "-DFFI_CORE_S8_FORMS=0x1"
    assert forms([33], once=True) == f"-DFFI_CORE_S8_FORMS={1 << kernels.S8_ONCE:#x}"
    assert forms([32], once=True) == f"-DFFI_CORE_S8_FORMS={1 << kernels.S8_SCALAR_ONCE:#x}"

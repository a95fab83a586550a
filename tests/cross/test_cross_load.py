"""Upstream's Python package loads and calls a C kernel library built by ffi-core.

kernels.c is compiled twice, against ffi-core's headers and against the
apache-tvm-ffi wheel's headers; ctest passes the two library paths in
FFI_CORE_CROSS_KERNELS and FFI_CORE_CROSS_KERNELS_UPSTREAM. Every test runs
against both. The first group goes through tvm_ffi.load_module, so arguments
are marshalled by upstream's Python binding; the second calls the exported
symbols directly through ctypes, to reach argument kinds that binding never
produces (DLTensor pointers, raw C strings, byte-array pointers).
"""

import ctypes
import gc
import os

import numpy as np
import pytest
import tvm_ffi

LIBRARIES = {
    "ffi_core_headers": "FFI_CORE_CROSS_KERNELS",
    "upstream_headers": "FFI_CORE_CROSS_KERNELS_UPSTREAM",
}


def library_path(variant):
    var = LIBRARIES[variant]
    path = os.environ.get(var)
    if not path:
        pytest.fail(f"{var} is not set: run this file through ctest (cross_python_loads_ffi_core_kernels)")
    if not os.path.exists(path):
        pytest.fail(f"{var}={path} does not exist: build the tests/cross targets first")
    return path


@pytest.fixture(scope="module", params=sorted(LIBRARIES))
def variant(request):
    return request.param


@pytest.fixture(scope="module")
def mod(variant):
    return tvm_ffi.load_module(library_path(variant))


# ---------------------------------------------------------------- tensors ---


def test_module_finds_every_kernel(mod):
    for name in ("add_one", "dot_i8", "echo", "raise_value_error"):
        assert isinstance(getattr(mod, name), tvm_ffi.Function)


@pytest.mark.parametrize("n", [0, 1, 7, 1000])
def test_add_one_numpy(mod, n):
    x = (np.arange(n, dtype=np.float32) - 3.0) * 0.25
    y = np.full(n, -99.0, dtype=np.float32)
    assert mod.add_one(x, y) is None
    np.testing.assert_array_equal(y, x + np.float32(1))
    np.testing.assert_array_equal(x, (np.arange(n, dtype=np.float32) - 3.0) * 0.25)


def test_add_one_tvm_ffi_tensors(mod):
    x = np.linspace(-2.0, 2.0, 9, dtype=np.float32)
    y = np.zeros_like(x)
    tx = tvm_ffi.from_dlpack(x)
    ty = tvm_ffi.from_dlpack(y)
    assert isinstance(tx, tvm_ffi.Tensor)
    mod.add_one(tx, ty)
    np.testing.assert_array_equal(y, x + np.float32(1))  # ty shares y's memory


def test_add_one_offset_view(mod):
    base = np.arange(10, dtype=np.float32)
    out = np.zeros(10, dtype=np.float32)
    mod.add_one(base[3:], out[3:])
    np.testing.assert_array_equal(out[3:], base[3:] + 1)
    np.testing.assert_array_equal(out[:3], 0)


@pytest.mark.parametrize(
    "make, exc, message",
    [
        (lambda: (np.zeros(4, np.float64), np.zeros(4, np.float32)), TypeError,
         "add_one: argument 0 must be float32"),
        (lambda: (np.zeros(4, np.float32), np.zeros(4, np.int32)), TypeError,
         "add_one: argument 1 must be float32"),
        (lambda: (np.zeros((2, 2), np.float32), np.zeros(4, np.float32)), ValueError,
         "add_one: argument 0 must be 1-D"),
        (lambda: (np.zeros(4, np.float32), np.zeros(5, np.float32)), ValueError,
         "add_one: x and y must have the same shape"),
        (lambda: (np.zeros(8, np.float32)[::2], np.zeros(4, np.float32)), ValueError,
         "add_one: argument 0 must be contiguous"),
        (lambda: (1.0, np.zeros(4, np.float32)), TypeError,
         "add_one: argument 0 must be a tensor"),
        (lambda: (np.zeros(4, np.float32),), TypeError,
         "add_one: wrong number of arguments, expected 2"),
    ],
    ids=["f64", "i32-out", "2d", "shape", "strided", "not-tensor", "arity"],
)
def test_add_one_rejects(mod, make, exc, message):
    with pytest.raises(exc) as info:
        mod.add_one(*make())
    assert str(info.value) == message


def test_dot_i8(mod):
    rng = np.random.default_rng(20240607)
    a = rng.integers(-128, 128, size=513, dtype=np.int8)
    b = rng.integers(-128, 128, size=513, dtype=np.int8)
    got = mod.dot_i8(a, b)
    assert type(got) is int
    assert got == int(np.dot(a.astype(np.int64), b.astype(np.int64)))


def test_dot_i8_extremes_do_not_wrap(mod):
    a = np.full(4096, -128, dtype=np.int8)
    assert mod.dot_i8(a, a) == 4096 * 128 * 128
    assert mod.dot_i8(a, np.full(4096, 127, dtype=np.int8)) == -4096 * 128 * 127
    assert mod.dot_i8(a[:0], a[:0]) == 0


def test_dot_i8_rejects(mod):
    with pytest.raises(TypeError) as info:
        mod.dot_i8(np.zeros(3, np.uint8), np.zeros(3, np.int8))
    assert str(info.value) == "dot_i8: argument 0 must be int8"
    with pytest.raises(ValueError) as info:
        mod.dot_i8(np.zeros(3, np.int8), np.zeros(2, np.int8))
    assert str(info.value) == "dot_i8: a and b must have the same length"


# ----------------------------------------------------------------- errors ---


@pytest.mark.parametrize(
    "message",
    ["", "boom", "7 bytes", "8 bytes!", "a longer message than any small string holds " * 4,
     "unicode: \u00e9\u00e8 \u4e2d\u6587 \U0001f600"],
    ids=["empty", "small", "small-7", "object-8", "long", "unicode"],
)
def test_raise_value_error(mod, message):
    with pytest.raises(ValueError) as info:
        mod.raise_value_error(message)
    assert type(info.value) is ValueError
    assert str(info.value) == message


def test_raise_value_error_needs_a_string(mod):
    with pytest.raises(TypeError) as info:
        mod.raise_value_error(42)
    assert str(info.value) == "raise_value_error: argument 0 must be a string"


def test_module_still_works_after_errors(mod):
    for _ in range(100):
        with pytest.raises(ValueError):
            mod.raise_value_error("again and again, long enough to be an object")
    assert mod.echo(5) == 5


# ------------------------------------------------------------------- echo ---

ECHO_VALUES = [
    pytest.param(0, int, id="int-0"),
    pytest.param(42, int, id="int"),
    pytest.param(-7, int, id="int-negative"),
    pytest.param(2**63 - 1, int, id="int64-max"),
    pytest.param(-(2**63), int, id="int64-min"),
    pytest.param(0x123456789ABCDEF, int, id="int-large"),
    pytest.param(1.5, float, id="float"),
    pytest.param(-0.0, float, id="float-negzero"),
    pytest.param(1e300, float, id="float-large"),
    pytest.param(float("inf"), float, id="float-inf"),
    pytest.param(True, bool, id="bool-true"),
    pytest.param(False, bool, id="bool-false"),
    pytest.param(None, type(None), id="none"),
    pytest.param("", str, id="str-empty"),
    pytest.param("abc", str, id="str-small"),
    pytest.param("seven!!", str, id="str-7"),
    pytest.param("eight!!!", str, id="str-8"),
    pytest.param("a long string that lives in a String object" * 3, str, id="str-long"),
    pytest.param("\u00e9\u4e2d", str, id="str-utf8-small"),
    pytest.param(b"", bytes, id="bytes-empty"),
    pytest.param(b"\x00\x01\xff", bytes, id="bytes-small"),
    pytest.param(bytes(range(256)), bytes, id="bytes-long"),
]


@pytest.mark.parametrize("value, kind", ECHO_VALUES)
def test_echo_round_trips(mod, value, kind):
    got = mod.echo(value)
    assert isinstance(got, kind)
    if kind is bool:
        assert type(got) is bool  # not 1/0
    if kind is int:
        assert not isinstance(got, bool)
    assert got == value
    if kind is float:
        assert str(got) == str(value)  # keeps -0.0's sign


def test_echo_nan(mod):
    got = mod.echo(float("nan"))
    assert isinstance(got, float) and got != got


@pytest.mark.parametrize("device", [("cpu", 0), ("cuda", 3)], ids=["cpu0", "cuda3"])
def test_echo_device(mod, device):
    value = tvm_ffi.device(*device)
    got = mod.echo(value)
    assert isinstance(got, tvm_ffi.Device)
    assert got == value
    assert (got.dlpack_device_type(), got.index) == (value.dlpack_device_type(), value.index)


@pytest.mark.parametrize("text", ["float32", "int8", "bfloat16", "int8x4", "bool"])
def test_echo_dtype(mod, text):
    value = tvm_ffi.dtype(text)
    got = mod.echo(value)
    assert isinstance(got, tvm_ffi.dtype)
    assert got == value and str(got) == text


def test_echo_retains_objects(mod):
    # The kernel returns an owned reference (TVMFFIAnyViewToOwnedAny), so the
    # echoed object outlives every other handle to it.
    data = np.arange(6, dtype=np.float32)
    tensor = tvm_ffi.from_dlpack(data)
    got = mod.echo(tensor)
    assert got.same_as(tensor)
    del tensor
    gc.collect()
    assert tuple(got.shape) == (6,) and str(got.dtype) == "float32"
    out = np.zeros(6, dtype=np.float32)
    mod.add_one(got, out)
    np.testing.assert_array_equal(out, data + 1)

    func = mod.echo(mod.dot_i8)
    assert isinstance(func, tvm_ffi.Function)
    assert func(np.ones(3, np.int8), np.full(3, 2, np.int8)) == 6

    arr = mod.echo([1, "two", 3.0])
    assert list(arr) == [1, "two", 3.0]


def test_echo_arity(mod):
    with pytest.raises(TypeError) as info:
        mod.echo(1, 2)
    assert str(info.value) == "echo: wrong number of arguments, expected 1"


# ------------------------------------------ raw calls through the C ABI ---

K_NONE, K_INT, K_DLTENSOR_PTR, K_RAW_STR, K_BYTE_ARRAY_PTR, K_SMALL_STR = 0, 1, 7, 8, 9, 11
K_STR, K_ERROR = 65, 67
OBJECT_HEADER_SIZE = 24


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class AnyValue(ctypes.Union):
    _fields_ = [
        ("v_int64", ctypes.c_int64),
        ("v_float64", ctypes.c_double),
        ("v_ptr", ctypes.c_void_p),
        ("v_bytes", ctypes.c_char * 8),
    ]


class TVMFFIAny(ctypes.Structure):
    _fields_ = [("type_index", ctypes.c_int32), ("small_len", ctypes.c_uint32), ("value", AnyValue)]


class ByteArray(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t)]

    def text(self):
        return ctypes.string_at(self.data, self.size).decode()


class ErrorCellHead(ctypes.Structure):
    _fields_ = [("kind", ByteArray), ("message", ByteArray)]


SAFE_CALL = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(TVMFFIAny), ctypes.c_int32,
    ctypes.POINTER(TVMFFIAny))


def test_abi_sizes():
    assert ctypes.sizeof(TVMFFIAny) == 16
    assert ctypes.sizeof(DLTensor) == 48


@pytest.fixture(scope="module")
def raw(variant, mod):
    # mod has already dlopen'ed the library; this returns the same handle.
    lib = ctypes.CDLL(library_path(variant))

    def kernel(name):
        return SAFE_CALL(("__tvm_ffi_" + name, lib))

    return kernel


def runtime():
    lib = tvm_ffi.LIB  # upstream's libtvm_ffi.so, loaded RTLD_GLOBAL
    lib.TVMFFIErrorMoveFromRaised.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
    lib.TVMFFIErrorMoveFromRaised.restype = None
    lib.TVMFFIObjectDecRef.argtypes = [ctypes.c_void_p]
    lib.TVMFFIObjectDecRef.restype = ctypes.c_int
    return lib


def call(fn, *args):
    arr = (TVMFFIAny * max(len(args), 1))(*args)
    result = TVMFFIAny()
    result.type_index = K_NONE
    rc = fn(None, arr, len(args), ctypes.byref(result))
    return rc, result


def take_error():
    lib = runtime()
    handle = ctypes.c_void_p()
    lib.TVMFFIErrorMoveFromRaised(ctypes.byref(handle))
    assert handle.value, "a failing call must leave an error in the slot"
    try:
        head = ctypes.c_int32.from_address(handle.value + 8).value
        assert head == K_ERROR
        cell = ErrorCellHead.from_address(handle.value + OBJECT_HEADER_SIZE)
        return cell.kind.text(), cell.message.text()
    finally:
        lib.TVMFFIObjectDecRef(handle)


def any_ptr(type_index, pointer):
    a = TVMFFIAny()
    a.type_index = type_index
    a.value.v_ptr = ctypes.cast(pointer, ctypes.c_void_p).value
    return a


def dltensor_of(array, offset_elems=0):
    shape = (ctypes.c_int64 * 1)(array.shape[0] - offset_elems)
    t = DLTensor()
    t.data = array.ctypes.data
    t.device = DLDevice(1, 0)  # kDLCPU
    t.ndim = 1
    t.dtype = DLDataType(2, 32, 1)  # kDLFloat, 32 bits
    t.shape = shape
    t.strides = None
    t.byte_offset = offset_elems * array.itemsize
    t._keep = (shape, array)
    return t


def test_raw_add_one_dltensor_ptr_with_byte_offset(raw):
    x = np.arange(8, dtype=np.float32) * 3
    y = np.zeros(8, dtype=np.float32)
    tx, ty = dltensor_of(x, 2), dltensor_of(y, 2)
    rc, result = call(raw("add_one"), any_ptr(K_DLTENSOR_PTR, ctypes.pointer(tx)),
                      any_ptr(K_DLTENSOR_PTR, ctypes.pointer(ty)))
    assert rc == 0 and result.type_index == K_NONE
    np.testing.assert_array_equal(y[2:], x[2:] + 1)
    np.testing.assert_array_equal(y[:2], 0)


def test_raw_arity_error(raw):
    rc, _ = call(raw("dot_i8"))
    assert rc != 0
    assert take_error() == ("TypeError", "dot_i8: wrong number of arguments, expected 2")


@pytest.mark.parametrize("message", ["short", "a raw C string longer than seven bytes"])
def test_raw_raise_from_raw_str(raw, message):
    buf = ctypes.create_string_buffer(message.encode())
    rc, _ = call(raw("raise_value_error"), any_ptr(K_RAW_STR, buf))
    assert rc != 0
    assert take_error() == ("ValueError", message)


def test_raw_raise_from_byte_array_ptr_without_nul(raw):
    buf = ctypes.create_string_buffer(b"exact-bytes-then-garbage", 24)  # no NUL inside 24
    ba = ByteArray(ctypes.cast(buf, ctypes.c_void_p).value, len(b"exact-bytes"))
    rc, _ = call(raw("raise_value_error"), any_ptr(K_BYTE_ARRAY_PTR, ctypes.pointer(ba)))
    assert rc != 0
    assert take_error() == ("ValueError", "exact-bytes")


def test_raw_echo_turns_raw_str_into_owned_string(raw):
    short = ctypes.create_string_buffer(b"hi!")
    rc, result = call(raw("echo"), any_ptr(K_RAW_STR, short))
    assert rc == 0
    assert result.type_index == K_SMALL_STR and result.small_len == 3
    assert bytes(result.value.v_bytes)[:3] == b"hi!"

    text = b"long enough to need a String object"
    long_buf = ctypes.create_string_buffer(text)
    rc, result = call(raw("echo"), any_ptr(K_RAW_STR, long_buf))
    assert rc == 0 and result.type_index == K_STR
    try:
        # The String owns a copy: changing the source does not change it.
        ctypes.memset(long_buf, ord("x"), len(text))
        cell = ByteArray.from_address(result.value.v_ptr + OBJECT_HEADER_SIZE)
        assert cell.text() == text.decode()
    finally:
        assert runtime().TVMFFIObjectDecRef(result.value.v_ptr) == 0


def test_raw_echo_int(raw):
    a = TVMFFIAny()
    a.type_index = K_INT
    a.value.v_int64 = -(2**62)
    rc, result = call(raw("echo"), a)
    assert rc == 0 and result.type_index == K_INT and result.value.v_int64 == -(2**62)

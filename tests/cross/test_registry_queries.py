"""The runtime's registry queries upstream's package builds on, on either runtime.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too: the metadata a C++ library
registered a global function with (ffi.GetGlobalFuncMetadata), the keys of
every registered type (ffi.GetRegisteredTypeKeys), the enum base types'
fields, the core types' "__ffi_convert__", ffi.Module's registered layout and
ffi.FunctionFromExternC.
"""

import ctypes
import itertools

import pytest
import tvm_ffi
import tvm_ffi.testing  # registers the testing library's functions and types
from tvm_ffi.core import Object, TypeSchema, _lookup_type_attr, _object_type_key_to_index
from tvm_ffi.dataclasses import py_class
from tvm_ffi.stub.lib_state import object_info_from_type_key

_names = itertools.count()


def name(base):
    return f"ffi_core_test.registry.{base}_{next(_names)}"


def test_metadata_of_a_cxx_global_is_its_registration():
    metadata = tvm_ffi.get_global_func_metadata("testing.schema_id_int")
    assert {k: metadata[k] for k in ("bool_attr", "int_attr", "str_attr")} == {
        "bool_attr": True,
        "int_attr": 1,
        "str_attr": "hello",
    }
    assert str(TypeSchema.from_json_str(metadata["type_schema"])) == "Callable[[int], int]"


def test_a_python_global_has_no_metadata_and_replacing_a_cxx_one_drops_it():
    fname = name("py")
    tvm_ffi.register_global_func(fname, lambda x: x)
    assert tvm_ffi.get_global_func_metadata(fname) == {}
    tvm_ffi.remove_global_func(fname)
    # A C++ function registered again from Python keeps no metadata.
    cxx = tvm_ffi.get_global_func("testing.schema_id_float")
    tvm_ffi.register_global_func(fname, cxx)
    assert tvm_ffi.get_global_func_metadata(fname) == {}
    tvm_ffi.remove_global_func(fname)


def test_metadata_of_a_missing_global_is_an_error():
    with pytest.raises(RuntimeError, match="not found"):
        tvm_ffi.get_global_func_metadata(name("missing"))


def test_registered_type_keys_list_every_type_once():
    @py_class(name("keyed"))
    class Keyed(Object):
        x: int

    keys = [str(k) for k in tvm_ffi.registry.get_registered_type_keys()]
    assert len(keys) == len(set(keys))
    expected = {Keyed.__tvm_ffi_type_info__.type_key, "ffi.Object", "ffi.Function", "ffi.Array",
                tvm_ffi.testing._SchemaAllTypes.__tvm_ffi_type_info__.type_key}
    assert expected <= set(keys)
    for key in keys:
        assert tvm_ffi.core._object_type_key_to_index(key) is not None, key


def test_module_layout_is_the_cxx_class():
    # ffi.Module's registration describes upstream's C++ ModuleObj: a vtable
    # pointer, the header, then `imports_` and a look-up cache, both a
    # pointer wide; offsets count from the header.
    info = object_info_from_type_key("ffi.Module")
    ptr = ctypes.sizeof(ctypes.c_void_p)
    assert info.total_size == ptr + 24 + 2 * ptr
    assert [(f.name, f.offset, f.size, f.alignment) for f in info.fields] == [("imports_", 24, ptr, ptr)]


def test_payload_enums_read_value_as_their_index():
    from tvm_ffi.dataclasses import IntEnum, StrEnum

    class Level(IntEnum, type_key=name("Level")):
        LOW = -(2**63)
        HIGH = 7

    class Space(StrEnum, type_key=name("Space")):
        SHARED = "smem"

    assert Level.LOW.value == Level.LOW._int_index == -(2**63)
    assert Level.HIGH.value == 7 and Level(7).same_as(Level.HIGH)
    assert Space.SHARED.value == Space.SHARED._str_index == "smem"
    for cls in (Level, Space):
        (value,) = [f for f in cls.__tvm_ffi_type_info__.parent_type_info.fields if f.name == "value"]
        assert not value.c_init
        assert "type_schema" in value.metadata


def convert(type_key, value):
    fn = _lookup_type_attr(_object_type_key_to_index(type_key), "__ffi_convert__")
    assert fn is not None, type_key
    return fn(value)


@pytest.mark.parametrize(
    "type_key",
    ["ffi.Object", "ffi.Function", "ffi.Error", "ffi.String", "ffi.Bytes", "ffi.Array",
     "ffi.List", "ffi.Map", "ffi.Dict", "ffi.Shape", "ffi.Tensor"],
)
def test_core_types_convert_what_they_are(type_key):
    samples = {
        "ffi.Object": tvm_ffi.Array([1]),
        "ffi.Function": tvm_ffi.get_global_func("testing.schema_id_int"),
        "ffi.Error": tvm_ffi.core.Error("ValueError", "m", ""),
        "ffi.String": "a string longer than the small form",
        "ffi.Bytes": b"bytes longer than the small form..",
        "ffi.Array": tvm_ffi.Array([1, 2]),
        "ffi.List": tvm_ffi.List([1, 2]),
        "ffi.Map": tvm_ffi.Map({"a": 1}),
        "ffi.Dict": tvm_ffi.Dict({"a": 1}),
        "ffi.Shape": tvm_ffi.Shape((2, 3)),
        "ffi.Tensor": tvm_ffi.from_dlpack(__import__("numpy").zeros((2,), "float32")),
    }
    value = samples[type_key]
    converted = convert(type_key, value)
    if isinstance(value, (str, bytes, tuple)):  # the package's views of String, Bytes, Shape
        assert converted == value
    else:
        assert converted.same_as(value)
    with pytest.raises(TypeError, match="Cannot cast from `int` to `"):
        convert(type_key, 1)
    if type_key in ("ffi.Object", "ffi.Function", "ffi.Tensor"):  # nullable references
        assert convert(type_key, None) is None
    else:
        with pytest.raises(TypeError, match="Cannot cast from `None` to `"):
            convert(type_key, None)


def test_containers_convert_from_their_counterparts():
    assert list(convert("ffi.Shape", [4, 5])) == [4, 5]
    assert tuple(convert("ffi.Shape", tvm_ffi.List([6]))) == (6,)
    array = convert("ffi.Array", tvm_ffi.List([1, "x"]))
    assert isinstance(array, tvm_ffi.Array) and list(array) == [1, "x"]
    lst = convert("ffi.List", tvm_ffi.Array([2, 3]))
    assert isinstance(lst, tvm_ffi.List) and list(lst) == [2, 3]
    m = convert("ffi.Map", tvm_ffi.Dict({"k": 1}))
    assert isinstance(m, tvm_ffi.Map) and dict(m.items()) == {"k": 1}
    d = convert("ffi.Dict", tvm_ffi.Map({"k": 2}))
    assert isinstance(d, tvm_ffi.Dict) and dict(d.items()) == {"k": 2}
    with pytest.raises(TypeError, match="Cannot cast from `ffi.Array` to `ffi.Shape`"):
        convert("ffi.Shape", [1, "x"])


def test_function_from_extern_c_calls_the_callback():
    safe_call_type = ctypes.CFUNCTYPE(
        ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32, ctypes.c_void_p
    )
    deleted = []
    deleter_type = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

    @safe_call_type
    def safe_call(handle, args, num_args, result):
        # The result: an int (type index 1) holding the argument count plus the handle.
        words = (ctypes.c_int64 * 2).from_address(result)
        words[0] = 1
        words[1] = num_args + handle
        return 0

    @deleter_type
    def deleter(handle):
        deleted.append(handle)

    make = tvm_ffi.get_global_func("ffi.FunctionFromExternC")
    f = make(ctypes.c_void_p(1000), ctypes.cast(safe_call, ctypes.c_void_p),
             ctypes.cast(deleter, ctypes.c_void_p))
    assert f(1, 2) == 1002
    del f
    assert deleted == [1000]

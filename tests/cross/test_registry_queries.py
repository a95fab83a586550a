"""The runtime's registry queries upstream's package builds on, on either runtime.

ctest runs this file with the wheel's runtime and with ffi-core's (the package
overlay), so each answer here is the wheel's too: the metadata a C++ library
registered a global function with (ffi.GetGlobalFuncMetadata) and the keys of
every registered type (ffi.GetRegisteredTypeKeys).
"""

import itertools

import pytest
import tvm_ffi
import tvm_ffi.testing  # registers the testing library's functions and types
from tvm_ffi.core import Object, TypeSchema
from tvm_ffi.dataclasses import py_class

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

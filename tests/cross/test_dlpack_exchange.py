"""A framework with a DLPack exchange API, as torch has, on either runtime.

With one, upstream's package tags the containers a call returns and, when a
tagged container is passed again, asks ffi.ContainerFindFirstNonCPUDevice
for its device through an argument whose zero_padding it never writes (its
container setter). ctest runs this file on the wheel's runtime and on
ffi-core's in checking mode; both must take it. The framework here is a few
ctypes callbacks: its tensors claim a CUDA device, and no memory of theirs is
ever read.
"""

import ctypes
import os

import tvm_ffi

kDLCUDA = 2


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


class DLManagedTensorVersioned(ctypes.Structure):
    pass


DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(DLManagedTensorVersioned))
DLManagedTensorVersioned._fields_ = [
    ("major", ctypes.c_uint32),
    ("minor", ctypes.c_uint32),
    ("manager_ctx", ctypes.c_void_p),
    ("deleter", DELETER),
    ("flags", ctypes.c_uint64),
    ("dl_tensor", DLTensor),
]

FROM_PY = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(DLManagedTensorVersioned))
)
CURRENT_STREAM = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_int, ctypes.c_int32, ctypes.POINTER(ctypes.c_void_p)
)


class DLPackExchangeAPI(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("prev_api", ctypes.c_void_p),
        ("managed_tensor_allocator", ctypes.c_void_p),
        ("managed_tensor_from_py_object_no_sync", FROM_PY),
        ("managed_tensor_to_py_object_no_sync", ctypes.c_void_p),
        ("dltensor_from_py_object_no_sync", ctypes.c_void_p),
        ("current_work_stream", CURRENT_STREAM),
    ]


_shape = (ctypes.c_int64 * 1)(4)
_live = {}  # the managed tensors handed out, by address, until their deleter runs
_stream_queries = []


@DELETER
def _delete(managed):
    del _live[ctypes.addressof(managed.contents)]


@FROM_PY
def _from_py(_py_object, out):
    managed = DLManagedTensorVersioned(major=1, minor=0, deleter=_delete)
    managed.dl_tensor.data = 0x1000  # never read: the tensor is only passed around
    managed.dl_tensor.device = DLDevice(kDLCUDA, 0)
    managed.dl_tensor.ndim = 1
    managed.dl_tensor.dtype = DLDataType(2, 32, 1)
    managed.dl_tensor.shape = _shape
    _live[ctypes.addressof(managed)] = managed
    out[0] = ctypes.pointer(managed)
    return 0


@CURRENT_STREAM
def _current_stream(device_type, device_id, out):
    _stream_queries.append((device_type, device_id))
    out[0] = None
    return 0


_api = DLPackExchangeAPI(
    major=1,
    minor=3,
    managed_tensor_from_py_object_no_sync=_from_py,
    current_work_stream=_current_stream,
)


class FrameworkTensor:
    """A tensor of the framework: the package finds the API on the class."""

    __dlpack_c_exchange_api__ = ctypes.addressof(_api)


def test_runs_on_the_expected_runtime():
    with open("/proc/self/maps") as maps:
        mapped = {line.split()[-1].rsplit("/", 1)[-1] for line in maps if ".so" in line}
    expected = {"ffi_core": "libffi_core.so", "wheel": "libtvm_ffi.so"}[os.environ["FFI_CORE_EXPECT_RUNTIME"]]
    assert expected in mapped


def test_a_tagged_container_passed_again_is_scanned_for_its_device():
    make_array = tvm_ffi.get_global_func("ffi.Array")
    make_list = tvm_ffi.get_global_func("ffi.List")
    make_map = tvm_ffi.get_global_func("ffi.Map")
    size = tvm_ffi.get_global_func("ffi.ArraySize")
    del _stream_queries[:]
    # The tensor argument asks for its device's stream once.
    containers = [
        make_array(FrameworkTensor(), 1),
        make_list(FrameworkTensor()),
        make_map("t", FrameworkTensor()),
    ]
    assert _stream_queries == [(kDLCUDA, 0)] * 3
    # Each tagged container, passed again, is scanned (the argument with the
    # unwritten padding); the device found asks for its stream.
    del _stream_queries[:]
    assert size(containers[0]) == 2
    assert make_array(containers[1]) is not None
    assert make_array(containers[2]) is not None
    assert _stream_queries == [(kDLCUDA, 0)] * 3
    # The tensors go back to the framework with the last reference.
    del containers
    assert _live == {}

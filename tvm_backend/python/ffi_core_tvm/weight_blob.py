"""A model's constants packed into one int8 tensor, and how kernels read them.

One tensor constant means one place for the firmware to align (compile.py
pads the executable so that its data starts on a 64-byte boundary in flash)
and no constant is ever copied to RAM. Each part starts aligned to its
element size (at least 4 bytes), so a kernel reads whole words; read()
gives a kernel an element of any packed type from the int8 blob.
"""
import numpy as np

_TYPES = (np.int8, np.int16, np.int32, np.int64, np.float32)


class WeightBlob:
    def __init__(self):
        self._parts = []
        self.size = 0

    def add(self, array):
        """Appends an int8, int16, int32, int64 or float32 array (little-endian);
        returns its byte offset."""
        array = np.ascontiguousarray(array)
        if array.dtype.type not in _TYPES:
            raise TypeError(f"weight blob takes {', '.join(t.__name__ for t in _TYPES)}, "
                            f"not {array.dtype}")
        pad = -self.size % max(4, array.dtype.itemsize)
        if pad:
            self._parts.append(np.zeros(pad, np.int8))
            self.size += pad
        offset = self.size
        data = array.astype(array.dtype.newbyteorder("<")).view(np.int8).ravel()
        self._parts.append(data)
        self.size += data.size
        return offset

    def data(self):
        return np.concatenate(self._parts) if self._parts else np.zeros(1, np.int8)


def read(blob, at, dtype):
    """The `dtype` element at byte offset `at` of the int8 blob placeholder,
    assembled little-endian from its bytes (LLVM makes an aligned run one
    load); float32 is the int32 word reinterpreted."""
    from tvm import tirx as tir
    if dtype == "int8":
        return blob[at]
    width = {"int16": 2, "int32": 4, "float32": 4}[dtype]
    b = [blob[at + i] for i in range(width)]
    word = b[-1].astype("int32") << (8 * (width - 1))
    for i in range(width - 1):
        word = word | (b[i].astype("uint8").astype("int32") << (8 * i))
    if dtype == "float32":
        return tir.reinterpret("float32", word)
    return word.astype(dtype)

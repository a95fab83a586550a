"""A model's constants packed into one int8 tensor.

One tensor constant means one place for the firmware to align (compile.py
pads the executable so that its data starts on a 64-byte boundary in flash)
and no constant is ever copied to RAM. Each part starts 4-byte aligned, so a
kernel's int32 table reads whole words.
"""
import numpy as np


class WeightBlob:
    def __init__(self):
        self._parts = []
        self.size = 0

    def add(self, array):
        """Appends an int8 or int32 array (little-endian); returns its offset."""
        array = np.ascontiguousarray(array)
        if array.dtype not in (np.int8, np.int32):
            raise TypeError(f"weight blob takes int8 or int32, not {array.dtype}")
        pad = -self.size % 4
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

"""tflite_builder.py writes what the schema asks where LiteRT would not
notice otherwise."""
import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator
from tflite_builder import ModelBuilder


def test_model_layout():
    b = ModelBuilder()
    x = b.tensor((1, 8), "int8", "x", scale=0.05, zero_point=0)
    w = b.tensor((3,), "int8", "w", data=[1, 2, 3])
    y = b.tensor((1, 8), "int8", "y", scale=0.05, zero_point=0)
    b.operator("GELU", [x], [y], {"approximate": True})
    buf = b.finish([x], [y])

    assert tflite.Model.ModelBufferHasIdentifier(buf, 0), "no TFL3 identifier"
    model = tflite.Model.GetRootAsModel(buf, 0)
    assert model.Version() == 3
    assert model.SubgraphsLength() == 1
    assert model.Buffers(0).DataLength() == 0, "buffer 0 must be empty"
    # GELU's code is above 127: the old field holds the placeholder.
    code = model.OperatorCodes(0)
    assert code.BuiltinCode() == BuiltinOperator.GELU
    assert code.DeprecatedBuiltinCode() == BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES
    # Constant data aligned as TFLite's converter aligns it.
    data = model.Buffers(model.Subgraphs(0).Tensors(w).Buffer()).DataAsNumpy()
    offset = data.ctypes.data - np.frombuffer(buf, np.uint8).ctypes.data
    assert offset % 16 == 0, f"constant data at offset {offset}, not 16-byte aligned"
    assert np.array_equal(data, [1, 2, 3])

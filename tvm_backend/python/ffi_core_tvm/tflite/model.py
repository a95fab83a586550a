"""A TFLite flatbuffer read once into plain Python objects.

Everything the importer needs is read here, eagerly, so that a truncated or
corrupt file fails in one place with one clear error (UnsupportedModel)
rather than deep inside a lowering. Operator options are decoded later with
the class the operator's lowering names (read_options), still through this
module's guard.
"""
import importlib
import struct

import flatbuffers
import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.TensorType import TensorType


class UnsupportedModel(ValueError):
    """The file is not a model the compile path takes; the message says why."""


OP_NAMES = {v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")}
_TYPE_NAMES = {v: k for k, v in vars(TensorType).items() if not k.startswith("_")}
DTYPES = {TensorType.INT8: "int8", TensorType.INT16: "int16", TensorType.INT32: "int32",
          TensorType.INT64: "int64", TensorType.FLOAT32: "float32", TensorType.BOOL: "bool"}
# Errors the flatbuffers reader raises on bytes that are not what they claim.
_MALFORMED = (struct.error, IndexError, ValueError, TypeError, UnicodeDecodeError, AttributeError)


class Tensor:
    """A tensor of the graph: name, shape, dtype, quantization and constant data."""

    def __init__(self, index, name, shape, dtype, scale, zero_point, axis, data, variable):
        self.index = index
        self.name = name
        self.shape = shape
        self.dtype = dtype
        self.scale = scale
        self.zero_point = zero_point
        self.quant_axis = axis
        self.data = data
        self.is_variable = variable

    @property
    def is_constant(self):
        return self.data is not None

    @property
    def per_channel(self):
        return self.scale is not None and len(self.scale) > 1

    def quant(self):
        """(scale, zero point) of a per-tensor quantized tensor."""
        if self.scale is None or self.zero_point is None:
            raise UnsupportedModel(f"tensor {self.name} is not quantized")
        if self.per_channel:
            raise UnsupportedModel(f"tensor {self.name} has per-channel quantization")
        return float(self.scale[0]), int(self.zero_point[0])


class Operator:
    """One operator: its builtin name, position, tensors and raw options."""

    def __init__(self, index, name, custom_code, inputs, outputs, options_type, options_table,
                 intermediates=()):
        self.index = index
        self.name = name
        self.custom_code = custom_code
        self.inputs = inputs
        self.outputs = outputs
        # Tensors that carry only quantization parameters (the integer LSTM's).
        self.intermediates = list(intermediates)
        self.options_type = options_type
        self.options_table = options_table
        self.options = None  # set by the importer: read_options() with the lowering's class

    def __str__(self):
        return f"operator {self.name} #{self.index}"


class Model:
    def __init__(self, tensors, operators, inputs, outputs):
        self.tensors = tensors
        self.operators = operators
        self.inputs = inputs
        self.outputs = outputs

    @property
    def states(self):
        """The variable tensors an operator reads (the state it keeps between
        calls), in the order the model lists its tensors."""
        used = {t.index for op in self.operators for t in op.inputs if t is not None}
        return [t for t in self.tensors if t is not None and t.is_variable and t.index in used]


def _shape(t):
    return tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()


def _tensor(model, graph, index):
    t = graph.Tensors(index)
    name = (t.Name() or b"").decode() or f"tensor{index}"
    if t.Type() not in DTYPES:
        what = _TYPE_NAMES.get(t.Type(), str(t.Type()))
        raise UnsupportedModel(f"tensor {name}: element type {what} is not supported")
    dtype = DTYPES[t.Type()]
    shape = _shape(t)
    if any(d < 0 for d in shape):
        raise UnsupportedModel(f"tensor {name}: dynamic shape {list(shape)}")
    q = t.Quantization()
    scale = zero_point = None
    axis = 0
    if q is not None and q.ScaleLength():
        scale = q.ScaleAsNumpy().astype("float64")
        zero_point = (q.ZeroPointAsNumpy().astype("int64") if q.ZeroPointLength()
                      else np.zeros(len(scale), "int64"))
        axis = q.QuantizedDimension()
        if len(zero_point) != len(scale):
            raise UnsupportedModel(f"tensor {name}: {len(scale)} scales but "
                                   f"{len(zero_point)} zero points")
        if np.any(scale <= 0) or not np.all(np.isfinite(scale)):
            raise UnsupportedModel(f"tensor {name}: a quantization scale that is not positive")
    data = None
    if t.Buffer() >= model.BuffersLength():
        raise UnsupportedModel(f"tensor {name}: buffer {t.Buffer()} does not exist")
    buf = model.Buffers(t.Buffer())
    if buf is not None and buf.DataLength():
        raw = buf.DataAsNumpy().tobytes()
        count = int(np.prod(shape)) if shape else 1
        if len(raw) != count * np.dtype(dtype).itemsize:
            raise UnsupportedModel(f"tensor {name}: {len(raw)} bytes of data for shape "
                                   f"{list(shape)} of {dtype}")
        data = np.frombuffer(raw, np.dtype(dtype).newbyteorder("<")).astype(dtype).reshape(shape)
    elif buf is not None and buf.Offset() > 1:
        raise UnsupportedModel(f"tensor {name}: data outside the flatbuffer (models over 2 GB)")
    return Tensor(index, name, shape, dtype, scale, zero_point, axis, data, bool(t.IsVariable()))


def _read(buf):
    if len(buf) < 8 or buf[4:8] != b"TFL3":
        raise UnsupportedModel("not a TFLite model (no TFL3 file identifier)")
    model = tflite.Model.GetRootAsModel(buf, 0)
    if model.SubgraphsLength() != 1:
        raise UnsupportedModel(f"{model.SubgraphsLength()} subgraphs: only single-subgraph "
                               "models are supported")
    graph = model.Subgraphs(0)
    tensors = [None] * graph.TensorsLength()

    def tensor(i):
        if i < 0:
            return None
        if i >= len(tensors):
            raise UnsupportedModel(f"tensor index {i} out of range ({len(tensors)} tensors)")
        if tensors[i] is None:
            tensors[i] = _tensor(model, graph, i)
        return tensors[i]

    operators = []
    for k in range(graph.OperatorsLength()):
        op = graph.Operators(k)
        if op.OpcodeIndex() >= model.OperatorCodesLength():
            raise UnsupportedModel(f"operator #{k}: opcode {op.OpcodeIndex()} does not exist")
        code = model.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        name = OP_NAMES.get(builtin, f"builtin {builtin}")
        custom = (code.CustomCode() or b"").decode(errors="replace") if name == "CUSTOM" else None
        ins = [tensor(int(i)) for i in (op.InputsAsNumpy() if op.InputsLength() else [])]
        outs = [tensor(int(i)) for i in (op.OutputsAsNumpy() if op.OutputsLength() else [])]
        if not outs or any(t is None for t in outs):
            raise UnsupportedModel(f"operator {name} #{k}: no output tensor")
        mids = [tensor(int(i)) for i in (op.IntermediatesAsNumpy()
                                         if op.IntermediatesLength() else [])]
        operators.append(Operator(k, name, custom, ins, outs, op.BuiltinOptionsType(),
                                  op.BuiltinOptions(), mids))
    ins = [tensor(int(i)) for i in (graph.InputsAsNumpy() if graph.InputsLength() else [])]
    outs = [tensor(int(i)) for i in (graph.OutputsAsNumpy() if graph.OutputsLength() else [])]
    if not outs or any(t is None for t in ins + outs):
        raise UnsupportedModel("the graph declares no outputs, or a missing input or output")
    return Model(tensors, operators, ins, outs)


def read_model(buf):
    """The Model in `buf` (bytes), or UnsupportedModel saying what is wrong."""
    try:
        return _read(bytes(buf))
    except UnsupportedModel:
        raise
    except _MALFORMED as e:
        raise UnsupportedModel(f"malformed TFLite file ({type(e).__name__}: {e})") from None


class Options:
    """An operator's options as plain attributes, named as TFLite's schema
    names them (StrideW, FusedActivationFunction, ...). An operator written
    without its options table reads the schema's defaults."""

    def __init__(self, values):
        self.__dict__.update(values)


def _getters(cls):
    skip = ("Init",)
    for name in dir(cls):
        if name.startswith("_") or name in skip or name.startswith("GetRootAs") or \
                name.endswith(("Length", "IsNone", "BufferHasIdentifier")):
            continue
        fn = getattr(cls, name)
        if callable(fn) and fn.__code__.co_argcount == 1:
            yield name


def read_options(op, cls):
    """op's options decoded with `cls` (a tflite.*Options class)."""
    module = importlib.import_module(cls.__module__)
    table = op.options_table
    expected = getattr(BuiltinOptions, cls.__name__)
    if op.options_type not in (0, expected):
        raise UnsupportedModel(f"{op}: options of union type {op.options_type}, not "
                               f"{cls.__name__}")
    try:
        if table is None or op.options_type == 0:
            b = flatbuffers.Builder(0)
            module.Start(b)
            b.Finish(module.End(b))
            root = b.Output()
            opts = cls()
            opts.Init(root, flatbuffers.util.Get(flatbuffers.packer.uoffset, root, 0))
        else:
            opts = cls()
            opts.Init(table.Bytes, table.Pos)
        values = {}
        for name in _getters(cls):
            value = getattr(opts, name)()
            values[name[:-len("AsNumpy")] if name.endswith("AsNumpy") else name] = value
        return Options(values)
    except _MALFORMED as e:
        raise UnsupportedModel(f"{op}: malformed options ({type(e).__name__}: {e})") from None

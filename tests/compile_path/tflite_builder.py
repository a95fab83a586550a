"""Small TFLite models written at test time, without TensorFlow.

The flatbuffer is written with the generated builder functions of the
`tflite` package and `flatbuffers.Builder`:

    b = ModelBuilder()
    x = b.tensor((1, 8), "int8", "x", scale=0.05, zero_point=-3)
    y = b.tensor((1, 8), "int8", "y", scale=1 / 256, zero_point=-128)
    b.operator("SOFTMAX", [x], [y], {"beta": 1.0})
    buf = b.finish([x], [y])

An operator's options are a dict of its options table's fields in snake case
(`stride_w` for StrideW); strings name enum values (padding "SAME",
fused_activation_function "RELU6") and lists become int32 vectors
(ReshapeOptions' new_shape). The table follows from the operator (_OPTIONS):
another operator's options need one line there.

conv_model, fully_connected_model and pool_model write the one-operator
models of the convolution, dense and pooling cases, whatever their types:
the caller writes the tensors, they the geometry and the options.
"""
from types import SimpleNamespace

import flatbuffers
import numpy as np
import tflite
from tflite.ActivationFunctionType import ActivationFunctionType
from tflite.BuiltinOperator import BuiltinOperator
from tflite.BuiltinOptions import BuiltinOptions
from tflite.Padding import Padding
from tflite.TensorType import TensorType

# Operator -> its table in the BuiltinOptions union.
_OPTIONS = {
    "CONV_2D": "Conv2DOptions",
    "DEPTHWISE_CONV_2D": "DepthwiseConv2DOptions",
    "FULLY_CONNECTED": "FullyConnectedOptions",
    "AVERAGE_POOL_2D": "Pool2DOptions",
    "MAX_POOL_2D": "Pool2DOptions",
    "ADD": "AddOptions",
    "SUB": "SubOptions",
    "MUL": "MulOptions",
    "SOFTMAX": "SoftmaxOptions",
    "RESHAPE": "ReshapeOptions",
    "CONCATENATION": "ConcatenationOptions",
    "TRANSPOSE": "TransposeOptions",
    "SQUEEZE": "SqueezeOptions",
    "PACK": "PackOptions",
    "UNPACK": "UnpackOptions",
    "SPLIT": "SplitOptions",
    "SPLIT_V": "SplitVOptions",
    "STRIDED_SLICE": "StridedSliceOptions",
    "GATHER": "GatherOptions",
    "SPACE_TO_DEPTH": "SpaceToDepthOptions",
    "DEPTH_TO_SPACE": "DepthToSpaceOptions",
    "RESIZE_NEAREST_NEIGHBOR": "ResizeNearestNeighborOptions",
    "RESIZE_BILINEAR": "ResizeBilinearOptions",
    "TRANSPOSE_CONV": "TransposeConvOptions",
    "GELU": "GeluOptions",
    "LEAKY_RELU": "LeakyReluOptions",
    "MEAN": "ReducerOptions",
    "SUM": "ReducerOptions",
    "REDUCE_MAX": "ReducerOptions",
    "ARG_MAX": "ArgMaxOptions",
}
# Option fields whose values may be given by an enum value's name.
_ENUMS = {"padding": Padding, "fused_activation_function": ActivationFunctionType,
          "quantized_bias_type": TensorType}
_TYPES = {"int8": TensorType.INT8, "int16": TensorType.INT16, "int32": TensorType.INT32,
          "int64": TensorType.INT64, "float32": TensorType.FLOAT32}
# TFLite's converter aligns constant data this way; kernels may rely on it.
_DATA_ALIGNMENT = 16
_SCHEMA_VERSION = 3
# Codes from 127 on do not fit the old int8 field, which then holds this
# placeholder (schema.fbs).
_PLACEHOLDER = BuiltinOperator.PLACEHOLDER_FOR_GREATER_OP_CODES


def _camel(snake):
    return "".join(part.capitalize() for part in snake.split("_"))


def _table(fb, table, fields):
    """A flatbuffer table from the generated functions <table>Start,
    <table>Add<Field> and <table>End; `fields` (CamelCase -> value, None
    left out) hold scalars and offsets already written (vectors, strings and
    tables cannot be written inside a table)."""
    getattr(tflite, table + "Start")(fb)
    for field, value in fields.items():
        if value is None:
            continue
        add = getattr(tflite, f"{table}Add{field}", None)
        if add is None:
            raise ValueError(f"{table} has no field {field}")
        add(fb, value)
    return getattr(tflite, table + "End")(fb)


class ModelBuilder:
    """One subgraph of tensors and operators, written by finish()."""

    def __init__(self):
        self.tensors = []
        self.operators = []
        self.opcodes = []  # (builtin code, custom code, version)
        self.buffers = [b""]  # buffer 0: empty, for tensors without data

    def tensor(self, shape, dtype, name=None, scale=None, zero_point=None, quant_axis=0,
               data=None, is_variable=False):
        """Adds a tensor and returns its index. `scale` and `zero_point` may be
        per-channel arrays along `quant_axis`; `data` makes it a constant."""
        if dtype not in _TYPES:
            raise ValueError(f"dtype {dtype} is not one of {sorted(_TYPES)}")
        shape = tuple(int(d) for d in shape)
        buffer = 0
        if data is not None:
            data = np.asarray(data, dtype)
            if data.shape != shape:
                raise ValueError(f"tensor {name}: data of shape {data.shape} for shape {shape}")
            buffer = len(self.buffers)
            self.buffers.append(data.tobytes())
        if scale is not None:
            scale = np.atleast_1d(np.asarray(scale, np.float32))
            zero_point = np.broadcast_to(np.asarray(0 if zero_point is None else zero_point,
                                                    np.int64), scale.shape).copy()
        index = len(self.tensors)
        self.tensors.append(SimpleNamespace(
            shape=shape, dtype=dtype, name=name or f"t{index}", scale=scale,
            zero_point=zero_point, quant_axis=quant_axis, buffer=buffer, is_variable=is_variable))
        return index

    def operator(self, op, inputs, outputs, options=None, custom_code=None, version=1,
                 intermediates=()):
        """Adds an operator: `op` is a BuiltinOperator name ("CONV_2D",
        "CUSTOM" with custom_code), inputs and outputs tensor indices (-1 for
        an optional input left out), options a dict (see the module's doc),
        intermediates the tensors that carry only quantization (the integer
        LSTM's)."""
        code = getattr(BuiltinOperator, op)
        if (code == BuiltinOperator.CUSTOM) != (custom_code is not None):
            raise ValueError("custom_code goes with CUSTOM, and only with it")
        table = _OPTIONS.get(op)
        if options and table is None:
            raise ValueError(f"no options table known for {op}: add it to _OPTIONS")
        key = (code, custom_code, version)
        if key not in self.opcodes:
            self.opcodes.append(key)
        self.operators.append(SimpleNamespace(
            opcode=self.opcodes.index(key), inputs=list(inputs), outputs=list(outputs),
            options_table=table, options=dict(options or {}), intermediates=list(intermediates)))

    def finish(self, inputs, outputs):
        """The model's flatbuffer ("TFL3"), with `inputs` and `outputs` as
        the subgraph's inputs and outputs."""
        fb = flatbuffers.Builder(1024)
        opcodes = [self._opcode(fb, *key) for key in self.opcodes]
        buffers = [self._buffer(fb, data) for data in self.buffers]
        tensors = [self._tensor(fb, t) for t in self.tensors]
        operators = [self._operator(fb, op) for op in self.operators]

        subgraph = _table(fb, "SubGraph", {
            "Tensors": self._offsets(fb, tflite.SubGraphStartTensorsVector, tensors),
            "Inputs": fb.CreateNumpyVector(np.asarray(inputs, np.int32)),
            "Outputs": fb.CreateNumpyVector(np.asarray(outputs, np.int32)),
            "Operators": self._offsets(fb, tflite.SubGraphStartOperatorsVector, operators),
            "Name": fb.CreateString("main")})
        model = _table(fb, "Model", {
            "Version": _SCHEMA_VERSION,
            "OperatorCodes": self._offsets(fb, tflite.ModelStartOperatorCodesVector, opcodes),
            "Subgraphs": self._offsets(fb, tflite.ModelStartSubgraphsVector, [subgraph]),
            "Description": fb.CreateString("ffi-core compile path test"),
            "Buffers": self._offsets(fb, tflite.ModelStartBuffersVector, buffers)})
        fb.Finish(model, file_identifier=b"TFL3")
        return bytes(fb.Output())

    @staticmethod
    def _offsets(fb, start, offsets):
        """A vector of tables; flatbuffers are written back to front."""
        start(fb, len(offsets))
        for off in reversed(offsets):
            fb.PrependUOffsetTRelative(off)
        return fb.EndVector()

    @staticmethod
    def _opcode(fb, code, custom_code, version):
        return _table(fb, "OperatorCode", {
            "CustomCode": fb.CreateString(custom_code) if custom_code is not None else None,
            "DeprecatedBuiltinCode": min(code, _PLACEHOLDER),
            "BuiltinCode": code,
            "Version": version})

    @staticmethod
    def _buffer(fb, data):
        vector = None
        if data:
            fb.StartVector(1, len(data), _DATA_ALIGNMENT)
            fb.head -= len(data)
            fb.Bytes[fb.head:fb.head + len(data)] = data
            vector = fb.EndVector()
        return _table(fb, "Buffer", {"Data": vector})

    @staticmethod
    def _tensor(fb, t):
        quant = None
        if t.scale is not None:
            quant = _table(fb, "QuantizationParameters", {
                "Scale": fb.CreateNumpyVector(t.scale),
                "ZeroPoint": fb.CreateNumpyVector(t.zero_point),
                "QuantizedDimension": t.quant_axis})
        return _table(fb, "Tensor", {
            "Shape": fb.CreateNumpyVector(np.asarray(t.shape, np.int32)),
            "Type": _TYPES[t.dtype],
            "Buffer": t.buffer,
            "Name": fb.CreateString(t.name),
            "Quantization": quant,
            "IsVariable": t.is_variable})

    @staticmethod
    def _options(fb, table, fields):
        """An options table: enum names to their values, lists to int32
        vectors, snake-case fields to the table's."""
        values = {}
        for field, value in fields.items():
            if isinstance(value, str):
                if field not in _ENUMS:
                    raise ValueError(f"{table}.{field}: no enum known for the name {value!r}")
                value = getattr(_ENUMS[field], value)
            elif isinstance(value, (list, tuple, np.ndarray)):
                value = fb.CreateNumpyVector(np.asarray(value, np.int32))
            values[_camel(field)] = value
        return _table(fb, table, values)

    def _operator(self, fb, op):
        options = self._options(fb, op.options_table, op.options) if op.options_table else None
        return _table(fb, "Operator", {
            "OpcodeIndex": op.opcode,
            "Inputs": fb.CreateNumpyVector(np.asarray(op.inputs, np.int32)),
            "Outputs": fb.CreateNumpyVector(np.asarray(op.outputs, np.int32)),
            "Intermediates": fb.CreateNumpyVector(np.asarray(op.intermediates, np.int32))
            if op.intermediates else None,
            "BuiltinOptionsType": getattr(BuiltinOptions, op.options_table)
            if options is not None else None,
            "BuiltinOptions": options})


def out_size(size, kernel, stride, dilation, padding):
    """A convolution's or pool's output size along one axis, as TFLite's."""
    if padding == "SAME":
        return -(-size // stride)
    return (size - (kernel - 1) * dilation - 1) // stride + 1


def int8_weights(b, rng, shape, axis, per_channel, scale, name="w"):
    """Symmetric int8 weights (zero point 0, as TFLite requires), per channel
    along `axis` (scales spread around `scale`) or per tensor; returns
    (tensor, scales per channel)."""
    channels = shape[axis]
    scales = scale * (rng.uniform(0.5, 1.5, channels) if per_channel else np.ones(channels))
    data = rng.integers(-127, 127, size=shape, endpoint=True, dtype=np.int8)
    t = b.tensor(shape, "int8", name, scale=scales if per_channel else scale, zero_point=0,
                 quant_axis=axis, data=data)
    return t, scales


def conv_model(tensors, depthwise=False, in_shape=(1, 7, 7, 3), channels=4, kernel=(3, 3),
               stride=1, dilation=1, padding="SAME", act="NONE", options=None):
    """A CONV_2D (channels: output channels) or DEPTHWISE_CONV_2D (channels:
    the depth multiplier) model; stride: one for both axes, or (h, w).
    tensors(b, in_shape, w_shape, w_axis, out_shape) writes the tensors and
    returns (input, operator inputs, output); w_axis is the weights' output
    channel axis; `options`: more of the operator's options."""
    n, h, w, ci = in_shape
    co = ci * channels if depthwise else channels
    sh, sw = stride if isinstance(stride, tuple) else (stride, stride)
    out_shape = (n, out_size(h, kernel[0], sh, dilation, padding),
                 out_size(w, kernel[1], sw, dilation, padding), co)
    w_shape, w_axis = ((1, *kernel, co), 3) if depthwise else ((co, *kernel, ci), 0)
    b = ModelBuilder()
    x, inputs, y = tensors(b, in_shape, w_shape, w_axis, out_shape)
    fields = {"padding": padding, "stride_h": sh, "stride_w": sw,
              "dilation_h_factor": dilation, "dilation_w_factor": dilation,
              "fused_activation_function": act, **(options or {})}
    if depthwise:
        fields["depth_multiplier"] = channels
    b.operator("DEPTHWISE_CONV_2D" if depthwise else "CONV_2D", inputs, [y], fields)
    return b.finish([x], [y])


def fully_connected_model(tensors, in_shape=(3, 16), units=8, act="NONE",
                          keep_num_dims=False, options=None):
    """A FULLY_CONNECTED model: tensors as conv_model's, its weights OI
    (w_axis 0)."""
    features = in_shape[-1]
    batch = int(np.prod(in_shape)) // features
    out_shape = (*in_shape[:-1], units) if keep_num_dims else (batch, units)
    b = ModelBuilder()
    x, inputs, y = tensors(b, in_shape, (units, features), 0, out_shape)
    b.operator("FULLY_CONNECTED", inputs, [y], {"fused_activation_function": act,
                                                "keep_num_dims": keep_num_dims,
                                                **(options or {})})
    return b.finish([x], [y])


def pool_model(op, dtype, quant=(None, None), in_shape=(1, 9, 9, 4), window=(3, 3), stride=2,
               padding="SAME", act="NONE"):
    """An AVERAGE_POOL_2D or MAX_POOL_2D model whose input and output share
    `quant` (scale, zero point), as TFLite's pools keep it."""
    n, h, w, c = in_shape
    out_shape = (n, out_size(h, window[0], stride, 1, padding),
                 out_size(w, window[1], stride, 1, padding), c)
    b = ModelBuilder()
    x = b.tensor(in_shape, dtype, "x", scale=quant[0], zero_point=quant[1])
    y = b.tensor(out_shape, dtype, "y", scale=quant[0], zero_point=quant[1])
    b.operator(op, [x], [y], {"padding": padding, "stride_h": stride, "stride_w": stride,
                              "filter_height": window[0], "filter_width": window[1],
                              "fused_activation_function": act})
    return b.finish([x], [y])

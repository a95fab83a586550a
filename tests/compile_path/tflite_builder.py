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
"""
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


class _Tensor:
    def __init__(self, shape, dtype, name, scale, zero_point, quant_axis, buffer, is_variable):
        self.shape = shape
        self.dtype = dtype
        self.name = name
        self.scale = scale
        self.zero_point = zero_point
        self.quant_axis = quant_axis
        self.buffer = buffer
        self.is_variable = is_variable


class _Operator:
    def __init__(self, opcode, inputs, outputs, options_table, options, intermediates):
        self.opcode = opcode
        self.inputs = inputs
        self.outputs = outputs
        self.intermediates = intermediates
        self.options_table = options_table
        self.options = options


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
        self.tensors.append(_Tensor(shape, dtype, name or f"t{index}", scale, zero_point,
                                    quant_axis, buffer, is_variable))
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
        self.operators.append(_Operator(self.opcodes.index(key), list(inputs), list(outputs),
                                        table, dict(options or {}), list(intermediates)))

    def finish(self, inputs, outputs):
        """The model's flatbuffer ("TFL3"), with `inputs` and `outputs` as
        the subgraph's inputs and outputs."""
        fb = flatbuffers.Builder(1024)
        opcodes = [self._opcode(fb, *key) for key in self.opcodes]
        buffers = [self._buffer(fb, data) for data in self.buffers]
        tensors = [self._tensor(fb, t) for t in self.tensors]
        operators = [self._operator(fb, op) for op in self.operators]

        subgraph_tensors = self._offsets(fb, tflite.SubGraphStartTensorsVector, tensors)
        subgraph_ops = self._offsets(fb, tflite.SubGraphStartOperatorsVector, operators)
        subgraph_inputs = fb.CreateNumpyVector(np.asarray(inputs, np.int32))
        subgraph_outputs = fb.CreateNumpyVector(np.asarray(outputs, np.int32))
        name = fb.CreateString("main")
        tflite.SubGraphStart(fb)
        tflite.SubGraphAddTensors(fb, subgraph_tensors)
        tflite.SubGraphAddInputs(fb, subgraph_inputs)
        tflite.SubGraphAddOutputs(fb, subgraph_outputs)
        tflite.SubGraphAddOperators(fb, subgraph_ops)
        tflite.SubGraphAddName(fb, name)
        subgraph = tflite.SubGraphEnd(fb)

        model_opcodes = self._offsets(fb, tflite.ModelStartOperatorCodesVector, opcodes)
        model_subgraphs = self._offsets(fb, tflite.ModelStartSubgraphsVector, [subgraph])
        model_buffers = self._offsets(fb, tflite.ModelStartBuffersVector, buffers)
        description = fb.CreateString("ffi-core compile path test")
        tflite.ModelStart(fb)
        tflite.ModelAddVersion(fb, _SCHEMA_VERSION)
        tflite.ModelAddOperatorCodes(fb, model_opcodes)
        tflite.ModelAddSubgraphs(fb, model_subgraphs)
        tflite.ModelAddDescription(fb, description)
        tflite.ModelAddBuffers(fb, model_buffers)
        fb.Finish(tflite.ModelEnd(fb), file_identifier=b"TFL3")
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
        custom = fb.CreateString(custom_code) if custom_code is not None else None
        tflite.OperatorCodeStart(fb)
        tflite.OperatorCodeAddDeprecatedBuiltinCode(fb, min(code, _PLACEHOLDER))
        tflite.OperatorCodeAddBuiltinCode(fb, code)
        tflite.OperatorCodeAddVersion(fb, version)
        if custom is not None:
            tflite.OperatorCodeAddCustomCode(fb, custom)
        return tflite.OperatorCodeEnd(fb)

    @staticmethod
    def _buffer(fb, data):
        vector = None
        if data:
            fb.StartVector(1, len(data), _DATA_ALIGNMENT)
            fb.head -= len(data)
            fb.Bytes[fb.head:fb.head + len(data)] = data
            vector = fb.EndVector()
        tflite.BufferStart(fb)
        if vector is not None:
            tflite.BufferAddData(fb, vector)
        return tflite.BufferEnd(fb)

    @staticmethod
    def _tensor(fb, t):
        quant = None
        if t.scale is not None:
            scale = fb.CreateNumpyVector(t.scale)
            zero_point = fb.CreateNumpyVector(t.zero_point)
            tflite.QuantizationParametersStart(fb)
            tflite.QuantizationParametersAddScale(fb, scale)
            tflite.QuantizationParametersAddZeroPoint(fb, zero_point)
            tflite.QuantizationParametersAddQuantizedDimension(fb, t.quant_axis)
            quant = tflite.QuantizationParametersEnd(fb)
        shape = fb.CreateNumpyVector(np.asarray(t.shape, np.int32))
        name = fb.CreateString(t.name)
        tflite.TensorStart(fb)
        tflite.TensorAddShape(fb, shape)
        tflite.TensorAddType(fb, _TYPES[t.dtype])
        tflite.TensorAddBuffer(fb, t.buffer)
        tflite.TensorAddName(fb, name)
        if quant is not None:
            tflite.TensorAddQuantization(fb, quant)
        tflite.TensorAddIsVariable(fb, t.is_variable)
        return tflite.TensorEnd(fb)

    @staticmethod
    def _options(fb, table, fields):
        """An options table from its generated <table>Start/Add<Field>/End
        functions; vectors are written before the table starts."""
        values = {}
        for field, value in fields.items():
            if isinstance(value, str):
                if field not in _ENUMS:
                    raise ValueError(f"{table}.{field}: no enum known for the name {value!r}")
                value = getattr(_ENUMS[field], value)
            elif isinstance(value, (list, tuple, np.ndarray)):
                value = fb.CreateNumpyVector(np.asarray(value, np.int32))
            values[field] = value
        getattr(tflite, table + "Start")(fb)
        for field, value in values.items():
            add = getattr(tflite, f"{table}Add{_camel(field)}", None)
            if add is None:
                raise ValueError(f"{table} has no field {field}")
            add(fb, value)
        return getattr(tflite, table + "End")(fb)

    def _operator(self, fb, op):
        options = self._options(fb, op.options_table, op.options) if op.options_table else None
        inputs = fb.CreateNumpyVector(np.asarray(op.inputs, np.int32))
        outputs = fb.CreateNumpyVector(np.asarray(op.outputs, np.int32))
        mids = fb.CreateNumpyVector(np.asarray(op.intermediates, np.int32)) \
            if op.intermediates else None
        tflite.OperatorStart(fb)
        tflite.OperatorAddOpcodeIndex(fb, op.opcode)
        tflite.OperatorAddInputs(fb, inputs)
        tflite.OperatorAddOutputs(fb, outputs)
        if mids is not None:
            tflite.OperatorAddIntermediates(fb, mids)
        if options is not None:
            tflite.OperatorAddBuiltinOptionsType(fb, getattr(BuiltinOptions, op.options_table))
            tflite.OperatorAddBuiltinOptions(fb, options)
        return tflite.OperatorEnd(fb)

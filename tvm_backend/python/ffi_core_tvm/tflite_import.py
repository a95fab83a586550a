"""A TFLite int8 model as a Relax module of integer kernels (int8_kernels.py).

TVM's own TFLite frontend lowers each quantized operator as dequantize, a
float32 operator, then quantize; this importer keeps TFLite's integer
arithmetic instead: int8 activations and weights, int32 accumulation,
fixed-point requantization, the weights as int8 constants. It covers the
operators of MLPerf Tiny's four models and refuses any other by name.
"""
import numpy as np
import tflite
from tflite.AddOptions import AddOptions
from tflite.BuiltinOperator import BuiltinOperator
from tflite.Conv2DOptions import Conv2DOptions
from tflite.DepthwiseConv2DOptions import DepthwiseConv2DOptions
from tflite.FullyConnectedOptions import FullyConnectedOptions
from tflite.Pool2DOptions import Pool2DOptions
from tflite.SoftmaxOptions import SoftmaxOptions
from tflite.TensorType import TensorType
from tvm import relax

from . import int8_kernels as kernels
from .fixed_point import quantize_multiplier
from .weight_blob import WeightBlob

_OP_NAMES = {v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")}
_DTYPES = {TensorType.INT8: "int8", TensorType.INT32: "int32", TensorType.FLOAT32: "float32"}
_SAME, _VALID = 0, 1
_NONE, _RELU, _RELU_N1_TO_1, _RELU6 = 0, 1, 2, 3


class UnsupportedModel(ValueError):
    """The model uses something the integer importer does not cover."""


def _options(op, cls):
    table = op.BuiltinOptions()
    opts = cls()
    opts.Init(table.Bytes, table.Pos)
    return opts


def _same_padding(size, kernel, stride, dilation):
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return out, total // 2


def _valid_out(size, kernel, stride, dilation):
    return (size - (kernel - 1) * dilation - 1) // stride + 1


class _Tensor:
    def __init__(self, model, graph, index):
        t = graph.Tensors(index)
        self.index = index
        self.name = t.Name().decode()
        self.shape = tuple(int(d) for d in t.ShapeAsNumpy()) if t.ShapeLength() else ()
        if t.Type() not in _DTYPES:
            raise UnsupportedModel(f"tensor {self.name}: element type {t.Type()} is not int8, "
                                   "int32 or float32")
        self.dtype = _DTYPES[t.Type()]
        q = t.Quantization()
        self.scale = q.ScaleAsNumpy() if q is not None and q.ScaleLength() else None
        self.zero_point = q.ZeroPointAsNumpy() if q is not None and q.ZeroPointLength() else None
        buf = model.Buffers(t.Buffer())
        data = buf.DataAsNumpy() if buf is not None and buf.DataLength() else None
        self.data = (np.frombuffer(data.tobytes(), self.dtype).reshape(self.shape)
                     if data is not None else None)

    def quant(self):
        if self.scale is None or self.zero_point is None:
            raise UnsupportedModel(f"tensor {self.name} is not quantized")
        if len(self.scale) != 1:
            raise UnsupportedModel(f"activation {self.name} has per-channel quantization")
        return float(self.scale[0]), int(self.zero_point[0])


def _activation_range(act, scale, zp, name):
    def q(v):
        return zp + int(round(v / scale))
    if act == _NONE:
        return -128, 127
    if act == _RELU:
        return max(-128, q(0.0)), 127
    if act == _RELU6:
        return max(-128, q(0.0)), min(127, q(6.0))
    if act == _RELU_N1_TO_1:
        return max(-128, q(-1.0)), min(127, q(1.0))
    raise UnsupportedModel(f"{name}: fused activation {act}")


def _requant_table(bias, weights, channel_axis, in_zp, in_scale, w_scales, out_scale):
    """q[C, 3] per output channel: the bias with the input zero point's share
    folded in (bias - in_zp * sum(w)), mantissa, right shift."""
    w = np.moveaxis(weights.astype("int64"), channel_axis, 0)
    channels = w.shape[0]
    w_scales = np.broadcast_to(np.asarray(w_scales, "float64"), (channels,))
    folded = (bias.astype("int64") if bias is not None else 0) - in_zp * w.reshape(channels, -1).sum(1)
    if np.any(np.abs(folded) >= 1 << 31):
        raise UnsupportedModel("a bias with the zero point folded in overflows int32")
    table = np.zeros((channels, 3), "int32")
    table[:, 0] = folded
    for c in range(channels):
        table[c, 1:] = quantize_multiplier(in_scale * float(w_scales[c]) / out_scale)
    return table


class _Importer:
    """Walks the graph twice: the first walk only packs the constants (no
    kernels), the second builds the module around the finished blob."""

    def __init__(self, buf, blob=None):
        self.model = tflite.Model.GetRootAsModel(buf, 0)
        if self.model.SubgraphsLength() != 1:
            raise UnsupportedModel("only single-subgraph models are supported")
        self.graph = self.model.Subgraphs(0)
        self.bb = relax.BlockBuilder()
        self.values = {}
        self.funcs = {}
        self.packer = WeightBlob()
        self.blob = blob
        self.blob_const = relax.const(blob) if blob is not None else None

    def tensor(self, index):
        return _Tensor(self.model, self.graph, index)

    def kernel(self, key, make):
        """One PrimFunc per distinct operator configuration."""
        if self.blob is None:
            return None
        if key not in self.funcs:
            name = f"{key[0]}{len(self.funcs)}"
            self.funcs[key] = self.bb.add_func(make().with_attr("global_symbol", name), name)
        return self.funcs[key]

    def constants(self, weights, table):
        """The Slice of the blob holding an operator's weights and table."""
        w_off = self.packer.add(weights)
        q_off = self.packer.add(table)
        size = self.blob.size if self.blob is not None else 1
        return kernels.Slice(size, w_off, q_off)

    def call(self, gv, args, out):
        if self.blob is None:
            return relax.Var("dry", relax.TensorType(shape=out.shape, dtype="int8"))
        return self.bb.emit(relax.call_tir(gv, args, relax.TensorType(shape=out.shape, dtype="int8")))

    def run(self):
        g = self.graph
        inputs = [self.tensor(i) for i in g.InputsAsNumpy()]
        params = []
        for t in inputs:
            if t.dtype != "int8":
                raise UnsupportedModel(f"input {t.name} is {t.dtype}, not int8")
            v = relax.Var(_ident(t.name), relax.TensorType(shape=t.shape, dtype="int8"))
            self.values[t.index] = v
            params.append(v)
        if self.blob is None:
            for i in range(g.OperatorsLength()):
                self.operator(g.Operators(i))
            return None
        with self.bb.function("main", params):
            with self.bb.dataflow():
                for i in range(g.OperatorsLength()):
                    self.operator(g.Operators(i))
                outs = [self.values[i] for i in g.OutputsAsNumpy()]
                result = self.bb.emit_output(outs[0] if len(outs) == 1 else relax.Tuple(outs))
            self.bb.emit_func_output(result)
        outputs = [self.tensor(i) for i in g.OutputsAsNumpy()]
        return self.bb.get(), inputs, outputs

    def operator(self, op):
        code = self.model.OperatorCodes(op.OpcodeIndex())
        name = _OP_NAMES.get(max(code.BuiltinCode(), code.DeprecatedBuiltinCode()), "?")
        ins = [self.tensor(i) if i >= 0 else None for i in op.InputsAsNumpy()]
        out = self.tensor(op.OutputsAsNumpy()[0])
        handler = getattr(self, "op_" + name.lower(), None)
        if handler is None:
            raise UnsupportedModel(f"operator {name} is not supported by the integer importer")
        for t in ins + [out]:
            if t is not None and t.data is None and t.dtype != "int8":
                raise UnsupportedModel(f"{name}: activation {t.name} is {t.dtype}, not int8")
        self.values[out.index] = handler(op, ins, out)

    def _conv_common(self, op, ins, out, opts, depthwise):
        x, w, b = ins[0], ins[1], ins[2] if len(ins) > 2 else None
        in_scale, in_zp = x.quant()
        out_scale, out_zp = out.quant()
        act = _activation_range(opts.FusedActivationFunction(), out_scale, out_zp, out.name)
        stride = (opts.StrideH(), opts.StrideW())
        dilation = (opts.DilationHFactor(), opts.DilationWFactor())
        kh, kw = w.shape[1], w.shape[2]
        if opts.Padding() == _SAME:
            _, pt = _same_padding(x.shape[1], kh, stride[0], dilation[0])
            _, pl = _same_padding(x.shape[2], kw, stride[1], dilation[1])
        else:
            pt = pl = 0
        channels = out.shape[3]
        q = _requant_table(b.data if b is not None else None, w.data, 3 if depthwise else 0,
                           in_zp, in_scale, w.scale, out_scale)
        if q.shape[0] != channels:
            raise UnsupportedModel(f"{out.name}: {q.shape[0]} filters for {channels} channels")
        make = kernels.depthwise_conv2d if depthwise else kernels.conv2d
        s = self.constants(w.data, q)
        key = ("dwconv" if depthwise else "conv", s.weights_offset)
        gv = self.kernel(key, lambda: make(s, x.shape, w.shape, out.shape, stride, dilation,
                                           (pt, pl), in_zp, out_zp, act))
        return self.call(gv, [self.values[x.index], self.blob_const], out)

    def op_conv_2d(self, op, ins, out):
        return self._conv_common(op, ins, out, _options(op, Conv2DOptions), False)

    def op_depthwise_conv_2d(self, op, ins, out):
        return self._conv_common(op, ins, out, _options(op, DepthwiseConv2DOptions), True)

    def op_fully_connected(self, op, ins, out):
        opts = _options(op, FullyConnectedOptions)
        x, w, b = ins[0], ins[1], ins[2] if len(ins) > 2 else None
        in_scale, in_zp = x.quant()
        out_scale, out_zp = out.quant()
        if w.zero_point is not None and np.any(w.zero_point != 0):
            raise UnsupportedModel(f"{out.name}: fully connected weights with a zero point")
        act = _activation_range(opts.FusedActivationFunction(), out_scale, out_zp, out.name)
        features = w.shape[1]
        batch = int(np.prod(x.shape)) // features
        q = _requant_table(b.data if b is not None else None, w.data, 0, in_zp, in_scale,
                           w.scale, out_scale)
        value = self.reshape(self.values[x.index], x.shape, (batch, features))
        s = self.constants(w.data, q)
        gv = self.kernel(("dense", s.weights_offset), lambda: kernels.fully_connected(
            s, batch, features, w.shape[0], in_zp, out_zp, act))
        y = self.call(gv, [value, self.blob_const], _Shape((batch, w.shape[0])))
        return self.reshape(y, (batch, w.shape[0]), out.shape)

    def op_average_pool_2d(self, op, ins, out):
        opts = _options(op, Pool2DOptions)
        x = ins[0]
        if x.quant() != out.quant():
            raise UnsupportedModel(f"{out.name}: average pool that changes quantization")
        scale, zp = out.quant()
        act = _activation_range(opts.FusedActivationFunction(), scale, zp, out.name)
        window = (opts.FilterHeight(), opts.FilterWidth())
        stride = (opts.StrideH(), opts.StrideW())
        if opts.Padding() == _SAME:
            pad = (_same_padding(x.shape[1], window[0], stride[0], 1)[1],
                   _same_padding(x.shape[2], window[1], stride[1], 1)[1])
        else:
            pad = (0, 0)
        key = ("avgpool", x.shape, out.shape, window, stride, pad, act)
        gv = self.kernel(key, lambda: kernels.average_pool2d(x.shape, out.shape, window, stride,
                                                             pad, act))
        return self.call(gv, [self.values[x.index]], out)

    def op_add(self, op, ins, out):
        opts = _options(op, AddOptions)
        a, b = ins
        if a.shape != b.shape or a.data is not None or b.data is not None:
            raise UnsupportedModel(f"{out.name}: ADD supports two activations of one shape")
        (s1, z1), (s2, z2), (so, zo) = a.quant(), b.quant(), out.quant()
        left_shift = 20
        twice_max = 2.0 * max(s1, s2)

        m1 = quantize_multiplier(s1 / twice_max)
        m2 = quantize_multiplier(s2 / twice_max)
        mo = quantize_multiplier(twice_max / ((1 << left_shift) * so))
        act = _activation_range(opts.FusedActivationFunction(), so, zo, out.name)
        key = ("add", a.shape, z1, z2, zo, m1, m2, mo, act)
        gv = self.kernel(key, lambda: kernels.add(a.shape, z1, z2, zo, m1, m2, mo, act,
                                                  left_shift))
        return self.call(gv, [self.values[a.index], self.values[b.index]], out)

    def reshape(self, value, shape, new_shape):
        if self.blob is None or tuple(shape) == tuple(new_shape):
            return value
        return self.bb.emit(relax.op.reshape(value, new_shape))

    def op_reshape(self, op, ins, out):
        return self.reshape(self.values[ins[0].index], ins[0].shape, out.shape)

    def op_softmax(self, op, ins, out):
        beta = _options(op, SoftmaxOptions).Beta()
        x = ins[0]
        in_scale, in_zp = x.quant()
        out_scale, out_zp = out.quant()
        n = x.shape[-1]
        batch = int(np.prod(x.shape)) // n
        value = self.reshape(self.values[x.index], x.shape, (batch, n))
        key = ("softmax", batch, n, in_scale, in_zp, beta, out_scale, out_zp)
        gv = self.kernel(key, lambda: kernels.softmax(batch, n, in_scale, beta, out_scale,
                                                      out_zp))
        y = self.call(gv, [value], _Shape((batch, n)))
        return self.reshape(y, (batch, n), out.shape)


class _Shape:
    def __init__(self, shape):
        self.shape = shape


def _ident(name):
    s = "".join(c if c.isalnum() else "_" for c in name)
    return s if s and not s[0].isdigit() else "x_" + s


def from_tflite(buf):
    """(Relax IRModule, input tensors, output tensors) of an int8 TFLite model.

    Each tensor has name, shape, dtype, scale and zero_point. Raises
    UnsupportedModel naming what it does not cover.
    """
    dry = _Importer(buf)
    dry.run()
    return _Importer(buf, dry.packer.data()).run()

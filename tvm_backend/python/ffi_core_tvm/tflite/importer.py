"""A TFLite model as a Relax module: walks the graph and hands each operator
to its registered lowering (registry.py, ops/).

TVM's own TFLite frontend lowers each quantized operator as dequantize, a
float32 operator, then quantize; these lowerings keep TFLite's integer
arithmetic instead (int8_kernels.py). A model's constants are one int8
tensor (weight_blob.py), so the importer walks the graph twice: the first
walk only packs the constants, the second builds the module around the
finished blob, whose size every kernel's placeholder needs.
"""
from contextlib import ExitStack

from tvm import relax, te
from tvm import tirx as tir
from tvm.script.ir_builder import tirx as T

from ..weight_blob import WeightBlob
from .. import int8_kernels as kernels
from ..ir_kernel import prim_func
from .model import UnsupportedModel, read_model, read_options
from .registry import find, types


def activation_type(op):
    """The type a lowering is chosen for: the first non-constant input's
    element type (the output's where every input is constant)."""
    for t in op.inputs:
        if t is not None and not t.is_constant:
            return t.dtype
    return op.outputs[0].dtype


class Importer:
    """The context a lowering works in: tensors' relax values, kernels, the
    weight blob, emitted calls."""

    def __init__(self, model, blob=None, c_kernels=frozenset(), outputs_given=False):
        self.model = model
        self.c_kernels = c_kernels
        # Whether the depthwise C kernel takes its marked channels' outputs
        # from the table (targets.depthwise_outputs_given).
        self.outputs_given = outputs_given
        self.bb = relax.BlockBuilder()
        self.values = {}
        self.states = {}
        self.funcs = {}
        self.packer = WeightBlob()
        # Tensor index -> {channel: int8 value}: channels every element of
        # which is that value (a CONV_2D's pruned channels: weights all 0).
        self.constant_channels = {}
        self.blob = blob
        self.blob_const = relax.const(blob) if blob is not None else None

    @property
    def dry(self):
        """The first walk: constants are packed, nothing is built."""
        return self.blob is None

    def value(self, t):
        """The relax value of activation tensor `t`."""
        if t.index not in self.values:
            raise UnsupportedModel(f"tensor {t.name} is used before any operator writes it")
        return self.values[t.index]

    def state(self, t):
        """The relax value of variable tensor `t` as this operator reads it:
        the state the call started with, or the last value set_state gave."""
        if not t.is_variable:
            raise UnsupportedModel(f"tensor {t.name} is not a variable tensor")
        return self.states[t.index]

    def set_state(self, t, value):
        """Variable tensor `t`'s new value, which main returns after the
        model's outputs: the value of a call_inplace that wrote it into the
        state main was given, so that the state has one buffer, the
        caller's."""
        self.states[t.index] = value

    def kernel(self, key, make):
        """One PrimFunc per distinct operator configuration: `make()` builds
        it the first time `key` is seen."""
        if self.dry:
            return None
        if key not in self.funcs:
            name = f"{key[0]}{len(self.funcs)}"
            self.funcs[key] = self.bb.add_func(make().with_attr("global_symbol", name), name)
        return self.funcs[key]

    def pack(self, array):
        """The byte offset of `array` (int8, int16, int32, int64 or float32)
        in the model's weight blob; kernels read it with weight_blob.read
        from blob_placeholder(), called with ctx.blob_const."""
        return self.packer.add(array)

    def blob_placeholder(self):
        """The TE placeholder of the weight blob for a kernel that reads it."""
        return te.placeholder((self.blob.size if self.blob is not None else 1,), "int8", "weights")

    def constants(self, weights, table):
        """The Slice of the blob holding an operator's weights and its
        requantization table."""
        w_off = self.packer.add(weights)
        q_off = self.packer.add(table)
        size = self.blob.size if self.blob is not None else 1
        return kernels.Slice(size, w_off, q_off)

    def call(self, gv, args, shape, dtype="int8"):
        """A call of kernel `gv` writing a new tensor of `shape` and `dtype`."""
        ty = relax.TensorType(shape=tuple(shape), dtype=dtype)
        if self.dry:
            return relax.Var("dry", ty)
        return self.bb.emit(relax.call_tir(gv, args, ty))

    def call_inplace(self, gv, args, outs):
        """A call of kernel `gv` whose outputs are, per (shape, dtype) or
        argument index in `outs`, a new tensor or that argument, written in
        place (a state); the outputs' relax values. The kernel's parameters
        are `args` then the new tensors."""
        tys = [args[o].ty if isinstance(o, int) else
               relax.TensorType(shape=tuple(o[0]), dtype=o[1]) for o in outs]
        if self.dry:
            return [relax.Var("dry", ty) for ty in tys]
        inplace = [o if isinstance(o, int) else -1 for o in outs]
        result = self.bb.emit(relax.call_tir_inplace(gv, args, inplace, tys))
        if len(tys) == 1:
            return [result]
        return [self.bb.emit(relax.TupleGetItem(result, i)) for i in range(len(tys))]

    def emit(self, expr):
        return expr if self.dry else self.bb.emit(expr)

    def reshape(self, value, shape, new_shape):
        if tuple(shape) == tuple(new_shape):
            return value
        return self.emit(relax.op.reshape(value, tuple(new_shape)))

    def lower(self, op):
        if op.name == "CUSTOM":
            raise UnsupportedModel(f"{op} ('{op.custom_code}'): custom operators are not "
                                   "supported")
        taken = types(op.name)
        if not taken:
            raise UnsupportedModel(f"{op} is not supported")
        kind = activation_type(op)
        entry = find(op.name, kind)
        if entry is None:
            raise UnsupportedModel(f"{op}: {kind} activations are not supported (it takes "
                                   f"{', '.join(taken)})")
        if not entry.mixed:
            for t in op.inputs + op.outputs:
                if t is not None and not (t.is_constant and t in op.inputs) and t.dtype != kind:
                    raise UnsupportedModel(f"{op}: tensor {t.name} is {t.dtype}, not {kind}")
        if entry.options is not None:
            op.options = read_options(op, entry.options)
        out = entry.fn(self, op)
        outs = out if isinstance(out, (list, tuple)) else [out]
        if len(outs) != len(op.outputs):
            raise UnsupportedModel(f"{op}: {len(op.outputs)} outputs where "
                                   f"{len(outs)} were expected")
        for t, v in zip(op.outputs, outs):
            self.values[t.index] = v

    def run(self):
        params = []
        for t in self.model.inputs + self.model.states:
            v = relax.Var(_ident(t.name), relax.TensorType(shape=t.shape, dtype=t.dtype))
            (self.states if t.is_variable else self.values)[t.index] = v
            params.append(v)
        if self.dry:
            for op in self.model.operators:
                self.lower(op)
            return None
        with self.bb.function("main", params):
            with self.bb.dataflow():
                for op in self.model.operators:
                    self.lower(op)
                outs = [self.value(t) for t in self.model.outputs]
                outs += [self.states[t.index] for t in self.model.states]
                result = self.bb.emit_output(outs[0] if len(outs) == 1 else relax.Tuple(outs))
            self.bb.emit_func_output(result)
        if self.model.states:
            self.reset_function()
        return self.bb.get()

    def reset_function(self):
        """`reset`: a kernel of the module (no Relax function: no VM call, no
        argument checks, nothing on the heap) that fills each state it is
        given (main's state arguments, in their order) with its zero point,
        as TFLite Micro resets its variable tensors."""
        self.bb.add_func(_reset_kernel(self.model.states).with_attr("global_symbol", "reset"),
                         "reset")


def _reset_kernel(states):
    """A PrimFunc writing each state's zero point (0 where it has none) into
    every element of its buffer."""
    args = [(f"s{k}", t.shape, t.dtype) for k, t in enumerate(states)]
    with prim_func("reset", args) as (ib, buffers):
        for t, buf in zip(states, buffers):
            zp = int(t.zero_point[0]) if t.zero_point is not None else 0
            with ExitStack() as loops:
                at = [loops.enter_context(T.serial(0, n)) for n in t.shape]
                T.buffer_store(buf, tir.const(zp, t.dtype), at)
    return ib.get()


def _ident(name):
    s = "".join(c if c.isalnum() else "_" for c in name)
    return s if s and not s[0].isdigit() else "x_" + s


def from_tflite(buf, c_kernels=frozenset(), outputs_given=False):
    """(Relax IRModule, input tensors, output tensors) of a TFLite model.

    Each tensor has name, shape, dtype, scale and zero_point (model.Tensor).
    A model with variable tensors (the state SVDF and LSTM keep between
    calls) takes each as one more input after the model's inputs, in the
    order the model lists its tensors, and updates it in place: the caller
    keeps one buffer per state and passes the same to every call. main also
    returns each after the model's outputs (the same tensors); those have
    is_variable set. The module's kernel `reset`, given the states, fills
    each with its zero point.
    `c_kernels`: the operators whose kernels call the C micro-kernels
    (targets.c_kernel_ops: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
    ADD), whose results are the same; `outputs_given`: the depthwise one's
    marked channels' outputs follow its table
    (targets.depthwise_outputs_given).
    Raises UnsupportedModel naming what it does not
    take: an operator with its index, a type, an option, or a malformed file.
    """
    model = read_model(buf)
    dry = Importer(model, c_kernels=c_kernels, outputs_given=outputs_given)
    dry.run()
    mod = Importer(model, dry.packer.data(), c_kernels, outputs_given).run()
    return mod, model.inputs + model.states, model.outputs + model.states


__all__ = ["from_tflite", "UnsupportedModel"]

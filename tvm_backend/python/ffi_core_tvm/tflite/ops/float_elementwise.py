"""float32 element-wise operators: ADD, SUB, MUL, DIV (fused activations),
MINIMUM, MAXIMUM, SQUARED_DIFFERENCE with numpy-style broadcasting of either
operand to the output, and RSQRT, ABS, NEG. A constant operand is packed in
the weight blob as float32 and read from there."""
from tflite.AddOptions import AddOptions
from tflite.DivOptions import DivOptions
from tflite.MulOptions import MulOptions
from tflite.SubOptions import SubOptions
from tvm import te
from tvm import tirx as tir

from ... import float_kernels as kernels
from ..model import UnsupportedModel
from ..registry import lowering
from .float_nn import float_activation_range


def _broadcast_index(shape, out_shape, idx):
    """The index of an operand of `shape` that numpy broadcasting reads for
    output index `idx`: aligned on the right, size-1 dimensions read 0."""
    lead = len(out_shape) - len(shape)
    return tuple(0 if n == 1 else idx[lead + k] for k, n in enumerate(shape))


def elementwise(ctx, op, tensors, fn, name, params=()):
    """The output of fn(v0, v1, ...) on the float32 elements of `tensors`,
    each broadcast to the output's shape: an activation is an argument of the
    kernel, a constant a float32 part of the weight blob. `name` and `params`
    tell one configuration's kernel from another."""
    out = op.outputs[0]
    shape = tuple(out.shape)
    for t in tensors:
        if len(t.shape) > len(shape) or any(
                n not in (1, m) for n, m in zip(t.shape, shape[len(shape) - len(t.shape):])):
            raise UnsupportedModel(f"{op}: tensor {t.name} of shape {list(t.shape)} does not "
                                   f"broadcast to {list(shape)}")
        if t.dtype != "float32":
            raise UnsupportedModel(f"{op}: tensor {t.name} is {t.dtype}, not float32")
    offsets = [ctx.pack(t.data.astype("float32")) if t.is_constant else None for t in tensors]
    # One argument per activation, then the blob if any operand is constant.
    args = [ctx.value(t) for t in tensors if not t.is_constant]
    if any(o is not None for o in offsets):
        args.append(ctx.blob_const)
    layout = tuple(("const", o, t.shape) if o is not None else t.shape
                   for t, o in zip(tensors, offsets))

    def make():
        placeholders = [te.placeholder(t.shape, "float32", f"x{i}")
                        for i, t in enumerate(tensors) if not t.is_constant]
        blob = ctx.blob_placeholder()
        readers, free = [], iter(placeholders)
        for t, o in zip(tensors, offsets):
            if o is None:
                p = next(free)
                readers.append(lambda idx, p=p, s=t.shape: p[_broadcast_index(s, shape, idx)])
            else:
                r = kernels.blob_reader(blob, o, t.shape)
                readers.append(lambda idx, r=r, s=t.shape: r(*_broadcast_index(s, shape, idx)))
        y = te.compute(shape, lambda *idx: fn(*[r(idx) for r in readers]), name="y")
        extra = [blob] if any(o is not None for o in offsets) else []
        return te.create_prim_func(placeholders + extra + [y]).with_attr("tir.noalias", True)

    gv = ctx.kernel((name, layout, shape) + tuple(params), make)
    return ctx.call(gv, args, shape, "float32")


def _binary(ctx, op, fn, name, act=None):
    a, b = op.inputs[:2]
    rng = float_activation_range(act, op) if act is not None else (None, None)
    return elementwise(ctx, op, [a, b], lambda x, y: kernels.clamp(fn(x, y), rng), name, (rng,))


@lowering("ADD", types=("float32",), options=AddOptions)
def add_float(ctx, op):
    return _binary(ctx, op, lambda x, y: x + y, "fadd", op.options.FusedActivationFunction)


@lowering("SUB", types=("float32",), options=SubOptions)
def sub_float(ctx, op):
    return _binary(ctx, op, lambda x, y: x - y, "fsub", op.options.FusedActivationFunction)


@lowering("MUL", types=("float32",), options=MulOptions)
def mul_float(ctx, op):
    return _binary(ctx, op, lambda x, y: x * y, "fmul", op.options.FusedActivationFunction)


@lowering("DIV", types=("float32",), options=DivOptions)
def div_float(ctx, op):
    return _binary(ctx, op, lambda x, y: x / y, "fdiv", op.options.FusedActivationFunction)


@lowering("MINIMUM", types=("float32",))
def minimum_float(ctx, op):
    return _binary(ctx, op, tir.min, "fmin")


@lowering("MAXIMUM", types=("float32",))
def maximum_float(ctx, op):
    return _binary(ctx, op, tir.max, "fmax")


@lowering("SQUARED_DIFFERENCE", types=("float32",))
def squared_difference_float(ctx, op):
    return _binary(ctx, op, lambda x, y: (x - y) * (x - y), "fsqdiff")


def unary(ctx, op, fn, name, params=()):
    """The output of fn(x) on op's one input."""
    return elementwise(ctx, op, [op.inputs[0]], fn, name, params)


@lowering("RSQRT", types=("float32",))
def rsqrt_float(ctx, op):
    return unary(ctx, op, lambda x: tir.const(1.0, "float32") / tir.sqrt(x), "frsqrt")


@lowering("ABS", types=("float32",))
def abs_float(ctx, op):
    return unary(ctx, op, tir.abs, "fabs")


@lowering("NEG", types=("float32",))
def neg_float(ctx, op):
    return unary(ctx, op, lambda x: -x, "fneg")

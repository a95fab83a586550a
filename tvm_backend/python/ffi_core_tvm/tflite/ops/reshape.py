"""RESHAPE: a view of the same bytes, any type."""
from ..model import UnsupportedModel
from ..registry import lowering


@lowering("RESHAPE", types=("int8", "int16", "float32", "int32"))
def reshape(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    if x.dtype != out.dtype:
        raise UnsupportedModel(f"{op}: changes the type from {x.dtype} to {out.dtype}")
    return ctx.reshape(ctx.value(x), x.shape, out.shape)

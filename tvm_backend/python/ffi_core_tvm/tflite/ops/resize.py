"""RESIZE_NEAREST_NEIGHBOR: NHWC, any type, align_corners and
half_pixel_centers as TFLite.

Which input row and column each output row and column copies is computed at
compile time in float32, as TFLite's kernel computes it, and kept as one
int32 table in the weight blob: the kernel only copies, bit-exact.
"""
import numpy as np
from tflite.ResizeNearestNeighborOptions import ResizeNearestNeighborOptions
from tvm import te

from ... import weight_blob
from ..model import UnsupportedModel
from ..registry import lowering
from .layout import ALL, const_ints, expect_shape, prim_func, same_type


def nearest(in_size, out_size, align_corners, half_pixel_centers):
    """The input index each of out_size outputs reads, in TFLite's float32
    arithmetic (scale, offset, then floor, or round half away from zero with
    align_corners)."""
    f = np.float32
    if align_corners and out_size > 1:
        scale = f(in_size - 1) / f(out_size - 1)
    else:
        scale = f(in_size) / f(out_size)
    offset = f(0.5) if half_pixel_centers else f(0.0)
    pos = (np.arange(out_size).astype(f) + offset) * scale
    if align_corners:
        # pos >= 0; in float64, pos + 0.5 is exact.
        idx = np.floor(pos.astype(np.float64) + 0.5)
    else:
        idx = np.floor(pos)
    idx = np.minimum(idx.astype(np.int64), in_size - 1)
    if half_pixel_centers:
        idx = np.maximum(idx, 0)
    return idx.astype(np.int32)


@lowering("RESIZE_NEAREST_NEIGHBOR", types=ALL, options=ResizeNearestNeighborOptions,
          mixed=True, note="size constant")
def resize_nearest_neighbor(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    size = const_ints(op, op.inputs[1], "the size")
    if len(x.shape) != 4 or len(size) != 2 or min(size) < 1:
        raise UnsupportedModel(f"{op}: size {size} of a rank-{len(x.shape)} input")
    n, h, w, c = x.shape
    oh, ow = size
    expect_shape(op, out, (n, oh, ow, c))
    opts = op.options
    table = np.concatenate([nearest(h, oh, opts.AlignCorners, opts.HalfPixelCenters),
                            nearest(w, ow, opts.AlignCorners, opts.HalfPixelCenters)])
    offset = ctx.pack(table)

    def make():
        blob = ctx.blob_placeholder()
        xp = te.placeholder(x.shape, x.dtype, "x")

        def y_f(b, i, j, k):
            row = weight_blob.read(blob, offset + i * 4, "int32")
            col = weight_blob.read(blob, offset + (oh + j) * 4, "int32")
            return xp[b, row, col, k]
        return prim_func([xp, blob, te.compute(out.shape, y_f, name="y")])
    gv = ctx.kernel(("resize", offset), make)
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, out.dtype)

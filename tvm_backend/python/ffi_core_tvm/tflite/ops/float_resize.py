"""float32 RESIZE_BILINEAR, align_corners and half_pixel_centers as TFLite.

Each output row's and column's two input indices and the upper one's
weight are computed at compile time in float32 as TFLite's reference kernel
computes them, and kept in the weight blob (indices int32, weights
float32); the kernel sums the four taps in TFLite's order.
"""
import numpy as np
from tflite.ResizeBilinearOptions import ResizeBilinearOptions
from tvm import te
from tvm import tirx as tir

from ... import weight_blob
from ..registry import lowering
from .layout import prim_func
from .resize import bilinear_options, resize_shape


def bilinear_float(in_size, out_size, align_corners, half_pixel_centers):
    """(indices [out_size, 2]: lower and upper input index, weights
    [out_size]: the position's distance past the lower one), in float32."""
    f = np.float32
    if align_corners and out_size > 1:
        scale = f(in_size - 1) / f(out_size - 1)
    else:
        scale = f(in_size) / f(out_size)
    i = np.arange(out_size).astype(f)
    pos = (i + f(0.5)) * scale - f(0.5) if half_pixel_centers else i * scale
    lower = np.maximum(np.floor(pos).astype(np.int64), 0)
    upper = np.minimum(np.ceil(pos).astype(np.int64), in_size - 1)
    # As the integer kernel (resize.py), `lower` stays inside the input.
    indices = np.stack([np.minimum(lower, in_size - 1), upper], axis=1).astype(np.int32)
    return indices, (pos - lower.astype(f)).astype(f)


@lowering("RESIZE_BILINEAR", types=("float32",), options=ResizeBilinearOptions)
def resize_bilinear_float(ctx, op):
    x, out, oh, ow = resize_shape(op)
    corners, half = bilinear_options(op)
    _, h, w, _ = x.shape
    rows, dys = bilinear_float(h, oh, corners, half)
    cols, dxs = bilinear_float(w, ow, corners, half)
    at = ctx.pack(np.concatenate([rows, cols]))
    frac = ctx.pack(np.concatenate([dys, dxs]))

    def make():
        blob = ctx.blob_placeholder()
        xp = te.placeholder(x.shape, "float32", "x")

        def index(i, k):
            return weight_blob.read(blob, at + (i * 2 + k) * 4, "int32")

        def y_f(b, i, j, c):
            y0, y1 = index(i, 0), index(i, 1)
            x0, x1 = index(oh + j, 0), index(oh + j, 1)
            dy = weight_blob.read(blob, frac + i * 4, "float32")
            dx = weight_blob.read(blob, frac + (oh + j) * 4, "float32")
            one = tir.const(1.0, "float32")
            return (xp[b, y0, x0, c] * (one - dy) * (one - dx) + xp[b, y1, x0, c] * dy * (one - dx)
                    + xp[b, y0, x1, c] * (one - dy) * dx + xp[b, y1, x1, c] * dy * dx)
        return prim_func([xp, blob, te.compute(out.shape, y_f, name="y")])
    gv = ctx.kernel(("fbilinear", at), make)
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, "float32")

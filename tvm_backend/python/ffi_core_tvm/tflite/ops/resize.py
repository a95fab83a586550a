"""RESIZE_NEAREST_NEIGHBOR (NHWC, any type) and RESIZE_BILINEAR (int8,
int16; float32 in float_resize.py), align_corners and half_pixel_centers as
TFLite.

Which input rows and columns each output row and column reads (and, for
bilinear, its weights) is computed at compile time as TFLite's kernel
computes it, and kept as int32 tables in the weight blob: the kernels only
read the tables, bit-exact.
"""
import numpy as np
from tflite.ResizeBilinearOptions import ResizeBilinearOptions
from tflite.ResizeNearestNeighborOptions import ResizeNearestNeighborOptions
from tvm import te
from tvm import tirx as tir

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


def resize_shape(op):
    """(input, output, out_h, out_w) of a resize whose size input is constant."""
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    size = const_ints(op, op.inputs[1], "the size")
    if len(x.shape) != 4 or len(size) != 2 or min(size) < 1:
        raise UnsupportedModel(f"{op}: size {size} of a rank-{len(x.shape)} input")
    expect_shape(op, out, (x.shape[0], *size, x.shape[3]))
    return x, out, size[0], size[1]


def bilinear_options(op):
    opts = op.options
    if opts.AlignCorners and opts.HalfPixelCenters:
        raise UnsupportedModel(f"{op}: align_corners with half_pixel_centers")
    return bool(opts.AlignCorners), bool(opts.HalfPixelCenters)


def _c_div(a, b):
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def bilinear_integer(in_size, out_size, align_corners, half_pixel_centers):
    """[lower, upper, weight] per output index: the two input indices and the
    upper one's weight in 1/1024ths, as TFLite's ResizeBilinearInteger
    computes them (scale in 1/1024ths rounded, divisions truncating)."""
    if align_corners and out_size > 1:
        scale = _c_div(1024 * (in_size - 1) + (out_size - 1) // 2, out_size - 1)
    else:
        scale = _c_div(1024 * in_size + out_size // 2, out_size)
    rows = []
    for i in range(out_size):
        pos = i * scale + (scale // 2 - 512 if half_pixel_centers else 0)
        lower = max(_c_div(pos, 1024), 0)
        upper = min(_c_div(pos + 1023, 1024), in_size - 1)
        # TFLite does not bound `lower` above, where a rounded-up scale
        # would take it past the input; here it stays inside.
        rows.append([min(lower, in_size - 1), upper, pos - 1024 * lower])
    return np.asarray(rows, np.int32)


@lowering("RESIZE_BILINEAR", types=("int8", "int16"), options=ResizeBilinearOptions,
          mixed=True, note="size constant; the output keeps the input's quantization")
def resize_bilinear(ctx, op):
    x, out, oh, ow = resize_shape(op)
    corners, half = bilinear_options(op)
    _, h, w, _ = x.shape
    offset = ctx.pack(np.concatenate([bilinear_integer(h, oh, corners, half),
                                      bilinear_integer(w, ow, corners, half)]))
    # int8 values times weights of up to 1536 * 1536 sum well inside int32.
    acc = "int32" if x.dtype == "int8" else "int64"

    def make():
        blob = ctx.blob_placeholder()
        xp = te.placeholder(x.shape, x.dtype, "x")

        def table(i, k):
            return weight_blob.read(blob, offset + (i * 3 + k) * 4, "int32")

        def y_f(b, i, j, c):
            y0, y1, dy = table(i, 0), table(i, 1), table(i, 2).astype(acc)
            x0, x1, dx = table(oh + j, 0), table(oh + j, 1), table(oh + j, 2).astype(acc)
            one = tir.const(1024, acc)

            def v(r, col):
                return xp[b, r, col, c].astype(acc)
            total = (v(y0, x0) * (one - dy) * (one - dx) + v(y1, x0) * dy * (one - dx)
                     + v(y0, x1) * (one - dy) * dx + v(y1, x1) * dy * dx)
            # Rounded half away from zero: LiteRT builds this kernel without
            # TFLITE_SINGLE_ROUNDING.
            half = tir.const(1 << 19, acc)
            rounded = tir.truncdiv(total + tir.Select(total > 0, half, -half),
                                   tir.const(1 << 20, acc))
            return rounded.astype(x.dtype)
        return prim_func([xp, blob, te.compute(out.shape, y_f, name="y")])
    gv = ctx.kernel(("bilinear", offset), make)
    return ctx.call(gv, [ctx.value(x), ctx.blob_const], out.shape, out.dtype)


@lowering("RESIZE_NEAREST_NEIGHBOR", types=ALL, options=ResizeNearestNeighborOptions,
          mixed=True, note="size constant")
def resize_nearest_neighbor(ctx, op):
    x, out, oh, ow = resize_shape(op)
    _, h, w, _ = x.shape
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

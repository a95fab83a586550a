"""Shape and layout operators: SQUEEZE, EXPAND_DIMS, TRANSPOSE, CONCATENATION,
PACK, UNPACK, SPLIT, SPLIT_V, SLICE, STRIDED_SLICE, GATHER, SPACE_TO_DEPTH,
DEPTH_TO_SPACE.

Each moves elements without changing them, so the result is the input's
bytes, bit for bit, for every type; a quantized output keeps the input's
values as TFLite's kernels do (they copy, they do not requantize). Shape
inputs (axes, permutations, begin/end, split sizes) must be constant: the
kernels are specialized to them at compile time.
"""
import numpy as np
from tflite.ConcatenationOptions import ConcatenationOptions
from tflite.DepthToSpaceOptions import DepthToSpaceOptions
from tflite.GatherOptions import GatherOptions
from tflite.PackOptions import PackOptions
from tflite.SpaceToDepthOptions import SpaceToDepthOptions
from tflite.SplitOptions import SplitOptions
from tflite.SplitVOptions import SplitVOptions
from tflite.SqueezeOptions import SqueezeOptions
from tflite.StridedSliceOptions import StridedSliceOptions
from tflite.UnpackOptions import UnpackOptions
from tvm import relax, te
from tvm import tirx as tir

from ... import weight_blob
from ..model import UnsupportedModel
from ..quant import NONE
from ..registry import lowering

ALL = ("int8", "int16", "float32", "int32")


def const_ints(op, t, what):
    """The values of constant integer tensor `t` (an operator's shape input)."""
    if t is None or not t.is_constant:
        raise UnsupportedModel(f"{op}: {what} is not a constant tensor")
    if t.dtype not in ("int32", "int64"):
        raise UnsupportedModel(f"{op}: {what} is {t.dtype}, not int32 or int64")
    return [int(v) for v in t.data.ravel()]


def axis_of(op, axis, rank):
    """A TFLite axis (negative counts from the end) as 0..rank-1."""
    if not -rank <= axis < rank:
        raise UnsupportedModel(f"{op}: axis {axis} out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def expect_shape(op, t, shape):
    """Refuses a model whose output `t` is not of the shape TFLite computes."""
    if tuple(t.shape) != tuple(shape):
        raise UnsupportedModel(f"{op}: output {t.name} has shape {list(t.shape)}, "
                               f"expected {list(shape)}")


def same_type(op, ts, dtype):
    for t in ts:
        if t.dtype != dtype:
            raise UnsupportedModel(f"{op}: tensor {t.name} is {t.dtype}, not {dtype}")


def prim_func(tensors):
    return te.create_prim_func(tensors).with_attr("tir.noalias", True)


def value_of(ctx, t):
    """The relax value of `t`: an activation's, or for a constant, a kernel
    copying it out of the weight blob."""
    if not t.is_constant:
        return ctx.value(t)
    if t.dtype not in ALL:
        raise UnsupportedModel(f"constant {t.name}: {t.dtype} is not supported")
    offset = ctx.pack(t.data.astype(t.dtype))
    size = np.dtype(t.dtype).itemsize
    strides = [int(np.prod(t.shape[i + 1:])) for i in range(len(t.shape))]

    def make():
        blob = ctx.blob_placeholder()
        y = te.compute(t.shape, lambda *i: weight_blob.read(
            blob, offset + size * sum((a * s for a, s in zip(i, strides)), tir.const(0, "int32")),
            t.dtype), name="y")
        return prim_func([blob, y])
    gv = ctx.kernel(("constant", offset), make)
    return ctx.call(gv, [ctx.blob_const], t.shape, t.dtype)


@lowering("SQUEEZE", types=ALL, options=SqueezeOptions)
def squeeze(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    dims = op.options.SqueezeDims
    dims = [] if isinstance(dims, int) else [axis_of(op, int(d), len(x.shape)) for d in dims]
    if not dims:
        dims = [i for i, n in enumerate(x.shape) if n == 1]
    if any(x.shape[d] != 1 for d in dims):
        raise UnsupportedModel(f"{op}: squeezes an axis whose size is not 1")
    expect_shape(op, out, [n for i, n in enumerate(x.shape) if i not in dims])
    return ctx.reshape(ctx.value(x), x.shape, out.shape)


@lowering("EXPAND_DIMS", types=ALL, mixed=True)
def expand_dims(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    axis = const_ints(op, op.inputs[1], "the axis")
    if len(axis) != 1:
        raise UnsupportedModel(f"{op}: {len(axis)} axes")
    at = axis_of(op, axis[0], len(x.shape) + 1)
    expect_shape(op, out, x.shape[:at] + (1,) + x.shape[at:])
    return ctx.reshape(ctx.value(x), x.shape, out.shape)


@lowering("TRANSPOSE", types=ALL, mixed=True)
def transpose(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    perm = const_ints(op, op.inputs[1], "the permutation")
    if sorted(perm) != list(range(len(x.shape))):
        raise UnsupportedModel(f"{op}: {perm} is not a permutation of {len(x.shape)} axes")
    expect_shape(op, out, [x.shape[p] for p in perm])
    if perm == sorted(perm):
        return ctx.value(x)
    return ctx.emit(relax.op.permute_dims(ctx.value(x), perm))


def _quant(t):
    return None if t.scale is None else t.quant()


@lowering("CONCATENATION", types=ALL, options=ConcatenationOptions,
          note="int8: inputs quantized as the output, as TFLite requires")
def concatenation(ctx, op):
    out = op.outputs[0]
    ins = op.inputs
    if op.options.FusedActivationFunction != NONE:
        raise UnsupportedModel(f"{op}: a fused activation")
    axis = axis_of(op, op.options.Axis, len(out.shape))
    # TFLite's int8 kernel takes inputs of the output's quantization only, and
    # its int16 kernel copies values whatever their scales, zero points 0.
    if out.dtype == "int8" and any(_quant(t) != _quant(out) for t in ins):
        raise UnsupportedModel(f"{op}: an input quantized unlike the output")
    if out.dtype == "int16" and any(_quant(t) and _quant(t)[1] != 0 for t in ins + [out]):
        raise UnsupportedModel(f"{op}: an int16 tensor with a zero point")
    shape = list(ins[0].shape)
    if any(len(t.shape) != len(shape) or
           any(a != b for i, (a, b) in enumerate(zip(t.shape, shape)) if i != axis)
           for t in ins):
        raise UnsupportedModel(f"{op}: inputs whose shapes differ off the axis")
    shape[axis] = sum(t.shape[axis] for t in ins)
    expect_shape(op, out, shape)
    values = [value_of(ctx, t) for t in ins]
    if len(values) == 1:
        return values[0]
    return ctx.emit(relax.op.concat(values, axis))


@lowering("PACK", types=ALL, options=PackOptions)
def pack(ctx, op):
    out = op.outputs[0]
    ins = op.inputs
    shape = ins[0].shape
    if op.options.ValuesCount != len(ins) or any(t.shape != shape for t in ins):
        raise UnsupportedModel(f"{op}: {len(ins)} inputs of different shapes or count")
    axis = axis_of(op, op.options.Axis, len(shape) + 1)
    expect_shape(op, out, shape[:axis] + (len(ins),) + shape[axis:])
    one = shape[:axis] + (1,) + shape[axis:]
    values = [ctx.reshape(value_of(ctx, t), shape, one) for t in ins]
    if len(values) == 1:
        return values[0]
    return ctx.emit(relax.op.concat(values, axis))


def _split(ctx, x, sizes, axis):
    """x cut along `axis` into parts of `sizes`, one relax value each."""
    if len(sizes) == 1:
        return [ctx.value(x)]
    cuts = [int(c) for c in np.cumsum(sizes)[:-1]]
    parts = ctx.emit(relax.op.split(ctx.value(x), cuts, axis))
    return [ctx.emit(relax.TupleGetItem(parts, i)) for i in range(len(sizes))]


@lowering("UNPACK", types=ALL, options=UnpackOptions)
def unpack(ctx, op):
    x = op.inputs[0]
    axis = axis_of(op, op.options.Axis, len(x.shape))
    n = x.shape[axis]
    if op.options.Num != n or len(op.outputs) != n:
        raise UnsupportedModel(f"{op}: {len(op.outputs)} outputs for an axis of {n}")
    shape = x.shape[:axis] + x.shape[axis + 1:]
    one = x.shape[:axis] + (1,) + x.shape[axis + 1:]
    for t in op.outputs:
        expect_shape(op, t, shape)
    return [ctx.reshape(v, one, shape) for v in _split(ctx, x, [1] * n, axis)]


def _check_split(op, x, sizes, axis):
    if any(s <= 0 for s in sizes) or sum(sizes) != x.shape[axis] or \
            len(sizes) != len(op.outputs):
        raise UnsupportedModel(f"{op}: splits {sizes} of an axis of {x.shape[axis]} into "
                               f"{len(op.outputs)} outputs")
    for t, s in zip(op.outputs, sizes):
        expect_shape(op, t, x.shape[:axis] + (s,) + x.shape[axis + 1:])


@lowering("SPLIT", types=ALL, options=SplitOptions, mixed=True)
def split(ctx, op):
    axis_t, x = op.inputs
    same_type(op, op.outputs, x.dtype)
    axis = const_ints(op, axis_t, "the axis")
    if len(axis) != 1:
        raise UnsupportedModel(f"{op}: {len(axis)} axes")
    axis = axis_of(op, axis[0], len(x.shape))
    n = op.options.NumSplits
    if n <= 0 or x.shape[axis] % n:
        raise UnsupportedModel(f"{op}: {n} splits of an axis of {x.shape[axis]}")
    sizes = [x.shape[axis] // n] * n
    _check_split(op, x, sizes, axis)
    return _split(ctx, x, sizes, axis)


@lowering("SPLIT_V", types=ALL, options=SplitVOptions, mixed=True)
def split_v(ctx, op):
    x = op.inputs[0]
    same_type(op, op.outputs, x.dtype)
    sizes = const_ints(op, op.inputs[1], "size_splits")
    axis = const_ints(op, op.inputs[2], "the axis")
    if len(axis) != 1:
        raise UnsupportedModel(f"{op}: {len(axis)} axes")
    axis = axis_of(op, axis[0], len(x.shape))
    if sizes.count(-1) == 1:
        sizes[sizes.index(-1)] = x.shape[axis] - sum(s for s in sizes if s != -1)
    _check_split(op, x, sizes, axis)
    return _split(ctx, x, sizes, axis)


def _strided_copy(ctx, op, x, starts, strides, dense_shape, out):
    """out = x[starts[d] + i_d * strides[d] ...] over dense_shape, reshaped to
    the output's shape (a view)."""
    key = ("slice", x.shape, x.dtype, tuple(starts), tuple(strides), tuple(dense_shape))

    def make():
        xp = te.placeholder(x.shape, x.dtype, "x")
        y = te.compute(dense_shape, lambda *i: xp[tuple(
            s + a * k for s, a, k in zip(starts, i, strides))], name="y")
        return prim_func([xp, y])
    gv = ctx.kernel(key, make)
    y = ctx.call(gv, [ctx.value(x)], dense_shape, x.dtype)
    return ctx.reshape(y, dense_shape, out.shape)


@lowering("SLICE", types=ALL, mixed=True)
def slice_(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    rank = len(x.shape)
    begin = const_ints(op, op.inputs[1], "begin")
    size = const_ints(op, op.inputs[2], "size")
    if len(begin) != rank or len(size) != rank:
        raise UnsupportedModel(f"{op}: begin and size of {len(begin)}, {len(size)} values "
                               f"for rank {rank}")
    size = [n - b if s == -1 else s for s, b, n in zip(size, begin, x.shape)]
    if any(b < 0 or s < 0 or b + s > n for b, s, n in zip(begin, size, x.shape)):
        raise UnsupportedModel(f"{op}: begin {begin}, size {size} outside {list(x.shape)}")
    expect_shape(op, out, size)
    if list(size) == list(x.shape):
        return ctx.value(x)
    return ctx.emit(relax.op.strided_slice(ctx.value(x), list(range(rank)), begin,
                                           [b + s for b, s in zip(begin, size)],
                                           assume_inbound=True))


def _clamp(v, lo, hi):
    return max(lo, min(v, hi))


def _strided_slice_plan(op, shape, begin, end, strides, opts):
    """TFLite's STRIDED_SLICE as (start, stride, count) per input axis and the
    output's shape (shrunk axes dropped, new axes inserted)."""
    rank = len(shape)
    n = len(begin)
    ellipsis = opts.EllipsisMask
    # Axes of the sparse spec that consume an input axis, the ellipsis aside.
    consuming = sum(1 for i in range(n) if not (ellipsis >> i) & 1 and not
                    (opts.NewAxisMask >> i) & 1)
    axes = []  # (input axis, sparse index or None for a whole axis)
    out_shape = []
    d = 0
    seen_ellipsis = False
    for i in range(n):
        if (ellipsis >> i) & 1 and not seen_ellipsis:
            seen_ellipsis = True
            for _ in range(rank - consuming):
                axes.append((d, None))
                d += 1
            continue
        if (ellipsis >> i) & 1:
            raise UnsupportedModel(f"{op}: more than one ellipsis")
        if (opts.NewAxisMask >> i) & 1:
            axes.append((None, i))
            continue
        axes.append((d, i))
        d += 1
    while d < rank:
        axes.append((d, None))
        d += 1
    if d != rank:
        raise UnsupportedModel(f"{op}: {n} slice values for rank {rank}")
    plan = [None] * rank
    for d, i in axes:
        if d is None:
            out_shape.append(1)
            continue
        dim = shape[d]
        if i is None:
            plan[d] = (0, 1, dim)
            out_shape.append(dim)
            continue
        stride = strides[i]
        if stride == 0:
            raise UnsupportedModel(f"{op}: a stride of 0")
        lo, hi = (0, dim) if stride > 0 else (-1, dim - 1)
        if (opts.BeginMask >> i) & 1:
            start = 0 if stride > 0 else dim - 1
        else:
            start = begin[i] + dim if begin[i] < 0 else begin[i]
            start = _clamp(start, lo, hi)
        if (opts.ShrinkAxisMask >> i) & 1:
            if not 0 <= start < dim:
                raise UnsupportedModel(f"{op}: shrinks axis {d} at {begin[i]}, outside it")
            plan[d] = (start, 1, 1)
            continue
        if (opts.EndMask >> i) & 1:
            stop = dim if stride > 0 else -1
        else:
            stop = end[i] + begin[i] if opts.Offset else end[i]
            stop = stop + dim if stop < 0 else stop
            stop = _clamp(stop, lo, hi)
        count = max(0, -(-(stop - start) // stride))
        plan[d] = (start, stride, count)
        out_shape.append(count)
    return plan, out_shape


@lowering("STRIDED_SLICE", types=ALL, options=StridedSliceOptions, mixed=True,
          note="begin, end and strides constant")
def strided_slice(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    same_type(op, [out], x.dtype)
    begin = const_ints(op, op.inputs[1], "begin")
    end = const_ints(op, op.inputs[2], "end")
    strides = const_ints(op, op.inputs[3], "strides")
    if not len(begin) == len(end) == len(strides):
        raise UnsupportedModel(f"{op}: begin, end and strides of different lengths")
    plan, out_shape = _strided_slice_plan(op, x.shape, begin, end, strides, op.options)
    expect_shape(op, out, out_shape)
    if any(c == 0 for _, _, c in plan):
        raise UnsupportedModel(f"{op}: an empty slice")
    starts, steps, counts = zip(*plan) if plan else ((), (), ())
    if tuple(counts) == tuple(x.shape) and all(s == 1 for s in steps):
        return ctx.reshape(ctx.value(x), x.shape, out.shape)
    return _strided_copy(ctx, op, x, starts, steps, counts, out)


@lowering("GATHER", types=ALL, options=GatherOptions, mixed=True,
          note="int32 or int64 indices; an index input out of range reads the nearest element")
def gather(ctx, op):
    params, indices = op.inputs
    out = op.outputs[0]
    if params.dtype not in ALL or params.dtype != out.dtype:
        raise UnsupportedModel(f"{op}: params {params.dtype}, output {out.dtype}")
    if indices.dtype not in ("int32", "int64"):
        raise UnsupportedModel(f"{op}: indices are {indices.dtype}")
    if params.is_constant and indices.is_constant:
        raise UnsupportedModel(f"{op}: every input is constant")
    p_shape, i_shape = params.shape, indices.shape
    axis = axis_of(op, op.options.Axis, len(p_shape))
    batch = op.options.BatchDims
    batch = batch + len(i_shape) if batch < 0 else batch
    if not 0 <= batch <= min(axis, len(i_shape)) or p_shape[:batch] != i_shape[:batch]:
        raise UnsupportedModel(f"{op}: batch_dims {op.options.BatchDims}")
    out_shape = p_shape[:axis] + i_shape[batch:] + p_shape[axis + 1:]
    expect_shape(op, out, out_shape)
    size = p_shape[axis]
    n_idx = len(i_shape) - batch
    if indices.is_constant:
        if np.any(indices.data < 0) or np.any(indices.data >= size):
            raise UnsupportedModel(f"{op}: an index outside 0..{size - 1}")
    key = ("gather", p_shape, params.dtype, i_shape, indices.dtype, axis, batch)
    p_off = ctx.pack(params.data) if params.is_constant else None
    i_off = ctx.pack(indices.data.astype("int32")) if indices.is_constant else None
    key += (p_off, i_off)

    def flat(idx, shape):
        f = tir.const(0, "int32")
        for i, n in zip(idx, shape):
            f = f * n + i
        return f

    def make():
        blob = ctx.blob_placeholder()
        args = []
        if params.is_constant:
            itemsize = np.dtype(params.dtype).itemsize

            def read_p(idx):
                return weight_blob.read(blob, p_off + flat(idx, p_shape) * itemsize, params.dtype)
        else:
            p = te.placeholder(p_shape, params.dtype, "params")
            args.append(p)

            def read_p(idx):
                return p[tuple(idx)]
        if indices.is_constant:
            def read_i(idx):
                return weight_blob.read(blob, i_off + flat(idx, i_shape) * 4, "int32")
        else:
            ip = te.placeholder(i_shape, indices.dtype, "indices")
            args.append(ip)

            def read_i(idx):
                # TFLite fails on an index out of range; a kernel cannot, so
                # it reads the nearest element instead of outside the tensor.
                v = ip[tuple(idx)].astype("int32")
                return tir.max(tir.min(v, tir.const(size - 1, "int32")), tir.const(0, "int32"))

        def y_f(*o):
            o = list(o)
            k = read_i(o[:batch] + o[axis:axis + n_idx])
            return read_p(o[:axis] + [k] + o[axis + n_idx:])
        y = te.compute(out_shape, y_f, name="y")
        if params.is_constant or indices.is_constant:
            args.append(blob)
        return prim_func(args + [y])
    gv = ctx.kernel(key, make)
    args = [ctx.value(t) for t in (params, indices) if not t.is_constant]
    if params.is_constant or indices.is_constant:
        args.append(ctx.blob_const)
    return ctx.call(gv, args, out_shape, out.dtype)


# TFLite's SPACE_TO_DEPTH and DEPTH_TO_SPACE take no int16.
BLOCK_TYPES = ("int8", "float32", "int32")


def _block_size(op, x, out):
    bs = op.options.BlockSize
    if len(x.shape) != 4 or bs < 1:
        raise UnsupportedModel(f"{op}: block size {bs} on a rank-{len(x.shape)} input")
    same_type(op, [out], x.dtype)
    return bs


@lowering("SPACE_TO_DEPTH", types=BLOCK_TYPES, options=SpaceToDepthOptions)
def space_to_depth(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    bs = _block_size(op, x, out)
    n, h, w, c = x.shape
    if h % bs or w % bs:
        raise UnsupportedModel(f"{op}: {h}x{w} is not a multiple of the block size {bs}")
    expect_shape(op, out, (n, h // bs, w // bs, bs * bs * c))
    # Channel (dh * bs + dw) * C + c of an output pixel is input pixel (h * bs + dh, w * bs + dw).
    blocks = ctx.reshape(ctx.value(x), x.shape, (n, h // bs, bs, w // bs, bs, c))
    moved = ctx.emit(relax.op.permute_dims(blocks, [0, 1, 3, 2, 4, 5]))
    return ctx.reshape(moved, (n, h // bs, w // bs, bs, bs, c), out.shape)


@lowering("DEPTH_TO_SPACE", types=BLOCK_TYPES, options=DepthToSpaceOptions)
def depth_to_space(ctx, op):
    x, out = op.inputs[0], op.outputs[0]
    bs = _block_size(op, x, out)
    n, h, w, c = x.shape
    if c % (bs * bs):
        raise UnsupportedModel(f"{op}: {c} channels for a block size of {bs}")
    oc = c // (bs * bs)
    expect_shape(op, out, (n, h * bs, w * bs, oc))
    blocks = ctx.reshape(ctx.value(x), x.shape, (n, h, w, bs, bs, oc))
    moved = ctx.emit(relax.op.permute_dims(blocks, [0, 1, 3, 2, 4, 5]))
    return ctx.reshape(moved, (n, h, bs, w, bs, oc), out.shape)

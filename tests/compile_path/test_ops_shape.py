"""Shape, layout and pooling operators against LiteRT, for each type they take.

Each case is a one-operator model (tflite_builder.py) run on LiteRT's
reference kernels and through the compile path on this host (reference.py).
These operators move values without computing new ones (MAX_POOL_2D picks
one), so every output must equal LiteRT's bit for bit.
"""
import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter
from reference import assert_refused, case_seed, check_against_litert, make_inputs
from tflite_builder import ModelBuilder

TYPES = ("int8", "int16", "float32", "int32")
BLOCK_TYPES = ("int8", "float32", "int32")  # TFLite's SPACE_TO_DEPTH, DEPTH_TO_SPACE
# Each type's quantization: int16 is symmetric in TFLite.
QUANT = {"int8": (0.05, 3), "int16": (0.001, 0), "float32": (None, None),
         "int32": (None, None)}


class Model:
    """A one-operator model: tensors of one type and quantization."""

    def __init__(self, dtype):
        self.b = ModelBuilder()
        self.dtype = dtype
        self.inputs = []

    def act(self, shape, name="x", is_input=True):
        scale, zp = QUANT[self.dtype]
        t = self.b.tensor(shape, self.dtype, name, scale=scale, zero_point=zp)
        if is_input:
            self.inputs.append(t)
        return t

    def ints(self, values, name, dtype="int32"):
        values = np.asarray(values)
        return self.b.tensor(values.shape, dtype, name, data=values)

    def run(self, op, ins, outs, options=None):
        self.b.operator(op, ins, outs, options)
        return self.b.finish(self.inputs, outs)


def squeeze(dtype, shape=(1, 3, 1, 4), dims=(0, 2)):
    m = Model(dtype)
    x = m.act(shape)
    out = [n for i, n in enumerate(shape) if i not in dims and (dims or n != 1)]
    return m.run("SQUEEZE", [x], [m.act(out, "y", False)], {"squeeze_dims": list(dims)})


def expand_dims(dtype, shape=(3, 4), axis=-1):
    m = Model(dtype)
    x = m.act(shape)
    at = axis + len(shape) + 1 if axis < 0 else axis
    out = shape[:at] + (1,) + shape[at:]
    return m.run("EXPAND_DIMS", [x, m.ints([axis], "axis")], [m.act(out, "y", False)])


def transpose(dtype, shape=(2, 3, 4, 5), perm=(0, 3, 1, 2)):
    m = Model(dtype)
    x = m.act(shape)
    y = m.act([shape[p] for p in perm], "y", False)
    return m.run("TRANSPOSE", [x, m.ints(perm, "perm")], [y])


def concatenation(dtype, shapes=((2, 3, 4), (2, 5, 4)), axis=1, constant=False):
    m = Model(dtype)
    rng = np.random.default_rng(1)
    xs = [m.act(s, f"x{i}") for i, s in enumerate(shapes)]
    if constant:
        scale, zp = QUANT[dtype]
        data = (rng.standard_normal(shapes[0]) if dtype == "float32" else
                rng.integers(-100, 100, size=shapes[0]))
        xs.append(m.b.tensor(shapes[0], dtype, "c", scale=scale, zero_point=zp, data=data))
    out = list(shapes[0])
    out[axis] = sum(s[axis] for s in shapes) + (shapes[0][axis] if constant else 0)
    return m.run("CONCATENATION", xs, [m.act(out, "y", False)], {"axis": axis})


def pack(dtype, shape=(3, 4), count=3, axis=1):
    m = Model(dtype)
    xs = [m.act(shape, f"x{i}") for i in range(count)]
    at = axis + len(shape) + 1 if axis < 0 else axis
    out = shape[:at] + (count,) + shape[at:]
    return m.run("PACK", xs, [m.act(out, "y", False)], {"values_count": count, "axis": axis})


def unpack(dtype, shape=(3, 4, 2), axis=1):
    m = Model(dtype)
    x = m.act(shape)
    out = shape[:axis] + shape[axis + 1:]
    ys = [m.act(out, f"y{i}", False) for i in range(shape[axis])]
    return m.run("UNPACK", [x], ys, {"num": shape[axis], "axis": axis})


def split(dtype, shape=(2, 6, 3), num=3, axis=1):
    m = Model(dtype)
    x = m.act(shape)
    out = list(shape)
    out[axis] //= num
    ys = [m.act(out, f"y{i}", False) for i in range(num)]
    return m.run("SPLIT", [m.ints([axis], "axis"), x], ys, {"num_splits": num})


def split_v(dtype, shape=(2, 7, 3), sizes=(2, -1, 1), axis=-2):
    m = Model(dtype)
    x = m.act(shape)
    real = list(sizes)
    if -1 in real:
        real[real.index(-1)] = shape[axis] - sum(s for s in sizes if s != -1)
    ys = []
    for i, s in enumerate(real):
        out = list(shape)
        out[axis] = s
        ys.append(m.act(out, f"y{i}", False))
    return m.run("SPLIT_V", [x, m.ints(sizes, "sizes"), m.ints([axis], "axis")], ys,
                 {"num_splits": len(sizes)})


def slice_(dtype, shape=(3, 5, 4), begin=(1, 0, 2), size=(2, -1, 2), index_type="int32"):
    m = Model(dtype)
    x = m.act(shape)
    out = [n - b if s == -1 else s for n, b, s in zip(shape, begin, size)]
    return m.run("SLICE", [x, m.ints(begin, "begin", index_type), m.ints(size, "size", index_type)],
                 [m.act(out, "y", False)])


def strided_slice(dtype, shape=(4, 6, 5), begin=(1, -1, 0), end=(4, 0, 5), strides=(2, -2, 1),
                  masks=None, out=(2, 3, 5)):
    m = Model(dtype)
    x = m.act(shape)
    ins = [x, m.ints(begin, "begin"), m.ints(end, "end"), m.ints(strides, "strides")]
    return m.run("STRIDED_SLICE", ins, [m.act(out, "y", False)], masks or {})


def gather(dtype, shape=(5, 3, 2), indices=((2, 0), (1, 1)), axis=1, batch_dims=0,
           constant_params=False, index_input=False, index_type="int32"):
    m = Model(dtype)
    rng = np.random.default_rng(2)
    if constant_params:
        scale, zp = QUANT[dtype]
        data = (rng.standard_normal(shape) if dtype == "float32" else
                rng.integers(-100, 100, size=shape))
        params = m.b.tensor(shape, dtype, "params", scale=scale, zero_point=zp, data=data)
    else:
        params = m.act(shape, "params")
    indices = np.asarray(indices)
    if index_input:
        idx = m.b.tensor(indices.shape, index_type, "indices")
        m.inputs.append(idx)
    else:
        idx = m.ints(indices, "indices", index_type)
    out = shape[:axis] + indices.shape[batch_dims:] + shape[axis + 1:]
    return m.run("GATHER", [params, idx], [m.act(out, "y", False)],
                 {"axis": axis, "batch_dims": batch_dims})


def space_to_depth(dtype, shape=(1, 4, 6, 2), block=2):
    m = Model(dtype)
    n, h, w, c = shape
    out = (n, h // block, w // block, c * block * block)
    return m.run("SPACE_TO_DEPTH", [m.act(shape)], [m.act(out, "y", False)],
                 {"block_size": block})


def depth_to_space(dtype, shape=(1, 2, 3, 8), block=2):
    m = Model(dtype)
    n, h, w, c = shape
    out = (n, h * block, w * block, c // (block * block))
    return m.run("DEPTH_TO_SPACE", [m.act(shape)], [m.act(out, "y", False)],
                 {"block_size": block})


def pad(dtype, shape=(1, 3, 4, 2), pads=((0, 0), (1, 2), (2, 0), (0, 1)), value=None,
        index_type="int32"):
    m = Model(dtype)
    x = m.act(shape)
    out = [n + a + b for n, (a, b) in zip(shape, pads)]
    ins = [x, m.ints(pads, "paddings", index_type)]
    if value is not None:
        scale, zp = QUANT[dtype]
        ins.append(m.b.tensor((), dtype, "value", scale=scale, zero_point=zp, data=value))
    return m.run("PADV2" if value is not None else "PAD", ins, [m.act(out, "y", False)])


def resize(dtype, shape=(1, 3, 4, 2), size=(7, 5), align_corners=False,
           half_pixel_centers=False):
    m = Model(dtype)
    x = m.act(shape)
    out = (shape[0], *size, shape[3])
    return m.run("RESIZE_NEAREST_NEIGHBOR", [x, m.ints(size, "size")], [m.act(out, "y", False)],
                 {"align_corners": align_corners, "half_pixel_centers": half_pixel_centers})


def max_pool(dtype, shape=(1, 7, 7, 3), window=(3, 3), stride=2, padding="SAME", act="NONE"):
    m = Model(dtype)
    n, h, w, c = shape
    if padding == "SAME":
        oh, ow = -(-h // stride), -(-w // stride)
    else:
        oh, ow = (h - window[0]) // stride + 1, (w - window[1]) // stride + 1
    return m.run("MAX_POOL_2D", [m.act(shape)], [m.act((n, oh, ow, c), "y", False)],
                 {"padding": padding, "stride_h": stride, "stride_w": stride,
                  "filter_height": window[0], "filter_width": window[1],
                  "fused_activation_function": act})


def _each_type(make, params, name, types=TYPES):
    return [pytest.param(make, dtype, params, id=f"{name}_{dtype}") for dtype in types]


CASES = [
    *_each_type(squeeze, {}, "squeeze"),
    *_each_type(squeeze, dict(shape=(1, 2, 1), dims=()), "squeeze_all", ("int8",)),
    *_each_type(expand_dims, {}, "expand_dims"),
    *_each_type(expand_dims, dict(axis=0), "expand_dims_0", ("float32",)),
    *_each_type(transpose, {}, "transpose"),
    *_each_type(transpose, dict(shape=(3, 5), perm=(1, 0)), "transpose_2d", ("int8",)),
    *_each_type(concatenation, {}, "concat"),
    *_each_type(concatenation, dict(shapes=((2, 3), (2, 1), (2, 4)), axis=-1), "concat_3_last",
                ("int8", "float32")),
    *_each_type(concatenation, dict(shapes=((2, 3),), axis=0, constant=True), "concat_const",
                ("int8", "float32", "int32")),
    *_each_type(pack, {}, "pack"),
    *_each_type(pack, dict(axis=-1, count=2), "pack_last", ("int8",)),
    *_each_type(unpack, {}, "unpack"),
    *_each_type(unpack, dict(shape=(2, 3), axis=0), "unpack_0", ("float32",)),
    *_each_type(split, {}, "split"),
    *_each_type(split, dict(shape=(4, 3), num=2, axis=-2), "split_neg", ("int8",)),
    *_each_type(split_v, {}, "split_v"),
    *_each_type(split_v, dict(shape=(5, 2), sizes=(3, 2), axis=0), "split_v_0", ("int16",)),
    *_each_type(slice_, {}, "slice"),
    *_each_type(slice_, dict(index_type="int64"), "slice_i64", ("int8",)),
    *_each_type(strided_slice, {}, "strided_slice"),
    *_each_type(strided_slice, dict(begin=(0, 1, 0), end=(1, 6, 5), strides=(1, 2, 1),
                                    masks={"begin_mask": 4, "end_mask": 6,
                                           "shrink_axis_mask": 1}, out=(3, 5)),
                "strided_slice_masks", ("int8", "float32")),
    *_each_type(strided_slice, dict(begin=(-3, 10, 0), end=(-1, -100, 2), strides=(1, -3, 1),
                                    out=(2, 2, 2)), "strided_slice_clamp", ("int16",)),
    *_each_type(strided_slice, dict(begin=(0, 2), end=(0, 4), strides=(1, 1),
                                    masks={"ellipsis_mask": 1}, out=(4, 6, 2)),
                "strided_slice_ellipsis", ("int8",)),
    *_each_type(strided_slice, dict(begin=(0, 0, 1), end=(0, 0, 3), strides=(1, 1, 1),
                                    masks={"new_axis_mask": 2, "begin_mask": 1, "end_mask": 1},
                                    out=(4, 1, 2, 5)), "strided_slice_new_axis", ("int8",)),
    *_each_type(strided_slice, dict(begin=(3, 0, 1), end=(-3, 3, 3), strides=(-1, 1, 2),
                                    masks={"offset": True}, out=(3, 3, 2)),
                "strided_slice_offset", ("float32",)),
    *_each_type(strided_slice, dict(begin=(0, 4, 4), end=(2, 0, 0), strides=(-1, -1, -2),
                                    masks={"begin_mask": 1, "end_mask": 6}, out=(1, 5, 3)),
                "strided_slice_reverse_masks", ("int32",)),
    *_each_type(gather, {}, "gather"),
    *_each_type(gather, dict(index_type="int64", axis=2, indices=((1, 0, 0),)),
                "gather_i64_const", ("int16",)),
    *_each_type(gather, dict(axis=0, indices=(3, 0, 3)), "gather_axis0", ("int8",)),
    *_each_type(gather, dict(constant_params=True, index_input=True, axis=0,
                             indices=((1, 4, 0),)), "gather_table", TYPES),
    *_each_type(gather, dict(index_input=True, index_type="int64", axis=2,
                             indices=(1, 0, 1)), "gather_i64_input", ("float32",)),
    *_each_type(gather, dict(shape=(2, 4, 3), indices=((3, 0), (1, 2)), axis=1, batch_dims=1),
                "gather_batch", ("int8",)),
    *_each_type(space_to_depth, {}, "space_to_depth", BLOCK_TYPES),
    *_each_type(depth_to_space, {}, "depth_to_space", BLOCK_TYPES),
    *_each_type(pad, {}, "pad"),
    *_each_type(pad, dict(index_type="int64", shape=(2, 3), pads=((1, 1), (0, 3))), "pad_i64",
                ("int8",)),
    *_each_type(pad, dict(value=7), "padv2", ("int8", "int16", "int32")),
    *_each_type(pad, dict(value=-1.5), "padv2", ("float32",)),
    *_each_type(resize, {}, "resize"),
    *_each_type(resize, dict(size=(2, 3)), "resize_down", ("int8",)),
    *_each_type(resize, dict(align_corners=True), "resize_align", ("int8", "float32")),
    *_each_type(resize, dict(half_pixel_centers=True), "resize_half", ("int16", "float32")),
    *_each_type(resize, dict(size=(2, 7), align_corners=True, half_pixel_centers=False),
                "resize_align_down", ("int32",)),
    *_each_type(resize, dict(shape=(2, 3, 5, 1), size=(8, 13), half_pixel_centers=True),
                "resize_half_up", ("int8",)),
    *_each_type(resize, dict(shape=(1, 5, 7, 1), size=(13, 3), align_corners=True,
                             half_pixel_centers=True), "resize_align_half", ("float32",)),
    *_each_type(max_pool, {}, "maxpool", ("int8", "int16", "float32")),
    *_each_type(max_pool, dict(padding="VALID", window=(2, 3), stride=1, act="RELU"),
                "maxpool_valid_relu", ("int8", "int16", "float32")),
    *_each_type(max_pool, dict(act="RELU6", stride=1), "maxpool_relu6",
                ("int8", "float32")),
    *_each_type(max_pool, dict(act="RELU_N1_TO_1", window=(2, 2)), "maxpool_relu_n1",
                ("int16", "float32")),
]


def _inputs(buf, seed):
    """make_inputs', with an input named "indices" kept in range (0..1: the
    gather cases' smallest axis has 2)."""
    xs = make_inputs(buf, seed)
    names = [d["name"] for d in Interpreter(model_content=buf).get_input_details()]
    return [np.abs(x) % 2 if name == "indices" else x for name, x in zip(names, xs)]


@pytest.mark.parametrize("make, dtype, params", CASES)
def test_matches_litert(make, dtype, params, request):
    buf = make(dtype, **params)
    check_against_litert(buf, _inputs(buf, case_seed(request)), dtype, exact=True, varied=False)


# ---- refusals ----

def transpose_perm_input(dtype="int8"):
    m = Model(dtype)
    x = m.act((2, 3))
    perm = m.b.tensor((2,), "int32", "perm")
    m.inputs.append(perm)
    return m.run("TRANSPOSE", [x, perm], [m.act((3, 2), "y", False)])


def concat_requantized():
    b = ModelBuilder()
    x0 = b.tensor((1, 2), "int8", "x0", scale=0.1, zero_point=0)
    x1 = b.tensor((1, 2), "int8", "x1", scale=0.2, zero_point=0)
    y = b.tensor((1, 4), "int8", "y", scale=0.1, zero_point=0)
    b.operator("CONCATENATION", [x0, x1], [y], {"axis": 1})
    return b.finish([x0, x1], [y])


def _concat_act():
    m = Model("float32")
    xs = [m.act((2, 2), "x0"), m.act((2, 2), "x1")]
    return m.run("CONCATENATION", xs, [m.act((2, 4), "y", False)],
                 {"axis": 1, "fused_activation_function": "RELU"})


def gather_out_of_range():
    return gather("int8", indices=(0, 3), axis=1)


def max_pool_int32():
    return max_pool("int32")


REFUSALS = [
    pytest.param(transpose_perm_input, "TRANSPOSE", id="transpose_perm_not_constant"),
    pytest.param(concat_requantized, "CONCATENATION", id="concat_int8_requantized"),
    pytest.param(_concat_act, "fused activation", id="concat_fused_activation"),
    pytest.param(gather_out_of_range, "outside", id="gather_index_out_of_range"),
    pytest.param(max_pool_int32, "int32", id="maxpool_int32"),
]


@pytest.mark.parametrize("make, named", REFUSALS)
def test_refused_by_name(make, named):
    assert_refused(make(), named)

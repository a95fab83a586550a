"""Writes kernel_shapes.tflite: a chain of int8 CONV_2D, DEPTHWISE_CONV_2D
and FULLY_CONNECTED layers whose shapes take the C micro-kernels' every
path on each CPU (tvm_backend/kernels): channels not in fours, eights or
sixteens, columns of up to 16 inputs and longer ones with a tail, a 1x1
kernel with stride 1 (over a few inputs and over more than 16) and with stride 2, dilation, padding on every side,
a dense layer of four batch rows, two layers whose requantization
shifts are under 33 (their multipliers near 0.3), and one whose
multipliers are about one, some above it (shifts under 31: a left shift). The board test (run_tflite_test)
compares the board's outputs with TVM's VM on the host, bit for bit."""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "compile_path"))

from tflite_builder import ModelBuilder  # noqa: E402

INT8_STD = 74.0  # uniform int8 values' standard deviation
W_SCALE = 0.004
AIM = 40.0  # the output spread aimed at, in LSB


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True, help="the .tflite file to write")
    args = parser.parse_args()
    rng = np.random.default_rng(30)
    b = ModelBuilder()
    shape, scale = (1, 10, 10, 5), 0.05
    x = b.tensor(shape, "int8", "x", scale=scale, zero_point=3)
    t = x

    def layer(op, w_shape, axis, out_shape, options, gain=None, terms=1):
        nonlocal t, shape, scale
        channels = w_shape[axis]
        w_scales = W_SCALE * rng.uniform(0.9, 1.4, channels)
        # Weights in [-1, 1] keep a multiplier of about `gain` off the rails.
        bound = 1 if gain else 127
        data = rng.integers(-bound, bound, size=w_shape, endpoint=True, dtype=np.int8)
        w = b.tensor(w_shape, "int8", f"w{len(b.tensors)}", scale=w_scales, zero_point=0,
                     quant_axis=axis, data=data)
        # A bias of at most 30 LSB of the output.
        bias_bound = 100 if gain else 2000
        bias = b.tensor((channels,), "int32", f"b{len(b.tensors)}", scale=scale * w_scales,
                        zero_point=0,
                        data=rng.integers(-bias_bound, bias_bound, channels, dtype=np.int32))
        out_scale = (scale * W_SCALE / gain if gain
                     else scale * W_SCALE * np.sqrt(terms) * INT8_STD * INT8_STD / AIM)
        y = b.tensor(out_shape, "int8", f"y{len(b.tensors)}", scale=out_scale,
                     zero_point=int(rng.integers(-20, 20)))
        b.operator(op, [t, w, bias], [y], options)
        t, shape, scale = y, out_shape, out_scale

    def conv(out_c, k, stride, dilation, padding, out_hw, act="NONE", gain=None):
        layer("CONV_2D", (out_c, k, k, shape[3]), 0, (1, *out_hw, out_c),
              {"padding": padding, "stride_h": stride, "stride_w": stride,
               "dilation_h_factor": dilation, "dilation_w_factor": dilation,
               "fused_activation_function": act}, gain, k * k * shape[3])

    def depthwise(k, stride, padding, out_hw, act="NONE", gain=None):
        c = shape[3]
        layer("DEPTHWISE_CONV_2D", (1, k, k, c), 3, (1, *out_hw, c),
              {"padding": padding, "stride_h": stride, "stride_w": stride,
               "dilation_h_factor": 1, "dilation_w_factor": 1, "depth_multiplier": 1,
               "fused_activation_function": act}, gain, k * k)

    conv(13, 3, 1, 2, "SAME", (10, 10), "RELU")  # 45 inputs a column, 13 channels
    depthwise(3, 2, "SAME", (5, 5))  # 13 channels: a block of eight and five
    conv(22, 1, 1, 1, "VALID", (5, 5), gain=0.3)  # 13 inputs, in place, shifts under 33
    conv(22, 1, 1, 1, "VALID", (5, 5))  # 22 inputs, 25 pixels in one call (an odd one)
    depthwise(3, 1, "VALID", (3, 3), "RELU_N1_TO_1", gain=0.3)  # 22: sixteen and six
    # 198 inputs, 9 pixels; multipliers about 0.9, some above one (a left shift)
    conv(22, 3, 1, 1, "SAME", (3, 3), gain=0.9)
    conv(20, 1, 2, 1, "VALID", (2, 2))  # 1x1 stride 2: in place, pixel by pixel
    conv(17, 2, 1, 1, "SAME", (2, 2))  # 80 inputs, 17 channels, padded right and below
    depthwise(2, 1, "SAME", (2, 2))  # an even number of taps, 17 channels: four blocks and one
    rows = b.tensor((4, 17), "int8", "rows", scale=scale,
                    zero_point=int(b.tensors[t].zero_point[0]))
    b.operator("RESHAPE", [t], [rows], {"new_shape": [4, 17]})
    t, shape = rows, (4, 17)
    layer("FULLY_CONNECTED", (9, 17), 0, (4, 9), {"fused_activation_function": "NONE"},
          terms=17)  # four batch rows of 17 inputs, 9 channels
    with open(args.out, "wb") as f:
        f.write(b.finish([x], [t]))


if __name__ == "__main__":
    main()

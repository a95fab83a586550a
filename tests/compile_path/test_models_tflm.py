"""Whole models against TensorFlow Lite Micro's interpreter (PyPI
tflite-micro), bit for bit: MLPerf Tiny's four int8 models, whose
convolutions, dense layers and residual ADDs requantize rounding twice as
TFLite Micro does (LiteRT's optimized kernels, rounding once, are up to 47
LSB from it on ResNet-8; LiteRT's reference kernels 1 LSB on anomaly
detection). Skipped where the model files are missing."""
import os

import numpy as np
import pytest
from reference import MLPERF_TINY, host_model, make_inputs

MODELS = ["kws_ref_model", "vww_96_int8", "pretrainedResnet_quant", "ad01_int8"]


@pytest.mark.parametrize("name", MODELS)
def test_equals_tflite_micro(name):
    runtime = pytest.importorskip("tflite_micro.python.tflite_micro.runtime")
    path = os.path.join(MLPERF_TINY, name + ".tflite")
    if not os.path.exists(path):
        pytest.skip(f"{path} is missing")
    with open(path, "rb") as f:
        buf = f.read()
    run = host_model(buf)[0]
    tflm = runtime.Interpreter.from_bytes(buf)
    for seed in range(3):
        x = make_inputs(buf, seed)[0]
        tflm.set_input(x, 0)
        tflm.invoke()
        np.testing.assert_array_equal(run(x)[0], tflm.get_output(0),
                                      err_msg=f"{name}, seed {seed}: not TFLite Micro's")

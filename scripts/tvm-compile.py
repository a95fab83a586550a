#!/usr/bin/env python3
"""Compiles a TFLite model for a board's CPU as ffi-core's system library.

Usage: scripts/tvm-compile.py MODEL.tflite --cpu CPU --out DIR [--name NAME]

Writes DIR/<name>_lib0.o and DIR/<name>_bin.o (link both into the firmware;
the model is the system library's function "main") and DIR/model.json (each
input's and output's name, shape, dtype, quantization and whether it is
state, the RAM the model's activations need, "ram_bytes", and for a model
with state the bytes of the firmware's state buffers, which main updates in
place, "state_bytes", and the function that resets them, "reset"). Where the
model's main is a straight line of kernels, also DIR/<name>_direct.o and
DIR/<name>_weights.o: the same model as one C function without the VM,
ffi_core_<name>_run, which model.json's "entry" describes (link these two
instead of the first two). CPU is a toolchain file's name, or "host". What the compile path does not take (an
operator, a type, an option, a file that is no TFLite model) is refused with
one line, "tvm-compile: <file>: <what>", and exit status 1.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tvm_backend",
                                "python"))

from ffi_core_tvm.compile import compile_relax  # noqa: E402
from ffi_core_tvm.targets import CPUS, import_options  # noqa: E402
from ffi_core_tvm.tflite import UnsupportedModel, from_tflite  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", help="a .tflite file")
    ap.add_argument("--cpu", required=True, choices=CPUS)
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--name", help="object name prefix (default: the file's stem)")
    opts = ap.parse_args()
    name = opts.name or os.path.splitext(os.path.basename(opts.model))[0]
    try:
        with open(opts.model, "rb") as f:
            buf = f.read()
        mod, inputs, outputs = from_tflite(buf, **import_options(opts.cpu))
        info = compile_relax(mod, opts.cpu, opts.out, name, inputs, outputs)
    except (OSError, UnsupportedModel) as e:
        sys.exit(f"tvm-compile: {opts.model}: {e}")
    except Exception as e:  # noqa: BLE001  a user sees one line, never a traceback
        sys.exit(f"tvm-compile: {opts.model}: internal error, please report it: "
                 f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    entry = info["entry"]
    direct = (f"; without the VM: {', '.join(entry['objects'])} ({entry['symbol']}, workspace "
              f"{entry['workspace_bytes']} B)" if entry else "")
    print(f"{name} for {opts.cpu}: {', '.join(info['objects'])} in {opts.out}; "
          f"activations {info['ram_bytes']} B, constants {info['constant_bytes']} B{direct}")


if __name__ == "__main__":
    main()

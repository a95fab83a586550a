#!/usr/bin/env python3
"""The table of scripts/mlperf-tiny.sh, from each run's printout, linker map
and model.json.

Usage: mlperf-tiny-table.py BOARD:MODEL:BUILD_DIR...
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from footprint import sizes  # noqa: E402

# The shared models' README: activation bound (bytes) and microTVM's median
# latency on the L4R5ZI (ms, TVM's own kernels) in MLPerf Tiny v1.0.
FACTS = {"kws": ("KWS", 16000, 144.0), "vww": ("VWW", 55296, 336.6),
         "resnet8": ("ResNet-8", 49152, 389.3), "ad": ("AD", 768, 11.72)}
L4R5ZI_FLASH, L4R5ZI_RAM, L4R5ZI_HZ = 2 << 20, 640 << 10, 120e6


def kb(n):
    return f"{n / 1024:.1f}"


def row(board, model, build):
    text = open(os.path.join(build, f"mlperf_{model}.txt")).read()
    if not re.search(rf"mlperf {model}: \d+ passed, 0 failed", text):
        sys.exit(f"mlperf_{model} failed on {board}:\n{text}")
    insns = int(re.findall(r"instructions per inference: (\d+)", text)[-1])
    runtime_insns = int(re.search(r"runtime: (\d+) instructions", text).group(1))
    mem = re.search(r"plan (\d+) bytes; heap after load (\d+) bytes, after the first input (\d+), "
                    r"peak per inference (\d+)", text)
    plan, _, after_first, peak = (int(g) for g in mem.groups())
    flash, ram, _ = sizes(os.path.join(build, "tests", "tvm", f"mlperf_{model}.map"))
    # The model's RAM: its planned activations, and beside them what the
    # runtime holds (heap after the first input and above the plan during
    # one, the static RAM of ffi-core and the backend).
    runtime_ram = (after_first + peak - plan + ram.get("ffi-core", 0) +
                   ram.get("tvm backend", 0))
    model_flash = sum(flash.get(k, 0) for k in ("model", "weights", "ffi-core", "tvm backend",
                                               "runtime", "board"))
    model_ram = plan + runtime_ram + ram.get("runtime", 0) + ram.get("board", 0)
    name, bound, latency_ms = FACTS[model]
    ram_goal = 1.5 * bound + 16384
    fits = model_flash <= L4R5ZI_FLASH and model_ram <= L4R5ZI_RAM
    return (f"| {name} | {board} | {kb(flash.get('model', 0))} | {kb(flash.get('weights', 0))} | "
            f"{kb(flash.get('ffi-core', 0))} | {kb(flash.get('tvm backend', 0))} | {kb(plan)} | "
            f"{kb(runtime_ram)} | {kb(plan + runtime_ram)} ({'≤' if plan + runtime_ram <= ram_goal else '>'} "
            f"{kb(ram_goal)}) | {insns / 1e6:.2f} M | {100.0 * runtime_insns / insns:.2f} % | "
            f"{kb(bound)} | {latency_ms * 1e-3 * L4R5ZI_HZ / 1e6:.1f} M | "
            f"{kb(model_flash)} / {kb(model_ram)} {'yes' if fits else 'NO'} |")


def main():
    print("| model | board | flash KB: model code | constants | ffi-core | TVM backend | "
          "RAM KB: activations | runtime | model total (goal) | instructions / inference | "
          "runtime share | activation bound KB | microTVM on L4R5ZI × 120 MHz | "
          "fits L4R5ZI (flash / RAM KB, 2048 / 640) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    runs = [a.split(":", 2) for a in sys.argv[1:]]
    order = list(FACTS)
    for board, model, build in sorted(runs, key=lambda r: (order.index(r[1]),)):
        print(row(board, model, build))


if __name__ == "__main__":
    main()

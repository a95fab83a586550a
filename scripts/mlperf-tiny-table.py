#!/usr/bin/env python3
"""The tables of scripts/mlperf-tiny.sh and scripts/tflm-examples.sh, from
each run's printout, cycle model log (tools/cycle-model) and linker map.
TARGET is the test firmware: mlperf_<model> (MLPerf Tiny's table, with the
published figures beside it) or tflm_<model> (TFLite Micro's examples).

Usage: mlperf-tiny-table.py BOARD:TARGET:BUILD_DIR...
"""
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
# Published MLPerf Tiny records on silicon of each board's class of core,
# latency times clock in millions of cycles (KWS, VWW, ResNet-8, AD).
RECORDS = {
    "mps2-an386": [("L4R5ZI X-CUBE-AI 9.0", (5.18, 10.67, 19.82, 0.63)),
                   ("Plumerai", (None, None, None, 0.486)),
                   ("microTVM + CMSIS-NN", (11.98, 36.14, 46.75, 1.03))],
    "mps2-an500": [("H7A3 (M7) X-CUBE-AI 9.0", (3.17, 6.67, 11.44, 0.343))],
    "mps2-an505": [("U575 (M33) X-CUBE-AI 10.2", (4.64, 9.48, 17.52, 0.51))],
    "mps3-an547": [("RA8D1 (M85) TFLM + CMSIS-NN", (1.66, 6.43, 4.07, 0.255))],
}


def kb(n):
    return f"{n / 1024:.1f}"


def records(board, model):
    at = list(FACTS).index(model)
    found = [f"{who} {figures[at]} M" for who, figures in RECORDS.get(board, [])
             if figures[at] is not None]
    return "; ".join(found) or "–"


def modeled_cycles(board, target, build, per_inference):
    """The cycles of the last inference: the cycle model logs one region for
    each call the firmware measures, the inferences first (one per printed
    figure), then the kernels alone."""
    log = open(os.path.join(build, f"{target}.cycles")).read()
    regions = [(int(c), int(i)) for c, i in
               re.findall(r"region \d+: (\d+) cycles, (\d+) instructions", log)]
    if len(regions) < len(per_inference):
        sys.exit(f"{target} on {board}: {len(regions)} cycle model regions for "
                 f"{len(per_inference)} inferences")
    cycles, insns = regions[len(per_inference) - 1]
    # The model counts between the markers, SysTick a few instructions wider.
    if abs(insns - per_inference[-1]) > 100 + per_inference[-1] // 1000:
        sys.exit(f"{target} on {board}: the cycle model's region has {insns} "
                 f"instructions, the firmware counted {per_inference[-1]}")
    return cycles


# The owners of a firmware's flash that the model takes with it.
MODEL_FLASH = ("model", "weights", "ffi-core", "tvm backend", "runtime", "board")


def run_figures(board, target, build, passed):
    """The printout of one run, which must have its pass line `passed`;
    instructions and modeled cycles of the last call and the runtime's
    instructions in it; flash and RAM by owner."""
    text = open(os.path.join(build, f"{target}.txt")).read()
    if not re.search(rf"{passed}: \d+ passed, 0 failed", text):
        sys.exit(f"{target} failed on {board}:\n{text}")
    per_inference = [int(n) for n in re.findall(r"instructions per inference: (\d+)", text)]
    flash, ram, _ = sizes(os.path.join(build, "tests", "tvm", f"{target}.map"))
    return text, {"insns": per_inference[-1],
                  "cycles": modeled_cycles(board, target, build, per_inference),
                  "runtime_insns": int(re.search(r"runtime: (\d+) instructions", text).group(1)),
                  "flash": flash,
                  "model_flash": sum(flash.get(k, 0) for k in MODEL_FLASH)}, ram


def measure(board, target, build):
    """The figures of one run: flash by owner, the planned activations, the
    state carried between calls, the runtime's RAM, the model's flash and
    RAM with the C runtime and board support, instructions and modeled
    cycles of the last call, and the runtime's instructions in it."""
    suite, model = target.split("_", 1)
    text, f, ram = run_figures(board, target, build, f"{suite} {model}")
    mem = re.search(r"plan (\d+) bytes; heap after load (\d+) bytes, after the first input (\d+), "
                    r"peak per inference (\d+)", text)
    plan, _, after_first, peak = (int(g) for g in mem.groups())
    state = re.search(r"state (\d+) bytes between calls", text)
    f["state"] = int(state.group(1)) if state else 0
    # The model's RAM: its planned activations, and beside them what the
    # runtime holds (heap after the first input and above the plan during
    # one, the static RAM of ffi-core and the backend).
    f["plan"] = plan
    f["runtime_ram"] = (after_first + peak - plan + ram.get("ffi-core", 0) +
                        ram.get("tvm backend", 0))
    f["model_ram"] = (plan + f["state"] + f["runtime_ram"] + ram.get("runtime", 0) +
                      ram.get("board", 0))
    return f


def measure_direct(board, target, build):
    """The figures of a run through the direct entry: flash by owner, the
    caller's buffers (workspace, outputs), the static RAM of ffi-core and
    the backend, the model's flash and RAM with the C runtime and board
    support, instructions and modeled cycles of the last call, and the
    runtime's instructions in it."""
    suite, model = target[:-len("_direct")].split("_", 1)
    text, f, ram = run_figures(board, target, build, f"{suite} {model} direct")
    mem = re.search(r"workspace (\d+) bytes, outputs (\d+) bytes, state (\d+) bytes", text)
    workspace, outputs, state = (int(g) for g in mem.groups())
    static = ram.get("ffi-core", 0) + ram.get("tvm backend", 0)
    f.update(workspace=workspace, outputs=outputs, state=state, static=static,
             model_ram=(workspace + outputs + state + static + ram.get("runtime", 0) +
                        ram.get("board", 0)))
    return f


def direct_row(board, target, build):
    model = target[len("mlperf_"):-len("_direct")]
    m = measure_direct(board, target, build)
    flash = m["flash"]
    name, bound, _ = FACTS[model]
    return (f"| {name} | {board} | {kb(flash.get('model', 0))} | {kb(flash.get('weights', 0))} | "
            f"{kb(flash.get('ffi-core', 0))} | {kb(flash.get('tvm backend', 0))} | "
            f"{kb(m['workspace'])} | {kb(m['outputs'])} | {kb(m['static'])} | "
            f"{kb(m['model_flash'])} / {kb(m['model_ram'])} | {m['insns'] / 1e6:.2f} M | "
            f"{m['cycles'] / 1e6:.2f} M | {records(board, model)} | "
            f"{100.0 * m['runtime_insns'] / m['insns']:.2f} % | {kb(bound)} |")


def row(board, target, build):
    model = target.split("_", 1)[1]
    m = measure(board, target, build)
    flash, plan, runtime_ram, insns = m["flash"], m["plan"], m["runtime_ram"], m["insns"]
    cycles, runtime_insns, model_flash, model_ram = (m["cycles"], m["runtime_insns"],
                                                    m["model_flash"], m["model_ram"])
    name, bound, latency_ms = FACTS[model]
    ram_goal = 1.5 * bound + 16384
    fits = model_flash <= L4R5ZI_FLASH and model_ram <= L4R5ZI_RAM
    return (f"| {name} | {board} | {kb(flash.get('model', 0))} | {kb(flash.get('weights', 0))} | "
            f"{kb(flash.get('ffi-core', 0))} | {kb(flash.get('tvm backend', 0))} | {kb(plan)} | "
            f"{kb(runtime_ram)} | {kb(plan + runtime_ram)} ({'≤' if plan + runtime_ram <= ram_goal else '>'} "
            f"{kb(ram_goal)}) | {insns / 1e6:.2f} M | {cycles / 1e6:.2f} M | "
            f"{records(board, model)} | {100.0 * runtime_insns / insns:.2f} % | "
            f"{kb(bound)} | {latency_ms * 1e-3 * L4R5ZI_HZ / 1e6:.1f} M | "
            f"{kb(model_flash)} / {kb(model_ram)} {'yes' if fits else 'NO'} |")


def tflm_row(board, target, build):
    m = measure(board, target, build)
    flash = m["flash"]
    return (f"| {target.split('_', 1)[1]} | {board} | {kb(flash.get('model', 0))} | "
            f"{kb(flash.get('weights', 0))} | {kb(flash.get('ffi-core', 0))} | "
            f"{kb(flash.get('tvm backend', 0))} | {kb(m['plan'])} | {kb(m['state'])} | "
            f"{kb(m['runtime_ram'])} | {kb(m['model_flash'])} / {kb(m['model_ram'])} | "
            f"{m['insns'] / 1e6:.3f} M | {m['cycles'] / 1e6:.3f} M | "
            f"{100.0 * m['runtime_insns'] / m['insns']:.2f} % |")


def main():
    runs = [a.split(":", 2) for a in sys.argv[1:]]
    if all(target.startswith("tflm_") for _, target, _ in runs):
        print("| model | board | flash KB: model code | constants | ffi-core | TVM backend | "
              "RAM KB: activations | state between calls | runtime | with C runtime and board: "
              "flash / RAM KB | instructions / inference | modeled cycles / inference | "
              "runtime share |")
        print("|---" * 13 + "|")
        for board, target, build in runs:
            print(tflm_row(board, target, build))
        return
    if all(target.endswith("_direct") for _, target, _ in runs):
        print("| model | board | flash KB: model code | constants | ffi-core | TVM backend | "
              "RAM KB: workspace | outputs | ffi-core and backend (static) | "
              "with C runtime and board: flash / RAM KB | instructions / inference | "
              "modeled cycles / inference | published records on the core's class (cycles) | "
              "runtime share | activation bound KB |")
        print("|---" * 15 + "|")
        order = list(FACTS)
        for board, target, build in sorted(
                runs, key=lambda r: (order.index(r[1][len("mlperf_"):-len("_direct")]),)):
            print(direct_row(board, target, build))
        return
    print("| model | board | flash KB: model code | constants | ffi-core | TVM backend | "
          "RAM KB: activations | runtime | model total (goal) | instructions / inference | "
          "modeled cycles / inference | published records on the core's class (cycles) | "
          "runtime share | activation bound KB | microTVM on L4R5ZI × 120 MHz | "
          "fits L4R5ZI (flash / RAM KB, 2048 / 640) |")
    print("|---" * 16 + "|")
    order = list(FACTS)
    for board, target, build in sorted(runs, key=lambda r: (order.index(r[1][len("mlperf_"):]),)):
        print(row(board, target, build))


if __name__ == "__main__":
    main()

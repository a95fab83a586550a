#!/usr/bin/env python3
"""Modeled cycles and instructions of each kernel call of one MLPerf Tiny
model on one board, from a run of scripts/mlperf-tiny.sh --direct: the
cycle model's regions after the inferences are the kernels, timed alone in
the order of model_data.h's kKernelCalls. Prints each call, then each
kernel kind's total, largest first: where a model's cycles go. Each call's
region is the cycle model's number for it (region=K with profile=FILE:
scripts/cycle-profile.py).

Usage: scripts/mlperf-layers.py BOARD MODEL   (MODEL: kws, vww, resnet8, ad)
"""
import os
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    board, model = sys.argv[1:]
    build = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build",
                         f"mlperf-{board}")
    log_path = os.path.join(build, f"mlperf_{model}_direct.cycles")
    data_path = os.path.join(build, "tests", "tvm", "models", "mlperf", model, "model_data.h")
    for path in (log_path, data_path):
        if not os.path.exists(path):
            sys.exit(f"mlperf-layers: no {path}: run scripts/mlperf-tiny.sh --direct {board}")
    regions = [(int(c), int(i)) for c, i in re.findall(
        r"region \d+: (\d+) cycles, (\d+) instructions", open(log_path).read())]
    calls = re.findall(r'\{"(\w+)", \d+, \{(.*)\}\},\n', open(data_path).read())
    inferences = len(regions) - len(calls)
    if inferences < 1:
        sys.exit(f"mlperf-layers: {len(regions)} regions for {len(calls)} kernel calls")
    cycles, insns = regions[inferences - 1]
    print(f"{model} on {board}: {cycles / 1e6:.3f} M cycles, {insns / 1e6:.3f} M instructions "
          "an inference")
    print("| kernel | region | output shape | M cycles | M instructions | cycles / instruction |")
    print("|---|---|---|---|---|---|")
    kinds = {}
    for k, ((name, args), (c, i)) in enumerate(zip(calls, regions[inferences:])):
        shape = re.findall(r"\{(\d+(?:, \d+)*)\}, (?:true|false), (?:true|false)", args)[-1]
        print(f"| {name} | {inferences + k + 1} | {shape} | {c / 1e6:.3f} | {i / 1e6:.3f} | {c / max(i, 1):.2f} |")
        kind = kinds.setdefault(re.sub(r"\d+$", "", name), [0, 0])
        kind[0] += c
        kind[1] += i
    print("\n| kernel kind | M cycles | share of the inference | M instructions |")
    print("|---|---|---|---|")
    for kind, (c, i) in sorted(kinds.items(), key=lambda k: -k[1][0]):
        print(f"| {kind} | {c / 1e6:.3f} | {100.0 * c / cycles:.1f} % | {i / 1e6:.3f} |")


if __name__ == "__main__":
    main()

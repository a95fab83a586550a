#!/usr/bin/env python3
"""Where a run's modeled cycles go: the cycle model's profile (its
profile=FILE option, tools/cycle-model) mapped onto the ELF's functions,
largest first, or onto one function's instructions.

    scripts/cycle-profile.py ELF PROFILE [--function NAME] [--top K]

Without --function it prints each function's runs of instructions and
cycles; with it, the function's disassembly with each instruction's runs and
cycles beside it. To profile one MLPerf Tiny layer, run the direct entry as
scripts/mlperf-tiny.sh does with `profile=FILE,region=K` added to the
plugin's arguments, K the layer's region (scripts/mlperf-layers.py
prints them).
"""
import argparse
import bisect
import collections
import subprocess
import sys


def tool(elf, name):
    """The binutils tool for the ELF's machine."""
    with open(elf, "rb") as f:
        head = f.read(20)
    machine = int.from_bytes(head[18:20], "little")
    return ("riscv64-unknown-elf-" if machine == 243 else "arm-none-eabi-") + name


def machine_args(elf):
    """objdump's machine for a Helium (MVE) ELF, whose vector instructions
    it otherwise prints as coprocessor ones (cdp2, ldc)."""
    if tool(elf, "").startswith("riscv"):
        return []
    attrs = subprocess.run([tool(elf, "readelf"), "-A", elf], check=True, capture_output=True,
                           text=True).stdout
    return ["-m", "armv8.1-m.main"] if "Tag_MVE_arch" in attrs else []


def read_profile(path):
    runs, cycles = collections.Counter(), collections.Counter()
    with open(path) as f:
        for line in f:
            addr, r, c = line.split()
            runs[int(addr, 16)] += int(r)
            cycles[int(addr, 16)] += int(c)
    return runs, cycles


def functions(elf):
    out = subprocess.run([tool(elf, "nm"), "-n", "--defined-only", elf], check=True,
                         capture_output=True, text=True).stdout
    starts, names = [], []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            starts.append(int(fields[0], 16) & ~1)
            names.append(fields[2])
    return starts, names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("elf")
    ap.add_argument("profile")
    ap.add_argument("--function")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    runs, cycles = read_profile(args.profile)
    total = sum(cycles.values())
    if total == 0:
        sys.exit("cycle-profile: the profile holds no cycles")
    if args.function:
        out = subprocess.run([tool(args.elf, "objdump"), "-d", "--no-show-raw-insn",
                              *machine_args(args.elf), f"--disassemble={args.function}",
                              args.elf], check=True, capture_output=True, text=True).stdout
        mine = 0
        for line in out.splitlines():
            head = line.split(":", 1)[0].strip()
            try:
                addr = int(head, 16)
            except ValueError:
                continue
            if "\t" not in line:
                continue
            mine += cycles[addr]
            print(f"{runs[addr]:>10} {cycles[addr]:>10}  {line.strip()}")
        print(f"{args.function}: {mine} of {total} cycles ({100 * mine / total:.1f} %)")
        return
    starts, names = functions(args.elf)
    by_fn_runs, by_fn_cycles = collections.Counter(), collections.Counter()
    for addr, c in cycles.items():
        k = bisect.bisect_right(starts, addr) - 1
        name = names[k] if k >= 0 else "?"
        by_fn_cycles[name] += c
        by_fn_runs[name] += runs[addr]
    print(f"{total} cycles, {sum(runs.values())} instructions")
    print("| function | cycles | share | instructions | cycles / instruction |")
    print("|---|---|---|---|---|")
    for name, c in by_fn_cycles.most_common(args.top):
        r = by_fn_runs[name]
        print(f"| {name} | {c} | {100 * c / total:.1f} % | {r} | {c / max(r, 1):.2f} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Instructions per function from a QEMU trace, for one call of a function.

Run the firmware with `-icount shift=0 -d in_asm,exec,nochain -D LOG`
(boards/qemu-run.sh: FFI_CORE_QEMU_ICOUNT=1 FFI_CORE_QEMU_ARGS="-d
in_asm,exec,nochain -D LOG"), then

    scripts/qemu-profile.py LOG --call FUNCTION --caller CALLER [--nth N] [--top K]

counts the guest instructions of every function executed between the N-th
move from CALLER into FUNCTION and the next move from FUNCTION back to CALLER
(names as the trace prints them: mangled), and prints them largest first. A
trace shows moves, not calls: a return into FUNCTION from a function it called
is not taken for an entry because it does not come from CALLER. in_asm prints each translation
block's instructions once, when it is translated, and the exec line that
follows is its first run: every later run of that block (the same host
address) is charged the same count. Without --call, the whole log is counted.
"""
import argparse
import collections
import sys


def profile(path, call, caller, nth):
    sizes = {}  # host address of a translated block -> guest instructions
    counts = collections.Counter()
    pending = None  # instructions of the block just translated
    in_block = False
    entries = 0
    on = call is None
    prev = None
    with open(path, errors="replace") as log:
        for line in log:
            if line.startswith("IN:"):
                pending, in_block = 0, True
                continue
            if in_block:
                if line.startswith("0x"):
                    pending += 1
                    continue
                in_block = False
            if not line.startswith("Trace"):
                continue
            fields = line.split()
            host = fields[2]
            name = fields[4] if len(fields) > 4 else "?"
            if pending is not None:
                sizes[host] = pending
                pending = None
            if call is not None:
                if not on and name == call and prev == caller:
                    entries += 1
                    on = entries == nth
                elif on and prev == call and name == caller:
                    return counts
            if on:
                counts[name] += sizes.get(host, 0)
            prev = name
    if call is not None and not on:
        sys.exit(f"qemu-profile: {call} entered {entries} times, fewer than {nth}")
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--call", help="the function whose call is measured")
    parser.add_argument("--caller", help="the function that makes the call")
    parser.add_argument("--nth", type=int, default=1, help="which entry into it (from 1)")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    if (args.call is None) != (args.caller is None):
        parser.error("--call and --caller go together")
    counts = profile(args.log, args.call, args.caller, args.nth)
    print(f"{sum(counts.values())} instructions")
    for name, n in counts.most_common(args.top):
        print(f"{n:10d}  {name}")


if __name__ == "__main__":
    main()

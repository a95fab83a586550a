#!/usr/bin/env python3
"""Splits a GNU ld map file's flash and RAM use by owner: ffi-core
(libffi_core.a), the C/C++ runtime (newlib, libstdc++, libgcc, crt), the
board support (startup, syscalls) and the application. Prints one row.
With --tvm, also TVM's model code (its objects under models/; the
`*_devc.o` or the compile path's `*_bin.o` holding an executable's weights,
or `*_weights.o` the direct entry's, apart, as "weights") and the TVM
backend and Relax VM (libffi_core_tvm.a) apart from the application.

With --empty <empty.map> (an empty firmware with the same board support),
also the whole image and what this firmware adds over the empty one:
everything it pulls in, libc and libgcc included.

Usage: footprint.py [--tvm] [--empty <empty.map>] <board> <file.map>
"""
import re
import sys

FLASH = (".text", ".rodata", ".srodata", ".ARM.exidx", ".ARM.extab", ".init", ".fini", ".vectors",
         ".isr_vector")
RAM = (".bss", ".sbss", ".tbss", ".data", ".sdata", ".tdata", "COMMON", ".noinit")
# .data is in RAM and its initial image also in flash (RISC-V: also the small
# data .sdata and the thread-local .tdata).
DATA = (".data", ".sdata", ".tdata")

# An output section's header, at column 0: its whole size, alignment fill
# included.
OUTPUT = re.compile(r"^(\.[\w.]+)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)")
LINE = re.compile(r"^\s*(\.[\w.$]+|COMMON)?\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S+\.(?:a|o|obj)\S*)$")


def owner(path):
    if "libffi_core.a" in path or "libffi_core_containers.a" in path:
        return "ffi-core"
    if "libffi_core_tvm.a" in path:
        return "tvm backend"
    if re.search(r"(^|/)models/((mlperf|tflm)/\w+/)?\w+_(devc|bin|weights)\.o$", path):
        return "weights"
    if re.search(r"(^|/)models/((mlperf|tflm)/\w+/)?\w+\.o$", path):
        return "model"
    if "ffi_core_board" in path or "/boards/" in path:
        return "board"
    if re.search(r"lib(c|c_nano|g|g_nano|m|stdc\+\+|stdc\+\+_nano|supc\+\+|supc\+\+_nano|gcc|nosys)\.a|crt\w*\.o", path):
        return "runtime"
    return "app"


def sizes(map_path):
    """Flash and RAM bytes by owner, from a linker map."""
    text = open(map_path, encoding="utf-8", errors="replace").read()
    text = text.split("Linker script and memory map", 1)[-1]
    flash = {}
    ram = {}
    pending = None
    span = None  # [start, end) of the bytes counted last
    whole = [0, 0]  # flash, RAM: the output sections, fill included
    for raw in text.splitlines():
        # ld wraps long section names onto their own line.
        if pending is not None and raw.startswith(" " * 16):
            raw = pending + raw
            pending = None
        elif re.match(r"^\s*\.[\w.$]+$", raw):
            pending = raw.rstrip()
            continue
        else:
            pending = None
        out = OUTPUT.match(raw)
        if out:
            name, addr, size = out.group(1), int(out.group(2), 16), int(out.group(3), 16)
            if name.startswith(FLASH) or name.startswith(DATA):
                whole[0] += size
            if name.startswith(RAM):
                whole[1] += size
            continue
        m = LINE.match(raw)
        if not m:
            continue
        section, addr, size, path = m.group(1) or "", int(m.group(2), 16), int(m.group(3), 16), m.group(4)
        if size == 0 or addr == 0 and not section.startswith(".vectors"):
            continue
        # Merged string sections can be listed at the same address as the
        # one before (ld shows the merged block under both): count each
        # byte once.
        if span is not None and span[0] <= addr < span[1]:
            end = addr + size
            size = max(0, end - span[1])
            span = (span[0], max(span[1], end))
            if size == 0:
                continue
        else:
            span = (addr, addr + size)
        who = owner(path)
        if section.startswith(FLASH):
            flash[who] = flash.get(who, 0) + size
        elif section.startswith(DATA):
            flash[who] = flash.get(who, 0) + size
            ram[who] = ram.get(who, 0) + size
        elif section.startswith(RAM):
            ram[who] = ram.get(who, 0) + size
    return flash, ram, whole


def main():
    args = sys.argv[1:]
    tvm = args[0] == "--tvm"
    if tvm:
        args = args[1:]
    empty = None
    if args[0] == "--empty":
        empty = args[1]
        args = args[2:]
    board, map_path = args
    flash, ram, whole = sizes(map_path)
    cols = ["ffi-core", "runtime", "board", "app"]
    if tvm:
        cols = ["ffi-core", "tvm backend", "model", "weights", "runtime", "board", "app"]
    else:
        # Without --tvm, TVM's pieces count as the application's.
        for table in (flash, ram):
            for key in ("tvm backend", "model", "weights"):
                table["app"] = table.get("app", 0) + table.pop(key, 0)
    row = "| %-18s | %s | %s |" % (
        board,
        " | ".join("%6d" % flash.get(c, 0) for c in cols),
        " | ".join("%6d" % ram.get(c, 0) for c in cols))
    if empty is not None:
        empty_whole = sizes(empty)[2]
        whole_flash, whole_ram = whole
        added_flash = whole_flash - empty_whole[0]
        added_ram = whole_ram - empty_whole[1]
        row += " %6d | %6d | %6d | %6d | %6d | %6d |" % (
            whole_flash, whole_ram, added_flash, added_ram,
            added_flash - flash.get("app", 0), added_ram - ram.get("app", 0))
    print(row)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Prints the operator x type table of the compile path, from its registry
(tvm_backend/python/ffi_core_tvm/tflite/registry.py): one row per TFLite
builtin operator with a lowering, a mark under each activation type it takes.

Usage: scripts/tflite-ops-table.py            print the table
       scripts/tflite-ops-table.py --check F  exit 1 unless F holds it, current
(scripts/update-doc-tables.py puts it in docs/tflite-operators.md.)
"""
import os
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "tvm_backend", "python"))

from ffi_core_tvm.tflite import lowerings  # noqa: E402
from ffi_core_tvm.tflite.registry import TYPES  # noqa: E402


def table():
    rows = ["| operator | " + " | ".join(TYPES) + " | notes |",
            "|---|" + "---|" * len(TYPES) + "---|"]
    for entry in lowerings():
        marks = ["yes" if t in entry.types else "" for t in TYPES]
        rows.append(f"| {entry.op} | " + " | ".join(marks) + f" | {entry.note} |")
    return rows


def main():
    rows = table()
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        with open(sys.argv[2], encoding="utf-8") as f:
            held = [line for line in f.read().split("\n") if line.startswith("|")]
        if held != rows:
            sys.exit(f"{sys.argv[2]}: the operator table is stale: run "
                     "scripts/update-doc-tables.py scripts/tflite-ops-table.py")
        print(f"{sys.argv[2]}: the operator table is current ({len(rows) - 2} operators)")
        return
    if len(sys.argv) != 1:
        sys.exit(__doc__)
    print("\n".join(rows))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Regenerates the tables in the Markdown guides from the scripts that measure them.

A generated table sits between two markers:
    <!-- table: scripts/footprint.sh ARGS -->
    | ... the table lines the script printed ... |
    <!-- end table -->
This runs each named script once (with its arguments, from the repo root) and
puts the lines of its output that are table rows (starting with '|') between
the markers. Tables are never edited by hand: rerun this after a change that
moves a figure. scripts/check-docs.py checks the markers.
Usage: scripts/update-doc-tables.py [SCRIPT ...]   (default: every table)
"""

import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
OPEN = re.compile(r"^<!-- table: (.+?) -->$")
CLOSE = "<!-- end table -->"


def main():
    only = set(sys.argv[1:])
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    outputs = {}
    for rel in files:
        path = os.path.join(ROOT, rel)
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        out, i, changed = [], 0, False
        while i < len(lines):
            out.append(lines[i])
            m = OPEN.match(lines[i].strip())
            if not m or (only and shlex.split(m.group(1))[0] not in only):
                i += 1
                continue
            command = m.group(1)
            end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == CLOSE)
            if command not in outputs:
                print(f"running {command}", flush=True)
                result = subprocess.run(shlex.split(command), cwd=ROOT, capture_output=True, text=True)
                if result.returncode != 0:
                    sys.stderr.write(result.stderr)
                    print(f"{command} failed ({result.returncode}); {rel} left as it was", file=sys.stderr)
                    return 1
                outputs[command] = [l for l in result.stdout.split("\n") if l.startswith("|")]
            out += outputs[command]
            changed = changed or lines[i + 1:end] != outputs[command]
            i = end
        if changed:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(out))
            print(f"updated {rel}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Call-cost benchmark: builds apps/bench for each board (-Os, checking mode
# off) and runs it in QEMU with -icount shift=0, printing instructions per
# operation, each board's run and then one table of them all. Deterministic:
# the same binary prints the same figures.
# Usage: scripts/bench.sh [board...]
#   (default: microbit mps2-an385 mps2-an386 riscv32-virt-imc riscv32-virt)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=(microbit mps2-an385 mps2-an386 riscv32-virt-imc riscv32-virt)
runs=()
for board in "${BOARDS[@]}"; do
  dir="build/bench-${board}"
  build_board_app "$board" ffi_core_bench "$dir" -DFFI_CORE_CHECK_PADDING=OFF -DFFI_CORE_BUILD_TESTS=OFF
  FFI_CORE_QEMU_ICOUNT=1 board_qemu_run "$board" "$dir/apps/bench/ffi_core_bench.elf" \
    | tee "$dir/bench.txt"
  runs+=("$board=$dir/bench.txt")
done
# One row per operation, one column per board; figures as the firmware printed them.
python3 - "${runs[@]}" <<'EOF'
import re, sys
boards, rows = [], {}
for arg in sys.argv[1:]:
    board, path = arg.split("=", 1)
    boards.append(board)
    for line in open(path):
        m = re.match(r"^  (.+?)\s+(\d+\.\d\d)$", line.rstrip())
        if m:
            rows.setdefault(m.group(1), {})[board] = m.group(2).removesuffix(".00")
print()
print("| operation | " + " | ".join(boards) + " |")
print("|---|" + "---|" * len(boards))
for name, cells in rows.items():
    print(f"| {name} | " + " | ".join(cells.get(b, "") for b in boards) + " |")
EOF

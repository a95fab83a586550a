#!/usr/bin/env bash
# Call-cost benchmark: builds apps/bench for each board (-Os, checking mode
# off) and runs it in QEMU with -icount shift=0, printing instructions per
# operation. Deterministic: the same binary prints the same figures.
# Usage: scripts/bench.sh [board...]   (default: microbit mps2-an385 mps2-an386)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=(microbit mps2-an385 mps2-an386)
for board in "${BOARDS[@]}"; do
  dir="build/bench-${board}"
  build_board_app "$board" ffi_core_bench "$dir" -DFFI_CORE_CHECK_PADDING=OFF -DFFI_CORE_BUILD_TESTS=OFF
  FFI_CORE_QEMU_ICOUNT=1 boards/qemu-run.sh "$(qemu_machine "$board")" "$dir/apps/bench/ffi_core_bench.elf"
done

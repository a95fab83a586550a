#!/usr/bin/env bash
# The README's main job: sets up a fresh machine, builds the demo firmware
# for a board (default mps2-an386) and runs it in QEMU.
# Usage: scripts/demo.sh [board]   (boards: see boards/README.md)
set -euo pipefail
cd "$(dirname "$0")/.."
board="${1:-mps2-an386}"
scripts/setup.sh
. scripts/board-lib.sh
build_board_app "$board" ffi_core_demo "build/${board}"
echo "running build/${board}/apps/demo/ffi_core_demo.elf on QEMU -machine $(qemu_machine "$board")"
board_qemu_run "$board" "build/${board}/apps/demo/ffi_core_demo.elf"

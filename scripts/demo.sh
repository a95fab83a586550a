#!/usr/bin/env bash
# The README's main job: sets up a fresh machine, builds the demo firmware
# for a board (default mps2-an386) and runs it in QEMU.
# Usage: scripts/demo.sh [board]   (boards: see boards/README.md)
set -euo pipefail
cd "$(dirname "$0")/.."
board="${1:-mps2-an386}"
if [ ! -f "boards/${board}/board.cmake" ]; then
  echo "unknown board '${board}'; one of: $(cd boards && ls -d */ | tr -d / | grep -v common | tr '\n' ' ')" >&2
  exit 2
fi
scripts/setup.sh
cmake --preset "$board" >/dev/null
cmake --build --preset "$board" --target ffi_core_demo -j"$(nproc)" >/dev/null
machine="$(sed -n 's/^set(FFI_CORE_QEMU_MACHINE \(.*\))$/\1/p' "boards/${board}/board.cmake")"
echo "running build/${board}/apps/demo/ffi_core_demo.elf on qemu-system-arm -machine ${machine}"
exec boards/qemu-run.sh "$machine" "build/${board}/apps/demo/ffi_core_demo.elf"

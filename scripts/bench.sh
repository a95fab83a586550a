#!/usr/bin/env bash
# Call-cost benchmark: builds apps/bench for each board (-Os, checking mode
# off) and runs it in QEMU with -icount shift=0, printing instructions per
# operation. Deterministic: the same binary prints the same figures.
# Usage: scripts/bench.sh [board...]   (default: microbit mps2-an385 mps2-an386)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
declare -A PORT=([mps2-an385]=cortex_m [mps2-an386]=cortex_m [mps2-an500]=cortex_m
                 [mps2-an505]=cortex_m [mps3-an547]=cortex_m [mps2-an385-armv6m]=cortex_m0
                 [microbit]=cortex_m0)
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=(microbit mps2-an385 mps2-an386)
for board in "${BOARDS[@]}"; do
  dir="build/bench-${board}"
  cmake -S . -B "$dir" -DFFI_CORE_BOARD="$board" -DFFI_CORE_PORT="${PORT[$board]}" \
    -DCMAKE_BUILD_TYPE=MinSizeRel -DFFI_CORE_CHECK_PADDING=OFF -DFFI_CORE_BUILD_TESTS=OFF >/dev/null
  cmake --build "$dir" --target ffi_core_bench -j"$(nproc)" >/dev/null
  machine="$(sed -n 's/^set(FFI_CORE_QEMU_MACHINE \(.*\))$/\1/p' "boards/${board}/board.cmake")"
  FFI_CORE_QEMU_ICOUNT=1 boards/qemu-run.sh "$machine" "$dir/apps/bench/ffi_core_bench.elf"
done

#!/usr/bin/env bash
# Footprint of the TVM examples: builds a tests/tvm firmware for each board
# at -Os with checking mode off, runs it in QEMU, and splits flash/RAM by
# owner: ffi-core, the TVM backend and Relax VM (libffi_core_tvm.a), TVM's
# model code, a Relax executable's weights (its devc.o), the C runtime, the
# board support, and the app (the test runner with its inputs and buffers).
#   default: the five kernels as LLVM objects (tvm_models_llvm; their weights
#            are kernel arguments, in the app)
#   --relax: the Relax conv net (relax_convnet_f32), with the heap it used
# Usage: scripts/tvm-footprint.sh [--relax] [board...]   (default: all boards)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
target=tvm_models_llvm
if [ "${1:-}" = --relax ]; then
  target=relax_convnet_f32
  shift
fi
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=("${ALL_BOARDS[@]}")

echo "TVM example footprint: tests/tvm $target, -Os, FFI_CORE_CHECK_PADDING=OFF"
echo
echo "| board | flash: ffi-core | TVM backend + VM | model code | weights | runtime | board | app | RAM: ffi-core | TVM backend + VM | model code | weights | runtime | board | app |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
notes=()
for board in "${BOARDS[@]}"; do
  dir="build/tvm-footprint-${board}"
  build_board_app "$board" "$target" "$dir" -DFFI_CORE_CHECK_PADDING=OFF
  if ! out=$(board_qemu_run "$board" "$dir/tests/tvm/$target.elf"); then
    echo "TVM example firmware failed on $board" >&2
    exit 1
  fi
  python3 scripts/footprint.py --tvm "$board" "$dir/tests/tvm/$target.map"
  memory=$(echo "$out" | sed -n 's/.*memory: \(.*\)$/\1/p')
  [ -z "$memory" ] || notes+=("$board: $memory")
done
[ ${#notes[@]} -eq 0 ] || { echo; printf '%s\n' "${notes[@]}"; }

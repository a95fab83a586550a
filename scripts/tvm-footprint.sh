#!/usr/bin/env bash
# Footprint of the TVM example: builds tests/tvm's firmware (the five example
# models as TVM's LLVM objects, run through ffi-core) for each board at -Os
# with checking mode off, runs it in QEMU, and splits flash/RAM by owner:
# ffi-core, the TVM backend (libffi_core_tvm.a), TVM's model code, the C
# runtime, the board support, and the app (the test runner, the models'
# weights and inputs, its 3 KB workspace and object pool).
# Usage: scripts/tvm-footprint.sh [board...]   (default: all boards)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=("${ALL_BOARDS[@]}")

echo "TVM example footprint: tests/tvm firmware (5 models, LLVM objects), -Os, FFI_CORE_CHECK_PADDING=OFF"
echo
echo "| board | flash: ffi-core | TVM backend | model code | runtime | board | app | RAM: ffi-core | TVM backend | model code | runtime | board | app |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for board in "${BOARDS[@]}"; do
  dir="build/tvm-footprint-${board}"
  build_board_app "$board" tvm_models_llvm "$dir" -DFFI_CORE_CHECK_PADDING=OFF
  if ! boards/qemu-run.sh "$(qemu_machine "$board")" "$dir/tests/tvm/tvm_models_llvm.elf" >/dev/null; then
    echo "TVM example firmware failed on $board" >&2
    exit 1
  fi
  python3 scripts/footprint.py --tvm "$board" "$dir/tests/tvm/tvm_models_llvm.map"
done

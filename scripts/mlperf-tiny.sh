#!/usr/bin/env bash
# MLPerf Tiny on the boards: builds tests/tvm's mlperf_<model> firmware (the
# compile path's objects, scripts/tvm-compile.py) for each board at -Os with
# checking mode off, runs it in QEMU with -icount shift=0 and the cycle
# model (tools/cycle-model), and prints one table: flash by owner, RAM (the
# activations the compile path plans; what the runtime takes beside them),
# instructions and modeled cycles per inference and the runtime's share of
# the instructions, beside each model's activation bound, microTVM's
# published latency on the STM32 L4R5ZI times its 120 MHz, and the published
# MLPerf Tiny records on the board's class of core in cycles.
# Needs the four .tflite files (scripts/fetch-mlperf-tiny.sh).
# Usage: scripts/mlperf-tiny.sh [board...]   (default: every board but the micro:bit)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
BOARDS=("$@")
if [ ${#BOARDS[@]} -eq 0 ]; then
  for board in "${ALL_BOARDS[@]}"; do
    [ "$board" = microbit ] || BOARDS+=("$board")
  done
fi
MODELS=(kws vww resnet8 ad)
plugin="$(tools/cycle-model/build.sh)"
runs=()
for board in "${BOARDS[@]}"; do
  dir="build/mlperf-${board}"
  for m in "${MODELS[@]}"; do
    build_board_app "$board" "mlperf_$m" "$dir" -DFFI_CORE_CHECK_PADDING=OFF
    elf="$dir/tests/tvm/mlperf_$m.elf"
    if [ ! -f "$elf" ]; then
      echo "mlperf-tiny: no $elf: are the model files there? (scripts/fetch-mlperf-tiny.sh)" >&2
      exit 1
    fi
    args="$(cycle_model_args "$board" "$elf" "$plugin" "$dir/mlperf_$m.cycles")"
    rm -f "$dir/mlperf_$m.cycles"
    FFI_CORE_QEMU_ARGS="$args" FFI_CORE_QEMU_ICOUNT=1 board_qemu_run "$board" "$elf" \
      >"$dir/mlperf_$m.txt"
    runs+=("$board:$m:$dir")
  done
done
python3 scripts/mlperf-tiny-table.py "${runs[@]}"

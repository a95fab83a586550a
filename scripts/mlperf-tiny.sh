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
# With --tflm, the same for TensorFlow Lite Micro's example models
# (tests/tvm's tflm_<model>, ../shared/models/tflm_examples), in a table of
# their own (no published figures to set beside them), on every board by
# default; a model the board cannot hold (its test skips) is left out.
# With --direct, MLPerf Tiny through each model's direct entry
# (tests/tvm's mlperf_<model>_direct: no VM, no heap), in a table of its own.
# Usage: scripts/mlperf-tiny.sh [--tflm | --direct] [board...]
#   (default: every board, but the micro:bit for MLPerf Tiny)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
SUITE=mlperf
MODELS=(kws vww resnet8 ad)
SUFFIX=
if [ "${1:-}" = --tflm ]; then
  SUITE=tflm
  MODELS=(hello_world micro_speech person_detect keyword_scrambled trained_lstm micro_speech_lstm)
  shift
elif [ "${1:-}" = --direct ]; then
  SUFFIX=_direct
  shift
fi
BOARDS=("$@")
if [ ${#BOARDS[@]} -eq 0 ]; then
  for board in "${ALL_BOARDS[@]}"; do
    [ "$board" = microbit ] && [ "$SUITE" = mlperf ] || BOARDS+=("$board")
  done
fi
plugin="$(tools/cycle-model/build.sh)"
runs=()
for board in "${BOARDS[@]}"; do
  dir="build/mlperf-${board}"  # one build for both suites
  for m in "${MODELS[@]}"; do
    t="${SUITE}_$m$SUFFIX"
    # A board that cannot hold the model has a test that only skips.
    if ! build_board_app "$board" "$t" "$dir" -DFFI_CORE_CHECK_PADDING=OFF; then
      why="$(ctest --test-dir "$dir" -R "^$t\$" -V 2>/dev/null | grep -o 'SKIPPED.*' | head -1)"
      if [ -n "$why" ]; then
        echo "mlperf-tiny: $why" >&2
        continue
      fi
      echo "mlperf-tiny: $t does not build for $board" >&2
      exit 1
    fi
    elf="$dir/tests/tvm/$t.elf"
    if [ ! -f "$elf" ]; then
      echo "mlperf-tiny: no $elf: are the model files there? (scripts/fetch-mlperf-tiny.sh)" >&2
      exit 1
    fi
    args="$(cycle_model_args "$board" "$elf" "$plugin" "$dir/$t.cycles")"
    rm -f "$dir/$t.cycles"
    FFI_CORE_QEMU_ARGS="$args" FFI_CORE_QEMU_ICOUNT=1 board_qemu_run "$board" "$elf" \
      >"$dir/$t.txt"
    runs+=("$board:$t:$dir")
  done
done
python3 scripts/mlperf-tiny-table.py "${runs[@]}"

#!/usr/bin/env bash
# Runs every board's suite under QEMU while CPU-bound processes compete for
# the machine's cores, several times in a row: a test whose outcome depends
# on host speed fails here. Builds the boards first (idle), then starts the
# hogs for the runs only; they are stopped however the script ends.
#
#   scripts/test-under-load.sh [RUNS] [HOGS]   (defaults: 3 runs, 2 hogs)
#
# Prints each preset's ctest time per run and closes with "N passed, N failed"
# counting preset runs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
hogs=${2:-2}
scripts/setup.sh

boards=$(cmake --list-presets 2>/dev/null |
  sed -n 's/^  "\(mps[^"]*\|microbit[^"]*\|riscv32[^"]*\)".*/\1/p')
for preset in $boards; do
  echo "=== build ${preset}"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j"$(nproc)" >/dev/null
done

pids=()
stop_hogs() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; }
trap stop_hogs EXIT
for _ in $(seq "$hogs"); do
  sh -c 'while :; do :; done' &
  pids+=($!)
done
echo "=== ${hogs} CPU hogs running on $(nproc) cores"

passed=0
failed=0
for run in $(seq "$runs"); do
  for preset in $boards; do
    start=$SECONDS
    if ctest --preset "$preset" --output-on-failure >"/tmp/ffi-core-load-${preset}.log" 2>&1; then
      passed=$((passed + 1))
      verdict=passed
    else
      failed=$((failed + 1))
      verdict="FAILED (log: /tmp/ffi-core-load-${preset}.log)"
      grep -E "Failed|\*\*\*|FAILED" "/tmp/ffi-core-load-${preset}.log" || true
    fi
    printf 'run %d  %-20s %4d s  %s\n' "$run" "$preset" $((SECONDS - start)) "$verdict"
  done
done
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]

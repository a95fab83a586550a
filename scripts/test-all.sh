#!/usr/bin/env bash
# Sets up a fresh machine and runs every test: the host suites (plain,
# ASan+UBSan, TSan; fault injection runs inside each unit suite), the
# fuzzers for 20 s each, each board's suite under QEMU, the docs check and the demo.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

PRESETS=(host host-asan host-tsan)
# CUDA code is compiled and linked wherever nvcc exists; its GPU tests skip
# without a device.
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  PRESETS+=(host-cuda)
else
  echo "note: nvcc not found, skipping the host-cuda preset"
fi
# Boards join once their presets exist (see CMakePresets.json).
for p in $(cmake --list-presets 2>/dev/null | sed -n 's/^  "\(mps[^"]*\|microbit[^"]*\|riscv32[^"]*\)".*/\1/p'); do
  PRESETS+=("$p")
done

failed=()
timings=()
# Runs one step ("name" then its command), noting its wall-clock time and
# whether it failed.
step() {
  local name=$1 start=$SECONDS
  shift
  echo "=== ${name}"
  "$@" || failed+=("$name")
  timings+=("$(printf '%-22s %5d s' "$name" $((SECONDS - start)))")
}
build_and_test() {
  cmake --preset "$1" >/dev/null &&
    cmake --build --preset "$1" -j"$(nproc)" >/dev/null &&
    ctest --preset "$1"
}
for preset in "${PRESETS[@]}"; do
  step "$preset" build_and_test "$preset"
done

step fuzz scripts/fuzz.sh 20  # 20 s per fuzzer
# The guides' links and their runnable command blocks (docs/run-a-model.md
# builds a TVM model into a firmware out of tree), then the README's main job.
step "docs" python3 scripts/check-docs.py --run
step "demo" scripts/demo.sh

echo "=== time per step (build and test), $(nproc) cores"
printf '%s\n' "${timings[@]}"
echo "total: $((SECONDS / 60)) min $((SECONDS % 60)) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED presets: ${failed[*]}"
  exit 1
fi
echo "all passed: ${PRESETS[*]}, the fuzzers, the docs and the demo"

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
for preset in "${PRESETS[@]}"; do
  echo "=== ${preset}"
  if ! { cmake --preset "$preset" >/dev/null &&
         cmake --build --preset "$preset" -j"$(nproc)" >/dev/null &&
         ctest --preset "$preset"; }; then
    failed+=("$preset")
  fi
done

echo "=== fuzz (20 s per fuzzer)"
if ! scripts/fuzz.sh 20; then
  failed+=(fuzz)
fi

# The guides' links and their runnable command blocks (docs/run-a-model.md
# builds a TVM model into a firmware out of tree), then the README's main job.
echo "=== docs: links and command blocks"
python3 scripts/check-docs.py --run || failed+=(docs)
echo "=== scripts/demo.sh"
scripts/demo.sh || failed+=(demo)

if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED presets: ${failed[*]}"
  exit 1
fi
echo "all passed: ${PRESETS[*]}, the fuzzers, the docs and the demo"

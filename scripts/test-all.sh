#!/usr/bin/env bash
# Sets up a fresh machine and runs every test: the host suites (plain,
# ASan+UBSan, TSan; fault injection runs inside each unit suite), the
# fuzzers for 20 s each, and each board's suite under QEMU.
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

# The README's "Run a TVM model on your MCU", end to end.
echo "=== examples/tvm_model (mps2-an386)"
example_log=build/tvm-example.log
mkdir -p build
examples/tvm_model/run.sh mps2-an386 >"$example_log" 2>&1 || true
grep "^y\[\|^mlp" "$example_log" || true
grep -q "^mlp: OK" "$example_log" || failed+=("examples/tvm_model")

if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED presets: ${failed[*]}"
  exit 1
fi
echo "all passed: ${PRESETS[*]} and the fuzzers"

#!/usr/bin/env bash
# Builds the libFuzzer harnesses (preset host-fuzz) and runs each one for a
# bounded time from the seed corpus in tests/fuzz/corpus/<name>.
#
#   scripts/fuzz.sh                 # 20 s per fuzzer (what CI runs)
#   scripts/fuzz.sh 3600            # the long run: an hour per fuzzer
#   scripts/fuzz.sh 60 ops dlpack   # chosen fuzzers only
#
# New inputs go to a scratch directory, so the committed corpus stays as it
# is; a failing input is saved as build/host-fuzz/crash-<fuzzer>-* and the
# script exits non-zero. Reproduce with: build/host-fuzz/tests/fuzz/fuzz_<name> <file>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
shift || true
fuzzers=("$@")
[ ${#fuzzers[@]} -gt 0 ] || fuzzers=(dtype string_any dlpack ops containers)

cmake --preset host-fuzz >/dev/null
cmake --build --preset host-fuzz -j"${FFI_CORE_JOBS:-2}" >/dev/null

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
failed=()
for f in "${fuzzers[@]}"; do
  mkdir -p "$scratch/$f"
  log="$scratch/$f.log"
  if build/host-fuzz/tests/fuzz/"fuzz_$f" -max_total_time="$seconds" -print_final_stats=1 \
       -artifact_prefix="build/host-fuzz/crash-$f-" "$scratch/$f" "tests/fuzz/corpus/$f" \
       >"$log" 2>&1; then
    # libFuzzer's last status line and its executed-units count.
    done_line="$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1)"
    execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
    echo "fuzz_$f: ${execs} executions in ${seconds} s; ${done_line#*DONE   }"
  else
    echo "fuzz_$f: FAILED"
    tail -n 40 "$log"
    failed+=("$f")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED fuzzers: ${failed[*]}"
  exit 1
fi

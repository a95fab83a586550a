#!/bin/sh
# compare_runs.cmake for a test that needs a device (cmake -P cannot exit 77):
# runs the same arguments through the loader built for ffi-core's runtime and
# the one built for the wheel's; exits 77 (ctest's Skipped) when both report
# 77, and fails unless both succeed with identical transcripts.
# Usage: compare_gpu_runs.sh <min lines> <dir with ffi-core as libtvm_ffi.so>
#                            <ours loader> <wheel loader> <args...>
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 <min lines> <shim dir> <ours loader> <wheel loader> <args...>"
  exit 2
fi
min_lines=$1 shim_dir=$2 ours=$3 wheel=$4
shift 4
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
env LD_LIBRARY_PATH="$shim_dir" "$ours" "$@" >"$out/ours" 2>&1
rc_ours=$?
"$wheel" "$@" >"$out/wheel" 2>&1
rc_wheel=$?
echo "ffi-core's runtime (exit $rc_ours):"
cat "$out/ours"
if [ $rc_ours -eq 77 ] && [ $rc_wheel -eq 77 ]; then
  exit 77
fi
if [ $rc_ours -ne 0 ] || [ $rc_wheel -ne 0 ]; then
  echo "a run failed (ffi-core $rc_ours, wheel $rc_wheel); the wheel's run:"
  cat "$out/wheel"
  exit 1
fi
lines=$(wc -l <"$out/ours")
if [ "$lines" -lt "$min_lines" ]; then
  echo "only $lines lines printed, expected at least $min_lines"
  exit 1
fi
if ! diff -u "$out/wheel" "$out/ours"; then
  echo "transcripts differ (- wheel, + ffi-core)"
  exit 1
fi
echo "$lines lines identical on both runtimes"

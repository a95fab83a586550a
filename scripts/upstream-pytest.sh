#!/usr/bin/env bash
# Runs upstream's own Python test suite (tests/python) with the wheel's
# runtime and with ffi-core's runtime under upstream's Python package, and
# prints pass/fail/skip/error counts for each.
#
# By default the suite is the one of the wheel's own version: tests/python
# of the apache-tvm-ffi sdist that scripts/setup.sh unpacks into .cache/.
# Given an apache/tvm-ffi git dir (and a revision), it is that revision's.
#
# ffi-core's side uses the package overlay of the host build
# (build/host/tests/cross/tvm_ffi_on_ffi_core: the wheel's package and
# dist-info, with lib/libtvm_ffi.so -> libffi_core.so), put first on
# PYTHONPATH. Each test file runs in its own process, so a crash loses only
# that file; its tests (as many as the wheel's run of the file had) are then
# counted as "crashed". Exits 1 if ffi-core passes fewer tests than the
# wheel or a file dies.
#
# Usage: scripts/upstream-pytest.sh [<apache/tvm-ffi git dir or checkout> [rev]]
#   e.g. scripts/upstream-pytest.sh /work/.mirror/apache+tvm-ffi/repo HEAD
# Env: FILE_TIMEOUT (seconds per test file, default 600), KEEP_LOGS=1,
#   JOBS (test files run at once, default 1),
#   PYTHON and BUILD_DIR (another Python with apache-tvm-ffi, and a host build
#   already made with it, e.g. on a GPU machine: scripts/gpu-check.sh; then
#   neither the setup nor the build runs).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
source_repo="${1:-}"
rev="${2:-HEAD}"
python="${PYTHON:-${root}/.venv/bin/python}"
case "$python" in /*) ;; *) python="$root/$python" ;; esac
overlay="${BUILD_DIR:-${root}/build/host}/tests/cross/tvm_ffi_on_ffi_core"
file_timeout="${FILE_TIMEOUT:-600}"
jobs="${JOBS:-1}"

if [ -z "${BUILD_DIR:-}" ]; then
  scripts/setup.sh >/dev/null
  cmake --preset host >/dev/null
  cmake --build --preset host --target ffi_core_cross_cxx_kernels -j2 >/dev/null
fi

work="$(mktemp -d)"
[ "${KEEP_LOGS:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
wheel_version="$("$python" -c 'import tvm_ffi; print(tvm_ffi.__version__)')"
if [ -n "$source_repo" ]; then
  git -C "$source_repo" archive "$rev" tests/python | tar -x -C "$work"
  echo "upstream tests: $(git -C "$source_repo" rev-parse --short "$rev") ($(git -C "$source_repo" log -1 --format=%cs "$rev")), wheel $wheel_version"
else
  sdist=".cache/apache_tvm_ffi-${wheel_version}"
  if [ ! -d "$sdist/tests/python" ]; then
    echo "upstream-pytest: no $sdist/tests/python (scripts/setup.sh fetches the sdist; offline?)" >&2
    exit 1
  fi
  mkdir -p "$work/tests"
  cp -r "$sdist/tests/python" "$work/tests/python"
  echo "upstream tests: the sdist's tests/python, apache-tvm-ffi $wheel_version (the wheel's version)"
fi

# count KEY LOG: the number before KEY in pytest's summary line.
count() { grep -Eo "[0-9]+ $1" "$2" | tail -1 | grep -Eo '^[0-9]+' || echo 0; }

# Runs each test file in its own process, JOBS at a time, into logs-LABEL.
run_files() {
  local label="$1" pythonpath="$2" logs="$work/logs-$1"
  mkdir -p "$logs"
  for test_file in $(cd "$work" && find tests/python -name 'test_*.py' | sort); do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    (cd "$work" && PYTHONPATH="$pythonpath" PYTHONDONTWRITEBYTECODE=1 timeout "$file_timeout" \
       "$python" -m pytest -q -p no:cacheprovider -rfE "$test_file" \
       >"$logs/$(echo "$test_file" | tr / _).log" 2>&1) &
  done
  wait
}

# Counts what pytest printed for each file of a run.
tally() {
  local label="$1" passed=0 failed=0 skipped=0 errors=0 crashed=0 died=0 files=0
  for log in "$work/logs-$label"/*.log; do
    files=$((files + 1))
    if grep -Eq '^(=+ )?[0-9]+ (passed|failed|skipped|error|errors|deselected)' "$log" \
        || grep -Eq 'no tests ran' "$log"; then
      passed=$((passed + $(count passed "$log")))
      failed=$((failed + $(count failed "$log")))
      skipped=$((skipped + $(count skipped "$log")))
      errors=$((errors + $(count 'errors?' "$log")))
    else
      # No summary: the process died (before or while collecting). Its tests
      # count as crashed, as many as the wheel's run of the same file had.
      local wheel_log="$work/logs-wheel/$(basename "$log")" lost=0
      if [ -f "$wheel_log" ]; then
        for key in passed failed skipped 'errors?' xfailed xpassed; do
          lost=$((lost + $(count "$key" "$wheel_log")))
        done
      fi
      crashed=$((crashed + lost))
      died=$((died + 1))
      echo "  $label: $(basename "$log" .log) died; $lost tests there on the wheel" >&2
    fi
  done
  grep -h '^\(FAILED\|ERROR\) ' "$work/logs-$label"/*.log | sed "s/^/  $label: /" >&2 || true
  printf '%-10s %5d passed %5d failed %5d skipped %5d errors %5d crashed  (%d files, %d died)\n' \
    "$label" "$passed" "$failed" "$skipped" "$errors" "$crashed" "$files" "$died"
  tally_passed=$passed tally_died=$died
}

run_files wheel ""
run_files ffi-core "$overlay"
tally wheel
wheel_passed=$tally_passed
tally ffi-core
[ "${KEEP_LOGS:-0}" = 1 ] && echo "logs: $work" || true
# ffi-core passes every test the wheel passes, and no file dies.
if [ "$tally_passed" -lt "$wheel_passed" ] || [ "$tally_died" -gt 0 ]; then
  echo "upstream-pytest: ffi-core passed $tally_passed of the wheel's $wheel_passed; $tally_died files died" >&2
  exit 1
fi

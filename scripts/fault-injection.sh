#!/usr/bin/env bash
# The reach of fault injection: builds and runs the unit suite of each preset
# (boards under QEMU) and prints, per scenario of its fault-injection test
# (tests/unit/test_fault_injection.cc: each scenario runs once cleanly, then
# once failing each allocation it made), how many allocations were failed.
# Usage: scripts/fault-injection.sh [preset...]   (default: host)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
presets=("$@")
[ ${#presets[@]} -gt 0 ] || presets=(host)

scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
for preset in "${presets[@]}"; do
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" --target ffi_core_unit_tests -j"${FFI_CORE_JOBS:-2}" >/dev/null
  # The whole suite: the doctest stand-in of the RISC-V boards takes no filter.
  exe="build/${preset}/tests/ffi_core_unit_tests"
  run=("$exe")
  [ ! -f "boards/${preset}/board.cmake" ] || run=(board_qemu_run "$preset" "${exe}.elf")
  if ! "${run[@]}" >"$scratch/$preset" 2>&1; then
    tail -n 20 "$scratch/$preset" >&2
    echo "fault-injection: the unit suite failed on ${preset}" >&2
    exit 1
  fi
done

# The test prints "fault injection: <scenario> <n> allocation points, ..." and
# "fault injection: <total> failing runs over <count> scenarios".
points() {  # preset, scenario (or "total")
  if [ "$2" = total ]; then
    sed -n 's/^fault injection: \([0-9]*\) failing runs over \([0-9]*\) scenarios$/\1 (\2 scenarios)/p' \
      "$scratch/$1"
  else
    sed -n "s/^fault injection: $2 *\([0-9]*\) allocation points.*/\1/p" "$scratch/$1"
  fi
}
mapfile -t scenarios < <(sed -n 's/^fault injection: \([a-z]*\) .*allocation points.*/\1/p' "$scratch/${presets[0]}")
header="| scenario |"
rule="|---|"
for preset in "${presets[@]}"; do
  header+=" allocations failed: ${preset} |"
  rule+="---|"
done
echo "$header"
echo "$rule"
for s in "${scenarios[@]}" total; do
  row="| ${s} |"
  for preset in "${presets[@]}"; do
    row+=" $(points "$preset" "$s") |"
  done
  echo "$row"
done

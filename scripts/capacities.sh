#!/usr/bin/env bash
# The fixed capacities and limits a build gets by default: configures ffi-core
# for a board (the defaults of every cross build) and for the host, without
# tests, and prints each numeric FFI_CORE_* cache option with its help text.
# Usage: scripts/capacities.sh [board]   (default: mps2-an386)
set -euo pipefail
cd "$(dirname "$0")/.."
board="${1:-mps2-an386}"

values() {  # build dir: "NAME<TAB>value<TAB>help" for each numeric FFI_CORE_* option
  cmake -LAH -N "$1" | awk '
    /^\/\/ / { help = substr($0, 4); next }
    /^FFI_CORE_[A-Z0-9_]*:STRING=[0-9]+$/ {
      split($0, kv, ":STRING="); printf "%s\t%s\t%s\n", kv[1], kv[2], help }'
}
for target in board host; do
  dir="build/capacities-${target}"
  rm -f "$dir/CMakeCache.txt"
  args=(-DFFI_CORE_BUILD_TESTS=OFF)
  [ "$target" = host ] || args+=(-DFFI_CORE_BOARD="$board")
  cmake -S . -B "$dir" "${args[@]}" >/dev/null
done

echo "| option | what | ${board} (every board) | host |"
echo "|---|---|---|---|"
join -t $'\t' <(values build/capacities-board | sort) <(values build/capacities-host | sort) |
  while IFS=$'\t' read -r name board_value help host_value _; do
    echo "| \`${name}\` | ${help} | ${board_value} | ${host_value} |"
  done

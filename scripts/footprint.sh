#!/usr/bin/env bash
# Footprint report: builds apps/footprint for each board at -Os with checking
# mode off and small error-pool/registry capacities, runs it in QEMU, and
# prints flash/RAM bytes split by owner (from the linker map).
# Usage: scripts/footprint.sh [board...]   (default: all boards)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
. scripts/board-lib.sh
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=("${ALL_BOARDS[@]}")

echo "ffi-core footprint: apps/footprint, -Os, FFI_CORE_CHECK_PADDING=OFF,"
echo "error message 64 B / kind 16 B / a pool of 1 error, 4 global functions, 1 stream entry; type registry"
echo "(+types rows): 2 dynamic types, depth 2, 4 fields, 4 methods, 128 B text, 2 attr columns, 8 cells"
echo
echo "whole: the image (flash, static RAM); added: over an empty firmware with the same board"
echo "support (apps/footprint/empty.cc), libc and libgcc included; less app: without the app's own"
echo "code and pool. The +types rows compare against the same empty firmware; the +containers rows"
echo "build an Array and a Map through ffi.Array and ffi.Map (the plain rows link no container code)."
echo
echo "| board              | flash: ffi-core | runtime |  board |    app | RAM: ffi-core | runtime |  board |    app | whole flash | whole RAM | added flash | added RAM | less app: flash | RAM |"
echo "|--------------------|--------|--------|--------|--------|--------|--------|--------|--------|--------|--------|--------|--------|--------|--------|"
for board in "${BOARDS[@]}"; do
  dir="build/footprint-${board}"
  build_board_app "$board" ffi_core_footprint "$dir" -DFFI_CORE_CHECK_PADDING=OFF \
    -DFFI_CORE_BUILD_TESTS=OFF -DFFI_CORE_ERROR_MESSAGE_CAPACITY=64 -DFFI_CORE_ERROR_KIND_CAPACITY=16 \
    -DFFI_CORE_ERROR_POOL_SIZE=1 -DFFI_CORE_GLOBAL_FUNCTION_CAPACITY=4 -DFFI_CORE_TYPE_CAPACITY=2 \
    -DFFI_CORE_TYPE_MAX_DEPTH=2 -DFFI_CORE_TYPE_FIELD_CAPACITY=4 -DFFI_CORE_TYPE_METHOD_CAPACITY=4 \
    -DFFI_CORE_TYPE_TEXT_CAPACITY=128 -DFFI_CORE_TYPE_ATTR_COLUMN_CAPACITY=2 \
    -DFFI_CORE_TYPE_ATTR_CELL_CAPACITY=8 -DFFI_CORE_STREAM_TABLE_CAPACITY=1
  if ! board_qemu_run "$board" "$dir/apps/footprint/ffi_core_footprint.elf" >/dev/null; then
    echo "footprint firmware failed on $board" >&2
    exit 1
  fi
  cmake --build "$dir" --target ffi_core_footprint_empty -j"$(nproc)" >/dev/null
  empty_map="$dir/apps/footprint/ffi_core_footprint_empty.map"
  python3 scripts/footprint.py --empty "$empty_map" "$board" "$dir/apps/footprint/ffi_core_footprint.map"
  # The same with one registered type (field, method, attribute): the
  # difference in the ffi-core columns is the type registry's cost.
  cmake --build "$dir" --target ffi_core_footprint_types -j"$(nproc)" >/dev/null
  if ! board_qemu_run "$board" "$dir/apps/footprint/ffi_core_footprint_types.elf" >/dev/null; then
    echo "footprint firmware with types failed on $board" >&2
    exit 1
  fi
  python3 scripts/footprint.py --empty "$empty_map" "$board +types" \
    "$dir/apps/footprint/ffi_core_footprint_types.map"
  # The same with an Array and a Map built through ffi.Array and ffi.Map
  # (ffi_core::containers): what using containers costs. The plain rows above
  # link none of it.
  cmake --build "$dir" --target ffi_core_footprint_containers -j"$(nproc)" >/dev/null
  if ! boards/qemu-run.sh "$(qemu_machine "$board")" \
      "$dir/apps/footprint/ffi_core_footprint_containers.elf" >/dev/null; then
    echo "footprint firmware with containers failed on $board" >&2
    exit 1
  fi
  python3 scripts/footprint.py --empty "$empty_map" "$board +containers" \
    "$dir/apps/footprint/ffi_core_footprint_containers.map"
done

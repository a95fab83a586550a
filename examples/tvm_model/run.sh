#!/usr/bin/env bash
# The README's "Run a TVM model on your MCU", as one script (also run by
# scripts/test-all.sh): install ffi-core for a board, compile the model with
# TVM, build this firmware out of tree and run it in QEMU.
# Usage: examples/tvm_model/run.sh [board] (default mps2-an386)
set -euo pipefail
cd "$(dirname "$0")/../.."
board=${1:-mps2-an386}
cpu=$(sed -n 's/^set(FFI_CORE_BOARD_CPU \(.*\))$/\1/p' "boards/$board/board.cmake")
work=build/tvm-example-$board
scripts/setup.sh >/dev/null

cmake -S . -B "$work/ffi-core" -DFFI_CORE_BOARD="$board" -DFFI_CORE_BUILD_TESTS=OFF >/dev/null
cmake --build "$work/ffi-core" -j"$(nproc)" >/dev/null
cmake --install "$work/ffi-core" --prefix "$work/prefix" >/dev/null

.venv/bin/python examples/tvm_model/compile_model.py "$cpu" "$work/fw/model" 2>/dev/null

cmake -S examples/tvm_model -B "$work/fw" -DCMAKE_PREFIX_PATH="$PWD/$work/prefix" \
  -DCMAKE_TOOLCHAIN_FILE="$PWD/$work/prefix/share/ffi_core/toolchains/$cpu.cmake" >/dev/null
cmake --build "$work/fw" >/dev/null
machine=$(sed -n 's/^set(FFI_CORE_QEMU_MACHINE \(.*\))$/\1/p' "boards/$board/board.cmake")
"$work/prefix/share/ffi_core/board/qemu-run.sh" "$machine" "$work/fw/fw.elf"

#!/bin/sh
# Installs the build into a fresh prefix, builds tests/install against it
# out of tree, and runs the result (under QEMU on a board).
# usage: run_install_test.sh <build dir> <work dir> <model dir> <cpu|host> [extra...]
#   extra: on a board, qemu-run.sh's arguments before the firmware; on the
#   host, further cmake arguments for the out-of-tree configure.
set -eu
build=$1 work=$2 models=$3 cpu=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
configure() {
  cmake -S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=MinSizeRel \
    -DAPP_SOURCE="$here/../tvm/run_models.cc" -DMODEL_DIR="$models" "$@" >/dev/null
}
if [ "$cpu" = host ]; then
  configure "$@"
  cmake --build "$work/build" >/dev/null
  exec "$work/build/fw"
fi
configure -DCMAKE_TOOLCHAIN_FILE="$work/prefix/share/ffi_core/toolchains/$cpu.cmake"
cmake --build "$work/build" >/dev/null
exec "$work/prefix/share/ffi_core/board/qemu-run.sh" "$@" "$work/build/fw"

#!/bin/sh
# Installs the build into a fresh prefix, builds tests/install against it
# out of tree, and runs the result (under QEMU on a board).
# usage: run_install_test.sh <build dir> <work dir> <model dir> <cpu|host> [qemu-run.sh args...]
set -eu
build=$1 work=$2 models=$3 cpu=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
toolchain=""
if [ "$cpu" != host ]; then
  toolchain="-DCMAKE_TOOLCHAIN_FILE=$work/prefix/share/ffi_core/toolchains/$cpu.cmake"
fi
# shellcheck disable=SC2086 # empty on the host
cmake -S "$here" -B "$work/build" $toolchain -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=MinSizeRel -DAPP_SOURCE="$here/../tvm/run_models.cc" -DMODEL_DIR="$models" >/dev/null
cmake --build "$work/build" >/dev/null
if [ "$cpu" = host ]; then
  exec "$work/build/fw"
fi
exec "$work/prefix/share/ffi_core/board/qemu-run.sh" "$@" "$work/build/fw"

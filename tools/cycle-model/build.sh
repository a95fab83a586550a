#!/bin/sh
# Builds the cycle model plugin in BUILD_DIR (default build/cycle-model) as
# a project of its own, away from any board's or sanitizer's flags, and
# prints the path of the .so.
#   tools/cycle-model/build.sh [BUILD_DIR]
set -eu
src=$(cd "$(dirname "$0")" && pwd)
dir=${1:-"$src/../../build/cycle-model"}
cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$dir" >/dev/null
echo "$(cd "$dir" && pwd)/libcycle_model.so"

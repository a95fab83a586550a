#!/usr/bin/env bash
# What a GPU machine checks beyond CI, which has none. For each C++ compiler
# named, in build/gpu-<its path> (e.g. build/gpu-opt-gcc-gxx for /opt/gcc/bin/g++):
#   - the host-cuda preset's ctest (GPU tests run instead of skipping);
#   - compute-sanitizer (memcheck) over the CUDA tests and the cross CUDA loader;
#   - upstream's quickstart (examples/quickstart of the sdist): its CUDA and
#     C++ kernels built as it documents, loaded from C++ and from PyTorch and
#     CuPy, on the wheel's runtime and on ffi-core's;
#   - upstream's Python suite of the wheel's version, with the machine's
#     PyTorch, on both runtimes (scripts/upstream-pytest.sh).
# The TVM tests are off (the apache-tvm wheel is too big to carry there).
#
# Usage: scripts/gpu-check.sh <g++> [<g++> ...]
#   e.g. scripts/gpu-check.sh /opt/gcc/bin/g++ /usr/bin/g++
# Env: PYTHON (default python3; imports tvm_ffi, torch), FFI_CORE_DOCTEST_DIR
#   (a folder holding doctest/doctest.h), LOG_DIR (default build/gpu-logs),
#   PYTEST=0 to leave out upstream's Python suite, QUICKSTART=0 its quickstart.
# Prints one line per step; the logs say the rest. Exits 1 if a step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
python=$(command -v "${PYTHON:-python3}")
case "$python" in /*) ;; *) python="$root/$python" ;; esac
logs=${LOG_DIR:-$root/build/gpu-logs}
jobs=$(nproc)
mkdir -p "$logs"
failed=0

# step NAME LOG COMMAND...: runs it, prints NAME's result and seconds.
step() {
  local name=$1 log=$2 start=$SECONDS rc=0
  shift 2
  "$@" >"$log" 2>&1 || rc=$?
  [ $rc -eq 0 ] || failed=1
  printf '%-44s %s (%d s)\n' "$name" "$([ $rc -eq 0 ] && echo ok || echo "FAILED, exit $rc")" \
    $((SECONDS - start))
}

sdist="$root/.cache/apache_tvm_ffi-$("$python" -c 'import tvm_ffi; print(tvm_ffi.__version__)')"
config() { "$python" -m tvm_ffi.config "$@"; }

# quickstart BUILD CXX: upstream's example, built as its raw_compile.sh does.
quickstart() (
  local build=$1 cxx=$2 q="$1/quickstart" shim="$1/tests/cross/ffi_core_as_libtvm_ffi"
  local overlay="$1/tests/cross/tvm_ffi_on_ffi_core" cuda
  cuda=$(dirname "$(dirname "$(command -v nvcc)")")
  rm -rf "$q" && cp -r "$sdist/examples/quickstart" "$q" && mkdir -p "$q/build" && cd "$q" || return
  set -x
  nvcc -ccbin "$cxx" -shared -O3 compile/add_one_cuda.cu -Xcompiler -fPIC,-fvisibility=hidden \
    $(config --cxxflags) $(config --ldflags) $(config --libs) -o build/add_one_cuda.so || return
  "$cxx" -shared -O3 compile/add_one_cpu.cc -fPIC -fvisibility=hidden $(config --cxxflags) \
    $(config --ldflags) $(config --libs) -o build/add_one_cpu.so || return
  for prog in load_cpp load_cuda; do
    "$cxx" -fvisibility=hidden -O3 load/$prog.cc $(config --cxxflags) $(config --ldflags) \
      $(config --libs) -I"$cuda/include" -L"$cuda/lib64" -lcudart -Wl,-rpath,"$(config --libdir)" \
      -Wl,-rpath,"$cuda/lib64" -o build/$prog || return
  done
  # The same programs on each runtime: ffi-core's library stands in for
  # libtvm_ffi.so through LD_LIBRARY_PATH (C++) or the package overlay (Python).
  for prog in build/load_cpp build/load_cuda; do
    $prog >build/wheel.out 2>&1 || return
    LD_LIBRARY_PATH="$shim" ldd $prog | grep tvm_ffi
    LD_LIBRARY_PATH="$shim" $prog >build/ours.out 2>&1 || return
    cat build/ours.out
    diff build/wheel.out build/ours.out || return
  done
  for script in load/load_numpy.py load/load_pytorch.py load/load_cupy.py; do
    "$python" $script >build/wheel.out 2>&1 || return
    PYTHONPATH="$overlay" "$python" $script >build/ours.out 2>&1 || return
    cat build/ours.out
    diff build/wheel.out build/ours.out || return
  done
  PYTHONPATH="$overlay" "$python" -c 'import tvm_ffi, os; print(os.path.realpath(tvm_ffi.libinfo.find_libtvm_ffi()))'
)

# sanitize BUILD: compute-sanitizer's memcheck; a leak or a bad access fails.
# The CUDA API errors the tests provoke on purpose (an invalid device, an
# allocation past the device's memory) and check are not reported.
sanitize() (
  local shim="$1/tests/cross/ffi_core_as_libtvm_ffi" api="--report-api-errors no"
  compute-sanitizer --tool memcheck $api --leak-check full --error-exitcode 1 \
    "$1/tests/cuda/ffi_core_cuda_gpu_tests" || return
  LD_LIBRARY_PATH="$shim" compute-sanitizer --tool memcheck $api --error-exitcode 1 \
    "$1/tests/cross/cuda_kernel_loader_ours" gpu "$1/tests/cross/cxx_kernels/cuda_kernels.so"
)

for cxx in "$@"; do
  n=$(echo "${cxx#/}" | sed 's|/bin/|-|; s|/|-|g; s|+|x|g')
  build="$root/build/gpu-$n"
  case "$cxx" in *clang++) cc="${cxx%++}" ;; *) cc="${cxx%g++}gcc" ;; esac
  echo "== $cxx ($("$cxx" --version | head -1)); libstdc++: $("$cxx" -print-file-name=libstdc++.so)"
  step "configure host-cuda" "$logs/$n-configure.log" cmake --preset host-cuda -B "$build" \
    -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_C_COMPILER="$cc" -DFFI_CORE_PYTHON="$python" \
    -DFFI_CORE_TVM_TESTS=OFF ${FFI_CORE_DOCTEST_DIR:+-DFFI_CORE_DOCTEST_DIR=$FFI_CORE_DOCTEST_DIR}
  step "build" "$logs/$n-build.log" cmake --build "$build" -j"$jobs"
  step "ctest" "$logs/$n-ctest.log" ctest --test-dir "$build" -j"$jobs" --output-on-failure
  grep -E 'tests passed|tests failed|Failed|\*\*\*|Not Run|Skipped' "$logs/$n-ctest.log" | sed 's/^/    /'
  step "compute-sanitizer memcheck" "$logs/$n-sanitizer.log" sanitize "$build"
  grep -E 'ERROR SUMMARY|LEAK SUMMARY' "$logs/$n-sanitizer.log" | sed 's/^/    /'
  if [ "${QUICKSTART:-1}" != 0 ]; then
    step "upstream quickstart on both runtimes" "$logs/$n-quickstart.log" quickstart "$build" "$cxx"
  fi
  if [ "${PYTEST:-1}" != 0 ]; then
    step "upstream Python suite on both runtimes" "$logs/$n-pytest.log" \
      env PYTHON="$python" BUILD_DIR="$build" JOBS="$jobs" scripts/upstream-pytest.sh
    grep -E '^(wheel|ffi-core) ' "$logs/$n-pytest.log" | sed 's/^/    /'
  fi
done
exit $failed

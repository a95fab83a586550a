#!/usr/bin/env bash
# Installs what ffi-core needs on a fresh Debian machine: compilers (clang
# and its runtime with libFuzzer for the fuzzers), the Arm and RISC-V cross
# toolchains (RISC-V: GCC with rv32 multilibs, picolibc, and the Linux cross
# package's C++ headers, used freestanding), QEMU for both, doctest, and a
# Python venv (.venv) with the apache-tvm-ffi wheel (DLPack 1.x headers, upstream's headers for the
# layout test, and upstream's runtime for cross-loading tests) and Apache TVM,
# and the wheel's sdist unpacked in .cache/ (upstream's C++ test suite,
# tests/upstream_cpp; without network its tests skip).
# Idempotent: skips what is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(cmake g++ make git clang-format clang libclang-rt-dev doctest-dev libgtest-dev python3-venv
              gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib
              qemu-system-arm gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
              libstdc++-12-dev-riscv64-cross qemu-system-misc)
TVM_FFI_VERSION="0.1.15.post2"
# Apache TVM compiles the example models the TVM tests run (tests/tvm).
TVM_VERSION="0.27.0.post1"
TFLITE_VERSION="2.18.0"
LITERT_VERSION="2.3.0"
# TensorFlow Lite Micro's interpreter (PyPI tflite-micro): the compile path's
# results are checked against it bit for bit.
TFLITE_MICRO_VERSION="0.dev20261023182759"

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# tflite reads TFLite models for the compile path; ai-edge-litert is
# TensorFlow's interpreter, the reference the MLPerf Tiny tests compare with.
if ! .venv/bin/python -c "import tvm_ffi, tvm, numpy, pytest, tflite, ai_edge_litert, tflite_micro" \
    2>/dev/null
then
  echo "setup: creating .venv with apache-tvm-ffi==${TVM_FFI_VERSION}, apache-tvm==${TVM_VERSION}," \
       "numpy, pytest, tflite, ai-edge-litert and tflite-micro"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check "apache-tvm-ffi==${TVM_FFI_VERSION}" \
    "apache-tvm==${TVM_VERSION}" numpy pytest "tflite==${TFLITE_VERSION}" \
    "ai-edge-litert==${LITERT_VERSION}" "tflite-micro==${TFLITE_MICRO_VERSION}"
fi

# Upstream's C++ tests (tests/cpp of the sdist of the wheel's version), which
# tests/upstream_cpp builds and runs on both runtimes. Not fatal offline:
# the ctests then say SKIPPED.
SDIST_DIR=".cache/apache_tvm_ffi-${TVM_FFI_VERSION}"
if [ ! -f "${SDIST_DIR}/tests/cpp/CMakeLists.txt" ]; then
  echo "setup: fetching the apache-tvm-ffi==${TVM_FFI_VERSION} sdist into .cache/"
  mkdir -p .cache
  if .venv/bin/pip download -q --disable-pip-version-check --no-deps \
       --no-binary apache-tvm-ffi "apache-tvm-ffi==${TVM_FFI_VERSION}" -d .cache; then
    tar -xzf ".cache/apache_tvm_ffi-${TVM_FFI_VERSION}.tar.gz" -C .cache
  else
    echo "setup: warning: no sdist (offline?): upstream_cpp_tests_* will skip"
  fi
fi
echo "setup: ready"

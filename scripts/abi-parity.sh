#!/usr/bin/env bash
# The C ABI against the apache-tvm-ffi wheel in .venv: the layout facts the
# tests/layout probes print (sizes, offsets, enum values; C++: signatures) built
# against ffi-core's headers and against the wheel's, the TVMFFI* functions
# each side's c_api.h and extra/*.h declare, and those libffi_core.so and the
# wheel's libtvm_ffi.so export. Prints one table row per comparison.
# Usage: scripts/abi-parity.sh   (builds the host preset's probes and libffi_core.so)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
cmake --preset host >/dev/null
probes=(layout_probe_c_ours layout_probe_c_upstream layout_probe_cc_ours layout_probe_cc_upstream)
cmake --build --preset host --target "${probes[@]}" ffi_core_shared -j"${FFI_CORE_JOBS:-2}" >/dev/null

wheel_dir="$(.venv/bin/python -c 'import os, tvm_ffi; print(os.path.dirname(tvm_ffi.__file__))')"
wheel_version="$(.venv/bin/python -c 'import importlib.metadata as m; print(m.version("apache-tvm-ffi"))')"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

declared() {  # include dir: the TVMFFI* functions its TVM_FFI_DLL declarations name
  cat "$1/tvm/ffi/c_api.h" "$1"/tvm/ffi/extra/*.h | tr '\n' ' ' |
    grep -oE 'TVM_FFI_DLL[^;{]*\bTVMFFI[A-Za-z0-9_]+ *\(' | grep -oE 'TVMFFI[A-Za-z0-9_]+ *\($' |
    tr -d ' (' | sort -u
}
exported() {  # shared library: its defined TVMFFI* dynamic symbols
  nm -D --defined-only "$1" | awk '$3 ~ /^TVMFFI/ { print $3 }' | sort -u
}
row() {  # what, file ours, file wheel's
  local same=no
  ! cmp -s "$2" "$3" || same=yes
  echo "| $1 | $(wc -l <"$2") | $(wc -l <"$3") | ${same} |"
}

for lang in c cc; do
  for side in ours upstream; do
    "build/host/tests/layout/layout_probe_${lang}_${side}" >"$scratch/${lang}_${side}"
  done
done
declared core/include >"$scratch/declared_ours"
declared "$wheel_dir/include" >"$scratch/declared_wheel"
exported build/host/core/libffi_core.so >"$scratch/exported_ours"
exported "$wheel_dir/lib/libtvm_ffi.so" >"$scratch/exported_wheel"

echo "| compared | ffi-core | wheel (apache-tvm-ffi ${wheel_version}) | identical |"
echo "|---|---|---|---|"
row "layout facts, C (\`tests/layout/probe.c\`)" "$scratch/c_ours" "$scratch/c_upstream"
row "layout facts, C++ (\`tests/layout/probe.cc\`)" "$scratch/cc_ours" "$scratch/cc_upstream"
row "\`TVMFFI*\` functions declared (\`c_api.h\`, \`extra/*.h\`)" "$scratch/declared_ours" \
  "$scratch/declared_wheel"
row "\`TVMFFI*\` functions exported (\`libffi_core.so\`, \`libtvm_ffi.so\`)" \
  "$scratch/exported_ours" "$scratch/exported_wheel"

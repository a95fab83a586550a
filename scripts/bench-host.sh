#!/usr/bin/env bash
# Host call-cost benchmark, side by side with upstream: one C program calling
# only c_api.h (apps/bench_host/bench_host.c), linked against ffi-core's
# libffi_core.so (Release, checking mode off, then on) and the apache-tvm-ffi
# wheel's libtvm_ffi.so from .venv. Instructions per operation come from
# callgrind (deterministic, loop overhead subtracted); ns/op is wall-clock
# time on this machine and noisy.
# Usage: scripts/bench-host.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >/dev/null
command -v valgrind >/dev/null || { echo "bench-host: valgrind not found" >&2; exit 1; }

jobs="${FFI_CORE_JOBS:-2}"
out=build/bench-host
mkdir -p "$out"
upstream_lib="$(ls .venv/lib/python3*/site-packages/tvm_ffi/lib/libtvm_ffi.so | head -1)"
wheel_dir="$(dirname "$(dirname "$upstream_lib")")"
dlpack_inc="${wheel_dir}/3rdparty/dlpack/include"
[ -f "${dlpack_inc}/dlpack/dlpack.h" ] || dlpack_inc="${wheel_dir}/include"

for check in OFF ON; do
  dir="${out}/ffi_core-check-${check}"
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DFFI_CORE_CHECK_PADDING="$check" \
    -DFFI_CORE_BUILD_TESTS=OFF >/dev/null
  cmake --build "$dir" --target ffi_core_shared -j"$jobs" >/dev/null
done

cc=${CC:-cc}
# Compiled against ffi-core's c_api.h (the stable ABI both libraries export).
"$cc" -O2 -std=c99 -D_POSIX_C_SOURCE=199309L -Wall -Wextra -Werror -Icore/include -I"$dlpack_inc" \
  -c apps/bench_host/bench_host.c -o "${out}/bench_host.o"
link() {  # name, library directory, library
  "$cc" "${out}/bench_host.o" -o "${out}/$1" -L"$2" -l"$3" -Wl,-rpath,"$(realpath "$2")" -Wl,-z,now
}
link bench_upstream "$(dirname "$upstream_lib")" tvm_ffi
link bench_off "${out}/ffi_core-check-OFF/core" ffi_core
link bench_on "${out}/ffi_core-check-ON/core" ffi_core

for variant in upstream off on; do
  rm -f "${out}/callgrind.${variant}".*
  valgrind --tool=callgrind --callgrind-out-file="${out}/callgrind.${variant}.%p" \
    "${out}/bench_${variant}" >"${out}/iterations.${variant}" 2>"${out}/valgrind.${variant}.log"
  "${out}/bench_${variant}" ns >"${out}/ns.${variant}"
done

python3 - "$out" <<'EOF'
import glob, re, sys
out = sys.argv[1]
ROWS = [
    ("call_2_ints", "`TVMFFIFunctionCall`, 2 ints → int"),
    ("call_none", "call, no args → None"),
    ("incref_decref", "`TVMFFIObjectIncRef` + `TVMFFIObjectDecRef`"),
    ("function_create", "`TVMFFIFunctionCreate` + release"),
    ("raise_move_release", "raise + `TVMFFIErrorMoveFromRaised` + release"),
    ("string_32", "`TVMFFIStringFromByteArray`, 32 B, + release"),
    ("tensor_from_dlpack", "`TVMFFITensorFromDLPackVersioned` + release"),
    ("get_global", "`TVMFFIFunctionGetGlobal` + release"),
]

def instructions(variant):
    iters = dict(l.split() for l in open(f"{out}/iterations.{variant}"))
    total = {}
    for path in glob.glob(f"{out}/callgrind.{variant}.*"):
        text = open(path).read()
        m = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
        s = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if m and s:
            total[m.group(1)] = int(s.group(1)) / int(iters[m.group(1)])
    return {k: v - total["empty"] for k, v in total.items()}

def ns(variant):
    d = {}
    for l in open(f"{out}/ns.{variant}"):
        k, v = l.split()
        d[k] = float(v)
    return {k: v - d["empty"] for k, v in d.items()}

up, off, on = (instructions(v) for v in ("upstream", "off", "on"))
nup, noff, non = (ns(v) for v in ("upstream", "off", "on"))
print("Instructions per operation (callgrind, loop overhead subtracted); upstream = the wheel's")
print("libtvm_ffi.so; ffi-core = libffi_core.so, Release; ratio = ffi-core (checking off) / upstream.")
print("ns/op: wall clock on this machine, noisy; upstream / off / on.")
print()
print("| operation | upstream | ffi-core, checking off | ratio | ffi-core, checking on | ns/op (noisy) |")
print("|---|---|---|---|---|---|")
for key, label in ROWS:
    print(f"| {label} | {up[key]:.0f} | {off[key]:.0f} | {off[key] / up[key]:.2f} | {on[key]:.0f} "
          f"| {nup[key]:.1f} / {noff[key]:.1f} / {non[key]:.1f} |")
EOF

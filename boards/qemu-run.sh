#!/bin/sh
# Runs a bare-metal ELF under QEMU and passes the program's exit status back.
# Usable as CMAKE_CROSSCOMPILING_EMULATOR. Arm machines (mps2-*, mps3-*,
# microbit) run under qemu-system-arm with semihosting; machine `virt` is
# QEMU's RISC-V virt under qemu-system-riscv32 (-bios none: the image starts
# at the base of RAM; console on the UART, exit through the test finisher).
#
#   qemu-run.sh [--cpu CPU] <machine> <elf> [program args...]
#
# Program args reach main(argc, argv) via -append: semihosting
# SYS_GET_CMDLINE on Arm (argv[0] is the ELF path), the device tree's
# bootargs on RISC-V (argv[0] is the board's name). An arg containing spaces is
# wrapped in "..." for the target's splitter; args cannot contain '"'.
#
# Environment:
#   FFI_CORE_QEMU_TIMEOUT  seconds before the run is killed (default 120)
#   FFI_CORE_QEMU_ICOUNT   1: -icount shift=0 (1 instruction = 1 ns, deterministic)
#   FFI_CORE_QEMU_ARGS     extra qemu arguments, word-split (e.g. "-d guest_errors")
#   FFI_CORE_QEMU          emulator binary (default qemu-system-arm, or
#                          qemu-system-riscv32 for machine virt)
#
# Exit status: the program's (0..255); faults reported by the board startup
# code exit with 100 + exception number (HardFault = 103; on RISC-V 100 +
# the mcause exception code, Breakpoint = 103), abort() with 134;
# 124 on timeout (hang, deadlock); 2 on usage errors. A locked-up core (fault
# inside HardFault) makes QEMU 7.2 itself abort: "qemu: fatal: Lockup", 134.
set -u
# shellcheck disable=SC3045 # dash and bash both have ulimit -c
ulimit -c 0 2>/dev/null # no core files from QEMU aborting on a lock-up

cpu=""
if [ "${1:-}" = "--cpu" ]; then
    [ $# -ge 2 ] || { echo "qemu-run.sh: --cpu needs a value" >&2; exit 2; }
    cpu=$2
    shift 2
fi
if [ $# -lt 2 ]; then
    echo "usage: qemu-run.sh [--cpu CPU] <machine> <elf> [program args...]" >&2
    exit 2
fi
machine=$1
elf=$2
shift 2
if [ ! -f "$elf" ]; then
    echo "qemu-run.sh: no such file: $elf" >&2
    exit 2
fi

# QEMU re-splits -append on spaces; keep multi-word args together with quotes.
append=""
for arg in "$@"; do
    case $arg in *" "*) arg="\"$arg\"" ;; esac
    append="${append:+$append }$arg"
done

timeout_s=${FFI_CORE_QEMU_TIMEOUT:-120}
case $machine in
virt)
    qemu=${FFI_CORE_QEMU:-qemu-system-riscv32}
    set -- -machine "$machine" -nographic -bios none -kernel "$elf"
    ;;
*)
    qemu=${FFI_CORE_QEMU:-qemu-system-arm}
    set -- -machine "$machine" -nographic \
        -semihosting-config enable=on,target=native -kernel "$elf"
    ;;
esac
[ -n "$cpu" ] && set -- "$@" -cpu "$cpu"
[ -n "$append" ] && set -- "$@" -append "$append"
[ "${FFI_CORE_QEMU_ICOUNT:-0}" != 0 ] && set -- "$@" -icount shift=0
# shellcheck disable=SC2086 # word splitting of the extra args is intended
set -- "$@" ${FFI_CORE_QEMU_ARGS:-}

# stdin from /dev/null: the target reads no input, and a QEMU in timeout's
# background process group must not touch the terminal (it would stop).
timeout -k 5 "$timeout_s" "$qemu" "$@" </dev/null
status=$?
case $status in
124 | 137)
    echo "qemu-run.sh: TIMEOUT: $elf on $machine did not exit within ${timeout_s}s" \
        "(hang or deadlock); killed" >&2
    exit 124
    ;;
esac
exit $status

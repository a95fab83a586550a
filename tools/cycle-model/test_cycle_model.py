#!/usr/bin/env python3
"""Checks the cycle model against the cores' manuals: small loops in
assembly whose cycle counts the manuals give, run under QEMU with the plugin,
each core's count worked out here by hand from its manual's table.

Every program runs from region_begin, a MOVS (LI) of the loop count (1), to
the branch into region_end: B 1 + P, P = 2 on the mainline cores, 1 on the
M0+; J 1 on the E31 (predicted). Both are in every count below: + 4 on the
mainline cores, + 3 on the M0+, + 2 on the E31.

Each run also writes the region's profile (profile=, region=1), whose
instructions' cycles must add up to the region's.

Usage: test_cycle_model.py WORK_DIR   (builds the plugin there: build.sh)
"""
import os
import re
import subprocess
import sys

ARM_START = """
  .syntax unified
  .thumb
  .text
  .word {stack}
  .word _start
  .word fault @ NMI
  .word fault @ HardFault
  .thumb_func
  .global _start
_start:
  ldr r0, =data
  ldr r4, =1000
  movs r5, #7
  mov r6, r5
{setup}
  b region_begin
  .align 2
region_begin:
  movs r2, #100
{body}
  b region_end
  udf #0 @ so that the branch is a taken one
region_end:
  movs r0, #0x18 @ semihosting SYS_EXIT, ADP_Stopped_ApplicationExit
  ldr r1, =0x20026
  bkpt 0xab
  .thumb_func
fault:
  movs r0, #0x18 @ SYS_EXIT with a failure
  movs r1, #0
  bkpt 0xab
  .ltorg
  .align 4
data:
  .word data
  .fill 31, 4, 0x01010101
"""

RV_START = """
  .text
  .global _start
_start:
  la a0, data
  li a4, 1000
  li a5, 7
  j region_begin
  .align 2
region_begin:
  li a2, 100
{body}
  j region_end
  unimp # so that the jump is a taken one
region_end:
  li t0, 0x100000 # virt's test finisher: pass
  li t1, 0x5555
  sw t1, 0(t0)
1: j 1b
  .align 4
data:
  .word 1, 2, 3, 4
"""

FPU_ON = """
  ldr r0, =0xE000ED88 @ CPACR: CP10 and CP11 full access
  ldr r1, [r0]
  orr r1, r1, #0xF00000
  str r1, [r0]
  dsb
  isb
  ldr r0, =data
"""

# name: (ISA, setup, body, {cpu: expected cycles}).
CASES = {
    # Four LDRs a pass, 100 passes. M3/M4 TRM "Load/store timings": the
    # first LDR 2, each LDR after an independent LDR 1 (the TRM's three LDRs
    # in four cycles), SUBS 1, BNE 1 + P when taken (99 times): 7 a pass.
    # M0+ TRM table 3-1: LDR 2, B<c> 2 taken, 1 not. M7/M55 models: LDR 1.
    "ldr_loop": ("v6m", "", """
1: ldr r3, [r0]
  ldr r4, [r0, #4]
  ldr r5, [r0, #8]
  ldr r6, [r0, #12]
  subs r2, #1
  bne 1b""", {"cortex-m0plus": 10 * 100 + 99 + 3, "cortex-m3": 7 * 100 + 99 * 2 + 4,
              "cortex-m4f": 7 * 100 + 99 * 2 + 4, "cortex-m33": 7 * 100 + 99 * 2 + 4,
              "cortex-m7": 6 * 100 + 99 * 2 + 4, "cortex-m55": 6 * 100 + 99 * 2 + 4}),
    # A load whose address is the register the load before it loaded is not
    # pipelined (TRM "Load/store timings"): 2 2, then 1 2 three times = 13.
    "dependent_loads": ("v7m", "", """
  ldr r3, [r0]
  ldr r3, [r3]
  ldr r3, [r0]
  ldr r3, [r3]
  ldr r3, [r0]
  ldr r3, [r3]
  ldr r3, [r0]
  ldr r3, [r3]""", {"cortex-m3": 13 + 4, "cortex-m4f": 13 + 4, "cortex-m33": 13 + 4,
                               "cortex-m7": 8 + 4}),
    # "Any load or store that generates an address dependent on the result
    # of a preceding data processing operation stalls the pipeline for an
    # additional cycle" (M3/M4 TRM, load/store timings): ADDS 1 then LDR 3
    # twice, ADDS 1 then an LDR of another register's address 2 twice.
    "computed_address": ("v7m", "", """
  adds r3, r0, #4
  ldr r4, [r3]
  adds r3, r0, #8
  ldr r4, [r3]
  adds r3, r0, #4
  ldr r4, [r0]
  adds r3, r0, #8
  ldr r4, [r0]""", {"cortex-m3": 2 * 4 + 2 * 3 + 4, "cortex-m4f": 2 * 4 + 2 * 3 + 4,
                      "cortex-m33": 2 * 4 + 2 * 3 + 4, "cortex-m7": 8 + 4}),
    # SUBS 1, BNE 1 + P: 100 passes, 99 taken. M0+: 2 a taken B<c>.
    "taken_branch_loop": ("v6m", "", """
1: subs r2, #1
  bne 1b""", {"cortex-m0plus": 2 * 100 + 99 + 3, "cortex-m3": 2 * 100 + 99 * 2 + 4,
              "cortex-m4f": 2 * 100 + 99 * 2 + 4, "cortex-m33": 2 * 100 + 99 * 2 + 4,
              "cortex-m7": 2 * 100 + 99 * 2 + 4, "cortex-m55": 2 * 100 + 99 * 2 + 4}),
    # Four SMLADs a pass (M4 TRM table 3-1: 1 each), SUBS, BNE: 6 a pass.
    "smlad_loop": ("v7em", "", """
1: smlad r3, r4, r5, r3
  smlad r3, r4, r6, r3
  smlad r3, r5, r6, r3
  smlad r3, r4, r4, r3
  subs r2, #1
  bne 1b""", {"cortex-m4f": 6 * 100 + 99 * 2 + 4, "cortex-m33": 6 * 100 + 99 * 2 + 4,
              "cortex-m7": 6 * 100 + 99 * 2 + 4, "cortex-m55": 6 * 100 + 99 * 2 + 4}),
    # 1000 / 7: the TRMs give UDIV 2 to 12 by early termination; the model
    # takes 12. Eight of them: 96.
    "udiv": ("v7m", "", "\n".join(["  udiv r3, r4, r5"] * 8),
             {"cortex-m3": 96 + 4, "cortex-m4f": 96 + 4, "cortex-m33": 96 + 4, "cortex-m7": 96 + 4}),
    # UMULL then UMLAL, four each. M3 TRM: UMULL 3-5, UMLAL 4-7, taken at
    # their worst: 20 + 28. M4 TRM: 1 each.
    "long_multiply": ("v7m", "", "\n".join(["  umull r3, r7, r4, r5"] * 4 +
                                             ["  umlal r3, r7, r4, r5"] * 4),
                      {"cortex-m3": 4 * 5 + 4 * 7 + 4, "cortex-m4f": 8 + 4, "cortex-m33": 8 + 4}),
    # M3 TRM: MLA 2, M4 TRM: MLA 1; MUL 1 on both. Four of each.
    "multiply_accumulate": ("v7m", "", "\n".join(["  mul r3, r4, r5"] * 4 +
                                                  ["  mla r3, r4, r5, r3"] * 4),
                            {"cortex-m3": 4 + 4 * 2 + 4, "cortex-m4f": 8 + 4}),
    # PUSH and POP of four registers: 1 + N each (M3/M4 TRM; M0+ TRM). The
    # POP with PC returns to region_end: 1 + N + the load refill (3 on M4,
    # 2 on the M0+, whose POP {PC} is 3 + N); no B into region_end here,
    # only the MOVS.
    "push_pop_pc": ("v6m", "  ldr r7, =region_end + 1\n  mov lr, r7", """
  push {r4, r5, r6, lr}
  pop {r4, r5, r6, pc}""", {"cortex-m0plus": 5 + 7 + 1, "cortex-m4f": 5 + 8 + 1}),
    # M4 FPU (TRM table 7-1): VMLA.F32 3, VDIV.F32 14, VLDR 2.
    "fpu": ("v7em-fp", FPU_ON, """
  vldr s1, [r0]
  vmla.f32 s0, s1, s1
  vmla.f32 s0, s1, s1
  vmla.f32 s0, s1, s1
  vdiv.f32 s2, s0, s1""", {"cortex-m4f": 2 + 3 * 3 + 14 + 4}),
    # MVE on the dual-beat M55: a dot product of 64 bytes in four passes of
    # VLDRB, VLDRB, VMLADAVA under a tail-predicated loop. Four beats take
    # two cycles; an instruction overlaps one of the other kind (loads
    # against the multiply-accumulate) by a cycle; the cached loop's LETP is
    # free and costs 1 when it exits. DLSTP 1; pass 1: 2 + 2 + 1; passes
    # 2-4: 1 + 2 + 1 (the first load overlaps the VMLADAVA before it); exit
    # 1.
    "mve_dot_product": ("v81m-mve", FPU_ON + "  ldr r1, =data\n  movs r2, #0\n  movs r3, #64", """
  dlstp.8 lr, r3
1: vldrb.s8 q0, [r0], #16
  vldrb.s8 q1, [r1], #16
  vmladava.s8 r2, q0, q1
  letp lr, 1b""", {"cortex-m55": 1 + 5 + 3 * 4 + 1 + 4}),
    # E31 manual: LW has a two-cycle result latency, so the ADDI that uses
    # it waits a cycle: LW, stall, ADDI, ADDI, BNEZ = 5 a pass, 100 passes.
    # The branch history counter starts at strongly not-taken: passes 1 and
    # 2 and the exit mispredict (3 each).
    "rv_load_use_loop": ("rv", "", """
1: lw a3, 0(a0)
  addi a3, a3, 1
  addi a2, a2, -1
  bnez a2, 1b""", {"rv32imac": 5 * 100 + 3 * 3 + 2}),
    # E31: MUL 5-cycle latency, DIV up to 33 (taken at 33), one at a time.
    # MUL issues at 0; the second MUL waits for the unit: 5; DIV waits for
    # its a4: 10; the ADDI waits for the quotient: 43, and ends at 44.
    "rv_mul_div": ("rv", "", """
  mul a3, a4, a5
  mul a4, a4, a5
  div a3, a4, a5
  addi a3, a3, 1""", {"rv32imac": 44 + 2}),
}

ARCH = {
    "v6m": ("-mcpu=cortex-m0plus", "mps2-an385", "0x20001000", 0x0),
    "v7m": ("-mcpu=cortex-m3", "mps2-an385", "0x20001000", 0x0),
    "v7em": ("-mcpu=cortex-m4", "mps2-an386", "0x20001000", 0x0),
    "v7em-fp": ("-mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard", "mps2-an386",
                "0x20001000", 0x0),
    "v81m-mve": ("-mcpu=cortex-m55", "mps3-an547", "0x31001000", 0x10000000),
}


def build(name, isa, setup, body, work):
    src = os.path.join(work, name + ".S")
    elf = os.path.join(work, name + ".elf")
    if isa == "rv":
        text = RV_START.format(body=body)
        cc = ["riscv64-unknown-elf-gcc", "-march=rv32imac", "-mabi=ilp32",
              "-Wl,-Ttext=0x80000000"]
        nm = "riscv64-unknown-elf-nm"
    else:
        flags, _, stack, base = ARCH[isa]
        text = ARM_START.format(stack=stack, setup=setup, body=body)
        cc = ["arm-none-eabi-gcc", *flags.split(), "-mthumb", f"-Wl,-Ttext={base:#x}"]
        nm = "arm-none-eabi-nm"
    with open(src, "w") as f:
        f.write(text)
    subprocess.run([*cc, "-nostdlib", "-nostartfiles", "-Wa,--fatal-warnings", "-o", elf, src],
                   check=True)
    syms = dict(reversed(line.split()[::2]) for line in
                subprocess.run([nm, elf], check=True, capture_output=True,
                               text=True).stdout.splitlines())
    return elf, int(syms["region_begin"], 16), int(syms["region_end"], 16)


def run(plugin, isa, cpu, elf, begin, end, log):
    """The region's cycles, and the sum of its profile's (profile=, region=1)."""
    profile = log + ".profile"
    args = f"file={plugin},cpu={cpu},begin={begin:#x},end={end:#x},profile={profile},region=1"
    if isa == "rv":
        cmd = ["qemu-system-riscv32", "-machine", "virt", "-bios", "none", "-kernel", elf]
    else:
        cmd = ["qemu-system-arm", "-machine", ARCH[isa][1], "-semihosting-config",
               "enable=on,target=native", "-kernel", elf]
    if os.path.exists(log):
        os.remove(log)
    subprocess.run([*cmd, "-nographic", "-icount", "shift=0", "-plugin", args, "-d", "plugin",
                    "-D", log], check=True, timeout=60, stdin=subprocess.DEVNULL)
    found = re.findall(r"region 1: (\d+) cycles", open(log).read())
    profiled = sum(int(line.split()[2]) for line in open(profile))
    return (int(found[0]) if found else None), profiled


def main():
    work = os.path.abspath(sys.argv[1])
    os.makedirs(work, exist_ok=True)
    plugin = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "build.sh"),
                             os.path.join(work, "plugin")], check=True, capture_output=True,
                            text=True).stdout.strip()
    failed = 0
    for name, (isa, setup, body, expected) in CASES.items():
        elf, begin, end = build(name, isa, setup, body, work)
        for cpu, want in expected.items():
            got, profiled = run(plugin, isa, cpu, elf, begin, end,
                                os.path.join(work, name + ".log"))
            ok = got == want and profiled == got
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {name} on {cpu}: {got} cycles, manual {want}, "
                  f"profile {profiled}")
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The TVM target and the C compiler of each CPU a toolchain file names."""
import os
import re

LLVM_TARGETS = {
    "cortex-m0plus": {"mtriple": "thumbv6m-none-eabi", "mcpu": "cortex-m0plus",
                      "mfloat-abi": "soft"},
    "cortex-m3": {"mtriple": "thumbv7m-none-eabi", "mcpu": "cortex-m3", "mfloat-abi": "soft"},
    "cortex-m4f": {"mtriple": "thumbv7em-none-eabihf", "mcpu": "cortex-m4",
                   "mfloat-abi": "hard"},
    "cortex-m7": {"mtriple": "thumbv7em-none-eabihf", "mcpu": "cortex-m7", "mfloat-abi": "hard"},
    "cortex-m33": {"mtriple": "thumbv8m.main-none-eabihf", "mcpu": "cortex-m33",
                   "mfloat-abi": "hard"},
    "cortex-m55": {"mtriple": "thumbv8.1m.main-none-eabihf", "mcpu": "cortex-m55",
                   "mfloat-abi": "hard"},
    # Soft-float ilp32: float arithmetic calls libgcc (__addsf3, ...).
    "rv32imac": {"mtriple": "riscv32-unknown-elf", "mcpu": "generic-rv32",
                 "mattr": ["+m", "+a", "+c"], "mabi": "ilp32"},
    "rv32imc": {"mtriple": "riscv32-unknown-elf", "mcpu": "generic-rv32",
                "mattr": ["+m", "+c"], "mabi": "ilp32"},
}
CPUS = sorted(LLVM_TARGETS) + ["host"]
_TOOLCHAINS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "toolchains")


def llvm_target(cpu):
    import tvm
    if cpu == "host":
        return tvm.target.Target({"kind": "llvm"})
    if cpu not in LLVM_TARGETS:
        raise ValueError(f"unknown cpu '{cpu}': one of {', '.join(CPUS)}")
    return tvm.target.Target(dict(kind="llvm", **LLVM_TARGETS[cpu]))


def has_c_kernels(cpu):
    """Whether CONV_2D and FULLY_CONNECTED call the C micro-kernels
    (tvm_backend/kernels) rather than TE kernels: on the CPUs where they
    measure fewer instructions and cycles (docs/performance.md; the M3
    runs their plain C form, the M55 their Helium (MVE) form; on rv32imc
    they took fewer instructions but more modeled cycles for VWW and AD).
    Never the host, whose builds are the reference the boards are compared
    with."""
    return cpu in ("cortex-m3", "cortex-m4f", "cortex-m7", "cortex-m33", "cortex-m55")


def c_kernel_ops(cpu):
    """The operators whose int8 kernels call the C micro-kernels on cpu:
    CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED and ADD where has_c_kernels
    (add_s8.c: Helium on the M55, where ResNet-8's three ADDs took about
    0.41 M of its instructions as TE kernels; elsewhere each input's 256
    scaled values looked up, where the TE kernels took about 0.9 M)."""
    if not has_c_kernels(cpu):
        return frozenset()
    return frozenset({"CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "ADD"})


def depthwise_outputs_given(cpu):
    """Whether the depthwise C kernel stores a marked channel's outputs
    from rows after its table (int8_kernels.depthwise_c_table's
    TABLE_VALUES): where the DSP extension runs it a channel at a time or
    over the live channels alone (depthwise_conv_s8.c's dw3 and sparse
    paths: the M4F, M7 and M33); the M3's plain form and the M55's Helium
    form sum every channel, and would only carry the rows."""
    return cpu in ("cortex-m4f", "cortex-m7", "cortex-m33")


def import_options(cpu):
    """from_tflite's options for a model compiled for cpu."""
    return dict(c_kernels=c_kernel_ops(cpu), outputs_given=depthwise_outputs_given(cpu))


def c_kernel_flags(cpu):
    """The C micro-kernels' flags for cpu beyond compile.C_KERNEL_FLAGS: on
    the M55, GCC's second scheduling pass, which sets MVE loads beside MVE
    arithmetic for the dual-beat overlap (modeled cycles: KWS 2.11 M to
    2.05 M, VWW 7.72 M to 7.62 M; the first pass spills: 2.24 M, 7.98 M);
    on the M7, whose loads and stores take a cycle each, the GEMM's and the
    widening's LDRDs and STRDs (s8_gemm.h, s8_primitives.h)."""
    if cpu == "cortex-m55":
        return ["-fschedule-insns2"]
    if cpu == "cortex-m7":
        return ["-DFFI_CORE_KERNELS_ONE_CYCLE_LOADS"]
    return []


def c_compiler(cpu):
    """The command that compiles a C file for the CPU: the toolchain file's flags."""
    if cpu == "host":
        return [os.environ.get("CC", "cc"), "-fPIC"]
    path = os.path.join(_TOOLCHAINS, cpu + ".cmake")
    with open(path) as f:
        m = re.search(r'FFI_CORE_TOOLCHAIN_CPU_FLAGS\s+"([^"]*)"', f.read())
    if m is None:
        raise ValueError(f"{path} sets no FFI_CORE_TOOLCHAIN_CPU_FLAGS")
    if cpu.startswith("rv32"):
        # picolibc's headers; its specs file is harmless for C.
        return ["riscv64-unknown-elf-gcc", "-specs=picolibc.specs"] + m.group(1).split()
    return ["arm-none-eabi-gcc", "-mthumb"] + m.group(1).split()

"""Compiles a Relax module for a microcontroller as a system library.

compile_relax() is the compile path that scripts/tvm-compile.py wraps: TVM
builds the module in compiled VM mode with kernels that do not check their
arguments again (the entry function checks the model's inputs), and the
executable (TVM's __tvm_ffi__library_bin) is placed so that its tensor
constant starts on a 64-byte boundary: ffi-core's loader then uses it in
place in flash and copies nothing to RAM.
"""
import json
import os
import re
import struct
import subprocess
import tarfile
import tempfile

import numpy as np
import tvm
import tvm_ffi.libinfo
from tvm import relax

from .single_call import (ALIGNMENT, ENTRY, direct_c_source, single_call, table_c_source,
                          weights_layout)
from .targets import c_compiler, c_kernel_flags, llvm_target

# What the loader needs to use a constant in place
# (FFI_CORE_TVM_CONSTANT_ALIGNMENT, tvm_backend/src/vm/vm_executable.cc).
CONSTANT_ALIGNMENT = 64
_TENSOR_MAGIC = struct.pack("<Q", 0xDD5E40F096B4A13F)
_LIBRARY_BIN = b"__tvm_ffi__library_bin"
_CORE_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "core",
                             "include")
_BACKEND_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include")
# The C micro-kernels some int8 kernels call (int8_kernels._extern).
KERNELS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels")
# -O2 without instruction scheduling: GCC's scheduler hoists the GEMM's
# loads and spills its accumulators (measured on the M4F: 49 instructions
# per 32 products against 38).
C_KERNEL_FLAGS = ["-O2", "-fno-schedule-insns", "-fno-schedule-insns2", "-std=c99",
                  "-ffunction-sections", "-Wa,--noexecstack", "-Wall", "-Wextra", "-Werror"]


def pass_context(single=False):
    """How the compile path builds: kernels do not check their arguments
    again (the entry function checks the model's inputs). A single-call
    main (single_call.py) holds its storages to its end anyway, where the
    VM drops its registers: each kill would be one more builtin call."""
    return tvm.transform.PassContext(opt_level=3, config={"tirx.disable_assert": True},
                                     disabled_pass=["KillAfterLastUse"] if single else [])


def planned_storage_bytes(mod):
    """The bytes main allocates once Relax has planned its memory: the
    planned storage its intermediates share, and its outputs."""
    seq = tvm.transform.Sequential([
        relax.transform.LegalizeOps(), relax.transform.RewriteDataflowReshape(),
        relax.transform.ToNonDataflow(), relax.transform.RemovePurityChecking(),
        relax.transform.CallTIRRewrite(), relax.transform.StaticPlanBlockMemory()])
    planned = seq(mod)
    total = 0
    storage = tvm.ir.Op.get("relax.memory.alloc_storage")
    tensor = tvm.ir.Op.get("relax.builtin.alloc_tensor")

    def visit(expr):
        nonlocal total
        if isinstance(expr, relax.Call) and expr.op.same_as(storage):
            total += int(expr.args[0].values[0])
        elif isinstance(expr, relax.Call) and expr.op.same_as(tensor):
            n = expr.args[1].value.bits // 8 if hasattr(expr.args[1], "value") else 1
            for d in expr.args[0].values:
                n *= int(d)
            total += n

    relax.analysis.post_order_visit(planned["main"], visit)
    return total


def _elf_symbols(path):
    """{name: bytes} of an object file's defined symbols, from its ELF tables
    (a symbol's bytes are those from its start to the end of its section)."""
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[5] != 1:
        raise ValueError(f"{path} is not a little-endian ELF object")
    is64 = data[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)

    def section(i):
        fmt = "<IIQQQQIIQQ" if is64 else "<IIIIIIIIII"
        f = struct.unpack_from(fmt, data, shoff + i * shentsize)
        return {"type": f[1], "offset": f[4], "size": f[5], "link": f[6], "entsize": f[9]}

    sections = [section(i) for i in range(shnum)]
    symbols = {}
    for s in sections:
        if s["type"] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[s["link"]]
        for k in range(s["size"] // s["entsize"]):
            at = s["offset"] + k * s["entsize"]
            if is64:
                st_name, _, _, shndx, value, _ = struct.unpack_from("<IBBHQQ", data, at)
            else:
                st_name, value, _, _, _, shndx = struct.unpack_from("<IIIBBH", data, at)
            if shndx == 0 or shndx >= len(sections):  # undefined, absolute, common
                continue
            start = strtab["offset"] + st_name
            sec = sections[shndx]
            base = sec["offset"] + value
            symbols[data[start:data.index(b"\0", start)]] = data[base:sec["offset"] + sec["size"]]
    return symbols


def _library_bin(path):
    """The serialized executable TVM's devc.o holds: its size word and bytes."""
    held = _elf_symbols(path).get(_LIBRARY_BIN)
    if held is None:
        raise ValueError(f"{path} has no symbol {_LIBRARY_BIN.decode()}")
    n, = struct.unpack_from("<Q", held, 0)
    return held[:8 + n]


def _tensor_constants(blob):
    """(data offset, nbytes) of each tensor constant in a serialized executable."""
    found = []
    at = blob.find(_TENSOR_MAGIC)
    while at >= 0:
        ndim, = struct.unpack_from("<i", blob, at + 24)
        if 0 <= ndim <= 8:
            shape_at = at + 32
            nbytes_at = shape_at + 8 * ndim
            nbytes, = struct.unpack_from("<q", blob, nbytes_at)
            dims = struct.unpack_from(f"<{ndim}q", blob, shape_at)
            lanes_bits = blob[at + 29] * struct.unpack_from("<H", blob, at + 30)[0]
            numel = 1
            for d in dims:
                numel *= d
            if nbytes == numel * ((lanes_bits + 7) // 8) and nbytes_at + 8 + nbytes <= len(blob):
                found.append((nbytes_at + 8, nbytes))
        at = blob.find(_TENSOR_MAGIC, at + 1)
    return found


def _constant_pool(blob):
    """The serialized executable's constant pool (the layout
    tvm_backend/src/vm/vm_executable.cc reads): for each constant, a
    tensor's data bytes, or None for a constant of another type."""
    # The library binary: the executable follows its kind's name and its size.
    kind = b"relax.VMExecutable"
    at = blob.index(kind) + len(kind) + 8

    def take(fmt):
        nonlocal at
        values = struct.unpack_from(fmt, blob, at)
        at += struct.calcsize(fmt)
        return values

    def view():
        nonlocal at
        n, = take("<Q")
        at += n
        return blob[at - n:at]

    magic, = take("<Q")
    view()  # the version
    num_funcs, = take("<Q")
    for _ in range(num_funcs):
        take("<i")
        view()
        take("<qqqq")
        for _ in range(take("<Q")[0]):
            view()
    if magic == 0xD225DE2F4214151E:  # memory scopes
        for _ in range(take("<Q")[0]):
            take("<q")
            view()
    pool = []
    for _ in range(take("<Q")[0]):
        kind, = take("<i")
        if kind == 70:  # a tensor
            take("<QQii")
            ndim, = take("<i")
            take(f"<4x{8 * ndim}x")
            nbytes, = take("<q")
            pool.append(blob[at:at + nbytes])
            at += nbytes
            continue
        pool.append(None)
        if kind == 69:  # a shape
            take(f"<{8 * take('<Q')[0]}x")
        elif kind == 65:  # a string
            view()
        else:  # an int, a float, a dtype
            take({1: "<q", 3: "<d", 5: "<4x"}[kind])
    return pool


def _pool_indices(blob, constants):
    """Each of the table's constants' index in the executable's constant
    pool (one with the same bytes), or None where one is not there."""
    pool = _constant_pool(blob)
    found = [next((k for k, c in enumerate(pool) if c == data), None) for data in constants]
    return None if None in found else found


def _write_library_bin(blob, symbols, cpu, out_path, tmp, name):
    """An object that registers the executable with its largest tensor
    constant on a CONSTANT_ALIGNMENT boundary (the data TVM's devc.o holds,
    placed for in-place use), and brings the system library the slots for
    the model's `symbols` registrations (ffi_core/system_lib.h)."""
    constants = _tensor_constants(blob)
    offset = max(constants, key=lambda c: c[1])[0] if constants else 0
    pad = -offset % CONSTANT_ALIGNMENT
    bin_path = os.path.join(tmp, "library_bin.bin")
    with open(bin_path, "wb") as f:
        f.write(blob)
    # The assembler warns of a zero-byte .space.
    space = f'        ".space {pad}\\n"\n' if pad else ""
    # The largest constant (the weight blob) gets a global name,
    # ffi_core_<name>_constants, for a firmware that reads it in place; a
    # model without constants has the name too, at the executable's end
    # (no bytes), so that such a firmware links whatever the model.
    at = offset if constants else len(blob)
    incbin = (f'        ".incbin \\"{bin_path}\\", 0, {at}\\n"\n'
              f'        ".global ffi_core_{name}_constants\\n"\n'
              f'        "ffi_core_{name}_constants:\\n"\n')
    if constants:
        incbin += f'        ".incbin \\"{bin_path}\\", {at}\\n"\n'
    src = os.path.join(tmp, "library_bin.c")
    with open(src, "w") as f:
        f.write(f"""/* Generated by ffi_core_tvm.compile: TVM's executable, placed so that its
 * largest tensor constant starts {CONSTANT_ALIGNMENT}-byte aligned, and the
 * system library slots for the model's {symbols} symbols. */
#include <ffi_core/system_lib.h>

static FFICoreSystemLibSlot slots[{symbols}];
static FFICoreSystemLibBlock block = {{slots, {symbols}, 0}};
__attribute__((constructor(101))) static void ffi_core_add_model_slots(void) {{
  FFICoreSystemLibAddSlots(&block);
}}

__asm__(".section .rodata.ffi_core_library_bin,\\"a\\"\\n"
        ".balign {CONSTANT_ALIGNMENT}\\n"
{space}        "ffi_core_library_bin:\\n"
{incbin}        ".previous\\n");
extern const char ffi_core_library_bin[];
int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);
__attribute__((constructor)) static void ffi_core_register_library_bin(void) {{
  TVMFFIEnvModRegisterSystemLibSymbol("__tvm_ffi__library_bin", (void*)ffi_core_library_bin);
}}
""")
    subprocess.run(c_compiler(cpu) + ["-Os", "-I", _CORE_INCLUDE, "-c", src, "-o", out_path],
                   check=True)
    return [{"offset": o + pad, "bytes": n} for o, n in constants]


# What a C micro-kernel calls in another file of tvm_backend/kernels/: the
# matrix product's loops, one copy for the kernels that share them.
_C_KERNEL_NEEDS = {"conv_s8": ("s8_gemm",), "fully_connected_s8": ("s8_gemm",)}


def c_kernels(mod):
    """The C micro-kernels (tvm_backend/kernels/<stem>.c) mod's kernels call."""
    return sorted({str(f.attrs["ffi_core_c_kernel"]) for _, f in mod.functions.items()
                   if isinstance(f, tvm.tirx.PrimFunc) and f.attrs is not None
                   and "ffi_core_c_kernel" in f.attrs})


def c_kernel_defines(mod):
    """The C micro-kernels' defines for mod (s8_primitives.h):
    FFI_CORE_S8_MARKED=0 where no kernel's table marks a channel, so that
    their code for marked channels is left out; FFI_CORE_S8_FORMS, the
    Helium requantization forms the kernels' tables take (int8_kernels.c_form),
    so that only those loops are built beside each kind's general ones."""
    attrs = [f.attrs for _, f in mod.functions.items()
             if isinstance(f, tvm.tirx.PrimFunc) and f.attrs is not None]
    defines = [] if any("ffi_core_c_kernel_marked" in a for a in attrs) else [
        "-DFFI_CORE_S8_MARKED=0"]
    forms = 0
    for a in attrs:
        if "ffi_core_c_kernel_form" in a:
            forms |= 1 << int(a["ffi_core_c_kernel_form"])
    return defines + [f"-DFFI_CORE_S8_FORMS={forms:#x}"]


def _link_c_sources(sources, cpu, base, tmp, out=None, defines=()):
    """Compiles the C sources (the micro-kernels, the kernel table) for cpu
    with `defines` and folds them with the object `base` into `out` (ld -r;
    by default base itself), so that a model stays the objects model.json
    lists."""
    objects = []
    for src in sources:
        obj = os.path.join(tmp, os.path.basename(src)[:-2] + ".o")
        subprocess.run(c_compiler(cpu) + C_KERNEL_FLAGS + c_kernel_flags(cpu) + list(defines) + [
            "-I", _CORE_INCLUDE, "-I", _BACKEND_INCLUDE,
            # DLPack's header, from the apache-tvm-ffi package TVM runs on.
            "-I", tvm_ffi.libinfo.find_dlpack_include_path(), "-c", src, "-o", obj], check=True)
        objects.append(obj)
    # The compiler driver links, so that ld gets the CPU's emulation; without
    # a specs file, whose linker script a relocatable link cannot take.
    merged = os.path.join(tmp, "merged.o")
    driver = [f for f in c_compiler(cpu) if not f.startswith("-specs=")]
    subprocess.run(driver + ["-r", "-nostdlib", "-o", merged, base] + objects,
                   check=True)
    os.replace(merged, out or base)


def _write_direct(mod, table, target, cpu, sources, inputs, outputs, out_dir, name, symbol,
                  tmp):
    """The direct entry's two objects (docs/run-a-model.md): <name>_direct.o,
    the kernels compiled again without TVM's main and system library, the C
    micro-kernels and the table's entry, every symbol local but the entry,
    the reset and the kernels' packed entries (renamed for the model); and
    <name>_weights.o, the constants the table reads.
    Returns model.json's "entry"."""
    entry, weights = f"ffi_core_{symbol}_run", f"ffi_core_{symbol}_weights"
    states = [t for t in inputs if t.is_variable]
    reset = f"ffi_core_{symbol}_reset" if states else None
    kernels = tvm.IRModule({gv: f.with_attr("global_symbol", gv.name_hint)
                            for gv, f in mod.functions.items()
                            if isinstance(f, tvm.tirx.PrimFunc) and gv.name_hint != ENTRY})
    with pass_context():
        lib = tvm.compile(kernels, target=target)
    kernels_o = os.path.join(tmp, "direct_kernels.o")
    lib.mod.write_to_file(kernels_o)
    src = os.path.join(tmp, "direct_entry.c")
    with open(src, "w") as f:
        f.write(direct_c_source(table, entry, weights, reset, [
            (t.dtype, int(np.prod(t.shape)),
             int(t.zero_point[0]) if t.zero_point is not None else 0) for t in states]))
    direct_o = os.path.join(out_dir, f"{name}_direct.o")
    _link_c_sources(sources + [src], cpu, kernels_o, tmp, direct_o, c_kernel_defines(mod))
    tool = c_compiler(cpu)[0]
    objcopy = tool[:-3] + "objcopy" if tool.endswith("gcc") else "objcopy"
    # Each kernel's packed entry keeps a name of the model's, for timing it
    # alone: ffi_core_<model>_kernel_<kernel>.
    renamed = {f"__tvm_ffi_{gv.name_hint}": f"ffi_core_{symbol}_kernel_{gv.name_hint}"
               for gv in kernels.functions}
    flags = [f"--redefine-sym={a}={b}" for a, b in renamed.items()]
    flags += [f"--keep-global-symbol={s}" for s in [entry, reset, *renamed.values()] if s]
    subprocess.run([objcopy] + flags + [direct_o], check=True)
    # The constants, each on ALIGNMENT, in the order the table numbers them.
    offsets, nbytes = weights_layout(table)
    blob = bytearray(nbytes)
    for at, data in zip(offsets, table["constants"]):
        blob[at:at + len(data)] = data
    bin_path = os.path.join(tmp, "weights.bin")
    with open(bin_path, "wb") as f:
        f.write(blob)
    src = os.path.join(tmp, "weights.c")
    with open(src, "w") as f:
        f.write(f"""/* Generated by ffi_core_tvm.compile: the constants of {entry}. */
__asm__(".section .rodata.{weights},\\"a\\"\\n"
        ".balign {CONSTANT_ALIGNMENT}\\n"
        ".global {weights}\\n"
        "{weights}:\\n"
        ".incbin \\"{bin_path}\\"\\n"
        ".previous\\n");
""")
    subprocess.run(c_compiler(cpu) + ["-c", src, "-o",
                                      os.path.join(out_dir, f"{name}_weights.o")], check=True)
    # The buffers' names: model.json's inputs and outputs, or main's
    # parameters and output{k} for a module compiled without them.
    params = [t.name for t in inputs] or table["param_names"]
    results = ([t.name for t in outputs[:len(outputs) - len(states)]]
               or [f"output{k}" for k in range(table["outputs"])])
    return {
        "objects": [f"{name}_direct.o", f"{name}_weights.o"],
        "symbol": entry,
        "buffers": params + ["workspace"] + results,
        "workspace_bytes": table["workspace_bytes"],
        "alignment": ALIGNMENT,
        "weights_bytes": nbytes,
        "reset": reset,
        "reset_buffers": [t.name for t in states],
    }


def c_symbol(name):
    """A model's name as the C symbols compile_relax writes spell it
    (ffi_core_<symbol>_run, _constants, _weights)."""
    return re.sub(r"\W", "_", name)


def _spec(t):
    """An input's or output's entry in model.json: per-tensor quantization as
    scale and zero_point, per-channel as lists with the channel axis."""
    spec = {"name": t.name, "shape": list(t.shape), "dtype": t.dtype,
            "scale": None, "zero_point": None, "state": t.is_variable}
    if t.scale is not None and len(t.scale) > 1:
        spec.update(scale=[float(s) for s in t.scale], zero_point=[int(z) for z in t.zero_point],
                    quant_axis=int(t.quant_axis))
    elif t.scale is not None:
        spec.update(scale=float(t.scale[0]), zero_point=int(t.zero_point[0]))
    return spec


def compile_relax(mod, cpu, out_dir, name="model", inputs=(), outputs=()):
    """Builds `mod` for `cpu` (a toolchain file's name, or "host") into
    out_dir: <name>_lib0.o (kernels and entry), <name>_bin.o (the executable)
    and model.json. inputs/outputs describe the tensors (name, shape, dtype,
    scale, zero_point, is_variable: a state) for model.json. Returns
    model.json's dict."""
    os.makedirs(out_dir, exist_ok=True)
    target = llvm_target(cpu)
    symbol = c_symbol(name)
    mod, table = single_call(mod, f"ffi_core_kernel_table_{symbol}")
    with pass_context(single=table is not None):
        ex = relax.build(mod, target, exec_mode="compiled", system_lib=True)
    with tempfile.TemporaryDirectory() as tmp:
        tar_path = os.path.join(tmp, "model.tar")
        ex.export_library(tar_path)
        with tarfile.open(tar_path) as tar:
            tar.extractall(tmp)
        lib0 = os.path.join(out_dir, f"{name}_lib0.o")
        os.replace(os.path.join(tmp, "lib0.o"), lib0)
        stems = c_kernels(mod)
        needs = sorted({d for stem in stems for d in _C_KERNEL_NEEDS.get(stem, ())})
        sources = [os.path.join(KERNELS_DIR, f"{stem}.c") for stem in stems + needs]
        blob = _library_bin(os.path.join(tmp, "devc.o"))
        if table is not None:
            sources.append(os.path.join(tmp, "kernel_table.c"))
            with open(sources[-1], "w") as f:
                f.write(table_c_source(table, _pool_indices(blob, table["constants"])))
        if sources:
            _link_c_sources(sources, cpu, lib0, tmp, defines=c_kernel_defines(mod))
        entry = None
        if table is not None:
            entry = _write_direct(mod, table, target, cpu, sources[:-1], inputs, outputs,
                                  out_dir, name, symbol, tmp)
        # What the model registers: lib0's __tvm_ffi_* symbols and the executable.
        symbols = 1 + sum(1 for s in _elf_symbols(lib0) if s.startswith(b"__tvm_ffi_"))
        constants = _write_library_bin(blob, symbols, cpu,
                                       os.path.join(out_dir, f"{name}_bin.o"), tmp, symbol)
    kernels = sorted(gv.name_hint for gv, f in mod.functions.items()
                     if isinstance(f, tvm.tirx.PrimFunc))
    states = [t for t in inputs if t.is_variable]
    info = {
        "model": name, "cpu": cpu, "objects": [f"{name}_lib0.o", f"{name}_bin.o"],
        "inputs": [_spec(t) for t in inputs], "outputs": [_spec(t) for t in outputs],
        "ram_bytes": planned_storage_bytes(mod),
        # The caller's buffers of the state inputs, which main updates in
        # place and `reset` fills with the zero points: RAM beside ram_bytes.
        "state_bytes": sum(int(np.prod(t.shape)) * np.dtype(t.dtype).itemsize for t in states),
        "reset": "reset" if states else None,
        "constant_bytes": sum(c["bytes"] for c in constants),
        "executable_bytes": len(blob),
        "system_lib_symbols": symbols,
        "kernels": kernels,
        "c_kernels": stems,
        # Without TVM's VM: the model's direct entry, or null where main is
        # not a straight line of kernels.
        "entry": entry,
    }
    with open(os.path.join(out_dir, "model.json"), "w") as f:
        json.dump(info, f, indent=1)
    return info

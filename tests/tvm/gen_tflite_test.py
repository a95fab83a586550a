"""Compiles one TFLite model (MLPerf Tiny's, TFLite Micro's examples) through
ffi-core's compile path and writes what its test firmware
(run_tflite_test.cc) needs.

Into --out: the compile path's objects and model.json (ffi_core_tvm.compile)
and model_data.h: seeded inputs over the full range of each input's type,
grouped in sequences of calls that carry the model's state (its variable
tensors: SVDF's, LSTM's) from one call to the next from the reset state (each
state tensor's zero point); TVM's own VirtualMachine's results on this host
for the same module (outputs and new states), LiteRT's outputs (TensorFlow's
interpreter, from PyPI ai-edge-litert, with its reference kernels,
BUILTIN_REF, which TFLite Micro's and CMSIS-NN's agree with bit for bit and
its default kernels do not; --no-litert where it cannot run the model), the kind and message TVM's VM raises for a wrong dtype and a wrong
shape, and each kernel call of main for the kernels' share of an inference.
A model without state runs each input alone (a sequence of one call).
"""
import argparse
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "tvm_backend", "python"))

import flatbuffers  # noqa: E402
import tflite  # noqa: E402
import tvm  # noqa: E402
from ffi_core_tvm.compile import c_symbol, compile_relax, pass_context  # noqa: E402
from ffi_core_tvm.targets import c_compiler, import_options  # noqa: E402
from ffi_core_tvm.tflite import from_tflite  # noqa: E402
from gen_models import c_string, c_values, tvm_error  # noqa: E402
from tvm import relax  # noqa: E402

# Sequences and calls in each: a stateless model's inputs, one call each.
STATELESS = (3, 1)
STATEFUL = (2, 3)
C_TYPES = {"int8": ("int8_t", "kDLInt", 8), "int16": ("int16_t", "kDLInt", 16),
           "int32": ("int32_t", "kDLInt", 32), "float32": ("float", "kDLFloat", 32)}
MAX_DIMS = 6
KERNEL_MAX_ARGS = 8  # run_tflite_test.cc's kKernelMaxArgs
ALIGNMENT = 64  # tflite_test_common.h's kAlignment: what TVM's kernels assume of a tensor


def for_litert(buf):
    """A copy of the model that LiteRT takes: a quantization axis past a
    tensor's last dimension (person_detect's one-dimensional biases declare
    axis 3; TFLite Micro ignores it) set to 0."""
    out = bytearray(buf)
    model = tflite.Model.GetRootAsModel(out, 0)
    for g in range(model.SubgraphsLength()):
        sub = model.Subgraphs(g)
        for i in range(sub.TensorsLength()):
            t = sub.Tensors(i)
            q = t.Quantization()
            if q is not None and q.QuantizedDimension() >= max(t.ShapeLength(), 1):
                at = q._tab.Offset(16)  # the quantized_dimension field
                flatbuffers.encode.Write(flatbuffers.packer.int32, out, q._tab.Pos + at, 0)
    return bytes(out)


def litert(buf, sequences):
    """LiteRT's reference kernels' outputs for each call of each sequence,
    its variables reset before each sequence."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    it = Interpreter(model_content=for_litert(buf),
                     experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    result = []
    for seq in sequences:
        it.reset_all_variables()
        steps = []
        for xs in seq:
            for d, x in zip(it.get_input_details(), xs):
                it.set_tensor(d["index"], x)
            it.invoke()
            steps.append([it.get_tensor(d["index"]) for d in it.get_output_details()])
        result.append(steps)
    return result


def host_vm(buf):
    """main of the model built for this host (the same kernels without the
    DSP extension), returning a list of arrays."""
    with pass_context():
        vm = relax.VirtualMachine(relax.build(from_tflite(buf)[0], tvm.target.Target("llvm"),
                                              exec_mode="compiled"), tvm.cpu())

    def run(*xs):
        r = vm["main"](*[tvm.runtime.tensor(x) for x in xs])
        return [r.numpy()] if hasattr(r, "numpy") else [a.numpy() for a in r]
    return vm["main"], run


def random_input(rng, t):
    if t.dtype == "float32":
        return rng.standard_normal(t.shape).astype(np.float32)
    info = np.iinfo(t.dtype)
    return rng.integers(info.min, info.max + 1, size=t.shape, dtype=t.dtype)


def reset(t):
    return np.full(t.shape, t.zero_point[0] if t.zero_point is not None else 0, t.dtype)


def kernel_calls(mod):
    """(kernel, [(shape, dtype, is the weight blob, is written) of each
    argument, new outputs last]) of each call_tir and call_tir_inplace in
    main, in order (a kernel may write several outputs, as the LSTM's does;
    those it writes in place, the states, are among its arguments)."""
    def spec(ty, blob=False, written=True):
        return (tuple(int(d) for d in ty.shape), str(ty.dtype), blob, written)

    calls = []
    for block in mod["main"].body.blocks:
        for b in block.bindings:
            v = b.value
            op = getattr(v.op, "name", "") if isinstance(v, relax.Call) else ""
            if op in ("relax.call_tir", "relax.call_tir_inplace"):
                outs = b.var.ty.fields if isinstance(b.var.ty, relax.TupleType) else [b.var.ty]
                inplace = list(v.attrs.inplace_indices) if op.endswith("inplace") else []
                new = [ty for k, ty in enumerate(outs) if not inplace or inplace[k] < 0]
                calls.append((v.args[0].name_hint,
                              [spec(a.ty, isinstance(a, tvm.ir.expr.Constant), k in inplace)
                               for k, a in enumerate(v.args[1].fields)] +
                              [spec(ty) for ty in new]))
    return calls


def tensor_init(t, shape=None):
    shape = t.shape if shape is None else shape
    _, code, bits = C_TYPES[t.dtype]
    zp = int(t.zero_point[0]) if t.zero_point is not None else 0
    return (f"{{{{{code}, {bits}, 1}}, {len(shape)}, {{{', '.join(map(str, shape))}}}, {zp}, "
            f"{int(np.prod(shape)) * bits // 8}}}")


def data_arrays(lines, prefix, tensors, values):
    """One C array per tensor of every call's values, each call's ALIGNMENT-
    byte aligned (zeros after it up to the next), and a table of them."""
    names = []
    for k, t in enumerate(tensors):
        ctype = C_TYPES[t.dtype][0]
        name = f"{prefix}{k}"
        n, size = int(np.prod(t.shape)), np.dtype(t.dtype).itemsize
        flat = []
        for v in values:
            a = np.zeros(-(-n * size // ALIGNMENT) * ALIGNMENT // size, t.dtype)
            a[:n] = np.asarray(v[k], t.dtype).reshape(-1)
            flat.append(a)
        lines.append(f"alignas({ALIGNMENT}) static const {ctype} {name}[] = {{")
        lines += ["  " + c_values(a) + "," for a in flat] + ["};"]
        names.append(name)
    lines.append(f"static const void* const {prefix}Data[] = {{{', '.join(names)}}};")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--suite", default="mlperf", help="the first word of the pass line")
    ap.add_argument("--cpu", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--no-litert", action="store_true",
                    help="compare with TVM's VM alone (LiteRT cannot run the model)")
    opts = ap.parse_args()
    with open(opts.model, "rb") as f:
        write_test(f.read(), opts)


def write_test(buf, opts):
    """Compiles the model `buf` and writes model_data.h, as main's options
    say (opts.model: its file, for messages); returns LiteRT's outputs of
    each call (None with no_litert)."""
    mod, inputs, outputs = from_tflite(buf, **import_options(opts.cpu))
    info = compile_relax(mod, opts.cpu, opts.out, opts.name, inputs, outputs)
    states = [t for t in inputs if t.is_variable]
    inputs = inputs[:len(inputs) - len(states)]
    outputs = outputs[:len(outputs) - len(states)]
    for t in inputs + states + outputs:
        if t.dtype not in C_TYPES or len(t.shape) > MAX_DIMS:
            sys.exit(f"{opts.model}: {t.name}: the test takes {', '.join(C_TYPES)} tensors "
                     f"of at most {MAX_DIMS} dimensions")
    main_fn, run = host_vm(buf)
    n_seq, n_steps = STATEFUL if states else STATELESS
    rng = np.random.default_rng(20261125)
    sequences = [[[random_input(rng, t) for t in inputs] for _ in range(n_steps)]
                 for _ in range(n_seq)]
    host = []  # each call's results: outputs, then new states
    for seq in sequences:
        state = [reset(t) for t in states]
        for xs in seq:
            results = run(*xs, *state)
            state = results[len(outputs):]
            host.append(results)
    symbol = c_symbol(opts.name)
    lines = [f"// Generated by gen_tflite_test.py from {os.path.basename(opts.model)}.",
             f'#define MODEL_SUITE "{opts.suite}"',
             f'#define MODEL_NAME "{opts.name}"',
             f"#define MODEL_SEQUENCES {n_seq}",
             f"#define MODEL_STEPS {n_steps}",
             f"#define MODEL_NUM_INPUTS {len(inputs)}",
             f"#define MODEL_NUM_OUTPUTS {len(outputs)}",
             f"#define MODEL_NUM_STATES {len(states)}",
             f"#define MODEL_STATE_BYTES {sum(reset(t).nbytes for t in states)}",
             f"#define MODEL_RAM_BYTES {info['ram_bytes']}",
             f"#define MODEL_CONSTANT_BYTES {info['constant_bytes']}",
             f"#define MODEL_CONSTANTS ffi_core_{symbol}_constants",
             f"#define MODEL_HAS_LITERT {0 if opts.no_litert else 1}",
             "// The model's inputs, then its state tensors (zero point: the reset value).",
             "static const ModelTensor kArgs[] = {" +
             ", ".join(tensor_init(t) for t in inputs + states) + "};",
             "// The model's outputs, then its state tensors (main's state arguments, updated"
             " in place).",
             "static const ModelTensor kResults[] = {" +
             ", ".join(tensor_init(t) for t in outputs + states) + "};",
             "// Each call's values: sequence by sequence, call by call."]
    data_arrays(lines, "kInput", inputs, [xs for seq in sequences for xs in seq])
    data_arrays(lines, "kTvmHost", outputs + states, host)
    if not opts.no_litert:
        lite = [outs for seq in litert(buf, sequences) for outs in seq]
        worst = max(float(np.abs(h.astype(np.float64) - r.astype(np.float64)).max())
                    for hs, rs in zip(host, lite) for h, r in zip(hs, rs))
        print(f"{opts.name}: TVM's VM on this host vs LiteRT's reference kernels, {len(host)} calls: "
              f"max {worst:g}")
        data_arrays(lines, "kLiteRT", outputs, lite)
    # A wrong dtype and a wrong shape for the first input, the rest right.
    first = [tvm.runtime.tensor(x) for x in sequences[0][0]]
    rest = first[1:] + [tvm.runtime.tensor(reset(t)) for t in states]
    x0 = sequences[0][0][0]
    wrong = "float32" if x0.dtype != np.float32 else "int8"
    bad_dtype = tvm_error(main_fn, tvm.runtime.tensor(x0.astype(wrong)), *rest)
    bad_shape = tvm_error(main_fn, tvm.runtime.tensor(x0.reshape(-1)[:-1].copy()), *rest)
    lines.append(f"#define MODEL_BAD_DTYPE {{{C_TYPES[wrong][1]}, {C_TYPES[wrong][2]}, 1}}")
    for what, (kind, msg) in (("DTYPE", bad_dtype), ("SHAPE", bad_shape)):
        lines.append(f"#define MODEL_BAD_{what}_KIND {c_string(kind)}")
        lines.append(f"#define MODEL_BAD_{what}_MESSAGE {c_string(msg)}")
    # Each kernel call again, alone, for the runtime's share of an inference:
    # activations on scratch RAM, the weight blob in place in flash. What a
    # kernel writes lies one argument after the other; what it only reads lies
    # over them, at the scratch's start (its values do not matter).
    calls = kernel_calls(mod)
    scratch = 0
    lines.append("static const ModelKernelCall kKernelCalls[] = {")
    for name, args in calls:
        if len(args) > KERNEL_MAX_ARGS or any(dtype not in C_TYPES or len(shape) > MAX_DIMS
                                              for shape, dtype, _, _ in args):
            sys.exit(f"{name}: the kernel share takes {KERNEL_MAX_ARGS} arguments at most, "
                     f"{', '.join(C_TYPES)} tensors of at most {MAX_DIMS} dimensions")
        # Each argument 4-byte aligned in the scratch.
        def size(shape, dtype):
            return -(-int(np.prod(shape)) * C_TYPES[dtype][2] // 32) * 4
        scratch = max(scratch,
                      sum(size(shape, dtype) for shape, dtype, blob, w in args if not blob and w),
                      *(size(shape, dtype) for shape, dtype, blob, w in args if not blob))
        inits = ", ".join(
            "{" + f"{{{C_TYPES[dtype][1]}, {C_TYPES[dtype][2]}, 1}}, {len(shape)}, "
            f"{{{', '.join(map(str, shape))}}}, {'true' if blob else 'false'}, "
            f"{'true' if written else 'false'}" + "}"
            for shape, dtype, blob, written in args)
        lines.append(f'  {{"{name}", {len(args)}, {{{inits}}}}},')
    lines.append("};")
    lines.append(f"#define MODEL_SCRATCH_BYTES {scratch}")
    # The direct entry (run_direct_test.cc): its symbols, its workspace and
    # each kernel's packed entry, for the same kernel share without the
    # system library.
    entry = info["entry"]
    lines.append(f"#define MODEL_HAS_ENTRY {0 if entry is None else 1}")
    if entry is not None:
        lines += [f"#define MODEL_ENTRY {entry['symbol']}",
                  f"#define MODEL_WEIGHTS ffi_core_{symbol}_weights",
                  f"#define MODEL_WORKSPACE_BYTES {entry['workspace_bytes']}",
                  "#define MODEL_OUTPUT_STORAGE " +
                  str(sum(-(-reset(t).nbytes // ALIGNMENT) * ALIGNMENT for t in outputs))]
        if entry["reset"]:
            lines.append(f"#define MODEL_RESET {entry['reset']}")
        lines.append("#ifdef MODEL_DIRECT")
        kernel = f"ffi_core_{symbol}_kernel_"  # compile_relax's names in <name>_direct.o
        lines += [f'extern "C" int {kernel}{n}(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);'
                  for n in sorted({name for name, _ in calls})]
        lines.append("static const TVMFFISafeCallType kKernelEntries[] = {" +
                     ", ".join(f"{kernel}{name}" for name, _ in calls) + "};")
        lines.append("#endif")
    else:  # the direct test's objects, empty: it skips
        empty = os.path.join(opts.out, "empty.c")
        with open(empty, "w") as f:
            f.write("/* gen_tflite_test.py: the model has no direct entry. */\n")
        for obj in (f"{opts.name}_direct.o", f"{opts.name}_weights.o"):
            subprocess.run(c_compiler(opts.cpu) + ["-c", empty, "-o",
                                                   os.path.join(opts.out, obj)], check=True)
        os.remove(empty)
    with open(os.path.join(opts.out, "model_data.h"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return None if opts.no_litert else lite


if __name__ == "__main__":
    main()

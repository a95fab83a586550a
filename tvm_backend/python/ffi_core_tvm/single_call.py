"""A model's kernels as one call on one planned workspace.

TVM's compiled VM runs main as a list of builtin calls: for each layer an
alloc_tensor through the packed-call path, the kernel call's argument list,
the kills (about 1,000 instructions a layer on a Cortex-M4). single_call()
rewrites a main that is a straight line of kernel calls (states written in
place too), reshapes and tuples of their results into one call of
`main_kernels`: a C table of the kernels in order over one workspace whose
regions are planned here (tvm_backend/src/kernel_plan.cc runs it). main
then checks its inputs, allocates one storage (the outputs, then the
workspace) and its tensors, and calls the table: the same few builtin calls
an inference, whatever the layers (the VM keeps the storage from call to
call). A main of any other shape (control flow, an operator with no
kernel, shape arguments, a single kernel) stays as it is.
"""
import numpy as np
import tvm
from tvm import relax, tirx
from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T

# The table's PrimFunc in the module.
ENTRY = "main_kernels"
# FFI_CORE_TVM_KERNEL_PLAN_MAX_ARGS (tvm_kernel_plan.h).
MAX_ARGS = 6
# DLPack's type codes of the dtypes the table writes.
_DTYPE_CODES = {"int": 0, "uint": 1, "float": 2}
# Every region starts on this boundary: the C kernels load words and
# doublewords, Helium loads vectors.
ALIGNMENT = 16


class _Storage:
    """Where a tensor of main lives: the entry's argument `index` of `kind`
    (param, constant, output) or a workspace region, and the steps that
    define and last read it."""

    def __init__(self, kind, index, nbytes, defined=-1):
        self.kind, self.index, self.nbytes = kind, index, nbytes
        self.defined, self.last_use, self.offset = defined, defined, 0


def _tensor_type(ty):
    """(shape, dtype) of a static tensor type of a dtype the table writes
    (int, uint, float), None otherwise."""
    if (not isinstance(ty, relax.TensorType) or ty.shape is None
            or str(ty.dtype).rstrip("0123456789") not in _DTYPE_CODES):
        return None
    try:
        return tuple(int(d) for d in ty.shape.values), str(ty.dtype)
    except (AttributeError, TypeError):
        return None


def _aligned(nbytes):
    """nbytes rounded up to ALIGNMENT."""
    return -(-nbytes // ALIGNMENT) * ALIGNMENT


def _bytes(shape, dtype):
    return int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize


def _arguments(call, where, constants):
    """[(storage, shape, dtype)] of a kernel call's arguments, or None."""
    args = []
    for a in call.args[1].fields:
        if isinstance(a, tvm.ir.expr.Constant) and _tensor_type(a.ty) is not None:
            found = [s for c, s in constants if c.same_as(a)]
            if not found:
                found = [_Storage("constant", len(constants), 0)]
                constants.append((a, found[0]))
            args.append((found[0],) + _tensor_type(a.ty))
        elif isinstance(a, relax.Var) and a in where:
            args.append(where[a])
        else:
            return None
    return args


def _straight_line(mod):
    """(params, constants, steps, results) of main, or None where main is
    not a straight line of kernel calls (call_tir, call_tir_inplace: no
    shape arguments), reshapes and tuples of their results. A step is
    (kernel name, [(storage, shape, dtype)] of its arguments, new outputs
    last); results, (storage, shape, dtype) of what main returns, in order."""
    main = mod["main"]
    if not isinstance(main.body, relax.SeqExpr):
        return None
    where = {}  # tensor var -> (storage, shape, dtype)
    tuples = {}  # tuple var -> [(storage, shape, dtype)]
    for i, p in enumerate(main.params):
        t = _tensor_type(p.ty)
        if t is None:
            return None
        where[p] = (_Storage("param", i, _bytes(*t)),) + t
    constants, steps = [], []
    for block in main.body.blocks:
        for b in block.bindings:
            if not isinstance(b, relax.VarBinding):
                return None
            v = b.value
            if isinstance(v, relax.Var) and (v in where or v in tuples):
                (where if v in where else tuples)[b.var] = (where if v in where else tuples)[v]
                continue
            if isinstance(v, relax.Tuple):
                if not all(isinstance(f, relax.Var) and f in where for f in v.fields):
                    return None
                tuples[b.var] = [where[f] for f in v.fields]
                continue
            if isinstance(v, relax.TupleGetItem) and v.tuple_value in tuples:
                where[b.var] = tuples[v.tuple_value][v.index]
                continue
            op = v.op.name if isinstance(v, relax.Call) and isinstance(v.op, tvm.ir.Op) else ""
            if op == "relax.reshape" and v.args[0] in where and _tensor_type(b.var.ty):
                where[b.var] = (where[v.args[0]][0],) + _tensor_type(b.var.ty)
                continue
            if op not in ("relax.call_tir", "relax.call_tir_inplace") or len(v.args) != 2:
                return None
            args = _arguments(v, where, constants)
            ty = b.var.ty
            outs = ty.fields if isinstance(ty, relax.TupleType) else [ty]
            outs = [_tensor_type(o) for o in outs]
            inplace = list(v.attrs.inplace_indices) if op.endswith("inplace") else [-1] * len(outs)
            kernel = mod[v.args[0]]
            if (args is None or None in outs or not isinstance(kernel, tirx.PrimFunc)
                    or len(kernel.params) != len(args) + inplace.count(-1)):
                return None
            results = []
            for o, at in zip(outs, inplace):
                if at < 0:
                    results.append((_Storage("region", 0, _bytes(*o), defined=len(steps)),) + o)
                else:  # written in place: the argument's storage
                    results.append((args[at][0],) + o)
            for s, _, _ in args:
                s.last_use = max(s.last_use, len(steps))
            steps.append((v.args[0].name_hint,
                          args + [r for r, at in zip(results, inplace) if at < 0]))
            if isinstance(ty, relax.TupleType):
                tuples[b.var] = results
            else:
                where[b.var] = results[0]
    r = main.body.body
    results = (tuples.get(r) if isinstance(r, relax.Var) and r in tuples
               else [where.get(f) for f in r.fields] if isinstance(r, relax.Tuple)
               else [where.get(r)])
    if results is None or None in results:
        return None
    n_new = 0
    for k, (s, _, _) in enumerate(results):
        # A new output is a region returned once; a state, a parameter.
        if s.kind == "constant" or any(s is o[0] for o in results[:k]):
            return None
        if s.kind == "region":
            s.kind, s.index = "output", n_new
            n_new += 1
        elif results[k][1:] != _tensor_type(main.params[s.index].ty):
            return None
    if len(steps) < 2 or max(len(a) for _, a in steps) > MAX_ARGS:
        return None
    return list(main.params), constants, steps, results


def _first_fit(regions, order):
    """Places regions in `order`, each at the lowest aligned offset clear of
    those placed before it that live beside it. Returns the size."""
    placed = []
    for r in sorted(regions, key=order):
        r.offset = 0
        for p in sorted((p for p in placed
                         if p.defined <= r.last_use and r.defined <= p.last_use),
                        key=lambda p: p.offset):
            if r.offset + r.nbytes <= p.offset:
                break
            r.offset = max(r.offset, _aligned(p.offset + p.nbytes))
        placed.append(r)
    return max((r.offset + r.nbytes for r in regions), default=0)


def _plan(regions):
    """Offsets in the workspace: first fit, the largest region first, in the
    order the kernels write them, the longest-lived first, or in a few
    seeded shuffles (first fit misses small regions' best places),
    whichever needs least. Returns its size."""
    rng = np.random.default_rng(0)
    orders = [lambda r: (-r.nbytes, r.defined), lambda r: r.defined,
              lambda r: (r.defined - r.last_use, -r.nbytes, r.defined)]
    for _ in range(16):
        rank = {id(regions[i]): k for k, i in enumerate(rng.permutation(len(regions)))}
        orders.append(lambda r, rank=rank: rank[id(r)])
    best = min(orders, key=lambda order: _first_fit(regions, order))
    return _first_fit(regions, best)


def single_call(mod, symbol):
    """(mod with main's kernels called through one table, the table) or (mod,
    None) where main is not a straight line of them (see the module's doc).
    The table, whose C function is `symbol`: "args", the number of its
    pointer arguments (params, constants, workspace, outputs), and "steps",
    (kernel, [(argument, byte offset, shape, dtype)]) in order."""
    # Relax's layout operators (concat, split, strided_slice, ...) as the
    # kernels TVM would make of them; a reshape stays a view.
    legal = relax.transform.LegalizeOps(skip_ops=["relax.reshape"])(mod)
    found = _straight_line(legal)
    if found is None:
        return mod, None
    mod = legal
    params, constants, steps, results = found
    outputs = [r for r in results if r[0].kind == "output"]
    regions = {id(s): s for _, args in steps for s, _, _ in args if s.kind == "region"}
    ws_bytes = max(_plan(list(regions.values())), 1)
    workspace = len(params) + len(constants)
    first = {"param": 0, "constant": len(params), "output": workspace + 1}
    table = {
        "symbol": symbol,
        "args": workspace + 1 + len(outputs),
        "params": len(params),
        "param_names": [p.name for p in params],
        "outputs": len(outputs),
        "workspace_bytes": ws_bytes,
        # Each constant's bytes: the direct entry's weights object
        # (compile.py, weights_layout).
        "constants": [c.value.numpy().tobytes() for c, _ in constants],
        # What main does around the table, for the VM to do without it
        # (FFICoreTVMPlannedMain): where main returns one new tensor.
        "planned": None,
        "steps": [(kernel, [(workspace if s.kind == "region" else first[s.kind] + s.index,
                             s.offset if s.kind == "region" else 0, shape, dtype)
                            for s, shape, dtype in args]) for kernel, args in steps],
    }
    # The table is a kernel of TVM's: a PrimFunc that calls the C function
    # as the C micro-kernels are called, and passes a failure on.
    tensors = ([_tensor_type(p.ty) for p in params] + [_tensor_type(c.ty) for c, _ in constants]
               + [((ws_bytes,), "uint8")] + [(shape, dtype) for _, shape, dtype in outputs])
    with IRBuilder() as ib:
        with T.prim_func():
            T.func_name(ENTRY)
            T.func_attr({"tir.noalias": True})
            # Any offset into its storage (the workspace and the outputs
            # share one): the pointer the table gets is data + byte_offset.
            bufs = [T.match_buffer(T.arg(f"a{k}", T.handle()), shape, dtype, offset_factor=1)
                    for k, (shape, dtype) in enumerate(tensors)]
            rc = T.Bind(T.call_extern("int32", symbol, *[b.access_ptr("rw") for b in bufs]))
            with T.If(rc != 0):
                with T.Then():
                    T.evaluate(T.tvm_throw_last_error())
    kernels = ib.get()

    main = mod["main"]
    bb = relax.BlockBuilder(tvm.IRModule({gv: f for gv, f in mod.functions.items()
                                          if gv.name_hint != "main"}, attrs=mod.attrs))
    new_params = [relax.Var(p.name, p.ty) for p in params]
    attrs = dict(main.attrs.items()) if main.attrs else {}
    # main calls the table directly, as TVM's lowering of a call_tir would:
    # one call, no copy of its result.
    attrs["relax.force_pure"] = True
    # One storage: the outputs, then the workspace, each on ALIGNMENT (the
    # VM's builtin calls, a few hundred instructions each on a Cortex-M4,
    # are most of what an inference spends outside the kernels).
    at = [0]
    for _, shape, dtype in outputs:
        at.append(at[-1] + _aligned(_bytes(shape, dtype)))
    if len(results) == 1 and results[0][0].kind == "output":
        table["planned"] = {"inputs": [_tensor_type(p.ty) for p in params],
                            "output": results[0][1:], "storage_bytes": at[-1] + ws_bytes,
                            "workspace_offset": at[-1]}
    with bb.function("main", new_params, attrs=attrs):
        storage = bb.emit(relax.op.memory.alloc_storage(
            relax.ShapeExpr([at[-1] + ws_bytes]), 0, "global", "uint8"))
        outs = [bb.emit(relax.op.memory.alloc_tensor(storage, at[k], relax.ShapeExpr(list(shape)),
                                                     dtype))
                for k, (_, shape, dtype) in enumerate(outputs)]
        ws = bb.emit(relax.op.memory.alloc_tensor(storage, at[-1], relax.ShapeExpr([ws_bytes]),
                                                  "uint8"))
        table_gv = bb.add_func(kernels, ENTRY)
        bb.emit(relax.Call(table_gv, new_params + [c for c, _ in constants] + [ws] + outs))
        res = [new_params[s.index] if s.kind == "param" else outs[s.index] for s, _, _ in results]
        bb.emit_func_output(res[0] if len(res) == 1 else relax.Tuple(res))
    return bb.finalize(), table



def _plan_lines(table, shapes=None):
    """The C of the table's plan, kPlan, and the kernels' declarations;
    `shapes` ({shape: C name}) gets the shape arrays it declares, and may
    bring more to declare."""
    kernels = sorted({k for k, _ in table["steps"]})
    lines = ["#include <ffi_core/tvm_kernel_plan.h>", ""]
    lines += [f"int __tvm_ffi_{k}(void*, const TVMFFIAny*, int32_t, TVMFFIAny*);"
              for k in kernels]
    # Each view once, those into an input first (a kept plan refreshes them).
    args = [a for _, step in table["steps"] for a in step]
    tensors = sorted(dict.fromkeys(args), key=lambda a: a[0] >= table["params"])
    index = {a: k for k, a in enumerate(tensors)}
    shapes = {} if shapes is None else shapes
    tensor_lines = []
    for shape in [t[2] for t in tensors] + list(shapes):
        shapes[shape] = None
    for k, shape in enumerate(shapes):
        shapes[shape] = f"kShape{k}"
    for base, offset, shape, dtype in tensors:
        tensor_lines.append(f"  {_tensor_c(shape, dtype, shapes[shape])}, {offset}u, {base}u}},")
    lines += [f"static const int64_t {n}[] = {{{', '.join(map(str, s)) or '1'}}};"
              for s, n in shapes.items()]
    lines += ["static const FFICoreTVMKernelArg kTensors[] = {"] + tensor_lines + ["};"]
    lines.append(f"static const uint16_t kArgs[] = {{{', '.join(str(index[a]) for a in args)}}};")
    step_lines, at = [], 0
    for kernel, step in table["steps"]:
        step_lines.append(f"  {{__tvm_ffi_{kernel}, &kArgs[{at}], {len(step)}u}},")
        at += len(step)
    lines += ["static const FFICoreTVMKernelStep kSteps[] = {"] + step_lines + ["};"]
    max_args = max(len(a) for _, a in table["steps"])
    inputs = sum(1 for t in tensors if t[0] < table["params"])
    lines.append(f"static const FFICoreTVMKernelPlan kPlan = {{kTensors, kSteps, {len(tensors)}, "
                 f"{len(table['steps'])}, {max_args}, {inputs}}};")
    return lines


def _tensor_c(shape, dtype, shape_name):
    """The start of an FFICoreTVMKernelArg's initializer: ndim, dtype, shape."""
    code = _DTYPE_CODES[dtype.rstrip("0123456789")]
    bits = np.dtype(dtype).itemsize * 8
    return f"{{{len(shape)}, {{{code}, {bits}, 1}}, {shape_name}"


def table_c_source(table, pool=None):
    """The C source of the table's function, which TVM's main calls; and,
    given `pool` (each constant's index in the executable's constant pool)
    for a main that returns one new tensor, its FFICoreTVMPlannedMain,
    registered as the packed function ffi_core_planned_main."""
    params = ", ".join(f"void* a{k}" for k in range(table["args"]))
    planned = table["planned"] if pool is not None else None
    shapes = {}
    if planned:
        for shape, _ in planned["inputs"] + [planned["output"]]:
            shapes.setdefault(shape, None)
    lines = _plan_lines(table, shapes) + [
        "",
        f"int32_t {table['symbol']}({params});",
        f"int32_t {table['symbol']}({params}) {{",
        f"  void* const bases[] = {{{', '.join(f'a{k}' for k in range(table['args']))}}};",
        "  return FFICoreTVMRunKernelPlan(&kPlan, bases);",
        "}",
    ]
    if planned:
        inputs = [f"  {_tensor_c(shape, dtype, shapes[shape])}, 0u, {k}u}},"
                  for k, (shape, dtype) in enumerate(planned["inputs"])]
        out_shape, out_dtype = planned["output"]
        fn = "__tvm_ffi_ffi_core_planned_main"
        lines += ["", "static const FFICoreTVMKernelArg kInputs[] = {"] + inputs + ["};"]
        if pool:
            lines.append(f"static const uint32_t kConstants[] = {{{', '.join(map(str, pool))}}};")
        lines += [
            "static const FFICoreTVMPlannedMain kMain = {",
            f"  &kPlan, kInputs, {'kConstants' if pool else 'NULL'},",
            f"  {_tensor_c(out_shape, out_dtype, shapes[out_shape])}, 0u, {table['args'] - 1}u}},",
            f"  {len(inputs)}u, {len(pool)}u, {planned['storage_bytes']}u, "
            f"{planned['workspace_offset']}u}};",
            f"int {fn}(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result);",
            f"int {fn}(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {{",
            "  (void)self;",
            "  (void)args;",
            "  (void)num_args;",
            "  result->type_index = kTVMFFIOpaquePtr;",
            "  result->zero_padding = 0;",
            "  result->v_ptr = (void*)&kMain;",
            "  return 0;",
            "}",
            "int TVMFFIEnvModRegisterSystemLibSymbol(const char* name, void* symbol);",
            "__attribute__((constructor)) static void ffi_core_register_planned_main(void) {",
            f'  TVMFFIEnvModRegisterSystemLibSymbol("{fn}", (void*)&{fn});',
            "}",
        ]
    return "\n".join(lines) + "\n"


def weights_layout(table):
    """(offsets, bytes): where the direct entry's weights object holds each
    of the table's constants, each on ALIGNMENT, and its size."""
    offsets, at = [], 0
    for data in table["constants"]:
        offsets.append(at)
        at += _aligned(len(data))
    return offsets, at


def direct_c_source(table, entry, weights, reset=None, states=()):
    """The C source of the direct entry `entry`: the table over the caller's
    buffers (parameters, workspace, outputs) and the constants in the
    weights object (symbol `weights`, weights_layout's offsets); and, for a
    model with state, `reset`, which writes each state's zero point
    (states: (dtype, elements, zero point) each)."""
    offsets, _ = weights_layout(table)
    n_params = table["params"]
    n_buffers = table["args"] - len(offsets)
    bases = ([f"b[{k}]" for k in range(n_params)]
             + [f"(void*)({weights} + {o})" for o in offsets]
             + [f"b[{k}]" for k in range(n_params, n_buffers)])
    lines = _plan_lines(table) + [
        "",
        f"extern const char {weights}[];",
        f"int32_t {entry}(void* const* b);",
        f"int32_t {entry}(void* const* b) {{",
        f'  if (FFICoreTVMCheckBuffers("{entry}", b, {n_buffers}u) != 0) return -1;',
        f"  void* const bases[] = {{{', '.join(bases)}}};",
        "  return FFICoreTVMRunKernelPlan(&kPlan, bases);",
        "}",
    ]
    if states:
        lines += ["", f"int32_t {reset}(void* const* s);", f"int32_t {reset}(void* const* s) {{",
                  f'  if (FFICoreTVMCheckBuffers("{reset}", s, {len(states)}u) != 0) return -1;']
        for k, (dtype, count, zero) in enumerate(states):
            kind, bits = dtype.rstrip("0123456789"), np.dtype(dtype).itemsize * 8
            ctype = {"float32": "float", "float64": "double"}.get(dtype, f"{kind}{bits}_t")
            lines.append(f"  for (uint32_t i = 0; i < {count}u; ++i) (({ctype}*)s[{k}])[i] = "
                         f"({ctype}){zero};")
        lines += ["  return 0;", "}"]
    return "\n".join(lines) + "\n"


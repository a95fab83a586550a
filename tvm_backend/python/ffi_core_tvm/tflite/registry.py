"""One lowering per TFLite builtin operator.

Each operator family's file in ops/ registers its lowerings here with
@lowering; the importer looks an operator up by its builtin name and refuses
what is not registered, or a type its lowering does not take. Adding an
operator touches its own file alone; the docs' operator table is generated
from this registry (scripts/tflite-ops-table.py).
"""

# The activation types a lowering may take: int8 (int8 weights), int16
# (TFLite's 16x8 scheme: int16 activations, int8 weights), float32, and
# int32 where an operator works on indices or shapes.
TYPES = ("int8", "int16", "float32", "int32")


class Lowering:
    def __init__(self, op, types, options, mixed, fn, note):
        self.op = op
        self.types = types
        self.options = options
        self.mixed = mixed
        self.fn = fn
        self.note = note


_LOWERINGS = {}


def lowering(*ops, types, options=None, mixed=False, note=""):
    """Registers fn(ctx, op) as the lowering of builtin operators `ops` for
    activation `types`; `options`: the tflite.*Options class its options are
    read with (op.options); `mixed`: its activations may differ in type
    (else the importer refuses any that is not the operator's type). fn
    returns the relax value of each output, a list, or one value for a single
    output."""
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        raise ValueError(f"unknown activation types {unknown}")

    def register(fn):
        for op in ops:
            if op in _LOWERINGS:
                raise ValueError(f"{op} has two lowerings")
            _LOWERINGS[op] = Lowering(op, tuple(types), options, mixed, fn, note)
        return fn
    return register


def find(op):
    _load()
    return _LOWERINGS.get(op)


def lowerings():
    """Every registered lowering, by operator name."""
    _load()
    return [_LOWERINGS[k] for k in sorted(_LOWERINGS)]


def _load():
    from . import ops  # noqa: F401  (registers every family)

"""One lowering per TFLite builtin operator and activation type.

Each operator family's file in ops/ registers its lowerings here with
@lowering; the importer looks an operator up by its builtin name and its
activation type, and refuses what is not registered, or a type no lowering
of it takes. An operator may be registered more than once with disjoint
types (its int8 and float32 lowerings in different files), so adding an
operator or a type touches its own file alone; the docs' operator table is
generated from this registry (scripts/tflite-ops-table.py), one row per
operator.
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


_LOWERINGS = {}  # operator -> its Lowerings, of disjoint types


def lowering(*ops, types, options=None, mixed=False, note=""):
    """Registers fn(ctx, op) as the lowering of builtin operators `ops` for
    activation `types` (disjoint from the types of any other lowering of the
    same operator); `options`: the tflite.*Options class its options are
    read with (op.options); `mixed`: its activations may differ in type
    (else the importer refuses any that is not the operator's type). fn
    returns the relax value of each output, a list, or one value for a single
    output."""
    unknown = [t for t in types if t not in TYPES]
    if unknown:
        raise ValueError(f"unknown activation types {unknown}")

    def register(fn):
        for op in ops:
            entries = _LOWERINGS.setdefault(op, [])
            twice = [t for e in entries for t in e.types if t in types]
            if twice:
                raise ValueError(f"{op} has two lowerings for {', '.join(twice)}")
            entries.append(Lowering(op, tuple(types), options, mixed, fn, note))
        return fn
    return register


def types(op):
    """The activation types some lowering of `op` takes, in TYPES' order
    (empty where it has none)."""
    _load()
    taken = {t for e in _LOWERINGS.get(op, ()) for t in e.types}
    return tuple(t for t in TYPES if t in taken)


def find(op, dtype):
    """The lowering of `op` for activation type `dtype`, or None."""
    _load()
    for entry in _LOWERINGS.get(op, ()):
        if dtype in entry.types:
            return entry
    return None


def lowerings():
    """One row per registered operator, sorted by name: its lowerings merged
    (types in TYPES' order, notes joined)."""
    _load()
    rows = []
    for op in sorted(_LOWERINGS):
        entries = _LOWERINGS[op]
        note = "; ".join(e.note for e in entries if e.note)
        rows.append(Lowering(op, types(op), None, any(e.mixed for e in entries), None, note))
    return rows


def _load():
    from . import ops  # noqa: F401  (registers every family)

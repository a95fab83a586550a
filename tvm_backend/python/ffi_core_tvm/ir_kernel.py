"""Kernels written statement by statement (TVMScript's IR builder), where a
computation is a sequence of scalar steps rather than tensor expressions:
the integer LSTM, int16 SOFTMAX, LOG_SOFTMAX."""
from contextlib import contextmanager

from tvm.script.ir_builder import IRBuilder
from tvm.script.ir_builder import tirx as T


def local(value):
    """int32 `value` held in a local variable of the kernel being built. A
    buffer, not a TIR Bind: TVM's simplifier substitutes Binds and then spends
    minutes on the grown expressions. Global scope: TVM places a small global
    buffer on the stack (LLVM then keeps it in a register), where a "local"
    one would be a TVMBackendAllocWorkspace call on each use."""
    buf = T.alloc_buffer((1,), "int32")
    T.buffer_store(buf, value, [0])
    return buf[0]


@contextmanager
def prim_func(name, args):
    """Builds PrimFunc `name` whose arguments are the buffers `args`, (name,
    shape, dtype) each in order: yields (builder, buffers) inside its root
    block; builder.get() gives the PrimFunc once the block is closed."""
    with IRBuilder() as ib:
        with T.prim_func():
            T.func_name(name)
            T.func_attr({"tir.noalias": True})
            buffers = [T.match_buffer(T.arg(n, T.handle()), shape, dtype)
                       for n, shape, dtype in args]
            with T.sblock("root"):
                yield ib, buffers

"""Every operator family's lowerings; importing this registers them all."""
from . import (add, conv, convert, fully_connected, layout, pad, pooling,  # noqa: F401
               reshape, resize, softmax, svdf)
from . import float_activations, float_elementwise, float_nn, float_reduce  # noqa: F401

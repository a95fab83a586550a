"""Every operator family's lowerings; importing this registers them all."""
from . import (activations, conv, convert, elementwise, fully_connected, layout,  # noqa: F401
               lstm, pad, pooling, reduce, reshape, resize, softmax, svdf)
from . import (float_activations, float_elementwise, float_nn, float_reduce,  # noqa: F401
               float_resize)

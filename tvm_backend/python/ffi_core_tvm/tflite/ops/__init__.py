"""Every operator family's lowerings; importing this registers them all."""
from . import add, conv, fully_connected, pooling, reshape, softmax  # noqa: F401
from . import convert, float_activations, float_elementwise, float_nn, float_reduce  # noqa: F401

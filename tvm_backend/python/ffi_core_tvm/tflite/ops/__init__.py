"""Every operator family's lowerings; importing this registers them all."""
from . import activations, conv, elementwise, fully_connected, pooling, reduce, reshape, softmax  # noqa: F401

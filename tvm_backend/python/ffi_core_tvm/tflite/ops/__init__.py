"""Every operator family's lowerings; importing this registers them all."""
from . import add, conv, fully_connected, pooling, reshape, softmax  # noqa: F401

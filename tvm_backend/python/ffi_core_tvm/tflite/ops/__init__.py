"""Every operator family's lowerings; importing this registers them all."""
from . import add, conv, convert, fully_connected, pooling, reshape, softmax, svdf  # noqa: F401

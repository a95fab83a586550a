"""Every operator family's lowerings; importing this registers them all."""
from . import (add, conv, fully_connected, layout, pad, pooling, reshape, resize,  # noqa: F401
               softmax)

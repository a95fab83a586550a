"""Every operator family's lowerings; importing this registers them all."""
from . import (add, conv, convert, fully_connected, lstm, pooling, reshape,  # noqa: F401
               softmax, svdf)

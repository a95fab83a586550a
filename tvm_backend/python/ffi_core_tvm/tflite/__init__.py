"""TFLite models into Relax modules of TFLite's own integer and float kernels."""
from .importer import from_tflite
from .model import UnsupportedModel
from .registry import lowerings

__all__ = ["from_tflite", "UnsupportedModel", "lowerings"]

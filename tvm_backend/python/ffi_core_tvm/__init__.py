"""ffi-core's compile path: TFLite int8 and Relax models for microcontrollers."""

/* 32-bit __atomic helpers for RV32 cores without the A extension, where
 * GCC turns every 32-bit read-modify-write into a call (see
 * atomic_helpers.h). */
#include "atomic_helpers.h"

FFI_CORE_ATOMIC_HELPERS(4, unsigned int)

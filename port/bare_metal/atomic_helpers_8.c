/* 64-bit __atomic helpers for the RISC-V ports: RV32 has no 64-bit atomic
 * instruction, with or without the A extension (see atomic_helpers.h). */
#include "atomic_helpers.h"

FFI_CORE_ATOMIC_HELPERS(8, unsigned long long)

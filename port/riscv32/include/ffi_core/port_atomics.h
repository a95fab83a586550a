// RISC-V port for RV32 cores with the A extension (RV32IMAC: ESP32-C6,
// GD32VF103, CH32V30x, SiFive E31): reference counts with 32-bit AMOs and
// LR/SC through the compiler's builtins (port_builtin_word_ops.h); a
// release is one amoadd.w.rl. A trap taken between LR and SC makes the SC
// fail (the return from the trap clears the reservation). Global tables use
// an mstatus.MIE critical section (single hart).
#ifndef FFI_CORE_PORT_RISCV32_PORT_ATOMICS_H_
#define FFI_CORE_PORT_RISCV32_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_builtin_word_ops.h>
#include <ffi_core/port_ref_count_halves.h>

#if !defined(__riscv_atomic)
#error "the riscv32 port needs the A extension; use FFI_CORE_PORT=riscv32_imc on RV32IMC"
#endif

namespace ffi_core {
namespace port {

FFI_CORE_BARE_METAL_REF_COUNTS(bare_metal::BuiltinWordOps)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_RISCV32_PORT_ATOMICS_H_

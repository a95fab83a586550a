// RISC-V port for RV32 cores without the A extension (RV32IMC: the ESP32-C3
// class): each reference count update is a read-modify-write with
// mstatus.MIE clear, as the Cortex-M0 port masks PRIMASK. Single hart only:
// port_masked_word_ops.h says why.
#ifndef FFI_CORE_PORT_RISCV32_IMC_PORT_ATOMICS_H_
#define FFI_CORE_PORT_RISCV32_IMC_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_masked_word_ops.h>
#include <ffi_core/port_mstatus.h>
#include <ffi_core/port_ref_count_halves.h>

namespace ffi_core {
namespace port {

FFI_CORE_BARE_METAL_REF_COUNTS(bare_metal::MaskedWordOps<bare_metal::IrqGuard>)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_RISCV32_IMC_PORT_ATOMICS_H_

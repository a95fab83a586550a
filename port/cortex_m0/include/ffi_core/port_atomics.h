// Cortex-M0/M0+ port (ARMv6-M, no LDREX/STREX): each reference count update
// is a read-modify-write inside a PRIMASK critical section, a few cycles
// long and nesting-safe. Also correct on any other M-profile core, but only
// on a single core (the RP2040 has two): port_masked_word_ops.h says why.
#ifndef FFI_CORE_PORT_CORTEX_M0_PORT_ATOMICS_H_
#define FFI_CORE_PORT_CORTEX_M0_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_masked_word_ops.h>
#include <ffi_core/port_primask.h>
#include <ffi_core/port_ref_count_halves.h>

namespace ffi_core {
namespace port {

FFI_CORE_BARE_METAL_REF_COUNTS(bare_metal::MaskedWordOps<bare_metal::IrqGuard>)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_CORTEX_M0_PORT_ATOMICS_H_

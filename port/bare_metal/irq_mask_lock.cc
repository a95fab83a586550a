// GlobalLock for the bare-metal ports with interrupts: a masked section
// (port_irq_mask.h), through PRIMASK on Cortex-M and mstatus.MIE on RISC-V.
#include <ffi_core/port.h>

#if defined(__riscv)
#include <ffi_core/port_mstatus.h>
#else
#include <ffi_core/port_primask.h>
#endif

namespace ffi_core {
namespace port {

void GlobalLock() { bare_metal::GlobalIrqLock::Lock(); }

void GlobalUnlock() { bare_metal::GlobalIrqLock::Unlock(); }

}  // namespace port
}  // namespace ffi_core

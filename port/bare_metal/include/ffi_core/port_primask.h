// Interrupt-masking critical sections through PRIMASK, available on every
// M-profile core (ARMv6-M included). They exclude interrupt handlers on the
// same core only: not a lock between cores of a multi-core chip.
#ifndef FFI_CORE_PORT_PRIMASK_H_
#define FFI_CORE_PORT_PRIMASK_H_

#include <ffi_core/port_irq_mask.h>

#include <cstdint>

#if !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'M'
#error "PRIMASK critical sections need an Arm M-profile core"
#endif

namespace ffi_core {
namespace port {
namespace bare_metal {

// Masks interrupts and returns the previous PRIMASK. "memory" keeps the
// compiler from moving loads and stores across the section boundaries.
inline uint32_t IrqSaveAndDisable() {
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
  return primask;
}

inline void IrqRestore(uint32_t primask) {
  __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

using IrqGuard = IrqMaskGuard<IrqSaveAndDisable, IrqRestore>;
using GlobalIrqLock = IrqMaskLock<IrqSaveAndDisable, IrqRestore>;

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_PRIMASK_H_

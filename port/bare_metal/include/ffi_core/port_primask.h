// Interrupt-masking critical sections through PRIMASK, available on every
// M-profile core (ARMv6-M included). They exclude interrupt handlers on the
// same core only: not a lock between cores of a multi-core chip.
#ifndef FFI_CORE_PORT_PRIMASK_H_
#define FFI_CORE_PORT_PRIMASK_H_

#include <cstdint>

#if !defined(__ARM_ARCH_PROFILE) || __ARM_ARCH_PROFILE != 'M'
#error "PRIMASK critical sections need an Arm M-profile core"
#endif

namespace ffi_core {
namespace port {
namespace bare_metal {

// Masks interrupts and returns the previous PRIMASK. Restoring that value
// (not unconditionally unmasking) makes sections nest, also inside a
// caller's own masked region. "memory" keeps the compiler from moving loads
// and stores across the section boundaries.
inline uint32_t IrqSaveAndDisable() {
  uint32_t primask;
  __asm__ volatile("mrs %0, primask\n\tcpsid i" : "=r"(primask) : : "memory");
  return primask;
}

inline void IrqRestore(uint32_t primask) {
  __asm__ volatile("msr primask, %0" : : "r"(primask) : "memory");
}

// always_inline: a section is two instructions, and -Os would otherwise
// make the constructor an out-of-line call once it has enough users.
class IrqGuard {
 public:
  __attribute__((always_inline)) IrqGuard() : saved_(IrqSaveAndDisable()) {}
  __attribute__((always_inline)) ~IrqGuard() { IrqRestore(saved_); }
  IrqGuard(const IrqGuard&) = delete;
  IrqGuard& operator=(const IrqGuard&) = delete;

 private:
  uint32_t saved_;
};

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_PRIMASK_H_

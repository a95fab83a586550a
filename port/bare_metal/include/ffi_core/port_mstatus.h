// Interrupt-masking critical sections on RISC-V machine mode: clear
// mstatus.MIE, restore it after. They exclude interrupt handlers on the
// same hart only: not a lock between harts.
#ifndef FFI_CORE_PORT_MSTATUS_H_
#define FFI_CORE_PORT_MSTATUS_H_

#include <ffi_core/port_irq_mask.h>

#include <cstdint>

#if !defined(__riscv) || __riscv_xlen != 32
#error "mstatus critical sections are written for RV32 machine mode"
#endif

namespace ffi_core {
namespace port {
namespace bare_metal {

// mstatus.MIE: machine-mode interrupts enabled.
constexpr uint32_t kMstatusMie = 1u << 3;

// Clears MIE in one instruction and returns the previous mstatus. Zicsr is
// enabled for this instruction only: the multilib is picked by the plain
// -march, and binutils 2.40 wants Zicsr for CSR instructions. "memory"
// keeps the compiler from moving loads and stores across the section.
inline uint32_t IrqSaveAndDisable() {
  uint32_t mstatus;
  __asm__ volatile(
      ".option push\n\t.option arch, +zicsr\n\t"
      "csrrci %0, mstatus, 8\n\t"
      ".option pop"
      : "=r"(mstatus)
      :
      : "memory");
  return mstatus;
}

// Sets MIE back only if it was set, so sections nest.
inline void IrqRestore(uint32_t mstatus) {
  __asm__ volatile(
      ".option push\n\t.option arch, +zicsr\n\t"
      "csrs mstatus, %0\n\t"
      ".option pop"
      :
      : "r"(mstatus & kMstatusMie)
      : "memory");
}

using IrqGuard = IrqMaskGuard<IrqSaveAndDisable, IrqRestore>;
using GlobalIrqLock = IrqMaskLock<IrqSaveAndDisable, IrqRestore>;

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_MSTATUS_H_

// What the bare-metal ports build on an interrupt mask: a scoped section and
// the nesting global lock. A mask is two functions, `Save` (mask and return
// the previous state) and `Restore` (put that state back); port_primask.h
// and port_mstatus.h give them. Restoring the saved state, rather than
// unmasking, makes sections nest, also inside a caller's own masked region.
// They exclude interrupt handlers on the same core only.
#ifndef FFI_CORE_PORT_IRQ_MASK_H_
#define FFI_CORE_PORT_IRQ_MASK_H_

#include <ffi_core/port.h>

#include <cstdint>

namespace ffi_core {
namespace port {
namespace bare_metal {

// always_inline: a section is two instructions, and -Os would otherwise
// make the constructor an out-of-line call once it has enough users.
template <uint32_t (*Save)(), void (*Restore)(uint32_t)>
class IrqMaskGuard {
 public:
  __attribute__((always_inline)) IrqMaskGuard() : saved_(Save()) {}
  __attribute__((always_inline)) ~IrqMaskGuard() { Restore(saved_); }
  IrqMaskGuard(const IrqMaskGuard&) = delete;
  IrqMaskGuard& operator=(const IrqMaskGuard&) = delete;

 private:
  uint32_t saved_;
};

// GlobalLock/GlobalUnlock as a masked section. Table updates and look-ups
// are short, so masking interrupts is cheaper than any lock and cannot
// deadlock against a handler that uses the tables. The state is touched
// only with interrupts masked; the depth makes an accidental nested lock
// harmless: only the outermost pair saves and restores the mask.
template <uint32_t (*Save)(), void (*Restore)(uint32_t)>
struct IrqMaskLock {
  static void Lock() {
    const uint32_t state = Save();
    if (depth++ == 0) saved = state;
  }

  static void Unlock() {
    if (depth == 0) Fatal("ffi-core: GlobalUnlock without GlobalLock");
    if (--depth == 0) Restore(saved);
  }

  static inline uint32_t saved;
  static inline uint32_t depth;
};

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_IRQ_MASK_H_

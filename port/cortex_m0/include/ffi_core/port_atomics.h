// Cortex-M0/M0+ port (ARMv6-M, no LDREX/STREX): each reference count update
// is a read-modify-write inside a PRIMASK critical section, a few cycles
// long and nesting-safe. Also correct on any other M-profile core, but only
// on a single core: masking interrupts does not stop a second core (e.g. the
// RP2040's), so objects must not be shared between cores.
//
// No DMB: a single core observes its own accesses, and an interrupt
// handler's, in program order; the critical sections' compiler barriers are
// the ordering the release/acquire steps need here.
#ifndef FFI_CORE_PORT_CORTEX_M0_PORT_ATOMICS_H_
#define FFI_CORE_PORT_CORTEX_M0_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_primask.h>
#include <ffi_core/port_ref_count_halves.h>

namespace ffi_core {
namespace port {
namespace word_ops {

using bare_metal::IrqGuard;
using bare_metal::Word;

struct MaskedWordOps {
  // An aligned 32-bit load is single-copy atomic: no section needed.
  static uint32_t Load(const Word* w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

  static void Increment(Word* w) {
    IrqGuard guard;
    *w = *w + 1;
  }

  static uint32_t DecrementRelease(Word* w) {
    IrqGuard guard;
    const uint32_t old = *w;
    *w = old - 1;
    return old;
  }

  static bool IncrementIfNonZero(Word* w) {
    IrqGuard guard;
    const uint32_t old = *w;
    if (old == 0) return false;
    *w = old + 1;
    return true;
  }

  static bool SetIfZero(Word* w) {
    IrqGuard guard;
    if (*w != 0) return false;
    *w = 1;
    return true;
  }

  // An aligned 32-bit store is single-copy atomic too.
  static void StoreRelease(Word* w, uint32_t v) {
    __atomic_signal_fence(__ATOMIC_RELEASE);
    __atomic_store_n(w, v, __ATOMIC_RELAXED);
  }

  // Keeps the compiler from hoisting the destruction above the decrement.
  static void AcquireFence() { __atomic_signal_fence(__ATOMIC_ACQUIRE); }
};

}  // namespace word_ops

FFI_CORE_BARE_METAL_REF_COUNTS(word_ops::MaskedWordOps)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_CORTEX_M0_PORT_ATOMICS_H_

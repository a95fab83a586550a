// Reference-count word updates for cores without atomic read-modify-write
// instructions (ARMv6-M, RV32 without A): each update is a plain
// read-modify-write inside an interrupt-masked section. `Guard` masks
// interrupts for its lifetime (port_primask.h, port_mstatus.h). Only
// correct on a single core or hart: masking interrupts does not stop
// another core or a bus master, so objects must not be shared across them.
//
// No DMB or FENCE: a core observes its own accesses, and its interrupt
// handlers', in program order; the sections' compiler barriers are the
// ordering the release/acquire steps need here.
#ifndef FFI_CORE_PORT_MASKED_WORD_OPS_H_
#define FFI_CORE_PORT_MASKED_WORD_OPS_H_

#include <ffi_core/port_ref_count_halves.h>

#include <cstdint>

namespace ffi_core {
namespace port {
namespace bare_metal {

template <typename Guard>
struct MaskedWordOps {
  // An aligned 32-bit load is single-copy atomic: no section needed.
  static uint32_t Load(const Word* w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

  static void Increment(Word* w) {
    Guard guard;
    *w = *w + 1;
  }

  static uint32_t DecrementRelease(Word* w) {
    Guard guard;
    const uint32_t old = *w;
    *w = old - 1;
    return old;
  }

  static bool IncrementIfNonZero(Word* w) {
    Guard guard;
    const uint32_t old = *w;
    if (old == 0) return false;
    *w = old + 1;
    return true;
  }

  static bool SetIfZero(Word* w) {
    Guard guard;
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

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_MASKED_WORD_OPS_H_

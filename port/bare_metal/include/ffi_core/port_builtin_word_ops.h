// Reference-count word updates through GCC's 32-bit __atomic builtins, for
// cores with atomic read-modify-write: ARMv7-M/ARMv8-M lower them to
// LDREX/STREX loops with DMB, RV32 with A to AMOs and LR/SC loops with
// .aq/.rl. No library helper is needed. An interrupt between the load and
// the store of a loop makes the store fail and the loop retry, so each
// update is atomic against handlers on the same core.
#ifndef FFI_CORE_PORT_BUILTIN_WORD_OPS_H_
#define FFI_CORE_PORT_BUILTIN_WORD_OPS_H_

#include <ffi_core/port_ref_count_halves.h>

#include <cstdint>

namespace ffi_core {
namespace port {
namespace bare_metal {

static_assert(__atomic_always_lock_free(sizeof(Word), nullptr),
              "the builtin word operations need lock-free 32-bit atomics");

struct BuiltinWordOps {
  static uint32_t Load(const Word* w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

  // A new reference is made from an existing one, which already orders it.
  static void Increment(Word* w) { __atomic_fetch_add(w, 1u, __ATOMIC_RELAXED); }

  static uint32_t DecrementRelease(Word* w) { return __atomic_fetch_sub(w, 1u, __ATOMIC_RELEASE); }

  static bool IncrementIfNonZero(Word* w) {
    uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (old != 0) {
      // On failure `old` is reloaded; a weak CAS just retries a spurious
      // store failure (e.g. after an interrupt).
      if (__atomic_compare_exchange_n(w, &old, old + 1, /*weak=*/true, __ATOMIC_ACQ_REL,
                                      __ATOMIC_RELAXED)) {
        return true;
      }
    }
    return false;
  }

  static bool SetIfZero(Word* w) {
    uint32_t expected = 0;
    return __atomic_compare_exchange_n(w, &expected, 1u, /*weak=*/false, __ATOMIC_ACQUIRE,
                                       __ATOMIC_RELAXED);
  }

  static void StoreRelease(Word* w, uint32_t v) { __atomic_store_n(w, v, __ATOMIC_RELEASE); }

  static void AcquireFence() { __atomic_thread_fence(__ATOMIC_ACQUIRE); }
};

}  // namespace bare_metal
}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_BUILTIN_WORD_OPS_H_

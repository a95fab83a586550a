// Cortex-M port for ARMv7-M and ARMv8-M (M3, M4, M7, M23, M33, M55, ...):
// reference counts with 32-bit exclusive access. GCC lowers the 32-bit
// __atomic builtins below to LDREX/STREX loops with DMB for the requested
// orders, so no library helper (arm-none-eabi has no libatomic) is needed.
// Exception entry and return clear the local exclusive monitor, so an
// interrupt between LDREX and STREX makes the STREX fail and the loop retry:
// each update is atomic against handlers on the same core. The DMBs keep the
// release/acquire ordering on cores with write buffers (M7) and with other
// bus masters. Global tables use a PRIMASK critical section (single core).
#ifndef FFI_CORE_PORT_CORTEX_M_PORT_ATOMICS_H_
#define FFI_CORE_PORT_CORTEX_M_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_ref_count_halves.h>

#if !defined(__ARM_FEATURE_LDREX) || (__ARM_FEATURE_LDREX & 4) == 0
#error "the cortex_m port needs 32-bit LDREX/STREX; use FFI_CORE_PORT=cortex_m0 on ARMv6-M"
#endif

namespace ffi_core {
namespace port {
namespace word_ops {

using bare_metal::Word;

struct ExclusiveWordOps {
  static uint32_t Load(const Word* w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

  // A new reference is made from an existing one, which already orders it.
  static void Increment(Word* w) { __atomic_fetch_add(w, 1u, __ATOMIC_RELAXED); }

  // The loop written out: GCC's lowering of __atomic_fetch_sub copies the
  // address to another register first, an instruction on every release.
  // Low registers, so the 16-bit SUBS and CMP also assemble for ARMv8-M
  // Baseline (M23).
  static uint32_t DecrementRelease(Word* w) {
    __atomic_thread_fence(__ATOMIC_RELEASE);
    uint32_t old;
    uint32_t decremented;
    uint32_t failed;
    __asm__ volatile(
        "1: ldrex %0, [%3]\n"
        "   subs %1, %0, #1\n"
        "   strex %2, %1, [%3]\n"
        "   cmp %2, #0\n"
        "   bne 1b"
        : "=&l"(old), "=&l"(decremented), "=&l"(failed)
        : "l"(w)
        : "cc", "memory");
    return old;
  }

  static bool IncrementIfNonZero(Word* w) {
    uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (old != 0) {
      // On failure `old` is reloaded; a weak CAS just retries on a spurious
      // STREX failure (e.g. after an interrupt).
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

static_assert(__atomic_always_lock_free(sizeof(Word), nullptr),
              "32-bit atomics must be lock-free (LDREX/STREX)");

}  // namespace word_ops

FFI_CORE_BARE_METAL_REF_COUNTS(word_ops::ExclusiveWordOps)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_CORTEX_M_PORT_ATOMICS_H_

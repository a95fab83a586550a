// RISC-V port for RV32 cores with the A extension (RV32IMAC: ESP32-C6,
// GD32VF103, CH32V30x, SiFive E31): reference counts with 32-bit AMOs and
// LR/SC. GCC lowers the 32-bit __atomic builtins below to amoadd.w and
// lr.w/sc.w loops with the .aq/.rl bits of the requested orders, so no
// library helper is needed. A trap taken between LR and SC makes the SC
// fail (the return from the trap clears the reservation), so each update is
// atomic against handlers on the same hart. Global tables use an
// mstatus.MIE critical section (single hart).
#ifndef FFI_CORE_PORT_RISCV32_PORT_ATOMICS_H_
#define FFI_CORE_PORT_RISCV32_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_ref_count_halves.h>

#if !defined(__riscv_atomic)
#error "the riscv32 port needs the A extension; use FFI_CORE_PORT=riscv32_imc on RV32IMC"
#endif

namespace ffi_core {
namespace port {
namespace word_ops {

using bare_metal::Word;

struct AmoWordOps {
  static uint32_t Load(const Word* w) { return __atomic_load_n(w, __ATOMIC_RELAXED); }

  // A new reference is made from an existing one, which already orders it.
  static void Increment(Word* w) { __atomic_fetch_add(w, 1u, __ATOMIC_RELAXED); }

  // One amoadd.w.rl.
  static uint32_t DecrementRelease(Word* w) { return __atomic_fetch_sub(w, 1u, __ATOMIC_RELEASE); }

  static bool IncrementIfNonZero(Word* w) {
    uint32_t old = __atomic_load_n(w, __ATOMIC_RELAXED);
    while (old != 0) {
      // On failure `old` is reloaded; a weak CAS retries a failed SC.
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
              "32-bit atomics must be lock-free (AMO, LR/SC)");

}  // namespace word_ops

FFI_CORE_BARE_METAL_REF_COUNTS(word_ops::AmoWordOps)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_RISCV32_PORT_ATOMICS_H_

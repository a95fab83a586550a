// RISC-V port for RV32 cores without the A extension (RV32IMC: the ESP32-C3
// class): each reference count update is a read-modify-write with
// mstatus.MIE clear, as the Cortex-M0 port masks PRIMASK. Single hart only:
// masking interrupts does not stop another hart or a bus master.
//
// No FENCE: a hart observes its own accesses, and its trap handlers', in
// program order; the sections' compiler barriers give the release/acquire
// steps the ordering they need here.
#ifndef FFI_CORE_PORT_RISCV32_IMC_PORT_ATOMICS_H_
#define FFI_CORE_PORT_RISCV32_IMC_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_mstatus.h>
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

#endif  // FFI_CORE_PORT_RISCV32_IMC_PORT_ATOMICS_H_

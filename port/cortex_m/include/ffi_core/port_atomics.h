// Cortex-M port for ARMv7-M and ARMv8-M (M3, M4, M7, M23, M33, M55, ...):
// reference counts with 32-bit exclusive access through the compiler's
// builtins (port_builtin_word_ops.h; arm-none-eabi has no libatomic, and
// none is needed). Exception entry and return clear the local exclusive
// monitor, so an interrupt between LDREX and STREX makes the STREX fail and
// the loop retry. The DMBs keep the release/acquire ordering on cores with
// write buffers (M7) and with other bus masters. Global tables use a PRIMASK
// critical section (single core).
#ifndef FFI_CORE_PORT_CORTEX_M_PORT_ATOMICS_H_
#define FFI_CORE_PORT_CORTEX_M_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_builtin_word_ops.h>
#include <ffi_core/port_ref_count_halves.h>

#if !defined(__ARM_FEATURE_LDREX) || (__ARM_FEATURE_LDREX & 4) == 0
#error "the cortex_m port needs 32-bit LDREX/STREX; use FFI_CORE_PORT=cortex_m0 on ARMv6-M"
#endif

namespace ffi_core {
namespace port {
namespace word_ops {

using bare_metal::Word;

struct ExclusiveWordOps : bare_metal::BuiltinWordOps {
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
};

}  // namespace word_ops

FFI_CORE_BARE_METAL_REF_COUNTS(word_ops::ExclusiveWordOps)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_CORTEX_M_PORT_ATOMICS_H_

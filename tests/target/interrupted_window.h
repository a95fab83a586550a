// Which instruction window an interrupt landed in, from the address the
// interrupted code resumes at (ffi_core_systick_interrupted_pc). The race
// tests count these to prove that the windows they claim to hit were hit:
// a count of zero fails the test, however the interrupt was paced.
#ifndef FFI_CORE_TESTS_TARGET_INTERRUPTED_WINDOW_H_
#define FFI_CORE_TESTS_TARGET_INTERRUPTED_WINDOW_H_

#include <cstdint>

namespace target_test {

enum class Window {
  kOther,
  // Between an exclusive load and its store (LDREX..STREX, LR..SC): the
  // store must now fail and the operation retry.
  kExclusive,
  // Right after the instruction that unmasked interrupts (MSR PRIMASK or
  // CPSIE on Arm, a CSR write setting mstatus.MIE on RISC-V): the interrupt
  // waited for the masked section to end.
  kAfterMasked,
};

Window ClassifyInterruptedPc(uint32_t pc);

// Whether the target's atomics have exclusive-access windows at all (Armv7-M
// and later, RISC-V with the A extension; the others mask interrupts).
constexpr bool kHasExclusiveAccess =
#if defined(__ARM_ARCH_6M__) || (defined(__riscv) && !defined(__riscv_atomic))
    false;
#else
    true;
#endif

}  // namespace target_test

#endif  // FFI_CORE_TESTS_TARGET_INTERRUPTED_WINDOW_H_

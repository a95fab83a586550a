// Single-thread port: plain, non-atomic reference counts (the table lock,
// a no-op, is in port_single_thread.cc).
// Opt-in for firmware where only one context ever touches ffi-core: no
// interrupt handler, second task or second core may create, copy or release
// objects or use the global tables, or counts get corrupted. In exchange it
// runs on any CPU (including hosts, for tests) with the smallest code.
#ifndef FFI_CORE_PORT_SINGLE_THREAD_PORT_ATOMICS_H_
#define FFI_CORE_PORT_SINGLE_THREAD_PORT_ATOMICS_H_

#include <ffi_core/port.h>
#include <ffi_core/port_ref_count_halves.h>

namespace ffi_core {
namespace port {
namespace word_ops {

using bare_metal::Word;

struct PlainWordOps {
  static uint32_t Load(const Word* w) { return *w; }
  static void Increment(Word* w) { *w = *w + 1; }
  static uint32_t DecrementRelease(Word* w) {
    const uint32_t old = *w;
    *w = old - 1;
    return old;
  }
  static bool IncrementIfNonZero(Word* w) {
    if (*w == 0) return false;
    *w = *w + 1;
    return true;
  }
  static bool SetIfZero(Word* w) {
    if (*w != 0) return false;
    *w = 1;
    return true;
  }
  static void StoreRelease(Word* w, uint32_t v) { *w = v; }
  static void AcquireFence() {}
};

}  // namespace word_ops

FFI_CORE_BARE_METAL_REF_COUNTS(word_ops::PlainWordOps)

}  // namespace port
}  // namespace ffi_core

#endif  // FFI_CORE_PORT_SINGLE_THREAD_PORT_ATOMICS_H_

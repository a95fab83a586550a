/* The out-of-line __atomic helpers GCC calls where the core has no atomic
 * instruction for an operation (libatomic's interface; riscv64-unknown-elf
 * ships no libatomic). Each is a read-modify-write with mstatus.MIE clear:
 * atomic against interrupts on this hart, not against other harts or bus
 * masters. FFI_CORE_ATOMIC_HELPERS(N, T) defines the family for N bytes. */
#ifndef FFI_CORE_PORT_ATOMIC_HELPERS_H_
#define FFI_CORE_PORT_ATOMIC_HELPERS_H_

#include <stdbool.h>

static inline unsigned ffi_core_irq_save(void) {
  unsigned mstatus;
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrrci %0, mstatus, 8\n\t.option pop"
                   : "=r"(mstatus)
                   :
                   : "memory");
  return mstatus;
}

static inline void ffi_core_irq_restore(unsigned mstatus) {
  __asm__ volatile(".option push\n\t.option arch, +zicsr\n\tcsrs mstatus, %0\n\t.option pop"
                   :
                   : "r"(mstatus & 8u)
                   : "memory");
}

/* One operation, old or new value returned. */
#define FFI_CORE_ATOMIC_RMW(N, T, name, op)                         \
  T __atomic_fetch_##name##_##N(volatile void* p, T v, int order) { \
    (void)order;                                                    \
    volatile T* w = (volatile T*)p;                                 \
    const unsigned s = ffi_core_irq_save();                         \
    const T old = *w;                                               \
    *w = op;                                                        \
    ffi_core_irq_restore(s);                                        \
    return old;                                                     \
  }                                                                 \
  T __atomic_##name##_fetch_##N(volatile void* p, T v, int order) { \
    (void)order;                                                    \
    volatile T* w = (volatile T*)p;                                 \
    const unsigned s = ffi_core_irq_save();                         \
    const T old = *w;                                               \
    const T now = op;                                               \
    *w = now;                                                       \
    ffi_core_irq_restore(s);                                        \
    return now;                                                     \
  }

#define FFI_CORE_ATOMIC_HELPERS(N, T)                                                        \
  T __atomic_load_##N(const volatile void* p, int order) {                                   \
    (void)order;                                                                             \
    const unsigned s = ffi_core_irq_save();                                                  \
    const T v = *(const volatile T*)p;                                                       \
    ffi_core_irq_restore(s);                                                                 \
    return v;                                                                                \
  }                                                                                          \
  void __atomic_store_##N(volatile void* p, T v, int order) {                                \
    (void)order;                                                                             \
    const unsigned s = ffi_core_irq_save();                                                  \
    *(volatile T*)p = v;                                                                     \
    ffi_core_irq_restore(s);                                                                 \
  }                                                                                          \
  T __atomic_exchange_##N(volatile void* p, T v, int order) {                                \
    (void)order;                                                                             \
    const unsigned s = ffi_core_irq_save();                                                  \
    const T old = *(volatile T*)p;                                                           \
    *(volatile T*)p = v;                                                                     \
    ffi_core_irq_restore(s);                                                                 \
    return old;                                                                              \
  }                                                                                          \
  bool __atomic_compare_exchange_##N(volatile void* p, void* expected, T desired, bool weak, \
                                     int success, int failure) {                             \
    (void)weak;                                                                              \
    (void)success;                                                                           \
    (void)failure;                                                                           \
    volatile T* w = (volatile T*)p;                                                          \
    T* e = (T*)expected;                                                                     \
    const unsigned s = ffi_core_irq_save();                                                  \
    const T old = *w;                                                                        \
    const bool equal = old == *e;                                                            \
    if (equal) {                                                                             \
      *w = desired;                                                                          \
    } else {                                                                                 \
      *e = old;                                                                              \
    }                                                                                        \
    ffi_core_irq_restore(s);                                                                 \
    return equal;                                                                            \
  }                                                                                          \
  FFI_CORE_ATOMIC_RMW(N, T, add, old + v)                                                    \
  FFI_CORE_ATOMIC_RMW(N, T, sub, old - v)                                                    \
  FFI_CORE_ATOMIC_RMW(N, T, and, old& v)                                                     \
  FFI_CORE_ATOMIC_RMW(N, T, or, old | v)                                                     \
  FFI_CORE_ATOMIC_RMW(N, T, xor, old ^ v)                                                    \
  FFI_CORE_ATOMIC_RMW(N, T, nand, (T) ~(old & v))

#endif

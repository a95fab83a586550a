/* Minimal ARM semihosting client shared by startup.c and syscalls.c.
 * Semihosting is how the image talks to QEMU: console output, the command
 * line (argv) and the process exit status. Internal to boards/common. */
#ifndef FFI_CORE_BOARD_SEMIHOST_H
#define FFI_CORE_BOARD_SEMIHOST_H

#include <stdint.h>

/* Operation numbers from the Arm semihosting specification. */
#define SH_SYS_OPEN 0x01u
#define SH_SYS_WRITE0 0x04u
#define SH_SYS_WRITE 0x05u
#define SH_SYS_GET_CMDLINE 0x15u
#define SH_SYS_EXIT 0x18u
#define SH_SYS_EXIT_EXTENDED 0x20u

/* Reason codes for SYS_EXIT / SYS_EXIT_EXTENDED. */
#define SH_ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define SH_ADP_STOPPED_RUN_TIME_ERROR 0x20023u

/* M-profile traps "BKPT 0xAB" (Thumb) as a semihosting call: r0 = operation,
 * r1 = argument (usually a pointer to a parameter block), result in r0.
 * The "memory" clobber makes the host's reads/writes of the block visible. */
static inline uintptr_t sh_call(uintptr_t op, const void* arg) {
  register uintptr_t r0 __asm__("r0") = op;
  register const void* r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

/* Writes a NUL-terminated string to the host console, unbuffered. */
static inline void sh_write0(const char* s) { sh_call(SH_SYS_WRITE0, s); }

#endif

/* Board services shared by all ffi-core QEMU boards (see boards/README.md). */
#ifndef FFI_CORE_BOARD_BOARD_H
#define FFI_CORE_BOARD_BOARD_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Name of the board the image was built for, e.g. "mps2-an385". */
const char* ffi_core_board_name(void);

/* Non-zero while an interrupt handler runs (Cortex-M: IPSR != 0; RISC-V:
 * inside the trap entry's interrupt path). */
int ffi_core_board_in_interrupt(void);

/* Stops QEMU right away with exit status `status` (0..255 reach the shell),
 * without running atexit handlers or flushing stdio. Normal programs just
 * return from main() or call exit(). */
__attribute__((noreturn)) void ffi_core_board_exit(int status);

/* The stack's size (the linker script's __stack_size) and the most of it
 * used since reset, interrupts included: the startup fills it with a
 * pattern, and the lowest word changed since marks the high-water. Equal to
 * the size when the stack reached its limit (an overflow where no guard
 * faults: QEMU's M0, RISC-V). */
size_t ffi_core_board_stack_size(void);
size_t ffi_core_board_stack_used(void);

#ifdef __cplusplus
}
#endif

#endif

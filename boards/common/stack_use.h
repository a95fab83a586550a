/* What the startups call to measure the stack (stack_use.c). */
#ifndef FFI_CORE_BOARD_STACK_USE_H
#define FFI_CORE_BOARD_STACK_USE_H

#include <stdint.h>

/* Fills the stack from `bottom` (its lowest accessible word) up to the
 * caller's frame with the pattern ffi_core_board_stack_used() looks for.
 * Called once, with interrupts off, after .bss is cleared. */
void ffi_core_board_stack_paint(uint32_t* bottom);

#endif

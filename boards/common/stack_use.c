/* The stack's high-water mark, for every board: the startup fills the free
 * stack with a pattern, and ffi_core_board_stack_used() finds the lowest
 * word no longer holding it. Where no guard catches an overflow (QEMU's M0,
 * RISC-V), this is how a firmware learns that its stack was too small. */
#include "stack_use.h"

#include <stddef.h>
#include <stdint.h>

#include "ffi_core_board/board.h"

#define STACK_PAINT 0x5AC4A5ACu

extern uint32_t __stack_top[], __stack_limit[];

/* The lowest painted word (above an MPU guard), NULL before the paint. */
static uint32_t* painted;

void ffi_core_board_stack_paint(uint32_t* bottom) {
  uintptr_t sp;
#if defined(__riscv)
  __asm__ volatile("mv %0, sp" : "=r"(sp));
#else
  __asm__ volatile("mov %0, sp" : "=r"(sp));
#endif
  /* Below this leaf's own frame nothing lives yet; volatile keeps the
   * compiler from turning the loop into a memset call (its frame would lie
   * in the words being painted). */
  for (volatile uint32_t* p = bottom; (uintptr_t)p < sp; ++p) *p = STACK_PAINT;
  painted = bottom;
}

size_t ffi_core_board_stack_size(void) {
  return (size_t)((char*)__stack_top - (char*)__stack_limit);
}

size_t ffi_core_board_stack_used(void) {
  if (painted == NULL) return 0;
  const uint32_t* p = painted;
  while (p < __stack_top && *p == STACK_PAINT) ++p;
  /* The lowest painted word overwritten: the stack reached its limit. */
  return p == painted ? ffi_core_board_stack_size()
                      : (size_t)((const char*)__stack_top - (const char*)p);
}

/* For naked exception handlers: the assembly that puts the interrupted
 * code's exception frame (r0-r3, r12, lr, pc, xpsr) in r0, from the stack
 * EXC_RETURN (still in lr) names: bit 2 set, PSP; clear, MSP. Leaves
 * EXC_RETURN in r1. Thumb-1 only, so it also assembles for armv6-m. */
#ifndef FFI_CORE_BOARDS_COMMON_EXCEPTION_FRAME_H
#define FFI_CORE_BOARDS_COMMON_EXCEPTION_FRAME_H

#define FFI_CORE_FRAME_TO_R0 \
  "movs r0, #4\n\t"          \
  "mov  r1, lr\n\t"          \
  "tst  r0, r1\n\t"          \
  "beq  1f\n\t"              \
  "mrs  r0, psp\n\t"         \
  "b    2f\n"                \
  "1:\n\t"                   \
  "mrs  r0, msp\n"           \
  "2:\n\t"

#endif

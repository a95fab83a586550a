/* The int8 micro-kernels' matrix product: output channels (rows of int8
 * weights, TFLite's OHWI or OI order) times columns of int16 inputs (one per
 * output pixel or batch row), blocked two rows by three columns, so that
 * each widened weight word serves three columns and each column group two
 * rows (CMSIS-NN's GEMM blocks two by two). It gives the int32 sums, which
 * each kernel requantizes in a loop of its own (its rounding, and registers
 * the products' loop does not hold); with the DSP extension a pair of
 * channels' six sums can instead be requantized in the pairs' own loop
 * (S8PairsOut), while they are in registers.
 *
 * A column's first n & ~3 inputs come in groups of four, reordered as
 * x0 x2 x1 x3: SXTB16 widens a weight word's bytes 0 and 2 into one register
 * and, rotated, bytes 1 and 3 into another, so the group's two words pair
 * with them directly. Three columns interleave their groups (one pointer
 * walks them); each column's remaining n % 4 inputs follow all the groups,
 * in order. */
#ifndef FFI_CORE_KERNELS_S8_GEMM_H_
#define FFI_CORE_KERNELS_S8_GEMM_H_

#include <stddef.h>

#include "s8_primitives.h"

/* Where a column's inputs go among `cols` (1 or 3) interleaved columns of
 * n inputs: column j's groups start at group + 4 * j, a group every
 * 4 * cols, and its tail at tail. */
typedef struct {
  int16_t* group;
  int16_t* tail;
  int32_t step;
} S8Column;

static inline S8Column s8_column(int16_t* buffer, int32_t n, int32_t cols, int32_t j) {
  int32_t n4 = n & ~3;
  S8Column c = {buffer + 4 * j, buffer + cols * n4 + j * (n - n4), 4 * cols};
  return c;
}

/* Widens four int8 inputs (one word) into the column's next group. */
static inline int16_t* s8_widen_group(int32_t v, int16_t* group, int32_t step) {
  s8_store_pair(group, s8_lanes02(v), s8_lanes13(v));
  return group + step;
}

/* Widens n4 (a multiple of 4) int8 inputs into a column's groups from
 * group on, `step` apart: four groups an iteration (a quarter of the loop
 * tests; the four loads in a row), the step a constant to the loop (4 or
 * 12: a lone column or three). */
static inline __attribute__((always_inline)) int16_t* s8_widen_groups_by(const int8_t* src,
                                                                         int32_t n4, int16_t* group,
                                                                         int32_t step) {
  const int8_t* end = src + (n4 & ~15);
  for (; src != end; src += 16) {
    const int32_t a = s8_load32(src), b = s8_load32(src + 4);
    const int32_t c = s8_load32(src + 8), d = s8_load32(src + 12);
    group = s8_widen_group(b, s8_widen_group(a, group, step), step);
    group = s8_widen_group(d, s8_widen_group(c, group, step), step);
  }
  if (n4 & 8) {
    const int32_t a = s8_load32(src), b = s8_load32(src + 4);
    group = s8_widen_group(b, s8_widen_group(a, group, step), step);
    src += 8;
  }
  if (n4 & 4) group = s8_widen_group(s8_load32(src), group, step);
  return group;
}

static inline int16_t* s8_widen_groups(const int8_t* src, int32_t n4, int16_t* group,
                                       int32_t step) {
  return step == 12 ? s8_widen_groups_by(src, n4, group, 12)
                    : s8_widen_groups_by(src, n4, group, 4);
}

/* Copies the last n % 4 of n int8 inputs into column c's tail. */
static inline void s8_widen_tail(const int8_t* src, const S8Column* c, int32_t n) {
  const int32_t n4 = n & ~3;
  for (int32_t k = n4; k < n; ++k) c->tail[k - n4] = src[k];
}

/* Widens n int8 inputs into column c. */
static inline void s8_widen(const int8_t* src, const S8Column* c, int32_t n) {
  int32_t n4 = n & ~3, step = c->step;
  int16_t* group = c->group;
  for (int32_t k = 0; k < n4; k += 4) group = s8_widen_group(s8_load32(src + k), group, step);
  s8_widen_tail(src, c, n);
}

/* acc plus the products of t inputs in order. */
static inline int32_t s8_dot_tail(const int8_t* w, const int16_t* c, int32_t t, int32_t acc) {
  for (int32_t k = 0; k < t; ++k) acc += w[k] * c[k];
  return acc;
}

/* A call's constants for s8_dot_4x1, whose DSP form reads them from the
 * stack: n, n - 4, where the column pointer ends the loop's whole
 * iterations (`main`) and its four-k steps (`end4`). */
typedef struct {
  int32_t n, nm;
  const int16_t *main, *end4;
} S8Block;

/* s8_dot_4x1's: 32 k an iteration over a lone column. */
static inline S8Block s8_block_1col(const int16_t* buffer, int32_t n) {
  S8Block b = {n, n - 4, buffer + (n & ~31), buffer + (n & ~3)};
  return b;
}

/* Where s8_pairs_2x3 puts each pair's results: with chans, its outputs,
 * requantized while they are in registers (S8_FOLDED, int8's whole range:
 * SSAT), channel ch's for column j at y + ch + d[j] (d[0] = 0), chans[ch]
 * its requantization; without, its sums, sums[3 * ch + j]. */
typedef struct {
  const S8Channel* chans;
  int8_t* y;
  int32_t d1, d2;
  int32_t* sums;
} S8PairsOut;

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* A column group's two words at byte `c0` past c (asm text): an LDRD where
 * every load takes a cycle (the M7: targets.c_kernel_flags defines
 * FFI_CORE_KERNELS_ONE_CYCLE_LOADS), else two LDRs, which after a load
 * take a cycle each where an LDRD takes three (the M4's and M33's
 * timings). */
#if defined(FFI_CORE_KERNELS_ONE_CYCLE_LOADS)
#define S8_ASM_GROUP(c0) "ldrd %[x02], %[x13], [%[c], #" #c0 "]\n\t"
#else
#define S8_ASM_GROUP(c0)     \
  "ldr %[x02], [%[c], #" #c0 \
  "]\n\t"                    \
  "ldr %[x13], [%[c], #" #c0 " + 4]\n\t"
#endif

/* Both rows' products with the column whose group x02 x13 holds. */
#define S8_ASM_SMLAD4(a0, a1)             \
  "smlad %[" a0 "], %[wa], %[x02], %[" a0 \
  "]\n\t"                                 \
  "smlad %[" a0 "], %[t0], %[x13], %[" a0 \
  "]\n\t"                                 \
  "smlad %[" a1 "], %[wb], %[x02], %[" a1 \
  "]\n\t"                                 \
  "smlad %[" a1 "], %[t1], %[x13], %[" a1 "]\n\t"

/* Four k of s8_pairs_2x3 (asm text), the columns' groups at byte c0 past c:
 * row 0's weight word (the pointer post-incremented) and row 1's, nm
 * (n - 4) past it, nm from the stack (every register holds the block);
 * 4 SXTB16, 12 SMLAD. The first five loads in a row, no address needing
 * the load just before it, so that each after the first takes a cycle. */
#define S8_ASM_STEP_2X3(c0)                                                  \
  "ldr %[t0], %[nm]\n\t"                                                     \
  "ldr %[x02], [%[c], #" #c0                                                 \
  "]\n\t"                                                                    \
  "ldr %[wa], [%[w0]], #4\n\t"                                               \
  "ldr %[x13], [%[c], #" #c0                                                 \
  " + 4]\n\t"                                                                \
  "ldr %[wb], [%[w0], %[t0]]\n\t"                                            \
  "sxtb16 %[t0], %[wa], ror #8\n\t"                                          \
  "sxtb16 %[wa], %[wa]\n\t"                                                  \
  "sxtb16 %[t1], %[wb], ror #8\n\t"                                          \
  "sxtb16 %[wb], %[wb]\n\t" S8_ASM_SMLAD4("a00", "a10") S8_ASM_GROUP(c0 + 8) \
      S8_ASM_SMLAD4("a01", "a11") S8_ASM_GROUP(c0 + 16) S8_ASM_SMLAD4("a02", "a12")

/* What s8_pairs_2x3's loops read from the stack, made once a call: n - 4
 * (row 1's word past row 0's pointer), the step of sixteen the first
 * iteration enters at, where the column pointer starts (that step's
 * groups at its offsets) and ends, how far row 0's pointer moves from one
 * pair's end to the next pair's start, where it ends. */
typedef struct {
  int32_t nm, entry, skip;
  uintptr_t start;
  const int16_t* end;
  const int8_t* w_end;
} S8Pairs;

static inline S8Pairs s8_pairs(const int8_t* w, const int16_t* buffer, int32_t n, int32_t pairs) {
  const int32_t n4 = n & ~3, entry = -(n4 / 4) & 15;
  /* Bytes, not a pointer: `start` lies before the buffer by the steps
   * skipped, whose offsets bring the reads back inside it. */
  S8Pairs p = {.nm = n - 4,
               .entry = entry,
               .skip = 2 * n - n4,
               .start = (uintptr_t)buffer - (uintptr_t)(24 * entry),
               .end = buffer + 3 * n4,
               .w_end = w + pairs * n};
  return p;
}

/* A pair's six sums (asm text): zeroed, then its steps, sixteen written
 * out (64 k) an iteration, the first iteration entered by TBH at the step
 * that leaves n's whole iterations after it (Duff's device), so that no
 * pair tests n's bits. The pair's epilogue follows, then S8_ASM_NEXT_PAIR. */
#define S8_ASM_PAIR_SUMS \
  "0:\n\t" \
  "movs %[a00], #0\n\t" \
  "movs %[a01], #0\n\t" \
  "movs %[a02], #0\n\t" \
  "movs %[a10], #0\n\t" \
  "movs %[a11], #0\n\t" \
  "movs %[a12], #0\n\t" \
  "ldr %[c], %[start]\n\t" \
  "ldr %[t0], %[entry]\n\t" \
  "tbh [pc, %[t0], lsl #1]\n" \
  "9:\n\t" \
  ".hword (20f - 9b) / 2\n\t" \
  ".hword (21f - 9b) / 2\n\t" \
  ".hword (22f - 9b) / 2\n\t" \
  ".hword (23f - 9b) / 2\n\t" \
  ".hword (24f - 9b) / 2\n\t" \
  ".hword (25f - 9b) / 2\n\t" \
  ".hword (26f - 9b) / 2\n\t" \
  ".hword (27f - 9b) / 2\n\t" \
  ".hword (28f - 9b) / 2\n\t" \
  ".hword (29f - 9b) / 2\n\t" \
  ".hword (30f - 9b) / 2\n\t" \
  ".hword (31f - 9b) / 2\n\t" \
  ".hword (32f - 9b) / 2\n\t" \
  ".hword (33f - 9b) / 2\n\t" \
  ".hword (34f - 9b) / 2\n\t" \
  ".hword (35f - 9b) / 2\n\t" \
  "20:\n\t" S8_ASM_STEP_2X3(0) \
  "21:\n\t" S8_ASM_STEP_2X3(24) \
  "22:\n\t" S8_ASM_STEP_2X3(48) \
  "23:\n\t" S8_ASM_STEP_2X3(72) \
  "24:\n\t" S8_ASM_STEP_2X3(96) \
  "25:\n\t" S8_ASM_STEP_2X3(120) \
  "26:\n\t" S8_ASM_STEP_2X3(144) \
  "27:\n\t" S8_ASM_STEP_2X3(168) \
  "28:\n\t" S8_ASM_STEP_2X3(192) \
  "29:\n\t" S8_ASM_STEP_2X3(216) \
  "30:\n\t" S8_ASM_STEP_2X3(240) \
  "31:\n\t" S8_ASM_STEP_2X3(264) \
  "32:\n\t" S8_ASM_STEP_2X3(288) \
  "33:\n\t" S8_ASM_STEP_2X3(312) \
  "34:\n\t" S8_ASM_STEP_2X3(336) \
  "35:\n\t" S8_ASM_STEP_2X3(360) \
  "add %[c], %[c], #384\n\t" \
  "ldr %[t0], %[end]\n\t" \
  "cmp %[c], %[t0]\n\t" \
  "bne 20b\n\t"

/* Row 0's pointer to the next pair's start, and back to S8_ASM_PAIR_SUMS
 * unless that is the end (asm text). */
#define S8_ASM_NEXT_PAIR        \
  "ldr %[t0], %[skip]\n\t"      \
  "add %[w0], %[w0], %[t0]\n\t" \
  "ldr %[t0], %[w_end]\n\t"     \
  "cmp %[w0], %[t0]\n\t"        \
  "bne 0b\n"

/* The operands S8_ASM_PAIR_SUMS and S8_ASM_NEXT_PAIR name: the block
 * takes all fourteen registers (six sums, eight operands), the rest is on
 * the stack (p, an S8Pairs). */
#define S8_ASM_PAIR_OUTPUTS                                                                 \
  [a00] "=&r"(a00), [a01] "=&r"(a01), [a02] "=&r"(a02), [a10] "=&r"(a10), [a11] "=&r"(a11), \
      [a12] "=&r"(a12), [w0] "+r"(w0), [c] "=&r"(c), [wa] "=&r"(wa), [wb] "=&r"(wb),        \
      [x02] "=&r"(x02), [x13] "=&r"(x13), [t0] "=&r"(t0), [t1] "=&r"(t1)
#define S8_ASM_PAIR_INPUTS                                                      \
  [nm] "m"(p.nm), [entry] "m"(p.entry), [start] "m"(p.start), [end] "m"(p.end), \
      [skip] "m"(p.skip), [w_end] "m"(p.w_end)

/* One output of a pair in S8_FOLDED (s8_scale_folded), then SSAT (asm
 * text): the channel's bias2, mantissa, high2 and down1 in wa, wb, x02,
 * x13; the int8 replaces the sum. */
#define S8_ASM_FOLD(a)                    \
  "add %[t0], %[wa], %[" a                \
  "], lsl #1\n\t"                         \
  "add %[t1], %[x02], %[t0], asr #31\n\t" \
  "smmlar %[t0], %[t0], %[wb], %[t1]\n\t" \
  "asr %[t0], %[t0], %[x13]\n\t"          \
  "ssat %[" a "], #8, %[t0]\n\t"

/* A row's three outputs, its S8Channel `at` bytes past c (asm text). */
#define S8_ASM_FOLD_ROW(a0, a1, a2, at) \
  "ldr %[wa], [%[c], #" at              \
  "]\n\t"                               \
  "ldr %[wb], [%[c], #" at              \
  " + 4]\n\t"                           \
  "ldr %[x02], [%[c], #" at             \
  " + 8]\n\t"                           \
  "ldr %[x13], [%[c], #" at " + 12]\n\t" S8_ASM_FOLD(a0) S8_ASM_FOLD(a1) S8_ASM_FOLD(a2)

/* Every pair of rows (w, w + n; `pairs` rows in all, an even count, not
 * 0: the loops run at least once) against three interleaved columns over
 * their first n & ~3 inputs (with chans, n a multiple of 4, not 0): row ch
 * . column j. Written out (one asm block), as the block takes all fourteen
 * registers and the compiler, given it in C, moves a row pointer and a sum
 * to the stack. The pairs' loop is in it too: a pair costs its steps, six
 * MOVs, a TBH and its epilogue (six STRs; or six requantizations and six
 * STRBs). One block for both epilogues, a test a pair, rather than the
 * steps' 1.5 KB twice. */
static inline __attribute__((always_inline)) void s8_pairs_2x3(const int8_t* w,
                                                               const int16_t* buffer, int32_t n,
                                                               int32_t pairs, S8PairsOut out) {
  _Static_assert(sizeof(S8Channel) == 40 && offsetof(S8Channel, mantissa) == 4 &&
                     offsetof(S8Channel, high2) == 8 && offsetof(S8Channel, down1) == 12,
                 "S8_ASM_FOLD_ROW's offsets");
  if ((n & ~3) == 0) {
    for (int32_t i = 0; i < 3 * pairs; ++i) out.sums[i] = 0;
    return;
  }
  const S8Pairs p = s8_pairs(w, buffer, n, pairs);
  int32_t a00, a01, a02, a10, a11, a12, wa, wb, x02, x13, t0, t1;
  const int16_t* c;
  const int8_t* w0 = w;
  __asm__ volatile(S8_ASM_PAIR_SUMS
                   "ldr %[c], %[chans]\n\t"
                   "cmp %[c], #0\n\t"
                   "beq 8f\n\t" S8_ASM_FOLD_ROW("a00", "a01", "a02", "0")
                       S8_ASM_FOLD_ROW("a10", "a11", "a12", "40")
                   "add %[t0], %[c], #80\n\t"
                   "str %[t0], %[chans]\n\t"
                   "ldr %[c], %[y]\n\t"
                   "ldr %[t0], %[d1]\n\t"
                   "ldr %[t1], %[d2]\n\t"
                   "add %[t0], %[t0], %[c]\n\t"
                   "add %[t1], %[t1], %[c]\n\t"
                   "strb %[a00], [%[c]]\n\t"
                   "strb %[a10], [%[c], #1]\n\t"
                   "strb %[a01], [%[t0]]\n\t"
                   "strb %[a11], [%[t0], #1]\n\t"
                   "strb %[a02], [%[t1]]\n\t"
                   "strb %[a12], [%[t1], #1]\n\t"
                   "add %[c], %[c], #2\n\t"
                   "str %[c], %[y]\n\t" S8_ASM_NEXT_PAIR
                   "b 7f\n"
                   "8:\n\t"
                   "ldr %[t0], %[sums]\n\t"
                   "str %[a00], [%[t0]]\n\t"
                   "str %[a01], [%[t0], #4]\n\t"
                   "str %[a02], [%[t0], #8]\n\t"
                   "str %[a10], [%[t0], #12]\n\t"
                   "str %[a11], [%[t0], #16]\n\t"
                   "str %[a12], [%[t0], #20]\n\t"
                   "add %[t0], %[t0], #24\n\t"
                   "str %[t0], %[sums]\n\t" S8_ASM_NEXT_PAIR
                   "7:\n"
                   : S8_ASM_PAIR_OUTPUTS, [chans] "+m"(out.chans), [y] "+m"(out.y),
                     [sums] "+m"(out.sums)
                   : S8_ASM_PAIR_INPUTS, [d1] "m"(out.d1), [d2] "m"(out.d2)
                   : "cc", "memory");
}

/* Four k of s8_dot_4x1 (asm text): the column group and rows 0 and 2's
 * weight words (each pointer post-incremented) and row 1's, nm (n - 4)
 * past row 0's, in a row of loads; row 3's after row 0's products. */
#define S8_ASM_STEP_4X1                   \
  "ldr %[x02], [%[c]], #4\n\t"            \
  "ldr %[wa], [%[w0]], #4\n\t"            \
  "ldr %[x13], [%[c]], #4\n\t"            \
  "ldr %[wc], [%[w2]], #4\n\t"            \
  "ldr %[wb], [%[w0], %[nm]]\n\t"         \
  "sxtb16 %[t0], %[wa], ror #8\n\t"       \
  "sxtb16 %[wa], %[wa]\n\t"               \
  "smlad %[a0], %[wa], %[x02], %[a0]\n\t" \
  "smlad %[a0], %[t0], %[x13], %[a0]\n\t" \
  "ldr %[wa], [%[w2], %[nm]]\n\t"         \
  "sxtb16 %[t0], %[wb], ror #8\n\t"       \
  "sxtb16 %[wb], %[wb]\n\t"               \
  "smlad %[a1], %[wb], %[x02], %[a1]\n\t" \
  "smlad %[a1], %[t0], %[x13], %[a1]\n\t" \
  "sxtb16 %[t0], %[wc], ror #8\n\t"       \
  "sxtb16 %[wc], %[wc]\n\t"               \
  "smlad %[a2], %[wc], %[x02], %[a2]\n\t" \
  "smlad %[a2], %[t0], %[x13], %[a2]\n\t" \
  "sxtb16 %[t0], %[wa], ror #8\n\t"       \
  "sxtb16 %[wa], %[wa]\n\t"               \
  "smlad %[a3], %[wa], %[x02], %[a3]\n\t" \
  "smlad %[a3], %[t0], %[x13], %[a3]\n\t"

/* acc[r] = row r . column c over the first n & ~3 inputs, rows w, w + n,
 * w + 2n, w + 3n. Written out, as s8_pairs_2x3, for its fourteen registers:
 * four sums, six operands, two row pointers (rows 1 and 3 at nm past them)
 * and the column's. Eight steps (32 k) an iteration, then one at a time;
 * the loop ends from the stack. */
static inline __attribute__((always_inline)) void s8_dot_4x1(const int8_t* w, const int16_t* c,
                                                             const S8Block* b, int32_t* acc) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int32_t x02, x13, wa, wb, wc, t0;
  const int8_t* w0 = w;
  const int8_t* w2 = w + 2 * b->n;
  __asm__ volatile(
      "ldr %[t0], %[main]\n\t"
      "cmp %[c], %[t0]\n\t"
      "beq 2f\n"
      "1:\n\t" S8_ASM_STEP_4X1 S8_ASM_STEP_4X1 S8_ASM_STEP_4X1 S8_ASM_STEP_4X1 S8_ASM_STEP_4X1
          S8_ASM_STEP_4X1 S8_ASM_STEP_4X1 S8_ASM_STEP_4X1
      "ldr %[t0], %[main]\n\t"
      "cmp %[c], %[t0]\n\t"
      "bne 1b\n"
      "2:\n\t"
      "ldr %[t0], %[e4]\n\t"
      "cmp %[c], %[t0]\n\t"
      "beq 4f\n"
      "3:\n\t" S8_ASM_STEP_4X1
      "ldr %[t0], %[e4]\n\t"
      "cmp %[c], %[t0]\n\t"
      "bne 3b\n"
      "4:\n"
      : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [w0] "+r"(w0), [w2] "+r"(w2),
        [c] "+r"(c), [x02] "=&r"(x02), [x13] "=&r"(x13), [wa] "=&r"(wa), [wb] "=&r"(wb),
        [wc] "=&r"(wc), [t0] "=&r"(t0)
      : [nm] "r"(b->nm), [main] "m"(b->main), [e4] "m"(b->end4)
      : "cc", "memory");
  /* Stores of words apart, which the compiler does not pair into STRDs
   * (three cycles each, two STRs two). */
  acc[0] = a0;
  acc[2] = a2;
  acc[1] = a1;
  acc[3] = a3;
}

/* A column group as the four-product step takes it: its two words. */
typedef struct {
  int32_t x02, x13;
} S8Group;

/* The group at *c, *c past it: one LDRD with post-increment. */
static inline S8Group s8_group_next(const int16_t** c) {
  S8Group g;
  __asm__("ldrd %0, %1, [%2], #8"
          : "=&r"(g.x02), "=&r"(g.x13), "+r"(*c)
          : "m"(*(const int64_t*)(const void*)*c));
  return g;
}

/* acc plus a row's four weights at w times a column group: one weight
 * word, two SXTB16, two SMLAD. */
static inline int32_t s8_step4(const int8_t* w, S8Group x, int32_t acc) {
  const int32_t v = s8_load32(w);
  return s8_smlad(s8_lanes13(v), x.x13, s8_smlad(s8_lanes02(v), x.x02, acc));
}

#else
/* Without the DSP extension, one k at a time: its weights against its
 * inputs, at place cj of the reordered groups (x0 x2 x1 x3, the next
 * column's 4 on, the next group 12 on), each loaded value used at once so
 * that the registers hold the sums. */
#define S8_MAC_2X3(j, cj)                     \
  do {                                        \
    const int32_t wa = w0[j], wb = w0[n + j]; \
    int32_t x = c[cj];                        \
    a00 += wa * x;                            \
    a10 += wb * x;                            \
    x = c[4 + cj];                            \
    a01 += wa * x;                            \
    a11 += wb * x;                            \
    x = c[8 + cj];                            \
    a02 += wa * x;                            \
    a12 += wb * x;                            \
  } while (0)

static inline __attribute__((always_inline)) void s8_dot_2x3(const int8_t* w0, const int16_t* c,
                                                             int32_t n, int32_t* acc) {
  int32_t a00 = 0, a01 = 0, a02 = 0, a10 = 0, a11 = 0, a12 = 0;
  for (const int8_t* end = w0 + (n & ~3); w0 != end; w0 += 4, c += 12) {
    S8_MAC_2X3(0, 0);
    S8_MAC_2X3(1, 2);
    S8_MAC_2X3(2, 1);
    S8_MAC_2X3(3, 3);
  }
  acc[0] = a00;
  acc[1] = a01;
  acc[2] = a02;
  acc[3] = a10;
  acc[4] = a11;
  acc[5] = a12;
}

/* Every pair of rows against the three columns (s8_pairs_2x3 above), their
 * sums (`out` has no chans here). */
static inline void s8_pairs_2x3(const int8_t* w, const int16_t* buffer, int32_t n, int32_t pairs,
                                S8PairsOut out) {
  for (int32_t ch = 0; ch < pairs; ch += 2) s8_dot_2x3(w + ch * n, buffer, n, out.sums + 3 * ch);
}

/* A column group as the four-product step takes it: its inputs x0 x2 x1
 * x3, loaded once for every row. */
typedef struct {
  int32_t x0, x2, x1, x3;
} S8Group;

static inline S8Group s8_group_next(const int16_t** c) {
  const int16_t* p = *c;
  S8Group g = {p[0], p[1], p[2], p[3]};
  *c = p + 4;
  return g;
}

static inline int32_t s8_step4(const int8_t* w, S8Group x, int32_t acc) {
  return acc + w[0] * x.x0 + w[1] * x.x1 + w[2] * x.x2 + w[3] * x.x3;
}
#endif

#if !(defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP)
/* acc[r] = row r . column c over the first n & ~3 inputs, rows w, w + n,
 * w + 2n, w + 3n: a group of the column against each row's four weights (a
 * pointer a row, each load's post-increment its step). */
static inline void s8_dot_4x1(const int8_t* w, const int16_t* c, const S8Block* b, int32_t* acc) {
  const int32_t n = b->n;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int8_t* w1 = w + n;
  const int8_t* w2 = w1 + n;
  const int8_t* w3 = w2 + n;
  for (const int8_t* end = w + (n & ~3); w != end; w += 4, w1 += 4, w2 += 4, w3 += 4) {
    const S8Group x = s8_group_next(&c);
    a0 = s8_step4(w, x, a0);
    a1 = s8_step4(w1, x, a1);
    a2 = s8_step4(w2, x, a2);
    a3 = s8_step4(w3, x, a3);
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}
#endif

/* row w . column c (groups step apart: 4 alone, 12 among three). */
static inline int32_t s8_dot_1x1(const int8_t* w, const int16_t* c, const int16_t* tail,
                                 int32_t step, int32_t n) {
  int32_t a = 0;
  const int8_t* end = w + (n & ~3);
  for (; w != end; w += 4, c += step - 4) a = s8_step4(w, s8_group_next(&c), a);
  return s8_dot_tail(w, tail, n & 3, a);
}

/* Every channel's sums for the three interleaved columns in buffer, each
 * channel's three side by side in sums (3 x channels). */
void ffi_core_s8_sums_3cols(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                            int32_t* sums);

/* The first `pairs` channels' results for the three interleaved columns
 * (s8_pairs_2x3: their int8 outputs or their sums, as `out` says). */
void ffi_core_s8_pairs_3cols(const int8_t* w, const int16_t* buffer, int32_t n, int32_t pairs,
                             S8PairsOut out);

/* Every channel's sum for the lone column in buffer. */
void ffi_core_s8_sums_1col(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                           int32_t* sums);

#endif

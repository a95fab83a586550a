/* The int8 micro-kernels' matrix product: output channels (rows of int8
 * weights, TFLite's OHWI or OI order) times columns of int16 inputs (one per
 * output pixel or batch row), blocked two rows by two columns as CMSIS-NN's
 * GEMM is, so that each loaded word serves two products' pairs. It gives
 * the int32 sums; each kernel requantizes them in a loop of its own (its
 * rounding, and registers the products' loop does not hold).
 *
 * A column's first n & ~3 inputs come in groups of four, reordered as
 * x0 x2 x1 x3: SXTB16 widens a weight word's bytes 0 and 2 into one register
 * and, rotated, bytes 1 and 3 into another, so the group's two words pair
 * with them directly. Two columns interleave their groups (one pointer walks
 * both); each column's remaining n % 4 inputs follow all the groups, in
 * order. */
#ifndef FFI_CORE_KERNELS_S8_GEMM_H_
#define FFI_CORE_KERNELS_S8_GEMM_H_

#include "s8_primitives.h"

/* Where a column's inputs go among `cols` (1 or 2) interleaved columns of
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
 * group on, `step` apart: two groups an iteration (half the loop tests),
 * the step a constant to the loop (4 or 8: a lone column or a pair). */
static inline __attribute__((always_inline)) int16_t* s8_widen_groups_by(const int8_t* src,
                                                                         int32_t n4, int16_t* group,
                                                                         int32_t step) {
  const int8_t* end = src + (n4 & ~7);
  for (; src != end; src += 8) {
    const int32_t a = s8_load32(src), b = s8_load32(src + 4);
    group = s8_widen_group(b, s8_widen_group(a, group, step), step);
  }
  if (n4 & 4) group = s8_widen_group(s8_load32(src), group, step);
  return group;
}

static inline int16_t* s8_widen_groups(const int8_t* src, int32_t n4, int16_t* group,
                                       int32_t step) {
  return step == 8 ? s8_widen_groups_by(src, n4, group, 8) : s8_widen_groups_by(src, n4, group, 4);
}

/* Widens n int8 inputs into column c. */
static inline void s8_widen(const int8_t* src, const S8Column* c, int32_t n) {
  int32_t n4 = n & ~3, step = c->step;
  int16_t* group = c->group;
  for (int32_t k = 0; k < n4; k += 4) group = s8_widen_group(s8_load32(src + k), group, step);
  for (int32_t k = n4; k < n; ++k) c->tail[k - n4] = src[k];
}

/* acc plus the products of t inputs in order. */
static inline int32_t s8_dot_tail(const int8_t* w, const int16_t* c, int32_t t, int32_t acc) {
  for (int32_t k = 0; k < t; ++k) acc += w[k] * c[k];
  return acc;
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* Sixteen k of two interleaved columns (what one iteration of s8_dot_2x2 reads). */
typedef struct {
  int16_t v[32];
} S8Groups;

/* A column group's two words, `offset` bytes past c (LDRD: the buffer is
 * word aligned; the offset is the instruction's, not an addition). */
#define S8_LOAD_GROUP(c, offset, x02, x13)  \
  __asm__("ldrd %0, %1, [%2, #" #offset "]" \
          : "=&r"(x02), "=&r"(x13)          \
          : "r"(c), "m"(*(const S8Groups*)(c)))

/* The same two words for s8_dot_2x2's step. Where a load takes two cycles
 * and an LDR after an LDR one (the M4's and M33's timings), two LDRs: after
 * the weights' two loads they take a cycle each, where an LDRD takes three.
 * Where every load takes one cycle (the M7: targets.c_kernel_flags defines
 * FFI_CORE_KERNELS_ONE_CYCLE_LOADS), the LDRD, an instruction fewer. */
#if defined(FFI_CORE_KERNELS_ONE_CYCLE_LOADS)
#define S8_LOAD_WORDS S8_LOAD_GROUP
#else
#define S8_LOAD_WORDS(c, offset, x02, x13)                               \
  __asm__("ldr %0, [%2, #" #offset "]\n\tldr %1, [%2, #" #offset " + 4]" \
          : "=&r"(x02), "=&r"(x13)                                       \
          : "r"(c), "m"(*(const S8Groups*)(c)))
#endif

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

/* Four k of rows w0 w1 (from byte wk on) against both columns' group at
 * byte ck: 2 weight words, 2 column groups, 4 SXTB16, 8 SMLAD. */
#define S8_STEP_2X2(wk, ck0, ck1)                             \
  do {                                                        \
    int32_t wa = s8_load32(w0 + wk), wb = s8_load32(w1 + wk); \
    int32_t x02, x13;                                         \
    S8_LOAD_WORDS(c, ck0, x02, x13);                          \
    int32_t wa02 = s8_lanes02(wa), wa13 = s8_lanes13(wa);     \
    int32_t wb02 = s8_lanes02(wb), wb13 = s8_lanes13(wb);     \
    a00 = s8_smlad(wa13, x13, s8_smlad(wa02, x02, a00));      \
    a10 = s8_smlad(wb13, x13, s8_smlad(wb02, x02, a10));      \
    S8_LOAD_WORDS(c, ck1, x02, x13);                          \
    a01 = s8_smlad(wa13, x13, s8_smlad(wa02, x02, a01));      \
    a11 = s8_smlad(wb13, x13, s8_smlad(wb02, x02, a11));      \
  } while (0)

/* Sixteen k of s8_dot_2x2, the pointers stepped past them. */
#define S8_STEP16_2X2()      \
  do {                       \
    S8_STEP_2X2(0, 0, 8);    \
    S8_STEP_2X2(4, 16, 24);  \
    S8_STEP_2X2(8, 32, 40);  \
    S8_STEP_2X2(12, 48, 56); \
    w0 += 16;                \
    w1 += 16;                \
    c += 32;                 \
  } while (0)

/* acc = {w0.c0, w0.c1, w1.c0, w1.c1}: rows w0 w1, two interleaved columns c;
 * sixteen k a step (the pointer steps and loop test a sixteenth of the
 * instructions), `steps` (1, 2 or 4, a constant) an iteration where the
 * code may grow for fewer loop tests (n a constant the loop then runs
 * straight), then eight, then four. */
static inline __attribute__((always_inline)) void s8_dot_2x2(const int8_t* w0, const int8_t* w1,
                                                             const int16_t* c, int32_t n,
                                                             int32_t* acc, int32_t steps) {
  int32_t a00 = 0, a01 = 0, a10 = 0, a11 = 0;
  if (steps == 4) {
    for (int32_t i = n >> 6; i != 0; --i) {
      S8_STEP16_2X2();
      S8_STEP16_2X2();
      S8_STEP16_2X2();
      S8_STEP16_2X2();
    }
  } else if (steps == 2) {
    for (int32_t i = n >> 5; i != 0; --i) {
      S8_STEP16_2X2();
      S8_STEP16_2X2();
    }
  }
  for (int32_t i = (n >> 4) & (steps == 1 ? 0x7FFFFFF : steps - 1); i != 0; --i) S8_STEP16_2X2();
  if (n & 8) {
    S8_STEP_2X2(0, 0, 8);
    S8_STEP_2X2(4, 16, 24);
    w0 += 8;
    w1 += 8;
    c += 16;
  }
  if (n & 4) {
    S8_STEP_2X2(0, 0, 8);
    w0 += 4;
    w1 += 4;
    c += 8;
  }
  int32_t t = n & 3;
  acc[0] = s8_dot_tail(w0, c, t, a00);
  acc[1] = s8_dot_tail(w0, c + t, t, a01);
  acc[2] = s8_dot_tail(w1, c, t, a10);
  acc[3] = s8_dot_tail(w1, c + t, t, a11);
}

#else
/* Without the DSP extension, one k at a time: its weights against its
 * inputs, at place cj of the reordered groups (x0 x2 x1 x3, the next group
 * 8 on), each loaded value used at once so that the registers hold the
 * accumulators. */
#define S8_MAC_2X2(j, cj)                                       \
  do {                                                          \
    int32_t wa = w0[j], wb = w1[j], xa = c[cj], xb = c[4 + cj]; \
    a00 += wa * xa;                                             \
    a01 += wa * xb;                                             \
    a10 += wb * xa;                                             \
    a11 += wb * xb;                                             \
  } while (0)

static inline __attribute__((always_inline)) void s8_dot_2x2(const int8_t* w0, const int8_t* w1,
                                                             const int16_t* c, int32_t n,
                                                             int32_t* acc, int32_t steps) {
  (void)steps; /* the loop holds the accumulators: no registers to spare */
  int32_t a00 = 0, a01 = 0, a10 = 0, a11 = 0;
  /* Two groups an iteration: half the pointer steps and loop tests. */
  for (int32_t i = n >> 3; i != 0; --i) {
    S8_MAC_2X2(0, 0);
    S8_MAC_2X2(1, 2);
    S8_MAC_2X2(2, 1);
    S8_MAC_2X2(3, 3);
    S8_MAC_2X2(4, 8);
    S8_MAC_2X2(5, 10);
    S8_MAC_2X2(6, 9);
    S8_MAC_2X2(7, 11);
    w0 += 8;
    w1 += 8;
    c += 16;
  }
  if (n & 4) {
    S8_MAC_2X2(0, 0);
    S8_MAC_2X2(1, 2);
    S8_MAC_2X2(2, 1);
    S8_MAC_2X2(3, 3);
    w0 += 4;
    w1 += 4;
    c += 8;
  }
  int32_t t = n & 3;
  acc[0] = s8_dot_tail(w0, c, t, a00);
  acc[1] = s8_dot_tail(w0, c + t, t, a01);
  acc[2] = s8_dot_tail(w1, c, t, a10);
  acc[3] = s8_dot_tail(w1, c + t, t, a11);
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

/* acc[r] = row r . column c, rows w, w + n, w + 2n, w + 3n: a group of the
 * column against each row's four weights (a pointer a row, each load's
 * post-increment its step). */
static inline void s8_dot_4x1(const int8_t* w, const int16_t* c, int32_t n, int32_t* acc) {
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
  int32_t t = n & 3;
  acc[0] = s8_dot_tail(w, c, t, a0);
  acc[1] = s8_dot_tail(w1, c, t, a1);
  acc[2] = s8_dot_tail(w2, c, t, a2);
  acc[3] = s8_dot_tail(w3, c, t, a3);
}

/* row w . column c (columns step apart: 4 alone, 8 interleaved). */
static inline int32_t s8_dot_1x1(const int8_t* w, const int16_t* c, const int16_t* tail,
                                 int32_t step, int32_t n) {
  int32_t a = 0;
  const int8_t* end = w + (n & ~3);
  for (; w != end; w += 4, c += step - 4) a = s8_step4(w, s8_group_next(&c), a);
  return s8_dot_tail(w, tail, n & 3, a);
}

/* Every channel's sums for the two interleaved columns in buffer, each
 * channel's two side by side in sums (2 x channels). */
void ffi_core_s8_sums_2cols(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                            int32_t* sums);

/* Every channel's sum for the lone column in buffer. */
void ffi_core_s8_sums_1col(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                           int32_t* sums);

#endif

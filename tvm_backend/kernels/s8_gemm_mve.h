/* The int8 micro-kernels' matrix product on Helium (MVE): output channels
 * (rows of int8 weights, OHWI or OI) times columns of int8 inputs, two
 * rows by two columns at a time over more than 16 inputs, four rows of a
 * column otherwise. VMLADAVA multiplies 16 int8 pairs and adds them to a
 * scalar sum, so the inputs need no widening; the last n % 16 load with a
 * tail predicate (the lanes past n read as zero). Four sums, four even
 * registers (VMLADAVA's accumulator must be one), requantized as a
 * vector. A call's requantization takes one form for all its channels
 * (S8Mode), each form a copy of the loops of its own, so that no output
 * tests which. */
#ifndef FFI_CORE_KERNELS_S8_GEMM_MVE_H_
#define FFI_CORE_KERNELS_S8_GEMM_MVE_H_

#include "s8_primitives.h"

typedef struct {
  const int32_t* q; /* per channel: bias (input zero point folded), mantissa, shift */
  int32_t out_zp, lo, hi;
} S8Requant;

/* Four sums as one vector: two VMOVs, each of two registers into two
 * lanes (GCC makes four moves of vsetq_lane). */
static inline int32x4_t s8_lanes4(int32_t a0, int32_t a1, int32_t a2, int32_t a3) {
  int32x4_t v;
  __asm__("vmov %q0[2], %q0[0], %1, %3\n\tvmov %q0[3], %q0[1], %2, %4"
          : "=w"(v)
          : "r"(a0), "r"(a1), "r"(a2), "r"(a3));
  return v;
}

/* Rows w, w + n, w + 2n, w + 3n times column x. */
static inline int32x4_t s8_dot_4x1(const int8_t* w, const int8_t* x, int32_t n) {
  const int8_t* w1 = w + n;
  const int8_t* w2 = w1 + n;
  const int8_t* w3 = w2 + n;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (int32_t i = n >> 4; i != 0; --i) {
    const int8x16_t v = vldrbq_s8(x);
    a0 = vmladavaq_s8(a0, vldrbq_s8(w), v);
    a1 = vmladavaq_s8(a1, vldrbq_s8(w1), v);
    a2 = vmladavaq_s8(a2, vldrbq_s8(w2), v);
    a3 = vmladavaq_s8(a3, vldrbq_s8(w3), v);
    x += 16;
    w += 16;
    w1 += 16;
    w2 += 16;
    w3 += 16;
  }
  if (n & 15) {
    const mve_pred16_t p = vctp8q((uint32_t)(n & 15));
    const int8x16_t v = vldrbq_z_s8(x, p);
    a0 = vmladavaq_s8(a0, vldrbq_z_s8(w, p), v);
    a1 = vmladavaq_s8(a1, vldrbq_z_s8(w1, p), v);
    a2 = vmladavaq_s8(a2, vldrbq_z_s8(w2, p), v);
    a3 = vmladavaq_s8(a3, vldrbq_z_s8(w3, p), v);
  }
  return s8_lanes4(a0, a1, a2, a3);
}

/* Rows w and w + n times columns x0 and x1, n above 16, as one vector
 * (w.x0, (w + n).x0, w.x1, (w + n).x1): four loads and four VMLADAVAs a
 * step of 16 inputs, the last product of the step before taken after the
 * first load, so that loads and products alternate (the dual-beat
 * overlap). In assembly, loop and all: GCC's scheduler would pair them
 * otherwise, and its registers would move around a loop of its own.
 * `tail` says whether n % 16 is not 0. */
static inline __attribute__((always_inline)) int32x4_t s8_dot_2x2_long(const int8_t* w,
                                                                       const int8_t* x0,
                                                                       const int8_t* x1, int32_t n,
                                                                       int tail) {
  const int8_t* w1 = w + n;
  /* Three Q registers: a column's chunk (b, then d) takes one, each read
   * before the next load into it. */
  int8x16_t a, b, c;
  int32_t s00, s10, s01, s11;
  __asm__(
      "movs %[s11], #0\n\t"
      "vldrb.8 %q[a], [%[w]], #16\n\t"
      "vldrb.8 %q[b], [%[x0]], #16\n\t"
      "vmladav.s8 %[s00], %q[a], %q[b]\n\t"
      "vldrb.8 %q[c], [%[w1]], #16\n\t"
      "vmladav.s8 %[s10], %q[c], %q[b]\n\t"
      "vldrb.8 %q[b], [%[x1]], #16\n\t"
      "vmladav.s8 %[s01], %q[a], %q[b]\n\t"
      "wls lr, %[steps], 2f\n"
      "1:\n\t"
      "vldrb.8 %q[a], [%[w]], #16\n\t"
      "vmladava.s8 %[s11], %q[c], %q[b]\n\t"
      "vldrb.8 %q[b], [%[x0]], #16\n\t"
      "vmladava.s8 %[s00], %q[a], %q[b]\n\t"
      "vldrb.8 %q[c], [%[w1]], #16\n\t"
      "vmladava.s8 %[s10], %q[c], %q[b]\n\t"
      "vldrb.8 %q[b], [%[x1]], #16\n\t"
      "vmladava.s8 %[s01], %q[a], %q[b]\n\t"
      "le lr, 1b\n"
      "2:\n\t"
      "vmladava.s8 %[s11], %q[c], %q[b]"
      : [a] "=&w"(a), [b] "=&w"(b), [c] "=&w"(c), [s00] "=&Te"(s00), [s10] "=&Te"(s10),
        [s01] "=&Te"(s01), [s11] "=&Te"(s11), [w] "+&r"(w), [x0] "+&r"(x0), [w1] "+&r"(w1),
        [x1] "+&r"(x1)
      : [steps] "r"((n >> 4) - 1)
      : "lr", "memory", "cc");
  if (tail) {
    const mve_pred16_t p = vctp8q((uint32_t)(n & 15));
    a = vldrbq_z_s8(w, p);
    b = vldrbq_z_s8(x0, p);
    s00 = vmladavaq_s8(s00, a, b);
    c = vldrbq_z_s8(w1, p);
    s10 = vmladavaq_s8(s10, c, b);
    b = vldrbq_z_s8(x1, p);
    s01 = vmladavaq_s8(s01, a, b);
    s11 = vmladavaq_s8(s11, c, b);
  }
  return s8_lanes4(s00, s10, s01, s11);
}

/* Four rows, held in r0..r3 (zero past n), times a column of at most 16
 * inputs, held in x. */
static inline int32x4_t s8_dot_4x1_held(int8x16_t r0, int8x16_t r1, int8x16_t r2, int8x16_t r3,
                                        int8x16_t x) {
  return s8_lanes4(vmladavq_s8(r0, x), vmladavq_s8(r1, x), vmladavq_s8(r2, x), vmladavq_s8(r3, x));
}

/* Row w times column x. */
static inline int32_t s8_dot_1x1(const int8_t* w, const int8_t* x, int32_t n) {
  int32_t a = 0;
  for (int32_t k = 0; k < n; k += 16) {
    const mve_pred16_t p = vctp8q((uint32_t)(n - k));
    a = vmladavaq_s8(a, vldrbq_z_s8(w + k, p), vldrbq_z_s8(x + k, p));
  }
  return a;
}

static inline __attribute__((always_inline)) int8_t s8_output(int32_t acc, const int32_t* q,
                                                              const S8Requant* rq, S8Mode mode) {
  const S8Channel c = s8_channel(q, rq->out_zp);
  return mode == S8_SCALAR_ONCE ? s8_requantize_once(acc, &c, rq->lo, rq->hi)
                                : s8_requantize(acc, &c, rq->lo, rq->hi);
}

/* Four channels' sums from ch on (requantization c unless the mode is
 * scalar), requantized, stored. */
static inline __attribute__((always_inline)) void s8_store4(int32x4_t acc, int32_t ch,
                                                            const S8Channels4* c,
                                                            const S8Requant* rq, S8Mode mode,
                                                            int32x4_t out_zp, int32x4_t lo,
                                                            int32x4_t hi, int8_t* y) {
  if (mode == S8_SCALAR || mode == S8_SCALAR_ONCE) {
    const int32_t* q = rq->q + ch * 3;
    y[ch] = s8_output(vgetq_lane_s32(acc, 0), q, rq, mode);
    y[ch + 1] = s8_output(vgetq_lane_s32(acc, 1), q + 3, rq, mode);
    y[ch + 2] = s8_output(vgetq_lane_s32(acc, 2), q + 6, rq, mode);
    y[ch + 3] = s8_output(vgetq_lane_s32(acc, 3), q + 9, rq, mode);
  } else {
    vstrbq_s32(y + ch, s8_clamp_out4(s8_requantize4(acc, c, mode), out_zp, lo, hi));
  }
}

/* Two channels' sums of two columns from ch on (s8_dot_2x2_long's
 * order; requantization c, lanes ch, ch + 1, ch, ch + 1, unless the mode
 * is scalar), requantized, stored at y + at (at: 0, 1, channels,
 * channels + 1), the second column's only where `both`. The output zero
 * point is added as a scalar: one Q register fewer across the loop. */
static inline __attribute__((always_inline)) void s8_store2x2(int32x4_t acc, int32_t ch,
                                                              const S8Channels4* c,
                                                              const S8Requant* rq, S8Mode mode,
                                                              int32x4_t lo, int32x4_t hi,
                                                              uint32x4_t at, int both, int8_t* y) {
  if (mode == S8_SCALAR || mode == S8_SCALAR_ONCE) {
    const int32_t* q = rq->q + ch * 3;
    y[ch] = s8_output(vgetq_lane_s32(acc, 0), q, rq, mode);
    y[ch + 1] = s8_output(vgetq_lane_s32(acc, 1), q + 3, rq, mode);
    if (both) {
      const uint32_t next = vgetq_lane_u32(at, 2);
      y[next + ch] = s8_output(vgetq_lane_s32(acc, 2), q, rq, mode);
      y[next + ch + 1] = s8_output(vgetq_lane_s32(acc, 3), q + 3, rq, mode);
    }
    return;
  }
  const int32x4_t v =
      vminq_s32(vmaxq_s32(vaddq_n_s32(s8_requantize4(acc, c, mode), rq->out_zp), lo), hi);
  if (both) {
    vstrbq_scatter_offset_s32(y + ch, at, v);
  } else {
    vstrbq_scatter_offset_p_s32(y + ch, at, v, vctp32q(2));
  }
}

/* Up to this many columns (a convolution's gathered pixels, a strided 1x1
 * kernel's output row), s8_gemm_2x2 takes the channels inner: each pair's
 * requantization gathered beside its sums costs less than holding it
 * across so few columns. */
#define S8_GEMM_FEW_COLUMNS 16

/* Every output for `cols` columns of more than 16 inputs, two channels
 * by two columns at a time (s8_dot_2x2_long), an odd last column paired
 * with itself and its copy left unstored: over many columns a pair of
 * channels at a time, its requantization held across them; over few the
 * channels inner, so that the rows run on from one pair to the next, each
 * pair's requantization gathered beside its sums (loads against the
 * vector arithmetic). */
static inline __attribute__((always_inline)) void s8_gemm_2x2(const int8_t* w, const int8_t* x,
                                                              int32_t n, int32_t x_step,
                                                              int32_t cols, int32_t channels,
                                                              const S8Requant* rq, S8Mode mode,
                                                              int tail, int8_t* y) {
  const int32x4_t lo = vdupq_n_s32(rq->lo), hi = vdupq_n_s32(rq->hi);
  const uint32x4_t lane = vidupq_n_u32(0, 1), one = vdupq_n_u32(1);
  /* Lanes 0, 1, 0, 1 and outputs 0, 1, channels, channels + 1. */
  const uint32x4_t rows = vmulq_n_u32(vandq_u32(lane, one), 3);
  const uint32x4_t at =
      vaddq_u32(vandq_u32(lane, one), vmulq_n_u32(vshrq_n_u32(lane, 1), (uint32_t)channels));
  const int32_t pairs = channels & ~1;
  if (cols > S8_GEMM_FEW_COLUMNS) {
    for (int32_t ch = 0; ch < pairs; ch += 2) {
      const S8Channels4 c = s8_channels_at(rq->q + ch * 3, rows, mode);
      const int8_t* row = w + ch * n;
      const int8_t* column = x;
      int8_t* out = y;
      int32_t k = cols;
      for (; k >= 2; k -= 2, column += 2 * x_step, out += 2 * channels) {
        const int32x4_t acc = s8_dot_2x2_long(row, column, column + x_step, n, tail);
        s8_store2x2(acc, ch, &c, rq, mode, lo, hi, at, 1, out);
      }
      if (k != 0) {
        const int32x4_t acc = s8_dot_2x2_long(row, column, column, n, tail);
        s8_store2x2(acc, ch, &c, rq, mode, lo, hi, at, 0, out);
      }
    }
  } else {
    const int8_t* column = x;
    int8_t* out = y;
    int32_t k = cols;
    for (; k >= 2; k -= 2, column += 2 * x_step, out += 2 * channels) {
      for (int32_t ch = 0; ch < pairs; ch += 2) {
        const int32x4_t acc = s8_dot_2x2_long(w + ch * n, column, column + x_step, n, tail);
        const S8Channels4 c = s8_channels_at(rq->q + ch * 3, rows, mode);
        s8_store2x2(acc, ch, &c, rq, mode, lo, hi, at, 1, out);
      }
    }
    for (int32_t ch = 0; k != 0 && ch < pairs; ch += 2) {
      const int32x4_t acc = s8_dot_2x2_long(w + ch * n, column, column, n, tail);
      const S8Channels4 c = s8_channels_at(rq->q + ch * 3, rows, mode);
      s8_store2x2(acc, ch, &c, rq, mode, lo, hi, at, 0, out);
    }
  }
  for (int32_t ch = pairs; ch < channels; ++ch) {
    const int8_t* column = x;
    int8_t* out = y;
    for (int32_t k = cols; k != 0; --k, column += x_step, out += channels) {
      out[ch] = s8_output(s8_dot_1x1(w + ch * n, column, n), rq->q + ch * 3, rq, mode);
    }
  }
}

/* Every channel's output for `cols` columns, x_step inputs apart from x
 * on, into rows of y `channels` apart: over more than 16 inputs
 * s8_gemm_2x2; otherwise four channels at a time over every column, their
 * requantization read once, a column in one load against the block's rows
 * held in registers. */
static inline __attribute__((always_inline)) void s8_gemm_by_channels(
    const int8_t* w, const int8_t* x, int32_t n, int32_t x_step, int32_t cols, int32_t channels,
    const S8Requant* requant, S8Mode mode, int8_t* y) {
  const S8Requant rq = *requant;
  if (n > 16) {
    /* The tail tested a block, not a second copy of every loop: the five
     * forms' copies would take 8 KB more flash (KWS's 1.25 x bound). */
    s8_gemm_2x2(w, x, n, x_step, cols, channels, &rq, mode, (n & 15) != 0, y);
    return;
  }
  const int32x4_t out_zp = vdupq_n_s32(rq.out_zp), lo = vdupq_n_s32(rq.lo);
  const int32x4_t hi = vdupq_n_s32(rq.hi);
  const mve_pred16_t p = vctp8q((uint32_t)n);
  int32_t ch = 0;
  for (; ch + 4 <= channels; ch += 4) {
    const S8Channels4 c = s8_channels4(rq.q + ch * 3, mode);
    const int8_t* row = w + ch * n;
    const int8_t* column = x;
    int8_t* out = y;
    const int8x16_t r0 = vldrbq_z_s8(row, p), r1 = vldrbq_z_s8(row + n, p);
    const int8x16_t r2 = vldrbq_z_s8(row + 2 * n, p), r3 = vldrbq_z_s8(row + 3 * n, p);
    for (int32_t k = cols; k != 0; --k, column += x_step, out += channels) {
      const int32x4_t acc = s8_dot_4x1_held(r0, r1, r2, r3, vldrbq_z_s8(column, p));
      s8_store4(acc, ch, &c, &rq, mode, out_zp, lo, hi, out);
    }
  }
  for (; ch < channels; ++ch) {
    const int8_t* column = x;
    int8_t* out = y;
    for (int32_t k = cols; k != 0; --k, column += x_step, out += channels) {
      out[ch] = s8_output(s8_dot_1x1(w + ch * n, column, n), rq.q + ch * 3, &rq, mode);
    }
  }
}

/* The same for one column: four channels a time, each block's
 * requantization read beside its sums. */
static inline __attribute__((always_inline)) void s8_gemm_column(const int8_t* w, const int8_t* x,
                                                                 int32_t n, int32_t channels,
                                                                 const S8Requant* requant,
                                                                 S8Mode mode, int8_t* y) {
  const S8Requant rq = *requant;
  const int32x4_t out_zp = vdupq_n_s32(rq.out_zp), lo = vdupq_n_s32(rq.lo);
  const int32x4_t hi = vdupq_n_s32(rq.hi);
  int32_t ch = 0;
  for (; ch + 4 <= channels; ch += 4) {
    const int32x4_t acc = s8_dot_4x1(w + ch * n, x, n);
    const S8Channels4 c = s8_channels4(rq.q + ch * 3, mode);
    s8_store4(acc, ch, &c, &rq, mode, out_zp, lo, hi, y);
  }
  for (; ch < channels; ++ch) {
    y[ch] = s8_output(s8_dot_1x1(w + ch * n, x, n), rq.q + ch * 3, &rq, mode);
  }
}

/* The matrix product for each requantization form (the caller picks it
 * with s8_mode): one column alone, or several, each block's requantization
 * held across them. */
#define S8_GEMM_FORM(name, mode)                                                                   \
  static __attribute__((noinline, unused)) void name(                                              \
      const int8_t* w, const int8_t* x, int32_t n, int32_t x_step, int32_t cols, int32_t channels, \
      const S8Requant* rq, int8_t* y) {                                                            \
    if (cols == 1) {                                                                               \
      s8_gemm_column(w, x, n, channels, rq, mode, y);                                              \
    } else {                                                                                       \
      s8_gemm_by_channels(w, x, n, x_step, cols, channels, rq, mode, y);                           \
    }                                                                                              \
  }
S8_GEMM_FORM(s8_gemm_twice_left, S8_TWICE_LEFT)
S8_GEMM_FORM(s8_gemm_scalar_once, S8_SCALAR_ONCE)
S8_GEMM_FORM(s8_gemm_twice_fixed, S8_TWICE_FIXED)
S8_GEMM_FORM(s8_gemm_twice, S8_TWICE)
S8_GEMM_FORM(s8_gemm_once, S8_ONCE)
#undef S8_GEMM_FORM

#endif

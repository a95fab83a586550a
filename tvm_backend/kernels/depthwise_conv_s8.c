/* DEPTHWISE_CONV_2D of int8 activations (NHWC) and int8 weights (1HWC),
 * channel multiplier 1, per-channel requantization: what ffi_core_tvm's
 * int8_kernels.depthwise_conv2d computes, bit for bit. Each output pixel's
 * taps are found once: a tap in the padding reads a row of the input's zero
 * point, whose share the bias cancels, so the sums need no bounds test
 * (and a pixel inside the input has them at fixed offsets).
 * Then four channels at a time (dw_sums4), the rest one by one; on Helium
 * (MVE) eight or sixteen, requantized as vectors (dw_pixel). With the DSP
 * extension alone, a 3x3 kernel at stride 1 or 2 goes a channel at a time
 * instead, over a plane of its inputs (dw3). */
#include "s8_primitives.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* Eight channels to a block: VMULLB / VMULLT multiply a block's even and
 * odd int16 lanes (the bytes widened by the load) into int32 lanes, so each
 * block sums in two vectors, channels c, c+2, c+4, c+6 and c+1, c+3, c+5,
 * c+7. The requantization is laid out in that order (dw_lane), each
 * channel's bias, mantissa and 31 - shift (s8_requantize4), or read from
 * the table in scalar form (S8_SCALAR) where a shift is under 31 (s8_mode's
 * S8_TWICE_LEFT); each form has the pixel's loops to itself. */
typedef struct {
  const int32_t *bias, *mantissa, *neg_exponent;
  const int32_t* q;
  int32_t out_zp, lo, hi;
  int32x4_t los, his; /* lo, hi in every lane */
} DwRequant;

/* Where channel c's sum lies among its block's two vectors. */
static inline int32_t dw_lane(int32_t c) { return (c & ~7) | ((c & 1) << 2) | ((c & 7) >> 1); }

/* Four lanes' requantization from lane c on, for `mode` (twice rounded). */
static inline __attribute__((always_inline)) S8Channels4 dw_channels4(const DwRequant* rq,
                                                                      int32_t c, S8Mode mode) {
  S8Channels4 r = {vldrwq_s32(rq->bias + c), vldrwq_s32(rq->mantissa + c),
                   vldrwq_s32(rq->neg_exponent + c), vdupq_n_s32(0), vdupq_n_s32(0)};
  if (mode == S8_TWICE_FIXED) {
    r.fix = vpselq_s32(vdupq_n_s32(-1), vdupq_n_s32(0), vcmpltq_n_s32(r.shift, 0));
  }
  return r;
}

/* A block's eight channels' predicate. */
#define DW_ALL ((mve_pred16_t)0xFFFF)

/* A block's sums (in dw_lane's order) from channel c on, one by one from
 * the table (S8_SCALAR). Not inlined: the vector forms' loops keep their
 * registers. */
static __attribute__((noinline)) void dw_store_scalar(const int32_t* sums, int32_t c,
                                                      const DwRequant* rq, mve_pred16_t p,
                                                      int8_t* out) {
  for (int32_t i = 0; i < 8 && (p >> (2 * i)) & 1; ++i) {
    const S8Channel ch = s8_channel(rq->q + 3 * (c + i), rq->out_zp);
    out[c + i] = s8_requantize(sums[dw_lane(i)], &ch, rq->lo, rq->hi);
  }
}

/* A block's sums from channel c on, requantized, stored (the channels that
 * p keeps: every one where p is `all`, with no predicate to set). */
static inline __attribute__((always_inline)) void dw_store8(int32x4_t even, int32x4_t odd,
                                                            int32_t c, const DwRequant* rq,
                                                            S8Mode mode, mve_pred16_t p,
                                                            int8_t* out) {
  if (mode == S8_SCALAR) {
    int32_t sums[8];
    vstrwq_s32(sums, even);
    vstrwq_s32(sums + 4, odd);
    dw_store_scalar(sums, c, rq, p, out);
    return;
  }
  const S8Channels4 e = dw_channels4(rq, c, mode);
  const S8Channels4 o = dw_channels4(rq, c + 4, mode);
  /* The output zero point added as a scalar: one Q register fewer. */
  const int32x4_t lo = rq->los, hi = rq->his;
  const int32x4_t ev = vaddq_n_s32(s8_requantize4(even, &e, mode), rq->out_zp);
  const int32x4_t ov = vaddq_n_s32(s8_requantize4(odd, &o, mode), rq->out_zp);
  /* VMOVNB and VMOVNT fill the even and the odd lanes: every one. */
  int16x8_t v = vmovnbq_s32(vuninitializedq_s16(), vminq_s32(vmaxq_s32(ev, lo), hi));
  v = vmovntq_s32(v, vminq_s32(vmaxq_s32(ov, lo), hi));
  if (p == DW_ALL) {
    vstrbq_s16(out + c, v);
  } else {
    vstrbq_p_s16(out + c, v, p);
  }
}

/* One output pixel's channels: sixteen at a time, then eight, the last
 * few under a tail predicate. */
static inline __attribute__((always_inline)) void dw_pixel(const int8_t* const* at, int32_t taps,
                                                           const int8_t* w, int32_t ch,
                                                           const DwRequant* rq, S8Mode mode,
                                                           int8_t* out) {
  int32_t c = 0;
  /* The first tap's products start the sums. */
  for (; c + 16 <= ch; c += 16) {
    const int16x8_t x00 = vldrbq_s16(at[0] + c), w00 = vldrbq_s16(w + c);
    int32x4_t e0 = vmullbq_int_s16(x00, w00), o0 = vmulltq_int_s16(x00, w00);
    const int16x8_t x01 = vldrbq_s16(at[0] + c + 8), w01 = vldrbq_s16(w + c + 8);
    int32x4_t e1 = vmullbq_int_s16(x01, w01), o1 = vmulltq_int_s16(x01, w01);
    const int8_t* wc = w + c + ch;
    for (int32_t t = 1; t < taps; ++t, wc += ch) {
      const int8_t* xc = at[t] + c;
      /* One half's loads after the other's products: eight Q registers. */
      const int16x8_t x0 = vldrbq_s16(xc), w0 = vldrbq_s16(wc);
      e0 = vaddq_s32(e0, vmullbq_int_s16(x0, w0));
      o0 = vaddq_s32(o0, vmulltq_int_s16(x0, w0));
      const int16x8_t x1 = vldrbq_s16(xc + 8), w1 = vldrbq_s16(wc + 8);
      e1 = vaddq_s32(e1, vmullbq_int_s16(x1, w1));
      o1 = vaddq_s32(o1, vmulltq_int_s16(x1, w1));
    }
    dw_store8(e0, o0, c, rq, mode, DW_ALL, out);
    dw_store8(e1, o1, c + 8, rq, mode, DW_ALL, out);
  }
  for (; c + 8 <= ch; c += 8) {
    const int16x8_t x0 = vldrbq_s16(at[0] + c), w0 = vldrbq_s16(w + c);
    int32x4_t e = vmullbq_int_s16(x0, w0), o = vmulltq_int_s16(x0, w0);
    const int8_t* wc = w + c + ch;
    for (int32_t t = 1; t < taps; ++t, wc += ch) {
      const int16x8_t xv = vldrbq_s16(at[t] + c), wv = vldrbq_s16(wc);
      e = vaddq_s32(e, vmullbq_int_s16(xv, wv));
      o = vaddq_s32(o, vmulltq_int_s16(xv, wv));
    }
    dw_store8(e, o, c, rq, mode, DW_ALL, out);
  }
  if (c < ch) {
    const mve_pred16_t p = vctp16q((uint32_t)(ch - c));
    int32x4_t e = vdupq_n_s32(0), o = e;
    const int8_t* wc = w + c;
    for (int32_t t = 0; t < taps; ++t, wc += ch) {
      const int16x8_t xv = vldrbq_z_s16(at[t] + c, p), wv = vldrbq_z_s16(wc, p);
      e = vaddq_s32(e, vmullbq_int_s16(xv, wv));
      o = vaddq_s32(o, vmulltq_int_s16(xv, wv));
    }
    dw_store8(e, o, c, rq, mode, p, out);
  }
}

#elif defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* Four channels' sums two taps a step: SMLAD adds a channel's products of
 * both taps where its two inputs share a word (SXTB16, then PKHBT / PKHTB
 * pair the taps' halves) and so do its two weights. dw_weights lays the
 * weights out so once a call: per block of four channels, per pair of taps,
 * a word a channel in the order the inputs pair (0, 2, 1, 3). An odd last
 * tap pairs with the zero point's row (at[taps]) and weights of 0. */
typedef struct {
  const int32_t* packed;
} DwWeights;

/* Words the packed weights take. */
static inline int32_t dw_packed_words(int32_t ch, int32_t taps) {
  return (ch & ~3) * ((taps + 1) / 2);
}

static inline DwWeights dw_weights(const int8_t* w, int32_t ch, int32_t taps, int32_t* packed) {
  const DwWeights dw = {packed};
  for (int32_t c = 0; c + 4 <= ch; c += 4) {
    for (int32_t t = 0; t < taps; t += 2) {
      for (int32_t k = 0; k < 4; ++k) {
        const int32_t at = c + ((k & 1) << 1) + (k >> 1); /* channels 0, 2, 1, 3 */
        const int32_t first = w[t * ch + at], second = t + 1 < taps ? w[(t + 1) * ch + at] : 0;
        *packed++ = (int32_t)(((uint32_t)second << 16) | ((uint32_t)first & 0xFFFFu));
      }
    }
  }
  return dw;
}

/* (a.lo, b.lo) and (a.hi, b.hi) as one word's int16 halves. */
static inline int32_t dw_pair_low(int32_t a, int32_t b) {
  int32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

static inline int32_t dw_pair_high(int32_t a, int32_t b) {
  int32_t r;
  __asm__("pkhtb %0, %2, %1, asr #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

/* Two words from p on into a and b (LDRD: p word aligned), p past them. */
#define DW_LOAD_PAIR(p, a, b) \
  __asm__("ldrd %0, %1, [%2], #8" : "=&r"(a), "=&r"(b), "+r"(p) : "m"(*(const int64_t*)(p)))

/* A pair of taps' products into the four sums. */
#define DW_STEP()                                   \
  do {                                              \
    const int8_t *ta, *tb;                          \
    int32_t w0, w1;                                 \
    DW_LOAD_PAIR(tap, ta, tb);                      \
    const int32_t xa = s8_load32(ta + c);           \
    const int32_t xb = s8_load32(tb + c);           \
    int32_t a = s8_lanes02(xa), b = s8_lanes02(xb); \
    DW_LOAD_PAIR(wp, w0, w1);                       \
    a0 = s8_smlad(dw_pair_low(a, b), w0, a0);       \
    a2 = s8_smlad(dw_pair_high(a, b), w1, a2);      \
    a = s8_lanes13(xa);                             \
    b = s8_lanes13(xb);                             \
    DW_LOAD_PAIR(wp, w0, w1);                       \
    a1 = s8_smlad(dw_pair_low(a, b), w0, a1);       \
    a3 = s8_smlad(dw_pair_high(a, b), w1, a3);      \
  } while (0)

/* taps: a constant 9 (a 3x3 kernel) has its five pairs unrolled, no loop
 * test or branch between them. */
static inline __attribute__((always_inline)) void dw_sums4(const int8_t* const* tap, int32_t taps,
                                                           int32_t c, const DwWeights* dw,
                                                           int32_t sums[4]) {
  const int32_t pairs = (taps + 1) >> 1;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int32_t* wp = dw->packed + c * pairs;
  if (taps == 9) {
    DW_STEP();
    DW_STEP();
    DW_STEP();
    DW_STEP();
    DW_STEP();
  } else {
    for (const int32_t* end = wp + 4 * pairs; wp != end;) DW_STEP();
  }
  sums[0] = a0;
  sums[1] = a1;
  sums[2] = a2;
  sums[3] = a3;
}

/* acc + one int16 half of a times one of b: SMLABB, SMLABT, SMLATB,
 * SMLATT (a_top, b_top: the top halves). */
static inline __attribute__((always_inline)) int32_t dw_smla(int32_t a, int32_t b, int32_t acc,
                                                             int a_top, int b_top) {
  int32_t r;
  if (a_top && b_top) {
    __asm__("smlatt %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  } else if (a_top) {
    __asm__("smlatb %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  } else if (b_top) {
    __asm__("smlabt %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  } else {
    __asm__("smlabb %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  }
  return r;
}

/* a.lo * b.lo + a.hi * b.hi (int16 halves). */
static inline int32_t dw_smuad(int32_t a, int32_t b) {
  int32_t r;
  __asm__("smuad %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
}

/* A 3x3 kernel, dilation 1, stride 1 or 2 (dw3): one channel at a time,
 * its input gathered into a plane that holds the padding as the zero
 * point (whose share the bias cancels), so that no sum tests a border.
 * Along a row, two outputs a step, a word of four inputs per kernel row
 * and output: SXTB16 splits x0..x3 into (x0, x2) and (x1, x3), which meet
 * the channel's (w0, w2) in an SMLAD each (stride 2: the second output's
 * word from x2 on); the middle weights, two rows' to a word, take one
 * SMLA<x><y> an output. An odd row's last output alone. The plane ends in
 * a few bytes of slack that the last row's words may read past its end
 * (into products that no kept sum takes). */
#define DW3_PLANE_MAX 4096 /* bytes: VWW's largest plane is 50 x 50 */
#define DW3_SUMS 256       /* outputs' sums a channel keeps before requantizing */
/* Fewer outputs a channel than this, and a channel's own work (gather,
 * weights, table) costs more than the pixels' loops of the general path;
 * twice as many for each stride of 2 (twice the inputs to gather). */
#define DW3_LEAST 16

typedef struct {
  int32_t w02[3]; /* each kernel row's (w0, w2) */
  int32_t w1;     /* rows 0 and 1's middle weights */
  int32_t w1_2;   /* row 2's */
} Dw3Weights;

/* One kernel row's share of one output from x0 at p (first: the row that
 * starts the sum). top: the middle weight is w1's top half. */
static inline __attribute__((always_inline)) int32_t dw3_one(const int8_t* p, int32_t w02,
                                                             int32_t w1, int top, int first,
                                                             int32_t s) {
  const int32_t x = s8_load32(p), even = s8_lanes02(x);
  s = first ? dw_smuad(even, w02) : s8_smlad(even, w02, s);
  return dw_smla(s8_lanes13(x), w1, s, 0, top);
}

/* Outputs (j, j + 1)'s, stride 1: x1 meets w1 in the first, x2 in the
 * second, (x1, x3) the second's (w0, w2). */
static inline __attribute__((always_inline)) void dw3_pair_s1(const int8_t* p, int32_t w02,
                                                              int32_t w1, int top, int first,
                                                              int32_t* s0, int32_t* s1) {
  const int32_t x = s8_load32(p), even = s8_lanes02(x), odd = s8_lanes13(x);
  const int32_t a = first ? dw_smuad(even, w02) : s8_smlad(even, w02, *s0);
  const int32_t b = first ? dw_smuad(odd, w02) : s8_smlad(odd, w02, *s1);
  *s0 = dw_smla(odd, w1, a, 0, top);
  *s1 = dw_smla(even, w1, b, 1, top);
}

/* Stride 2: the second output's (x2, x4) from the word at x2, its x3 the
 * first word's. */
static inline __attribute__((always_inline)) void dw3_pair_s2(const int8_t* p, int32_t w02,
                                                              int32_t w1, int top, int first,
                                                              int32_t* s0, int32_t* s1) {
  const int32_t x = s8_load32(p), y = s8_load32(p + 2);
  const int32_t even = s8_lanes02(x), odd = s8_lanes13(x), next = s8_lanes02(y);
  const int32_t a = first ? dw_smuad(even, w02) : s8_smlad(even, w02, *s0);
  const int32_t b = first ? dw_smuad(next, w02) : s8_smlad(next, w02, *s1);
  *s0 = dw_smla(odd, w1, a, 0, top);
  *s1 = dw_smla(odd, w1, b, 1, top);
}

/* Two sums at p as two STRs (the compiler's STRD takes a cycle more on
 * the M4). */
static inline void dw3_store2(int32_t* p, int32_t a, int32_t b) {
  typedef struct {
    int32_t v[2];
  } Two;
  __asm__("str %1, [%3]\n\tstr %2, [%3, #4]" : "=m"(*(Two*)p) : "r"(a), "r"(b), "r"(p));
}

/* rows output rows' sums from the plane's row p on (sw bytes a row, step
 * from one output row's to the next's), out_w a row. */
static inline __attribute__((always_inline)) void dw3_rows(const int8_t* p, int32_t sw,
                                                           int32_t step, int32_t out_w,
                                                           int32_t rows, int32_t stride,
                                                           const Dw3Weights* k, int32_t* sums) {
  const int32_t a02 = k->w02[0], b02 = k->w02[1], c02 = k->w02[2], w1 = k->w1, w1_2 = k->w1_2;
  const int32_t pairs = (out_w & ~1) * stride;
  for (; rows != 0; --rows, p += step) {
    const int8_t* x = p;
    for (const int8_t* end = p + pairs; x != end; x += 2 * stride, sums += 2) {
      int32_t s0 = 0, s1 = 0;
      if (stride == 1) {
        dw3_pair_s1(x, a02, w1, 0, 1, &s0, &s1);
        dw3_pair_s1(x + sw, b02, w1, 1, 0, &s0, &s1);
        dw3_pair_s1(x + 2 * sw, c02, w1_2, 0, 0, &s0, &s1);
      } else {
        dw3_pair_s2(x, a02, w1, 0, 1, &s0, &s1);
        dw3_pair_s2(x + sw, b02, w1, 1, 0, &s0, &s1);
        dw3_pair_s2(x + 2 * sw, c02, w1_2, 0, 0, &s0, &s1);
      }
      dw3_store2(sums, s0, s1);
    }
    if (out_w & 1) {
      int32_t s = dw3_one(x, a02, w1, 0, 1, 0);
      s = dw3_one(x + sw, b02, w1, 1, 0, s);
      *sums++ = dw3_one(x + 2 * sw, c02, w1_2, 0, 0, s);
    }
  }
}

/* runs of n sums requantized (form, full: as s8_out's), a run's
 * outputs ch bytes apart, the runs' first ones `next` apart: four a
 * step, one after the other (registers for one). */
static inline __attribute__((always_inline)) void dw3_requantize(
    const int32_t* sums, int32_t runs, int32_t n, const S8Channel* c, int32_t ch, int32_t next,
    int32_t lo, int32_t hi, S8Form form, int full, int8_t* out) {
  for (; runs != 0; --runs, out += next) {
    int8_t* o = out;
    for (const int32_t* end = sums + (n & ~3); sums != end; sums += 4) {
      *o = s8_out(sums[0], c, form, lo, hi, full);
      o += ch;
      *o = s8_out(sums[1], c, form, lo, hi, full);
      o += ch;
      *o = s8_out(sums[2], c, form, lo, hi, full);
      o += ch;
      *o = s8_out(sums[3], c, form, lo, hi, full);
      o += ch;
    }
    for (int32_t i = n & 3; i != 0; --i, o += ch) {
      *o = s8_out(*sums++, c, form, lo, hi, full);
    }
  }
}

/* What every channel of a call shares, in the plane's terms: its rows
 * (`lines`) are the output's rows, or its columns where those are the
 * longer (KWS's 25 x 5: fewer rows' ends, and pairs that fit), the kernel
 * then read transposed. */
typedef struct {
  int8_t* plane; /* at the input's first byte */
  int32_t* sums;
  int32_t in_lines, in_len;        /* the input's lines and bytes a line in the plane */
  int32_t src_line, src_step;      /* bytes from an input line to the next, along one */
  int32_t pw, lines, len;          /* plane bytes a line; output lines, outputs a line */
  int32_t line_stride, len_stride; /* the kernel's strides across and along lines */
  int32_t plane_offset;            /* of the input's first byte in the plane */
  int32_t chunk;                   /* output lines a chunk of sums */
  int32_t tap_line, tap_step;      /* weights from a kernel line to the next, along one */
  int32_t out_line, out_step;      /* outputs from a line to the next, along one */
  int32_t ch, out_zp, lo, hi;
} Dw3Call;

/* Four bytes step apart from s as one word (the first the low byte): each
 * loaded before any is used (the M4 pipelines them), then three ORRs. */
static inline __attribute__((always_inline)) int32_t dw3_gather4(const int8_t* s, int32_t step) {
  uint32_t x0 = (uint8_t)s[0], x1 = (uint8_t)s[step], x2 = (uint8_t)s[2 * step];
  uint32_t x3 = (uint8_t)s[3 * step];
  __asm__("" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3));
  return (int32_t)((((x3 << 8 | x2) << 8 | x1) << 8) | x0);
}

/* One channel: src, wc, qc and out at its first input, weight, table row
 * and output. Not inlined: dw3's frame, with its variable-length buffers,
 * would take registers from the loops. */
static __attribute__((noinline)) void dw3_channel(const Dw3Call* call, const int8_t* src,
                                                  const int8_t* wc, const int32_t* qc,
                                                  int8_t* out) {
  const int32_t pw = call->pw, len = call->len, in_len = call->in_len;
  const int32_t src_line = call->src_line, step = call->src_step;
  /* The gather: four bytes a store, two stores an iteration. */
  int8_t* dst = call->plane;
  for (int32_t r = call->in_lines; r > 0; --r, src += src_line, dst += pw) {
    const int8_t* s = src;
    int32_t i = 0;
    for (; i + 8 <= in_len; i += 8, s += 8 * step) {
      s8_store32(dst + i, dw3_gather4(s, step));
      s8_store32(dst + i + 4, dw3_gather4(s + 4 * step, step));
    }
    if (i + 4 <= in_len) {
      s8_store32(dst + i, dw3_gather4(s, step));
      i += 4;
      s += 4 * step;
    }
    for (; i < in_len; ++i, s += step) dst[i] = *s;
  }
  const int32_t tl = call->tap_line, ts = call->tap_step;
  const Dw3Weights k = {{dw_pair_low(wc[0], wc[2 * ts]), dw_pair_low(wc[tl], wc[tl + 2 * ts]),
                         dw_pair_low(wc[2 * tl], wc[2 * tl + 2 * ts])},
                        dw_pair_low(wc[ts], wc[tl + ts]),
                        wc[2 * tl + ts]};
  const S8Channel chan = s8_channel_folded(qc, call->out_zp, s8_sum_bound(9));
  const S8Form form = s8_channel_form(&chan);
  const int32_t lo = call->lo, hi = call->hi, lines = call->lines;
  const int32_t chunk = call->chunk, plane_step = call->line_stride * pw;
  const int32_t len_stride = call->len_stride, out_line = call->out_line, out_step = call->out_step;
  /* Where a chunk's lines lie one after another in the output (its rows),
   * one run of outputs; else a run a line. */
  const int runs_whole = out_line == len * out_step;
  int32_t* sums = call->sums;
  const int8_t* p = call->plane - call->plane_offset;
  for (int32_t l = 0; l < lines; l += chunk, p += chunk * plane_step) {
    const int32_t rows = lines - l < chunk ? lines - l : chunk;
    if (len_stride == 1) {
      dw3_rows(p, pw, plane_step, len, rows, 1, &k, sums);
    } else {
      dw3_rows(p, pw, plane_step, len, rows, 2, &k, sums);
    }
    const int32_t runs = runs_whole ? 1 : rows, n = runs_whole ? rows * len : len;
    if (form == S8_FOLDED && lo == -128 && hi == 127) {
      dw3_requantize(sums, runs, n, &chan, out_step, out_line, lo, hi, S8_FOLDED, 1, out);
    } else if (form == S8_FOLDED) {
      dw3_requantize(sums, runs, n, &chan, out_step, out_line, lo, hi, S8_FOLDED, 0, out);
    } else {
      dw3_requantize(sums, runs, n, &chan, out_step, out_line, lo, hi, S8_ANY, 0, out);
    }
    out += rows * out_line;
  }
}

/* One axis of a 3x3 window's geometry: the input's size, the output's, the
 * stride, the padding before. */
typedef struct {
  int32_t in, out, stride, pad;
} Dw3Axis;

/* Each output's class along an axis (cls): the set of its three taps that
 * lie inside the input, as a factor of 1 or 0 a tap (inside[class]; at
 * most eight classes). The number of classes. */
static int32_t dw3_classes(const Dw3Axis* a, uint8_t* cls, int32_t (*inside)[3]) {
  int32_t n = 0;
  for (int32_t o = 0; o < a->out; ++o) {
    int32_t f[3];
    for (int32_t k = 0; k < 3; ++k) {
      const int32_t i = o * a->stride - a->pad + k;
      f[k] = i >= 0 && i < a->in;
    }
    int32_t c = 0;
    while (c < n && (inside[c][0] != f[0] || inside[c][1] != f[1] || inside[c][2] != f[2])) ++c;
    if (c == n) memcpy(inside[n++], f, sizeof f);
    cls[o] = (uint8_t)c;
  }
  return n;
}

/* A marked channel's outputs for each pair of row and column classes,
 * from its value v (sum = inside * (v - in_zp) + all * in_zp, inside the
 * weights of the taps inside: each kernel row's share for each column
 * class, then a row class's rows added), requantized in the channel's own
 * form: the form and int8's whole clamp (one SSAT) known to the loop where
 * the channel takes S8_FOLDED. */
static void dw3_work_out(const int8_t* w, const int32_t* qc, int32_t ch, int32_t nr, int32_t nc,
                         int32_t (*row_in)[3], int32_t (*col_in)[3], int32_t in_zp, int32_t out_zp,
                         int32_t lo, int32_t hi, int8_t* value) {
  const int32_t v = (int8_t)(qc[2] >> 16);
  const S8Channel chan = s8_channel_folded(qc, out_zp, s8_sum_bound(9));
  int32_t k[9], all = 0, share[8][3], acc[8 * 8];
  for (int32_t t = 0; t < 9; ++t) all += k[t] = w[t * ch];
  for (int32_t cc = 0; cc < nc; ++cc) {
    for (int32_t kh = 0; kh < 3; ++kh) {
      share[cc][kh] =
          col_in[cc][0] * k[3 * kh] + col_in[cc][1] * k[3 * kh + 1] + col_in[cc][2] * k[3 * kh + 2];
    }
  }
  const int32_t d = v - in_zp, base = all * in_zp, n = nr * nc;
  for (int32_t r = 0; r < nr; ++r) {
    for (int32_t cc = 0; cc < nc; ++cc) {
      const int32_t inside =
          row_in[r][0] * share[cc][0] + row_in[r][1] * share[cc][1] + row_in[r][2] * share[cc][2];
      acc[r * nc + cc] = inside * d + base;
    }
  }
  if (s8_channel_form(&chan) == S8_FOLDED && lo == -128 && hi == 127) {
    for (int32_t i = 0; i < n; ++i) value[i] = s8_out(acc[i], &chan, S8_FOLDED, lo, hi, 1);
  } else {
    for (int32_t i = 0; i < n; ++i) value[i] = s8_out(acc[i], &chan, S8_ANY, lo, hi, 0);
  }
}

/* The outputs of each marked channel (S8_TABLE_MARK: its every input the
 * int8 in bits 16 to 23; dw3 leaves it here), which depend only on the output's
 * row class and column class (dw3_classes: at the edges, taps in the
 * padding): one a pair of classes (nine at most where the padding is one),
 * given after the table where the row says so (S8_TABLE_VALUES: twelve
 * bytes a marked channel, in the channels' order, from the compile path's
 * depthwise_c_table), else worked out here (dw3_work_out); then each
 * output stored from its classes' value. */
static __attribute__((noinline)) void dw3_constants(const int8_t* w, const int32_t* q, int8_t* y,
                                                    int32_t batch, int32_t ch, const Dw3Axis* rows,
                                                    const Dw3Axis* cols, int32_t in_zp,
                                                    int32_t out_zp, int32_t lo, int32_t hi) {
  int32_t first = 0;
  while (first < ch && !s8_table_marked(q + 3 * first)) ++first;
  if (first == ch) return;
  const int32_t out_h = rows->out, out_w = cols->out;
  uint8_t row_class[out_h], col_class[out_w];
  int32_t row_in[8][3], col_in[8][3];
  const int32_t nr = dw3_classes(rows, row_class, row_in);
  const int32_t nc = dw3_classes(cols, col_class, col_in);
  /* Each output row's first value: its class's, nc a class. */
  uint8_t row_at[out_h];
  for (int32_t oh = 0; oh < out_h; ++oh) row_at[oh] = (uint8_t)(row_class[oh] * nc);
  const int8_t* given = (const int8_t*)(const void*)(q + 3 * ch);
  for (int32_t c = first; c < ch; ++c) {
    if (!s8_table_marked(q + 3 * c)) continue;
    int8_t worked_out[8 * 8];
    const int8_t* value = given;
    if (s8_table_values(q + 3 * c) && nr * nc <= 9) {
      given += 12;
    } else {
      dw3_work_out(w + c, q + 3 * c, ch, nr, nc, row_in, col_in, in_zp, out_zp, lo, hi, worked_out);
      value = worked_out;
    }
    /* Two outputs a step (their loads before their stores). */
    int8_t* o = y + c;
    for (int32_t b = 0; b < batch; ++b) {
      for (int32_t oh = 0; oh < out_h; ++oh) {
        const int8_t* at = value + row_at[oh];
        int32_t ow = 0;
        for (; ow + 2 <= out_w; ow += 2, o += 2 * ch) {
          const int8_t a0 = at[col_class[ow]], a1 = at[col_class[ow + 1]];
          o[0] = a0;
          o[ch] = a1;
        }
        if (ow < out_w) {
          *o = at[col_class[ow]];
          o += ch;
        }
      }
    }
  }
}

/* The whole call (every batch, every channel), the plane ph x pw. */
static __attribute__((noinline)) void dw3(const int8_t* x, const int8_t* w, const int32_t* q,
                                          int8_t* y, int32_t batch, int32_t in_h, int32_t in_w,
                                          int32_t ch, int32_t out_h, int32_t out_w,
                                          int32_t stride_h, int32_t stride_w, int32_t pad_h,
                                          int32_t pad_w, int32_t in_zp, int32_t out_zp, int32_t lo,
                                          int32_t hi) {
  /* Lines along the output's columns where those are the longer. */
  const int across = out_w < out_h;
  const int32_t lines = across ? out_w : out_h, len = across ? out_h : out_w;
  const int32_t line_stride = across ? stride_w : stride_h,
                len_stride = across ? stride_h : stride_w;
  const int32_t pad_line = across ? pad_w : pad_h, pad_len = across ? pad_h : pad_w;
  const int32_t in_lines = across ? in_w : in_h, in_len = across ? in_h : in_w;
  const int32_t ph = (lines - 1) * line_stride + 3, pw = (len - 1) * len_stride + 3;
  int8_t plane[ph * pw + 4] __attribute__((aligned(4)));
  const int32_t chunk = DW3_SUMS / len < lines ? DW3_SUMS / len : lines;
  int32_t sums[chunk * len];
  /* The padding and the slack keep the zero point; the input's lines
   * within the plane are written again for each channel. */
  memset(plane, in_zp, sizeof plane);
  const Dw3Call call = {plane + pad_line * pw + pad_len,
                        sums,
                        in_lines < ph - pad_line ? in_lines : ph - pad_line,
                        in_len < pw - pad_len ? in_len : pw - pad_len,
                        across ? ch : in_w * ch,
                        across ? in_w * ch : ch,
                        pw,
                        lines,
                        len,
                        line_stride,
                        len_stride,
                        pad_line * pw + pad_len,
                        chunk,
                        across ? ch : 3 * ch,
                        across ? 3 * ch : ch,
                        across ? ch : out_w * ch,
                        across ? out_w * ch : ch,
                        ch,
                        out_zp,
                        lo,
                        hi};
  for (int32_t b = 0; b < batch; ++b) {
    const int8_t* image = x + b * in_h * in_w * ch;
    int8_t* out_image = y + b * out_h * out_w * ch;
    for (int32_t c = 0; c < ch; ++c) {
      if (!s8_table_marked(q + 3 * c)) {
        dw3_channel(&call, image + c, w + c, q + 3 * c, out_image + c);
      }
    }
  }
}

#else
/* Without the DSP extension: a byte load each and a multiply-accumulate,
 * the weights where they are. Sums wrap as the TE kernel's int32 sums do. */
typedef struct {
  const int8_t* w;
  int32_t ch;
} DwWeights;

static inline int32_t dw_packed_words(int32_t ch, int32_t taps) {
  (void)ch;
  (void)taps;
  return 1;
}

static inline DwWeights dw_weights(const int8_t* w, int32_t ch, int32_t taps, int32_t* packed) {
  (void)taps;
  (void)packed;
  const DwWeights dw = {w, ch};
  return dw;
}

static inline __attribute__((always_inline)) void dw_sums4(const int8_t* const* tap, int32_t taps,
                                                           int32_t c, const DwWeights* dw,
                                                           int32_t sums[4]) {
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  const int8_t* wc = dw->w + c;
  for (; taps != 0; --taps, ++tap, wc += dw->ch) {
    const int8_t* xc = *tap + c;
    a0 += (uint32_t)(xc[0] * wc[0]);
    a1 += (uint32_t)(xc[1] * wc[1]);
    a2 += (uint32_t)(xc[2] * wc[2]);
    a3 += (uint32_t)(xc[3] * wc[3]);
  }
  sums[0] = (int32_t)a0;
  sums[1] = (int32_t)a1;
  sums[2] = (int32_t)a2;
  sums[3] = (int32_t)a3;
}
#endif

#if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1))
/* What every pixel of a call shares. */
typedef struct {
  DwWeights dw;
  const int8_t* w;
  const S8Channel* chans;
  int32_t ch, taps, lo, hi;
  S8Form form;      /* s8_form of chans */
  int32_t lo4, hi4; /* lo and hi in each byte */
  /* Where most channels are marked (a pruned layer's: dw3_constants then
   * stores theirs), the others', n_live of them, their nine weights each
   * side by side, and chans theirs alone; else null. */
  const int16_t* live;
  int32_t n_live;
  const int8_t* live_w;
} DwLayer;

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* Four channels' outputs (the zero point in them) as one word
 * (S8_PACK_BYTE), clamped to [lo, hi] four bytes at once (s8_clamp4) unless
 * the clamp is int8's own range; one store. */
static inline __attribute__((always_inline)) void dw_store4(int8_t* out, int32_t v0, int32_t v1,
                                                            int32_t v2, int32_t v3,
                                                            const DwLayer* layer, int full) {
  int32_t w = 0;
  S8_PACK_BYTE(w, v0, 0);
  S8_PACK_BYTE(w, v1, 8);
  S8_PACK_BYTE(w, v2, 16);
  S8_PACK_BYTE(w, v3, 24);
  if (!full) w = s8_clamp4(w, layer->lo4, layer->hi4);
  s8_store32(out, w);
}
#endif

/* One output pixel's channels, four at a time, the rest one by one (taps:
 * layer->taps, or the constant 9 whose loops unroll). */
static inline __attribute__((always_inline)) void dw_pixel_in(const int8_t* const* at,
                                                              const DwLayer* layer, int8_t* out,
                                                              int32_t taps, S8Form form, int full) {
  const int32_t ch = layer->ch;
  const S8Channel* chans = layer->chans;
  int32_t c = 0;
  for (; c + 4 <= ch; c += 4) {
    int32_t sums[4];
    dw_sums4(at, taps, c, &layer->dw, sums);
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
    dw_store4(out + c, s8_value(sums[0], &chans[c], form), s8_value(sums[1], &chans[c + 1], form),
              s8_value(sums[2], &chans[c + 2], form), s8_value(sums[3], &chans[c + 3], form), layer,
              full);
#else
    out[c] = s8_out(sums[0], &chans[c], form, layer->lo, layer->hi, full);
    out[c + 1] = s8_out(sums[1], &chans[c + 1], form, layer->lo, layer->hi, full);
    out[c + 2] = s8_out(sums[2], &chans[c + 2], form, layer->lo, layer->hi, full);
    out[c + 3] = s8_out(sums[3], &chans[c + 3], form, layer->lo, layer->hi, full);
#endif
  }
  for (; c < ch; ++c) {
    int32_t a = 0;
    for (int32_t t = 0; t < taps; ++t) {
      a = (int32_t)((uint32_t)a + (uint32_t)(at[t][c] * layer->w[t * ch + c]));
    }
    out[c] = s8_out(a, &chans[c], form, layer->lo, layer->hi, full);
  }
}

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* One output pixel's live channels (DwLayer.live) of a 3x3 kernel, each
 * alone: its nine products, requantized. */
static inline __attribute__((always_inline)) void dw_pixel_live(const int8_t* const* at,
                                                                const DwLayer* layer, int8_t* out,
                                                                S8Form form, int full) {
  const int8_t* w = layer->live_w;
  for (int32_t i = 0; i < layer->n_live; ++i, w += 9) {
    const int32_t c = layer->live[i];
    int32_t a = 0;
    /* Each product added as its two loads come (SMLABB): loaded all
     * first, they take the stack. */
#pragma GCC unroll 9
    for (int32_t t = 0; t < 9; ++t) a = dw_smla(at[t][c], w[t], a, 0, 0);
    out[c] = s8_out(a, &layer->chans[i], form, layer->lo, layer->hi, full);
  }
}
#endif

/* Each form's loops apart, so that no output tests it, and a 3x3
 * kernel's taps unrolled where the requantization is the one sum under
 * int8's own clamp (real models' layers). Not inlined: the
 * caller's frame, with its variable-length buffers, would take a register
 * from the sums' loop. */
static __attribute__((noinline)) void dw_pixel(const int8_t* const* at, const DwLayer* layer,
                                               int8_t* out) {
  const int32_t taps = layer->taps;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  if (layer->live != NULL) {
    if (layer->form == S8_FOLDED && layer->lo == -128 && layer->hi == 127) {
      dw_pixel_live(at, layer, out, S8_FOLDED, 1);
    } else {
      dw_pixel_live(at, layer, out, S8_ANY, 0);
    }
    return;
  }
#endif
  if (layer->form == S8_FOLDED && layer->lo == -128 && layer->hi == 127) {
    if (taps == 9) {
      dw_pixel_in(at, layer, out, 9, S8_FOLDED, 1);
    } else {
      dw_pixel_in(at, layer, out, taps, S8_FOLDED, 1);
    }
  } else if (layer->form == S8_FOLDED) {
    dw_pixel_in(at, layer, out, taps, S8_FOLDED, 0);
  } else {
    dw_pixel_in(at, layer, out, taps, S8_ANY, 0);
  }
}
#endif

void ffi_core_depthwise_conv_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                int32_t q_off, int32_t batch, int32_t in_h, int32_t in_w,
                                int32_t ch, int32_t out_h, int32_t out_w, int32_t k_h, int32_t k_w,
                                int32_t stride_h, int32_t stride_w, int32_t dil_h, int32_t dil_w,
                                int32_t pad_h, int32_t pad_w, int32_t in_zp, int32_t out_zp,
                                int32_t lo, int32_t hi) {
  const int8_t* w = blob + w_off;
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
#if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)) && defined(__ARM_FEATURE_DSP) && \
    __ARM_FEATURE_DSP
  /* A 3x3 window at dilation 1: dw3_constants can store its marked
   * channels' outputs (after dw3, or after the live channels alone). */
  const int window3 = k_h == 3 && k_w == 3 && dil_h == 1 && dil_w == 1 && pad_h >= 0 && pad_w >= 0;
  const Dw3Axis rows = {in_h, out_h, stride_h, pad_h}, cols = {in_w, out_w, stride_w, pad_w};
  /* The output's longer side (the plane's lines) tested first: then the
   * plane's size (every window's inputs, the padding's too) fits an int32. */
  if (window3 && stride_h >= 1 && stride_h <= 2 && stride_w >= 1 && stride_w <= 2 && out_h > 0 &&
      out_w > 0 && (out_w < out_h ? out_h : out_w) < DW3_SUMS &&
      out_h * out_w >= DW3_LEAST << (stride_h + stride_w - 2) &&
      ((out_h - 1) * stride_h + 3) * ((out_w - 1) * stride_w + 3) <= DW3_PLANE_MAX) {
    dw3(x, w, q, y, batch, in_h, in_w, ch, out_h, out_w, stride_h, stride_w, pad_h, pad_w, in_zp,
        out_zp, lo, hi);
    if (FFI_CORE_S8_MARKED) dw3_constants(w, q, y, batch, ch, &rows, &cols, in_zp, out_zp, lo, hi);
    return;
  }
#endif
  const int32_t taps = k_h * k_w;
  int8_t zeros[ch] __attribute__((aligned(4)));
  const int8_t* at[taps + 1];
  /* A pixel whose taps all lie inside the input finds them at fixed
   * offsets from its first. */
  const int32_t span_h = (k_h - 1) * dil_h, span_w = (k_w - 1) * dil_w;
  int32_t offsets[taps];
  for (int32_t kh = 0; kh < k_h; ++kh) {
    for (int32_t kw = 0; kw < k_w; ++kw)
      offsets[kh * k_w + kw] = (kh * dil_h * in_w + kw * dil_w) * ch;
  }
  /* Each channel's requantization, read once rather than once a pixel. */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  const int32_t blocks = (ch + 7) & ~7;
  int32_t bias[blocks], mantissa[blocks], neg_exponent[blocks];
  const DwRequant rq = {bias, mantissa,        neg_exponent,   q, out_zp, lo,
                        hi,   vdupq_n_s32(lo), vdupq_n_s32(hi)};
  const S8Mode mode = s8_mode(q, ch, 0);
  for (int32_t c = 0; c < blocks; ++c) {
    const int32_t* qc = q + 3 * (c < ch ? c : 0);
    bias[dw_lane(c)] = qc[0];
    mantissa[dw_lane(c)] = qc[1];
    neg_exponent[dw_lane(c)] = 31 - s8_table_shift(qc);
  }
  for (int32_t c = 0; c < ch; ++c) zeros[c] = (int8_t)in_zp;
#else
  int16_t live[ch];
  int32_t n_live = 0;
  for (int32_t c = 0; c < ch; ++c) {
    zeros[c] = (int8_t)in_zp;
    if (!s8_table_marked(q + 3 * c)) live[n_live++] = (int16_t)c;
  }
  /* A 3x3 kernel with at most a quarter of its channels live sums those
   * alone, a channel at a time (four at a time, half its blocks would
   * hold only marked ones), their requantizations and weights gathered;
   * dw3_constants stores the marked ones'. */
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  const int sparse = FFI_CORE_S8_MARKED && window3 && 4 * n_live <= ch;
#else
  const int sparse = 0;
#endif
  const int32_t n_chans = sparse ? n_live : ch;
  S8Channel chans[n_chans];
  for (int32_t i = 0; i < n_chans; ++i) {
    chans[i] = s8_channel_folded(q + 3 * (sparse ? live[i] : i), out_zp, s8_sum_bound(taps));
  }
  int32_t packed[sparse ? 1 : dw_packed_words(ch, taps)];
  int8_t live_w[sparse ? 9 * n_live : 1];
  for (int32_t i = 0; sparse && i < n_live; ++i) {
    for (int32_t t = 0; t < 9; ++t) live_w[9 * i + t] = w[t * ch + live[i]];
  }
  DwLayer layer = {{0},
                   w,
                   chans,
                   ch,
                   taps,
                   lo,
                   hi,
                   s8_form(chans, n_chans),
                   s8_bytes4(lo),
                   s8_bytes4(hi),
                   sparse ? live : NULL,
                   n_live,
                   live_w};
  if (!sparse) layer.dw = dw_weights(w, ch, taps, packed);
  at[taps] = zeros;
#endif
  for (int32_t b = 0; b < batch; ++b) {
    const int8_t* image = x + b * in_h * in_w * ch;
    for (int32_t oh = 0; oh < out_h; ++oh) {
      for (int32_t ow = 0; ow < out_w; ++ow) {
        int32_t t = 0;
        const int32_t ih0 = oh * stride_h - pad_h, iw0 = ow * stride_w - pad_w;
        if (ih0 >= 0 && ih0 + span_h < in_h && iw0 >= 0 && iw0 + span_w < in_w) {
          const int8_t* base = image + (ih0 * in_w + iw0) * ch;
          for (; t < taps; ++t) at[t] = base + offsets[t];
        }
        for (int32_t kh = 0; t < taps && kh < k_h; ++kh) {
          const int32_t ih = ih0 + kh * dil_h;
          for (int32_t kw = 0; kw < k_w; ++kw) {
            const int32_t iw = iw0 + kw * dil_w;
            const int inside = ih >= 0 && ih < in_h && iw >= 0 && iw < in_w;
            at[t++] = inside ? image + (ih * in_w + iw) * ch : zeros;
          }
        }
        int8_t* out = y + ((b * out_h + oh) * out_w + ow) * ch;
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
        /* Each form's loops inlined here: no call a pixel. */
        if (mode == S8_TWICE && S8_FORM_BUILT(S8_TWICE)) {
          dw_pixel(at, taps, w, ch, &rq, S8_TWICE, out);
        } else if (mode == S8_TWICE_FIXED && S8_FORM_BUILT(S8_TWICE_FIXED)) {
          dw_pixel(at, taps, w, ch, &rq, S8_TWICE_FIXED, out);
        } else {
          dw_pixel(at, taps, w, ch, &rq, S8_SCALAR, out);
        }
#else
        dw_pixel(at, &layer, out);
#endif
      }
    }
  }
#if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)) && defined(__ARM_FEATURE_DSP) && \
    __ARM_FEATURE_DSP
  if (sparse) dw3_constants(w, q, y, batch, ch, &rows, &cols, in_zp, out_zp, lo, hi);
#endif
}

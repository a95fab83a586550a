/* The int8 micro-kernels' primitives: pairs of int16 lanes and dual
 * multiply-accumulates, with the Arm DSP extension's instructions (SXTB16,
 * SMLAD) where the compiler targets it and plain C elsewhere (Cortex-M3,
 * RISC-V, the host test), and TFLite's single-rounding requantization,
 * computed as the TE kernels compute it (ffi_core_tvm/fixed_point.py). */
#ifndef FFI_CORE_KERNELS_S8_PRIMITIVES_H_
#define FFI_CORE_KERNELS_S8_PRIMITIVES_H_

#include <stdint.h>
#include <string.h>

/* Four bytes as one word (a single load where unaligned loads are allowed). */
static inline int32_t s8_load32(const void* p) {
  int32_t v;
  memcpy(&v, p, 4);
  return v;
}

static inline void s8_store32(void* p, int32_t v) { memcpy(p, &v, 4); }

#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* Lanes 0 and 2 of a word's bytes, sign-extended to two int16 halves. */
static inline int32_t s8_lanes02(int32_t v) {
  int32_t r;
  __asm__("sxtb16 %0, %1" : "=r"(r) : "r"(v));
  return r;
}

/* Lanes 1 and 3, the rotation being SXTB16's own operand. */
static inline int32_t s8_lanes13(int32_t v) {
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
}

/* Two words at p (word aligned), in one STRD. */
static inline void s8_store_pair(int16_t* p, int32_t lo, int32_t hi) {
  typedef struct {
    int16_t v[4];
  } Pair;
  __asm__("strd %1, %2, [%3]" : "=m"(*(Pair*)p) : "r"(lo), "r"(hi), "r"(p));
}

/* acc + a.lo * b.lo + a.hi * b.hi (int16 halves). */
static inline int32_t s8_smlad(int32_t a, int32_t b, int32_t acc) {
  int32_t r;
  __asm__("smlad %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}
/* add + the high word of x * m (SMMLA: exact, no rounding). */
static inline int32_t s8_high_add(int32_t x, int32_t m, int32_t add) {
  int32_t r;
  __asm__("smmla %0, %1, %2, %3" : "=r"(r) : "r"(x), "r"(m), "r"(add));
  return r;
}
#else
static inline int32_t s8_high_add(int32_t x, int32_t m, int32_t add) {
  return (int32_t)(((int64_t)x * m) >> 32) + add;
}

static inline int32_t s8_pack16(int32_t lo, int32_t hi) {
  return (int32_t)(((uint32_t)hi << 16) | ((uint32_t)lo & 0xFFFFu));
}

static inline void s8_store_pair(int16_t* p, int32_t lo, int32_t hi) {
  s8_store32(p, lo);
  s8_store32(p + 2, hi);
}

static inline int32_t s8_lanes02(int32_t v) {
  return s8_pack16((int8_t)(v & 0xFF), (int8_t)((v >> 16) & 0xFF));
}

static inline int32_t s8_lanes13(int32_t v) {
  return s8_pack16((int8_t)((v >> 8) & 0xFF), (int8_t)((v >> 24) & 0xFF));
}

static inline int32_t s8_smlad(int32_t a, int32_t b, int32_t acc) {
  uint32_t sum = (uint32_t)acc + (uint32_t)((int16_t)a * (int16_t)b) +
                 (uint32_t)((int16_t)(a >> 16) * (int16_t)(b >> 16));
  return (int32_t)sum;
}
#endif

/* A channel's requantization {bias, mantissa, right shift}, with what the
 * high-word form needs beside: round((acc + bias) * mantissa / 2^shift),
 * ties up. From a shift of 33 on only the product's high word counts
 * (fixed_point.py's proof): (high + 2^(shift-33)) >> (shift-32). */
typedef struct {
  int32_t bias, mantissa, shift, round, down;
} S8Channel;

static inline S8Channel s8_channel(const int32_t* q) {
  S8Channel c = {q[0], q[1], q[2] & 0xFF, 0, 0};
  if (c.shift >= 33) {
    c.round = 1 << (c.shift - 33);
    c.down = c.shift - 32;
  }
  return c;
}

/* One output: acc requantized, plus the output zero point, clamped to
 * [lo, hi]; sums wrap as the TE kernel's int32 sums do. */
static inline int8_t s8_requantize(int32_t acc, const S8Channel* c, int32_t out_zp, int32_t lo,
                                   int32_t hi) {
  int32_t x = (int32_t)((uint32_t)acc + (uint32_t)c->bias);
  int32_t v;
  if (c->shift >= 33) {
    v = s8_high_add(x, c->mantissa, c->round) >> c->down;
  } else {
    int64_t product = (int64_t)x * c->mantissa;
    v = (int32_t)((product + ((int64_t)1 << (c->shift - 1))) >> c->shift);
  }
  v = (int32_t)((uint32_t)v + (uint32_t)out_zp);
  v = v > hi ? hi : v;
  v = v < lo ? lo : v;
  return (int8_t)v;
}

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* Helium (MVE): four channels' requantization in one vector each, where
 * every shift is 33 or more. Bias, mantissa and minus the high word's shift
 * (32 - shift); VMULH's high word is the product's, truncated as SMMLA's,
 * and VRSHL's rounding right shift adds the same 2^(shift-33) first. */
typedef struct {
  int32x4_t bias, mantissa, down;
} S8Channels4;

/* Channels q, q + 3, q + 6, q + 9 of a requantization table. */
static inline S8Channels4 s8_channels4(const int32_t* q) {
  const uint32x4_t rows = vmulq_n_u32(vidupq_n_u32(0, 1), 3);
  S8Channels4 c = {vldrwq_gather_shifted_offset_s32(q, rows),
                   vldrwq_gather_shifted_offset_s32(q + 1, rows),
                   vsubq_s32(vdupq_n_s32(32), vldrwq_gather_shifted_offset_s32(q + 2, rows))};
  return c;
}

/* Four outputs: acc requantized, plus the output zero point, clamped to
 * [lo, hi] (each a vector of one value, made once by the caller). */
static inline int32x4_t s8_requantize4(int32x4_t acc, const S8Channels4* c, int32x4_t out_zp,
                                       int32x4_t lo, int32x4_t hi) {
  int32x4_t v = vrshlq_s32(vmulhq_s32(vaddq_s32(acc, c->bias), c->mantissa), c->down);
  return vminq_s32(vmaxq_s32(vaddq_s32(v, out_zp), lo), hi);
}

/* Whether every one of a table's channels has a shift of 33 or more: four
 * channels' shifts a gather. */
static inline int s8_all_high(const int32_t* q, int32_t channels) {
  const uint32x4_t rows = vmulq_n_u32(vidupq_n_u32(0, 1), 3);
  int32x4_t shifts = vdupq_n_s32(33);
  int32_t c = 0;
  for (; c + 4 <= channels; c += 4) {
    shifts = vminq_s32(shifts, vldrwq_gather_shifted_offset_s32(q + 3 * c + 2, rows));
  }
  int32_t least = vminvq_s32(33, shifts);
  for (; c < channels; ++c) least = q[3 * c + 2] < least ? q[3 * c + 2] : least;
  return least >= 33;
}
#endif

#endif

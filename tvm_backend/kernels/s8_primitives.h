/* The int8 micro-kernels' primitives: pairs of int16 lanes and dual
 * multiply-accumulates, with the Arm DSP extension's instructions (SXTB16,
 * SMLAD) where the compiler targets it and plain C elsewhere (Cortex-M3,
 * RISC-V, the host test), and TFLite's reference requantization (two
 * roundings), computed as the TE kernels compute it (ffi_core_tvm/fixed_point.py). */
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

/* Two words at p (word aligned): one STRD where every store takes a cycle
 * (FFI_CORE_KERNELS_ONE_CYCLE_LOADS, s8_gemm.h), else two STRs, a cycle
 * each with an immediate offset where an STRD takes three (the M4's and
 * M33's timings). */
static inline void s8_store_pair(int16_t* p, int32_t lo, int32_t hi) {
#if defined(FFI_CORE_KERNELS_ONE_CYCLE_LOADS)
  typedef struct {
    int16_t v[4];
  } Pair;
  __asm__("strd %1, %2, [%3]" : "=m"(*(Pair*)p) : "r"(lo), "r"(hi), "r"(p));
#else
  s8_store32(p, lo);
  s8_store32(p + 2, hi);
#endif
}

/* acc + a.lo * b.lo + a.hi * b.hi (int16 halves). */
static inline int32_t s8_smlad(int32_t a, int32_t b, int32_t acc) {
  int32_t r;
  __asm__("smlad %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}

/* Four outputs of consecutive channels packed into one word, to be clamped
 * four bytes at once and stored once: each output (the zero point in it)
 * saturated to int8 (SSAT), then its byte inserted at bit `at` (BFI; `at` a
 * constant). */
#define S8_PACK_BYTE(word, v, at)                                    \
  do {                                                               \
    int32_t s8_sat_;                                                 \
    __asm__("ssat %0, #8, %1" : "=r"(s8_sat_) : "r"((int32_t)(v)));  \
    __asm__("bfi %0, %1, #" #at ", #8" : "+r"(word) : "r"(s8_sat_)); \
  } while (0)

/* Each byte of w clamped to [lo, hi] (lo4, hi4: lo and hi in each byte):
 * SSUB8 sets each byte's GE flag, SEL picks by it. */
static inline int32_t s8_clamp4(int32_t w, int32_t lo4, int32_t hi4) {
  int32_t t;
  __asm__("ssub8 %1, %0, %2\n\tsel %0, %0, %2" : "+r"(w), "=&r"(t) : "r"(lo4) : "cc");
  __asm__("ssub8 %1, %2, %0\n\tsel %0, %0, %2" : "+r"(w), "=&r"(t) : "r"(hi4) : "cc");
  return w;
}
#else
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

/* The byte v in each of a word's four bytes (s8_clamp4's bounds, a fill). */
static inline int32_t s8_bytes4(int32_t v) {
  return (int32_t)(((uint32_t)v & 0xFFu) * 0x01010101u);
}

/* A channel's requantization {bias, mantissa, right shift} and the output
 * zero point, as TFLite's reference kernels, TFLite Micro's and CMSIS-NN's
 * compute it and the TE kernels do (fixed_point.py,
 * multiply_double_rounding_per_channel): x shifted left where the
 * multiplier is above one, the doubling high half of x * mantissa rounded
 * ((x * m + 2^30) >> 31), then divided by 2^exponent rounding half away from
 * zero, plus the zero point. The first four fields are S8_FOLDED's
 * (s8_scale_folded), in the order one LDM reads them. */
typedef struct {
  int32_t bias2; /* 2 * bias */
  int32_t mantissa;
  int32_t high2; /* 2^(exponent-1) + zp * 2^exponent (never 0), or 0: not S8_FOLDED */
  int32_t down1; /* the exponent */
  int32_t bias, shift, left, down, half, zp; /* down: the exponent less 1 */
} S8Channel;

/* A table row's mark, bit 8 of the shift's word (whose low byte alone is
 * the shift), set by the compile path (int8_kernels.TABLE_MARK): in a
 * convolution's table a pruned channel's row, its output channel from bit
 * 16 on; in a depthwise one a channel whose every input is the int8 in bits
 * 16 to 23. */
#define S8_TABLE_MARK 0x100
/* A marked depthwise row's second flag, bit 9 (int8_kernels.TABLE_VALUES):
 * the channel's outputs for each pair of row and column classes are given,
 * after the table. */
#define S8_TABLE_VALUES 0x200
/* The shift's bits in that word. */
#define S8_TABLE_SHIFT 0xFF
/* Whether a table may mark rows: the compile path builds the kernels of a
 * model whose tables mark none with 0 (compile.py), and the code for marked
 * channels goes. */
#ifndef FFI_CORE_S8_MARKED
#define FFI_CORE_S8_MARKED 1
#endif

/* A table row's (bias, mantissa, shift word) shift, and whether it is marked. */
static inline int32_t s8_table_shift(const int32_t* row) { return row[2] & S8_TABLE_SHIFT; }
static inline int s8_table_marked(const int32_t* row) {
  return FFI_CORE_S8_MARKED && (row[2] & S8_TABLE_MARK) != 0;
}
static inline int s8_table_values(const int32_t* row) { return (row[2] & S8_TABLE_VALUES) != 0; }

/* How a call's channels requantize, each form a narrowing of the one
 * before, known to a loop so that no output tests it: any exponent;
 * every exponent 1 or more (S8_DOWN: s8_scale_down); every exponent 2 to
 * 23, the zero point an int8's and each sum plus bias under 2^29 in
 * magnitude (S8_FOLDED: s8_scale_folded), as real models' tables are. */
typedef enum { S8_ANY, S8_DOWN, S8_FOLDED } S8Form;

static inline S8Channel s8_channel(const int32_t* q, int32_t out_zp) {
  const int32_t shift = s8_table_shift(q);
  S8Channel c = {0, q[1], 0, 0, q[0], shift, 0, 0, 0, out_zp};
  if (shift < 31) c.left = 31 - shift;
  if (shift > 31) {
    const int32_t exponent = shift - 31 < 31 ? shift - 31 : 31;
    c.down = exponent - 1;
    c.half = 1 << c.down;
  }
  return c;
}

/* The most a sum of `products` int8 products can be in magnitude, 128 * 128
 * each (128 * 127: the int8 weights are symmetric, but a bound is all
 * s8_channel_folded needs). */
static inline int64_t s8_sum_bound(int32_t products) { return (int64_t)products << 14; }

/* s8_channel with S8_FOLDED's fields where the channel allows that form,
 * every sum it requantizes at most `bound` in magnitude (a table's, derived
 * once a call: a per-output caller needs only s8_channel). */
static inline S8Channel s8_channel_folded(const int32_t* q, int32_t out_zp, int64_t bound) {
  S8Channel c = s8_channel(q, out_zp);
  const int64_t x = (bound < 0 ? -bound : bound) + (c.bias < 0 ? -(int64_t)c.bias : c.bias);
  if (c.half != 0 && c.down >= 1 && c.down <= 22 && out_zp >= -128 && out_zp <= 127 &&
      x < ((int64_t)1 << 29)) {
    c.bias2 = 2 * c.bias;
    c.high2 = (1 << c.down) + out_zp * (1 << (c.down + 1));
    c.down1 = c.down + 1;
  }
  return c;
}

static inline S8Form s8_channel_form(const S8Channel* c) {
  return c->high2 != 0 ? S8_FOLDED : c->half != 0 ? S8_DOWN : S8_ANY;
}

/* The form every channel of a table takes. */
static inline S8Form s8_form(const S8Channel* chans, int32_t channels) {
  S8Form form = S8_FOLDED;
  for (int32_t c = 0; c < channels; ++c) {
    const S8Form f = s8_channel_form(&chans[c]);
    form = f < form ? f : form;
  }
  return form;
}

/* v clamped to [lo, hi]; `full`: that is int8's own range, one SSAT where
 * the core has it (Armv7-M and later), which GCC does not find in the
 * clamp. */
static inline __attribute__((always_inline)) int8_t s8_clamp(int32_t v, int32_t lo, int32_t hi,
                                                             int full) {
#if defined(__ARM_FEATURE_SAT) && __ARM_FEATURE_SAT
  if (full) {
    __asm__("ssat %0, #8, %1" : "=r"(v) : "r"(v));
    return (int8_t)v;
  }
#endif
  if (full) {
    lo = -128;
    hi = 127;
  }
  v = v > hi ? hi : v;
  v = v < lo ? lo : v;
  return (int8_t)v;
}

/* acc requantized where the channel's exponent is 1 or more, before the
 * output zero point; sums and shifts wrap as the TE kernel's int32
 * arithmetic does. With an exponent e of 1 or more, the two roundings are
 * one sum: h = (x * m + 2^30) >> 31, then (h + 2^(e-1) - (h < 0)) >> e, is
 * (x * m + 2^30 + t * 2^31) >> (31 + e) with t = 2^(e-1) - (x < 0) (floors
 * compose; h < 0 where x < 0 but where h is 0, and then either t gives 0):
 * one multiply-accumulate into a rounding term and its high word shifted. */
static inline __attribute__((always_inline)) int32_t s8_scale_down(int32_t acc,
                                                                   const S8Channel* c) {
  const int32_t x = (int32_t)((uint32_t)acc + (uint32_t)c->bias);
  const uint32_t t = (uint32_t)(c->half + (x >> 31));
  const int64_t round = (int64_t)(((uint64_t)(t >> 1) << 32) | (t << 31) | (1u << 30));
  const int32_t high = (int32_t)(((int64_t)x * c->mantissa + round) >> 32);
  return high >> c->down;
}

/* s8_scale_down plus the zero point z, in S8_FOLDED: one multiply-accumulate
 * of the high word, rounded (SMMLAR), and a shift. s8_scale_down's
 * floor((x * m + 2^30 + t * 2^31) / 2^(31+e)), t = 2^(e-1) - (x < 0), is
 * floor((2x * m + 2^31 + t * 2^32) / 2^(32+e)): the rounded high word of
 * 2x * m with t added (SMMLAR's accumulator), shifted right by e (floors
 * compose); z adds z * 2^e to t (high2 = 2^(e-1) + z * 2^e). With
 * |x| < 2^29, e <= 23 and |z| <= 128 the high word stays within int32:
 * |2x * m| < 2^61, |high2| <= 2^22 + 2^30. */
static inline __attribute__((always_inline)) int32_t s8_scale_folded(int32_t acc,
                                                                     const S8Channel* c) {
  const int32_t x2 = (int32_t)(((uint32_t)acc << 1) + (uint32_t)c->bias2);
  const int32_t start = c->high2 + (x2 >> 31);
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  int32_t high;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(high) : "r"(x2), "r"(c->mantissa), "r"(start));
#else
  const int64_t sum =
      (int64_t)x2 * c->mantissa + (int64_t)start * ((int64_t)1 << 32) + ((int64_t)1 << 31);
  const int32_t high = (int32_t)(sum >> 32);
#endif
  return high >> c->down1;
}

/* acc requantized, before the output zero point (any exponent). */
static inline int32_t s8_scale(int32_t acc, const S8Channel* c) {
  if (c->half != 0) return s8_scale_down(acc, c);
  const int32_t x = (int32_t)((uint32_t)acc + (uint32_t)c->bias);
  const int32_t shifted = (int32_t)((uint32_t)x << c->left);
  return (int32_t)(((int64_t)shifted * c->mantissa + ((int64_t)1 << 30)) >> 31);
}

/* acc requantized plus the output zero point, before the clamp, in `form`
 * (the caller's: the narrowest every channel of its table takes). */
static inline __attribute__((always_inline)) int32_t s8_value(int32_t acc, const S8Channel* c,
                                                              S8Form form) {
  if (form == S8_FOLDED) return s8_scale_folded(acc, c);
  const int32_t v = form == S8_DOWN ? s8_scale_down(acc, c) : s8_scale(acc, c);
  return (int32_t)((uint32_t)v + (uint32_t)c->zp);
}

/* One int8 output: acc requantized in `form`, clamped (`full`: s8_clamp's). */
static inline __attribute__((always_inline)) int8_t s8_out(int32_t acc, const S8Channel* c,
                                                           S8Form form, int32_t lo, int32_t hi,
                                                           int full) {
  return s8_clamp(s8_value(acc, c, form), lo, hi, full);
}

static inline int8_t s8_requantize(int32_t acc, const S8Channel* c, int32_t lo, int32_t hi) {
  return s8_out(acc, c, S8_ANY, lo, hi, 0);
}

/* The same rounding once, round((acc + bias) * mantissa / 2^shift) ties up,
 * as LiteRT's reference FULLY_CONNECTED and multiply_once_per_channel. */
static inline int8_t s8_requantize_once(int32_t acc, const S8Channel* c, int32_t lo, int32_t hi) {
  const int32_t x = (int32_t)((uint32_t)acc + (uint32_t)c->bias);
  const int64_t product = (int64_t)x * c->mantissa + ((int64_t)1 << (c->shift - 1));
  return s8_clamp((int32_t)((uint32_t)(int32_t)(product >> c->shift) + (uint32_t)c->zp), lo, hi, 0);
}

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include <arm_mve.h>

/* Helium (MVE): four channels' requantization in one vector each, in the
 * form a call's whole table allows (s8_mode), so that no output tests it.
 * Twice rounded (s8_requantize4), where every shift is 31 or more (no left
 * shift): VQRDMULH is the doubling high half rounded, (x * m + 2^30) >> 31,
 * and VRSHL's rounding right shift by the exponent rounds half up, so a
 * negative value first takes one off: half away from zero, as
 * s8_requantize. Where some exponent is 0 (S8_TWICE_FIXED) that one is
 * masked per channel (`fix`); where none is (S8_TWICE), every negative
 * value takes it. Once rounded (S8_ONCE), where every shift is 33 or more:
 * VMULH's high word, truncated, and VRSHL by shift - 32 adds the same
 * 2^(shift-33) first. Where some shift is under 31 (S8_TWICE_LEFT), VSHL
 * first shifts those channels' values left by 31 - shift, wrapping as the
 * scalar form, and their exponent is 0. Otherwise (S8_SCALAR,
 * S8_SCALAR_ONCE) one output at a time, s8_requantize or
 * s8_requantize_once. */
typedef enum { S8_SCALAR, S8_SCALAR_ONCE, S8_TWICE_LEFT, S8_TWICE_FIXED, S8_TWICE, S8_ONCE } S8Mode;

/* The forms a model's tables take, a bit each (1 << S8Mode), from the
 * compile path (compile.py): a form outside them is not built, and a table
 * that takes it runs its kernel's general form (S8_TWICE_LEFT, S8_SCALAR
 * or S8_SCALAR_ONCE), which every table can. Every form by default. */
#ifndef FFI_CORE_S8_FORMS
#define FFI_CORE_S8_FORMS 0x3F
#endif
#define S8_FORM_BUILT(mode) ((FFI_CORE_S8_FORMS >> (mode)) & 1)

typedef struct {
  int32x4_t bias, mantissa, shift, fix; /* shift: VRSHL's, negative to the right */
  int32x4_t left;                       /* S8_TWICE_LEFT's */
} S8Channels4;

/* The channels of a requantization table that `rows` (a lane's channel
 * times 3) picks from q on, for `mode`. */
static inline __attribute__((always_inline)) S8Channels4 s8_channels_at(const int32_t* q,
                                                                        uint32x4_t rows,
                                                                        S8Mode mode) {
  const int32x4_t shift = vldrwq_gather_shifted_offset_s32(q + 2, rows);
  S8Channels4 c = {
      vldrwq_gather_shifted_offset_s32(q, rows), vldrwq_gather_shifted_offset_s32(q + 1, rows),
      vsubq_s32(vdupq_n_s32(mode == S8_ONCE ? 32 : 31), shift), vdupq_n_s32(0), vdupq_n_s32(0)};
  if (mode == S8_TWICE_LEFT) {
    c.left = vmaxq_s32(c.shift, vdupq_n_s32(0));
    c.shift = vminq_s32(c.shift, vdupq_n_s32(0));
  }
  if (mode == S8_TWICE_FIXED || mode == S8_TWICE_LEFT) {
    c.fix = vpselq_s32(vdupq_n_s32(-1), vdupq_n_s32(0), vcmpltq_n_s32(c.shift, 0));
  }
  return c;
}

/* Channels q, q + 3, q + 6, q + 9 of a requantization table, for `mode`. */
static inline __attribute__((always_inline)) S8Channels4 s8_channels4(const int32_t* q,
                                                                      S8Mode mode) {
  return s8_channels_at(q, vmulq_n_u32(vidupq_n_u32(0, 1), 3), mode);
}

static inline int32x4_t s8_clamp_out4(int32x4_t v, int32x4_t out_zp, int32x4_t lo, int32x4_t hi) {
  return vminq_s32(vmaxq_s32(vaddq_s32(v, out_zp), lo), hi);
}

/* Four sums requantized in a vector form of `mode` (S8_TWICE_LEFT,
 * S8_TWICE_FIXED, S8_TWICE or S8_ONCE), before the output zero point and
 * the clamp. */
static inline __attribute__((always_inline)) int32x4_t s8_requantize4(int32x4_t acc,
                                                                      const S8Channels4* c,
                                                                      S8Mode mode) {
  int32x4_t x = vaddq_s32(acc, c->bias);
  if (mode == S8_ONCE) return vrshlq_s32(vmulhq_s32(x, c->mantissa), c->shift);
  if (mode == S8_TWICE_LEFT) x = vshlq_s32(x, c->left);
  int32x4_t high = vqrdmulhq_s32(x, c->mantissa);
  const int32x4_t sign = vshrq_n_s32(high, 31);
  high = vqaddq_s32(high, mode == S8_TWICE ? sign : vandq_s32(sign, c->fix));
  return vrshlq_s32(high, c->shift);
}

/* The requantization form for a table of `channels` channels: vector
 * rounding twice, and rounding once where every shift is 33 or more; four
 * channels' shifts a gather. */
static inline S8Mode s8_mode(const int32_t* q, int32_t channels, int once) {
  const uint32x4_t rows = vmulq_n_u32(vidupq_n_u32(0, 1), 3);
  int32x4_t shifts = vdupq_n_s32(63);
  int32_t c = 0;
  for (; c + 4 <= channels; c += 4) {
    shifts = vminq_s32(shifts, vandq_s32(vldrwq_gather_shifted_offset_s32(q + 3 * c + 2, rows),
                                         vdupq_n_s32(S8_TABLE_SHIFT)));
  }
  int32_t low = vminvq_s32(63, shifts);
  for (; c < channels; ++c) {
    const int32_t shift = s8_table_shift(q + 3 * c);
    low = shift < low ? shift : low;
  }
  if (once) return low >= 33 ? S8_ONCE : S8_SCALAR_ONCE;
  return low >= 32 ? S8_TWICE : low == 31 ? S8_TWICE_FIXED : S8_TWICE_LEFT;
}
#endif

#endif

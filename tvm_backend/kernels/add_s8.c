/* ADD of two int8 tensors of one shape: what ffi_core_tvm's ADD lowering
 * (tflite/ops/elementwise.py) computes, bit for bit, as TFLite's reference
 * kernel does. Each input less its zero point, shifted left 20 bits, is
 * scaled by its multiplier, the sum by the output's, each rounding twice
 * (fixed_point.multiply_double_rounding); plus the output zero point,
 * clamped. The compile path calls it only where no multiplier is above one
 * (right shifts of 31 or more, no left shift), so that no sum can overflow
 * (each scaled input is under 2^28). */
#include "s8_primitives.h"

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* The inputs' and the sum's scaling; offset: -zp << 20, exponent: the
 * right shift less 31. */
typedef struct {
  int32_t a_offset, a_mantissa, a_exponent;
  int32_t b_offset, b_mantissa, b_exponent;
  int32_t out_mantissa, out_exponent, out_zp, lo, hi;
} AddParams;

/* Four lanes of x * m / 2^exponent rounded twice: VQRDMULH, then (`down`:
 * the exponent is above 0) one off a negative value and VRSHL's rounding
 * half up, half away from zero as the reference. */
static inline __attribute__((always_inline)) int32x4_t add_scale4(int32x4_t x, int32_t mantissa,
                                                                  int32_t exponent, int down) {
  const int32x4_t high = vqrdmulhq_n_s32(x, mantissa);
  if (!down) return high;
  return vrshlq_n_s32(vqaddq_s32(high, vshrq_n_s32(high, 31)), -exponent);
}

/* Four outputs of inputs xa, xb (widened); a_down, b_down, out_down:
 * whether each exponent is above 0. */
static inline __attribute__((always_inline)) int32x4_t add4(int32x4_t xa, int32x4_t xb,
                                                            const AddParams* p, int32x4_t lo,
                                                            int32x4_t hi, int a_down, int b_down,
                                                            int out_down) {
  const int32x4_t shift = vdupq_n_s32(1 << 20);
  xa = vmlasq_n_s32(xa, shift, p->a_offset);
  xb = vmlasq_n_s32(xb, shift, p->b_offset);
  const int32x4_t sum = vaddq_s32(add_scale4(xa, p->a_mantissa, p->a_exponent, a_down),
                                  add_scale4(xb, p->b_mantissa, p->b_exponent, b_down));
  const int32x4_t v = add_scale4(sum, p->out_mantissa, p->out_exponent, out_down);
  return vminq_s32(vmaxq_s32(vaddq_n_s32(v, p->out_zp), lo), hi);
}

/* Every output, four at a time, the last few under a tail predicate. */
static inline __attribute__((always_inline)) void add_all(const int8_t* a, const int8_t* b,
                                                          int8_t* y, int32_t size,
                                                          const AddParams* params, int a_down,
                                                          int b_down, int out_down) {
  const AddParams p = *params;
  const int32x4_t lo = vdupq_n_s32(p.lo), hi = vdupq_n_s32(p.hi);
  for (int32_t k = size >> 2; k != 0; --k, a += 4, b += 4, y += 4) {
    vstrbq_s32(y, add4(vldrbq_s32(a), vldrbq_s32(b), &p, lo, hi, a_down, b_down, out_down));
  }
  if (size & 3) {
    const mve_pred16_t keep = vctp32q((uint32_t)(size & 3));
    const int32x4_t v =
        add4(vldrbq_z_s32(a, keep), vldrbq_z_s32(b, keep), &p, lo, hi, a_down, b_down, out_down);
    vstrbq_p_s32(y, v, keep);
  }
}

/* The input with the larger scale has exponent 0 (a multiplier of 1/2):
 * a, with the output's above 0, in the loops that test no exponent. */
static __attribute__((noinline)) void add_b_down(const int8_t* a, const int8_t* b, int8_t* y,
                                                 int32_t size, const AddParams* p) {
  add_all(a, b, y, size, p, 0, 1, 1);
}

static __attribute__((noinline)) void add_none_down(const int8_t* a, const int8_t* b, int8_t* y,
                                                    int32_t size, const AddParams* p) {
  add_all(a, b, y, size, p, 0, 0, 1);
}

static __attribute__((noinline)) void add_any(const int8_t* a, const int8_t* b, int8_t* y,
                                              int32_t size, const AddParams* p) {
  add_all(a, b, y, size, p, p->a_exponent != 0, p->b_exponent != 0, p->out_exponent != 0);
}
#else
/* x * m / 2^exponent rounded twice: the doubling high half, then half away
 * from zero. */
static inline int32_t add_scale(int32_t x, int32_t mantissa, int32_t exponent) {
  const int32_t high = (int32_t)(((int64_t)x * mantissa + ((int64_t)1 << 30)) >> 31);
  if (exponent == 0) return high;
  const int32_t half = (int32_t)(1u << (exponent - 1));
  return (high + half + (high >> 31)) >> exponent;
}

/* An input's scaled value for each of its 256 bytes, from table[-128]. */
static void add_table(int32_t* table, int32_t zp, int32_t mantissa, int32_t shift) {
  for (int32_t v = -128; v < 128; ++v)
    table[v] = add_scale((v - zp) * (1 << 20), mantissa, shift - 31);
}

/* The largest magnitude in an input's table of scaled values. */
static int64_t add_bound(const int32_t* table) {
  int64_t most = 0;
  for (int32_t v = -128; v < 128; ++v) {
    const int64_t m = table[v] < 0 ? -(int64_t)table[v] : table[v];
    most = m > most ? m : most;
  }
  return most;
}

/* Every output: the two inputs' scaled values looked up, their sum
 * requantized as s8_out does (form, full: its). */
static inline __attribute__((always_inline)) void add_all(const int8_t* a, const int8_t* b,
                                                          int8_t* y, int32_t size,
                                                          const int32_t* ta, const int32_t* tb,
                                                          const S8Channel* out, int32_t lo,
                                                          int32_t hi, S8Form form, int full) {
  const S8Channel c = *out;
  for (const int8_t* end = a + size; a != end; ++a, ++b, ++y) {
    *y = s8_out(ta[*a] + tb[*b], &c, form, lo, hi, full);
  }
}
#endif

void ffi_core_add_s8(const int8_t* a, const int8_t* b, int8_t* y, int32_t size, int32_t a_zp,
                     int32_t a_mantissa, int32_t a_shift, int32_t b_zp, int32_t b_mantissa,
                     int32_t b_shift, int32_t out_mantissa, int32_t out_shift, int32_t out_zp,
                     int32_t lo, int32_t hi) {
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
  AddParams p = {(int32_t)((uint32_t)-a_zp << 20),
                 a_mantissa,
                 a_shift - 31,
                 (int32_t)((uint32_t)-b_zp << 20),
                 b_mantissa,
                 b_shift - 31,
                 out_mantissa,
                 out_shift - 31,
                 out_zp,
                 lo,
                 hi};
  if (p.a_exponent != 0 && p.b_exponent == 0) {
    /* The sum's order does not change it. */
    const AddParams q = {p.b_offset,
                         p.b_mantissa,
                         p.b_exponent,
                         p.a_offset,
                         p.a_mantissa,
                         p.a_exponent,
                         out_mantissa,
                         p.out_exponent,
                         out_zp,
                         lo,
                         hi};
    const int8_t* t = a;
    a = b;
    b = t;
    p = q;
  }
  if (p.a_exponent != 0 || p.out_exponent == 0) {
    add_any(a, b, y, size, &p);
  } else if (p.b_exponent != 0) {
    add_b_down(a, b, y, size, &p);
  } else {
    add_none_down(a, b, y, size, &p);
  }
#else
  /* Each input has 256 values: each one's scaling done once a call, not
   * once an element (1 KB of stack an input). */
  int32_t tables[2][256];
  int32_t *ta = tables[0] + 128, *tb = tables[1] + 128;
  add_table(ta, a_zp, a_mantissa, a_shift);
  add_table(tb, b_zp, b_mantissa, b_shift);
  const int32_t q[3] = {0, out_mantissa, out_shift};
  const S8Channel out = s8_channel_folded(q, out_zp, add_bound(ta) + add_bound(tb));
  if (out.high2 != 0 && lo == -128 && hi == 127) {
    add_all(a, b, y, size, ta, tb, &out, lo, hi, S8_FOLDED, 1);
  } else if (out.high2 != 0) {
    add_all(a, b, y, size, ta, tb, &out, lo, hi, S8_FOLDED, 0);
  } else if (out.half != 0) {
    add_all(a, b, y, size, ta, tb, &out, lo, hi, S8_DOWN, 0);
  } else {
    add_all(a, b, y, size, ta, tb, &out, lo, hi, S8_ANY, 0);
  }
#endif
}

/* FULLY_CONNECTED of int8 activations and int8 weights (OI), per-channel
 * requantization rounding once, as LiteRT's reference kernel does: what
 * ffi_core_tvm's int8_kernels.fully_connected computes,
 * bit for bit, as a matrix product (s8_gemm.h) over the widened input rows,
 * three batch rows at a time; on Helium (MVE) over the int8 rows in place
 * (s8_gemm_mve.h). */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include "s8_gemm_mve.h"

void ffi_core_fully_connected_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                 int32_t q_off, int32_t batch, int32_t in_features,
                                 int32_t out_features, int32_t out_zp, int32_t lo, int32_t hi) {
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  const S8Requant rq = {q, out_zp, lo, hi};
  if (S8_FORM_BUILT(S8_ONCE) && s8_mode(q, out_features, 1) == S8_ONCE) {
    s8_gemm_once(blob + w_off, x, in_features, in_features, batch, out_features, &rq, y);
  } else {
    s8_gemm_scalar_once(blob + w_off, x, in_features, in_features, batch, out_features, &rq, y);
  }
}
#else
#include "s8_gemm.h"

/* Where the shift s is 33 to 62, (x * m + 2^(s-1)) >> s is ((x * m) >> 32) +
 * 2^(s-33), shifted right by s - 32 (the product's low word adds less than
 * one to a sum of whole multiples of 2^32): the high word of one multiply
 * (SMULL's upper half) rather than s8_requantize_once's 64-bit sum and
 * shift. Channels take that form up to the first that cannot; returns how
 * many did. `full` (s8_clamp's) known to the loop: one SSAT for int8's
 * own range, as ReLU's with the zero point -128 is. */
static inline __attribute__((always_inline)) int32_t requantize_high(
    const int32_t* sums, int32_t stride, const int32_t* q, int32_t channels, int32_t out_zp,
    int32_t lo, int32_t hi, int8_t* y, int full) {
  const int32_t* const end = q + 3 * channels;
  const int32_t* const start = q;
  for (; q != end; sums += stride, q += 3, ++y) {
    const int32_t shift = s8_table_shift(q);
    if ((uint32_t)(shift - 33) > 29u) break;
    const int32_t x = (int32_t)((uint32_t)*sums + (uint32_t)q[0]);
    const int32_t high = (int32_t)(((int64_t)x * q[1]) >> 32);
    const int32_t v = (high + (1 << (shift - 33))) >> (shift - 32);
    *y = s8_clamp((int32_t)((uint32_t)v + (uint32_t)out_zp), lo, hi, full);
  }
  return (int32_t)(q - start) / 3;
}

/* A batch row's outputs y[ch] from its sums, `stride` apart: the high-word
 * form (requantize_high) where it holds, the general one after. Not
 * inlined: the caller's frame, with its variable-length buffers, would take
 * a register. */
static __attribute__((noinline)) void requantize(const int32_t* sums, int32_t stride,
                                                 const int32_t* q, int32_t channels, int32_t out_zp,
                                                 int32_t lo, int32_t hi, int8_t* y) {
  int32_t ch = lo == -128 && hi == 127
                   ? requantize_high(sums, stride, q, channels, out_zp, lo, hi, y, 1)
                   : requantize_high(sums, stride, q, channels, out_zp, lo, hi, y, 0);
  for (sums += ch * stride, q += 3 * ch; ch < channels; ++ch, sums += stride, q += 3) {
    const S8Channel c = s8_channel(q, out_zp);
    y[ch] = s8_requantize_once(*sums, &c, lo, hi);
  }
}

void ffi_core_fully_connected_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                 int32_t q_off, int32_t batch, int32_t in_features,
                                 int32_t out_features, int32_t out_zp, int32_t lo, int32_t hi) {
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  const int8_t* w = blob + w_off;
  int32_t n = in_features;
  /* Word aligned: the DSP kernels read it with LDRD. One column for a
   * batch of one. */
  const int32_t cols = batch > 1 ? 3 : 1;
  int16_t buffer[cols * n] __attribute__((aligned(4)));
  int32_t sums[cols * out_features];
  if (batch == 1) {
    const S8Column alone = s8_column(buffer, n, 1, 0);
    s8_widen(x, &alone, n);
    ffi_core_s8_sums_1col(w, buffer, n, out_features, sums);
    requantize(sums, 1, q, out_features, out_zp, lo, hi, y);
    return;
  }
  /* Three rows a step; a last step short of three repeats its last row
   * (its outputs written again), so that every row takes the same loops. */
  for (int32_t b = 0; b < batch; b += 3) {
    const int32_t rows[3] = {b, b + 1 < batch ? b + 1 : b, b + 2 < batch ? b + 2 : batch - 1};
    for (int32_t j = 0; j < 3; ++j) {
      const S8Column col = s8_column(buffer, n, 3, j);
      s8_widen(x + rows[j] * n, &col, n);
    }
    ffi_core_s8_sums_3cols(w, buffer, n, out_features, sums);
    for (int32_t j = 0; j < 3; ++j) {
      requantize(sums + j, 3, q, out_features, out_zp, lo, hi, y + rows[j] * out_features);
    }
  }
}
#endif

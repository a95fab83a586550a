/* FULLY_CONNECTED of int8 activations and int8 weights (OI), per-channel
 * requantization rounding once, as LiteRT's reference kernel does: what
 * ffi_core_tvm's int8_kernels.fully_connected computes,
 * bit for bit, as a matrix product (s8_gemm.h) over the widened input rows,
 * two batch rows at a time; on Helium (MVE) over the int8 rows in place
 * (s8_gemm_mve.h). */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include "s8_gemm_mve.h"

void ffi_core_fully_connected_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                 int32_t q_off, int32_t batch, int32_t in_features,
                                 int32_t out_features, int32_t out_zp, int32_t lo, int32_t hi) {
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  const S8Requant rq = {q, out_zp, lo, hi, s8_shifts_at_least(q, out_features, 33), 1};
  s8_gemm(blob + w_off, x, in_features, in_features, batch, out_features, &rq, y);
}
#else
#include "s8_gemm.h"

void ffi_core_fully_connected_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                 int32_t q_off, int32_t batch, int32_t in_features,
                                 int32_t out_features, int32_t out_zp, int32_t lo, int32_t hi) {
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  /* The channels derived only for pairs of batch rows. */
  S8Channel chans[batch > 1 ? out_features : 1];
  if (batch > 1) s8_channels(q, out_features, chans);
  const S8Requant rq = {q, chans, out_zp, lo, hi};
  const int8_t* w = blob + w_off;
  int32_t n = in_features;
  /* Word aligned: the DSP kernels read it with LDRD. One column for a
   * batch of one. */
  int16_t buffer[(batch > 1 ? 2 : 1) * n] __attribute__((aligned(4)));
  int32_t sums[(batch > 1 ? 2 : 1) * out_features];
  const S8Column pair0 = s8_column(buffer, n, 2, 0), pair1 = s8_column(buffer, n, 2, 1);
  const S8Column alone = s8_column(buffer, n, 1, 0);
  int32_t b = 0;
  for (; b + 2 <= batch; b += 2) {
    s8_widen(x + b * n, &pair0, n);
    s8_widen(x + (b + 1) * n, &pair1, n);
    s8_gemm_2cols(w, buffer, n, out_features, &rq, 1, sums, y + b * out_features,
                  y + (b + 1) * out_features);
  }
  if (b < batch) {
    s8_widen(x + b * n, &alone, n);
    s8_gemm_1col(w, buffer, n, out_features, &rq, 1, sums, y + b * out_features);
  }
}
#endif

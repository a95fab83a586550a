/* The matrix product's loops (s8_gemm.h), one copy for every kernel that
 * calls them: CONV_2D's and FULLY_CONNECTED's. Helium builds use
 * s8_gemm_mve.h instead. */
#if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1))
#include "s8_gemm.h"

/* The pairs' block in a function of its own (out of the callers' frames
 * with their variable-length column buffers), whose block gets every
 * register. */
void ffi_core_s8_pairs_3cols(const int8_t* w, const int16_t* buffer, int32_t n, int32_t pairs,
                             S8PairsOut out) {
  s8_pairs_2x3(w, buffer, n, pairs, out);
}

/* Every channel's sums for the three interleaved columns in buffer, each
 * channel's three side by side in sums (3 x channels). */
void ffi_core_s8_sums_3cols(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                            int32_t* sums) {
  const int32_t pairs = channels & ~1, n4 = n & ~3, t = n & 3;
  if (pairs != 0) {
    const S8PairsOut out = {.sums = sums};
    ffi_core_s8_pairs_3cols(w, buffer, n, pairs, out);
  }
  /* The columns' last n % 4 inputs, each column's in order after the
   * groups. */
  for (int32_t ch = 0; t != 0 && ch < pairs; ++ch) {
    for (int32_t j = 0; j < 3; ++j) {
      sums[3 * ch + j] = s8_dot_tail(w + ch * n + n4, buffer + 3 * n4 + j * t, t, sums[3 * ch + j]);
    }
  }
  if (pairs < channels) {
    for (int32_t j = 0; j < 3; ++j) {
      const S8Column k = s8_column((int16_t*)buffer, n, 3, j);
      sums[3 * pairs + j] = s8_dot_1x1(w + pairs * n, k.group, k.tail, 12, n);
    }
  }
}

/* Every channel's sum for the lone column in buffer. */
void ffi_core_s8_sums_1col(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                           int32_t* sums) {
  const S8Block b = s8_block_1col(buffer, n);
  const int32_t quads = channels & ~3, n4 = n & ~3, t = n & 3;
  for (int32_t ch = 0; ch < quads; ch += 4) s8_dot_4x1(w + ch * n, buffer, &b, sums + ch);
  for (int32_t ch = 0; t != 0 && ch < quads; ++ch) {
    sums[ch] = s8_dot_tail(w + ch * n + n4, buffer + n4, t, sums[ch]);
  }
  for (int32_t ch = quads; ch < channels; ++ch) {
    sums[ch] = s8_dot_1x1(w + ch * n, buffer, buffer + n4, 4, n);
  }
}
#endif

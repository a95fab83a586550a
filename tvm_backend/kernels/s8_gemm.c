/* The matrix product's two loops (s8_gemm.h), one copy for every kernel
 * that calls them: CONV_2D's and FULLY_CONNECTED's. Helium builds use
 * s8_gemm_mve.h instead. */
#if !(defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1))
#include "s8_gemm.h"

/* Columns of 36 inputs, as constants: a 3x3 kernel over 3 channels, each
 * row rounded up to words (a first layer: conv_s8's im2col_rows). A
 * function of its own, which leaves the other loops' registers as they
 * were. Returns the channels done (pairs). */
static __attribute__((noinline)) int32_t sums_2cols_36(const int8_t* w, const int16_t* buffer,
                                                       int32_t channels, int32_t* sums) {
  int32_t ch = 0;
  for (; ch + 2 <= channels; ch += 2) {
    s8_dot_2x2(w + ch * 36, w + ch * 36 + 36, buffer, 36, sums + 2 * ch, 1);
  }
  return ch;
}

/* Every channel's sums for the two interleaved columns in buffer, each
 * channel's two side by side in sums (2 x channels). A function of its own
 * (out of the callers' frames with their variable-length column buffers,
 * whose registers its loops get), one copy for every kernel. */
void ffi_core_s8_sums_2cols(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                            int32_t* sums) {
  int32_t ch = 0;
  /* Columns of MobileNet's and DS-CNN's pointwise layers as constants: no
   * remainder, and little set-up a block; over 64 inputs the loop runs
   * straight. */
  if (n == 8) {
    for (; ch + 2 <= channels; ch += 2) {
      s8_dot_2x2(w + ch * 8, w + ch * 8 + 8, buffer, 8, sums + 2 * ch, 1);
    }
  } else if (n == 16) {
    for (; ch + 2 <= channels; ch += 2) {
      s8_dot_2x2(w + ch * 16, w + ch * 16 + 16, buffer, 16, sums + 2 * ch, 1);
    }
  } else if (n == 32) {
    for (; ch + 2 <= channels; ch += 2) {
      s8_dot_2x2(w + ch * 32, w + ch * 32 + 32, buffer, 32, sums + 2 * ch, 1);
    }
  } else if (n == 40) {
    /* DS-CNN's first layer: a 10x4 kernel over one channel. */
    for (; ch + 2 <= channels; ch += 2) {
      s8_dot_2x2(w + ch * 40, w + ch * 40 + 40, buffer, 40, sums + 2 * ch, 1);
    }
  } else if (n == 64) {
    for (; ch + 2 <= channels; ch += 2) {
      s8_dot_2x2(w + ch * 64, w + ch * 64 + 64, buffer, 64, sums + 2 * ch, 4);
    }
  } else if ((n & 31) == 0) {
    /* 32 k at a time, no remainder (n & ~31): MobileNet's wider pointwise
     * layers, and 3x3 kernels over 32 or 64 channels. */
    for (; ch + 2 <= channels; ch += 2) {
      const int8_t* row = w + ch * n;
      s8_dot_2x2(row, row + n, buffer, n & ~31, sums + 2 * ch, 2);
    }
  } else if ((n & 7) == 0) {
    /* n & ~7: the compiler drops the remainder's steps, and the registers
     * they would hold. */
    for (; ch + 2 <= channels; ch += 2) {
      const int8_t* row = w + ch * n;
      s8_dot_2x2(row, row + n, buffer, n & ~7, sums + 2 * ch, 1);
    }
  } else if (n == 36) {
    ch = sums_2cols_36(w, buffer, channels, sums);
  }
  for (; ch + 2 <= channels; ch += 2) {
    const int8_t* row = w + ch * n;
    s8_dot_2x2(row, row + n, buffer, n, sums + 2 * ch, 1);
  }
  if (ch < channels) {
    const int8_t* row = w + ch * n;
    S8Column k0 = s8_column((int16_t*)buffer, n, 2, 0), k1 = s8_column((int16_t*)buffer, n, 2, 1);
    sums[2 * ch] = s8_dot_1x1(row, k0.group, k0.tail, 8, n);
    sums[2 * ch + 1] = s8_dot_1x1(row, k1.group, k1.tail, 8, n);
  }
}

/* Every channel's sum for the lone column in buffer. */
void ffi_core_s8_sums_1col(const int8_t* w, const int16_t* buffer, int32_t n, int32_t channels,
                           int32_t* sums) {
  int32_t ch = 0;
  for (; ch + 4 <= channels; ch += 4) s8_dot_4x1(w + ch * n, buffer, n, sums + ch);
  for (; ch < channels; ++ch) sums[ch] = s8_dot_1x1(w + ch * n, buffer, buffer + (n & ~3), 4, n);
}
#endif

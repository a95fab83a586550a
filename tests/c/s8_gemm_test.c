/* The int8 matrix product (tvm_backend/kernels/s8_gemm.c) on this target
 * (the plain or DSP form its compiler picks) against a direct sum: every
 * column length from 1 to 160 and longer ones (each of the sixteen steps
 * the DSP loop's TBH enters at, one to nine whole iterations, and the last
 * n % 4), 1 to 6 channels (one to three pairs, an odd last one), weights at
 * odd addresses, random values.
 * Prints the first mismatches and exits non-zero if any. */
#include "s8_gemm.h"

#include <stdint.h>
#include <stdio.h>

enum { kMaxN = 600, kMaxChannels = 6 };

static uint32_t g_seed = 2024u;

static uint32_t next(void) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return g_seed >> 8;
}

static int8_t g_x[3][kMaxN], g_w[kMaxChannels * kMaxN + 1];
static int16_t g_buffer[3 * kMaxN] __attribute__((aligned(8)));
static int32_t g_sums[3 * kMaxChannels];

/* Each channel's sums from `cols` columns (3: interleaved; 1: alone) in
 * g_sums against g_x's first columns; returns the mismatches. */
static long compare(const int8_t* w, int32_t n, int32_t channels, int32_t cols) {
  long failures = 0;
  for (int32_t ch = 0; ch < channels; ++ch) {
    for (int32_t j = 0; j < cols; ++j) {
      int32_t want = 0;
      for (int32_t k = 0; k < n; ++k) want += w[ch * n + k] * g_x[j][k];
      const int32_t got = g_sums[cols * ch + j];
      if (want != got && failures++ < 5) {
        printf("%ld columns, n %ld, channel %ld of %ld, column %ld: want %ld, got %ld\n",
               (long)cols, (long)n, (long)ch, (long)channels, (long)j, (long)want, (long)got);
      }
    }
  }
  return failures;
}

static long check(int32_t n, int32_t channels) {
  const int8_t* w = g_w + 1; /* odd: the weight rows' loads are unaligned */
  for (int32_t i = 0; i < channels * n; ++i) g_w[1 + i] = (int8_t)next();
  for (int32_t j = 0; j < 3; ++j) {
    for (int32_t k = 0; k < n; ++k) g_x[j][k] = (int8_t)next();
  }
  for (int32_t j = 0; j < 3; ++j) {
    const S8Column col = s8_column(g_buffer, n, 3, j);
    s8_widen(g_x[j], &col, n);
  }
  ffi_core_s8_sums_3cols(w, g_buffer, n, channels, g_sums);
  long failures = compare(w, n, channels, 3);
  const S8Column alone = s8_column(g_buffer, n, 1, 0);
  s8_widen(g_x[0], &alone, n);
  ffi_core_s8_sums_1col(w, g_buffer, n, channels, g_sums);
  return failures + compare(w, n, channels, 1);
}

int main(void) {
  static const int32_t longer[] = {191, 192, 255, 256, 288, 383, 576, 600};
  long failures = 0, cases = 0;
  for (int32_t channels = 1; channels <= kMaxChannels; ++channels) {
    for (int32_t n = 1; n <= 160; ++n, ++cases) failures += check(n, channels);
    for (uint32_t i = 0; i < sizeof(longer) / sizeof(longer[0]); ++i, ++cases) {
      failures += check(longer[i], channels);
    }
  }
  printf("s8_gemm: %ld cases, %ld mismatches\n", cases, failures);
  return failures != 0;
}

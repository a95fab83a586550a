/* s8_requantize (tvm_backend/kernels/s8_primitives.h) on this target (the
 * plain or DSP form its compiler picks) against TFLite's
 * reference arithmetic written out step by step (gemmlowp's
 * SaturatingRoundingDoublingHighMul, then RoundingDivideByPOT in its masked
 * form), over every right shift, edge values of the sum and the mantissa,
 * and seeded random ones; and each form s8_value takes (S8_FOLDED where the
 * channel allows it) against the same value plus an int8 zero point,
 * unclamped. Prints the first mismatches and exits non-zero if any. */
#include <stdint.h>
#include <stdio.h>

#include "s8_primitives.h"

/* Samples drawn: fewer on a board, under QEMU. */
#ifndef S8_REQUANTIZE_SAMPLES
#define S8_REQUANTIZE_SAMPLES 4000000
#endif

static int32_t reference(int32_t acc, const int32_t* q) {
  const int32_t shift = q[2];
  const int32_t left = shift < 31 ? 31 - shift : 0, exponent = shift > 31 ? shift - 31 : 0;
  const int32_t x = (int32_t)(((uint32_t)acc + (uint32_t)q[0]) << left);
  const int64_t product = (int64_t)x * q[1];
  const int32_t nudge = product >= 0 ? (1 << 30) : (1 - (1 << 30));
  const int32_t high = (int32_t)((product + nudge) / ((int64_t)1 << 31));
  const int32_t mask = (int32_t)((1u << exponent) - 1u);
  const int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  return (high >> exponent) + ((high & mask) > threshold ? 1 : 0);
}

static uint32_t next(uint64_t* s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s >> 16);
}

int main(void) {
  static const int32_t edges[] = {
      0, 1, -1, 2, -2, INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30), INT32_MAX - 1, INT32_MIN + 1};
  const int32_t n_edges = (int32_t)(sizeof(edges) / sizeof(edges[0]));
  uint64_t seed = 0x9E3779B97F4A7C15u;
  long failures = 0, folded = 0;
  for (long i = 0; i < S8_REQUANTIZE_SAMPLES; ++i) {
    const uint32_t pick = next(&seed);
    const int32_t acc = pick % 4 == 0 ? edges[next(&seed) % n_edges]
                                      : (int32_t)(next(&seed) ^ (next(&seed) << 16)) >> (pick % 32);
    const int32_t bias = pick % 8 == 1 ? edges[next(&seed) % n_edges]
                                       : (int32_t)(next(&seed) ^ (next(&seed) << 16)) >> 12;
    const uint32_t kind = next(&seed) % 8;
    const int32_t mantissa =
        kind == 0   ? 1 << 30
        : kind == 1 ? INT32_MAX
        : kind == 2 ? 0 /* TFLite's for a scale under 2^-32 */
                    : (int32_t)((1u << 30) | ((next(&seed) ^ (next(&seed) << 16)) >> 2));
    const int32_t q[3] = {bias, mantissa, (int32_t)(1 + next(&seed) % 62)};
    /* A zero point that brings the value near [-128, 127], so that the
     * clamp does not hide a wrong one. */
    const int32_t y = reference(acc, q);
    const int32_t zp = (int32_t)(0u - (uint32_t)y + next(&seed) % 256 - 128u);
    const int32_t v = (int32_t)((uint32_t)y + (uint32_t)zp);
    const int32_t want = v > 127 ? 127 : v < -128 ? -128 : v;
    const S8Channel c = s8_channel(q, zp);
    const int32_t got = s8_requantize(acc, &c, -128, 127);
    if (want != got && failures++ < 10) {
      printf("acc %ld, table {%ld, %ld, %ld}, zero point %ld: want %ld, got %ld\n", (long)acc,
             (long)q[0], (long)q[1], (long)q[2], (long)zp, (long)want, (long)got);
    }
    const int32_t zp8 = (int32_t)(next(&seed) % 256) - 128;
    const int32_t want8 = (int32_t)((uint32_t)y + (uint32_t)zp8);
    const S8Channel c8 = s8_channel_folded(q, zp8, acc);
    /* Every form the channel allows: S8_ANY up to its own. */
    const S8Form own = s8_channel_form(&c8);
    folded += own == S8_FOLDED;
    for (int32_t f = S8_ANY; f <= (int32_t)own; ++f) {
      const int32_t got8 = s8_value(acc, &c8, (S8Form)f);
      if (want8 != got8 && failures++ < 10) {
        printf("acc %ld, table {%ld, %ld, %ld}, zero point %ld, form %d: want %ld, got %ld\n",
               (long)acc, (long)q[0], (long)q[1], (long)q[2], (long)zp8, (int)f, (long)want8,
               (long)got8);
      }
    }
  }
  printf("s8_requantize: %ld mismatches, %ld samples in S8_FOLDED\n", failures, folded);
  return failures != 0 || folded == 0;
}

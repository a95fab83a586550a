/* ffi_core_depthwise_conv_s8 on this target (the plain, DSP or Helium
 * path its compiler picks) against a direct sum: each tap inside the input
 * or its zero point outside, requantized by s8_requantize. Random shapes,
 * 3x3 at stride 1 and 2 above all (the DSP path's planes: odd and single
 * columns, inputs narrower than the window, clipped and extra padding),
 * beside other kernels, random weights, inputs and requantization tables
 * (shifts under 31, a left shift, and above), some channels (or most) one
 * value throughout and marked so (int8_kernels.depthwise_c_table, which the
 * DSP path computes from the value), for 3x3 kernels in some cases with
 * their outputs for each pair of row and column classes after the table
 * (S8_TABLE_VALUES), which the DSP path stores. Prints "depthwise ok". */
#include <stdint.h>
#include <stdio.h>

#include "s8_primitives.h"

void ffi_core_depthwise_conv_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                int32_t q_off, int32_t batch, int32_t in_h, int32_t in_w,
                                int32_t ch, int32_t out_h, int32_t out_w, int32_t k_h, int32_t k_w,
                                int32_t stride_h, int32_t stride_w, int32_t dil_h, int32_t dil_w,
                                int32_t pad_h, int32_t pad_w, int32_t in_zp, int32_t out_zp,
                                int32_t lo, int32_t hi);

/* Inputs up to 10x10 or 40x2 (padded by up to 2, 3 past the end), by up
 * to 6 channels. */
enum { kMaxCh = 6, kMaxIn = 2 * 10 * 10 * kMaxCh, kMaxOut = 2 * 15 * 15 * kMaxCh };

static uint32_t g_seed = 12345u;

static uint32_t next(void) {
  g_seed = g_seed * 1664525u + 1013904223u;
  return g_seed >> 8;
}

/* From lo to hi, both included. */
static int32_t pick(int32_t lo, int32_t hi) {
  return lo + (int32_t)(next() % (uint32_t)(hi - lo + 1));
}

static int8_t g_x[kMaxIn], g_y[kMaxOut], g_expected[kMaxOut];
/* Weights (up to 5x5 taps of kMaxCh), then the table and a row of values
 * a marked channel: 16-byte aligned. */
static int32_t g_blob[(5 * 5 * kMaxCh + 15) / 16 * 4 + 6 * kMaxCh] __attribute__((aligned(16)));

/* Each output's class along an axis of a 3-tap window, numbered as
 * int8_kernels.window_classes numbers them (the taps inside, in order of
 * first appearance); the number of classes. */
static int32_t classes(int32_t in, int32_t out, int32_t stride, int32_t pad, int32_t* cls) {
  int32_t seen[8], n = 0;
  for (int32_t o = 0; o < out; ++o) {
    int32_t inside = 0;
    for (int32_t k = 0; k < 3; ++k) {
      const int32_t i = o * stride - pad + k;
      inside |= (i >= 0 && i < in) << k;
    }
    int32_t c = 0;
    while (c < n && seen[c] != inside) ++c;
    if (c == n) seen[n++] = inside;
    cls[o] = c;
  }
  return n;
}

/* constants: 0 none, 1 a channel in two marked, 2 seven in eight, 3 seven
 * in eight with their values given where the window is 3x3. */
static int check(int32_t batch, int32_t in_h, int32_t in_w, int32_t ch, int32_t k_h, int32_t k_w,
                 int32_t stride_h, int32_t stride_w, int32_t dil_h, int32_t dil_w, int32_t pad_h,
                 int32_t pad_w, int32_t out_h, int32_t out_w, int full, int low_shifts,
                 int constants) {
  if (batch * in_h * in_w * ch > kMaxIn || batch * out_h * out_w * ch > kMaxOut || ch > kMaxCh ||
      k_h * k_w > 25) {
    printf("depthwise: a case past the test's buffers\n");
    return 0;
  }
  int8_t* w = (int8_t*)g_blob;
  const int32_t w_bytes = (k_h * k_w * ch + 15) / 16 * 16;
  int32_t* q = (int32_t*)(void*)((int8_t*)g_blob + w_bytes);
  for (int32_t i = 0; i < k_h * k_w * ch; ++i) w[i] = (int8_t)pick(-128, 127);
  for (int32_t c = 0; c < ch; ++c) {
    q[3 * c] = pick(-50000, 50000);
    q[3 * c + 1] = (int32_t)(0x40000000u + (next() & 0x3FFFFFFFu));
    q[3 * c + 2] = low_shifts ? pick(28, 34) : pick(36, 44);
  }
  for (int32_t i = 0; i < batch * in_h * in_w * ch; ++i) g_x[i] = (int8_t)pick(-128, 127);
  for (int32_t c = 0; constants && c < ch; ++c) {
    if (next() % (constants == 1 ? 2 : 8) == 0) continue;
    const int32_t v = pick(-128, 127);
    for (int32_t i = c; i < batch * in_h * in_w * ch; i += ch) g_x[i] = (int8_t)v;
    q[3 * c + 2] |= (int32_t)(S8_TABLE_MARK | ((uint32_t)v & 0xFFu) << 16);
  }
  const int32_t in_zp = pick(-128, 127), out_zp = pick(-128, 127);
  const int32_t lo = full ? -128 : pick(-128, 0), hi = full ? 127 : pick(1, 127);
  for (int32_t b = 0; b < batch; ++b) {
    for (int32_t oh = 0; oh < out_h; ++oh) {
      for (int32_t ow = 0; ow < out_w; ++ow) {
        for (int32_t c = 0; c < ch; ++c) {
          int32_t sum = 0;
          for (int32_t kh = 0; kh < k_h; ++kh) {
            for (int32_t kw = 0; kw < k_w; ++kw) {
              const int32_t ih = oh * stride_h - pad_h + kh * dil_h;
              const int32_t iw = ow * stride_w - pad_w + kw * dil_w;
              const int inside = ih >= 0 && ih < in_h && iw >= 0 && iw < in_w;
              const int32_t v = inside ? g_x[((b * in_h + ih) * in_w + iw) * ch + c] : in_zp;
              sum += v * w[(kh * k_w + kw) * ch + c];
            }
          }
          const S8Channel chan = s8_channel(q + 3 * c, out_zp);
          g_expected[((b * out_h + oh) * out_w + ow) * ch + c] = s8_requantize(sum, &chan, lo, hi);
        }
      }
    }
  }
  /* Each marked channel's outputs for each pair of classes, from an
   * output of that pair, after the table. */
  int32_t row_class[64], col_class[64];
  const int32_t nr = classes(in_h, out_h, stride_h, pad_h, row_class);
  const int32_t nc = classes(in_w, out_w, stride_w, pad_w, col_class);
  int8_t* given = (int8_t*)(q + 3 * ch);
  const int values =
      constants == 3 && k_h == 3 && k_w == 3 && dil_h == 1 && dil_w == 1 && nr * nc <= 9;
  for (int32_t c = 0; values && c < ch; ++c) {
    if (!s8_table_marked(q + 3 * c)) continue;
    q[3 * c + 2] |= S8_TABLE_VALUES;
    for (int32_t oh = 0; oh < out_h; ++oh) {
      for (int32_t ow = 0; ow < out_w; ++ow) {
        given[row_class[oh] * nc + col_class[ow]] = g_expected[(oh * out_w + ow) * ch + c];
      }
    }
    given += 12;
  }
  const int32_t n = batch * out_h * out_w * ch;
  for (int32_t i = 0; i < n; ++i) g_y[i] = (int8_t)~g_expected[i];
  ffi_core_depthwise_conv_s8(g_x, (const int8_t*)g_blob, g_y, 0, w_bytes, batch, in_h, in_w, ch,
                             out_h, out_w, k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w,
                             in_zp, out_zp, lo, hi);
  for (int32_t i = 0; i < n; ++i) {
    if (g_y[i] != g_expected[i]) {
      printf(
          "depthwise mismatch: batch %ld, in %ldx%ld, %ld channels, kernel %ldx%ld, stride "
          "%ldx%ld, dilation %ldx%ld, pad %ldx%ld, out %ldx%ld: output %ld is %d, not %d\n",
          (long)batch, (long)in_h, (long)in_w, (long)ch, (long)k_h, (long)k_w, (long)stride_h,
          (long)stride_w, (long)dil_h, (long)dil_w, (long)pad_h, (long)pad_w, (long)out_h,
          (long)out_w, (long)i, g_y[i], g_expected[i]);
      return 0;
    }
  }
  return 1;
}

/* The most outputs a window of k taps, dilation d, stride s finds in `in`
 * inputs padded by pad before and pad + 1 after. */
static int32_t most_out(int32_t in, int32_t k, int32_t d, int32_t s, int32_t pad) {
  const int32_t span = (k - 1) * d + 1;
  return in + 2 * pad + 1 < span ? 0 : (in + 2 * pad + 1 - span) / s + 1;
}

int main(void) {
  int ok = 1;
  for (int32_t t = 0; t < 400 && ok; ++t) {
    /* Three in four 3x3 kernels, dilation 1. */
    const int three = t % 4 != 3;
    const int32_t k_h = three ? 3 : pick(1, 5), k_w = three ? 3 : pick(1, 5);
    const int32_t dil_h = three ? 1 : pick(1, 2), dil_w = three ? 1 : pick(1, 2);
    const int32_t stride_h = pick(1, 2), stride_w = pick(1, 2);
    /* One in eight tall and one or two columns wide. */
    const int tall = t % 8 == 5;
    const int32_t in_h = pick(1, tall ? 40 : 10), in_w = pick(1, tall ? 2 : 10);
    const int32_t ch = pick(1, kMaxCh);
    const int32_t pad_h = pick(0, 2), pad_w = pick(0, 2);
    const int32_t most_h = most_out(in_h, k_h, dil_h, stride_h, pad_h);
    const int32_t most_w = most_out(in_w, k_w, dil_w, stride_w, pad_w);
    if (most_h < 1 || most_w < 1) continue;
    /* Every output the padding allows, or fewer (the plane clipped). */
    const int32_t out_h = t % 3 ? most_h : pick(1, most_h);
    const int32_t out_w = t % 5 ? most_w : pick(1, most_w);
    ok = check(pick(1, 2), in_h, in_w, ch, k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w,
               out_h, out_w, t % 2, t % 7 < 2, t % 3 == 1 ? 1 + t % 9 / 3 : 0);
  }
  /* KWS's planes (25x5, same padding), and planes of a stride 2 large
   * enough for the DSP path: padded below only, and on every side. */
  ok = ok && check(1, 25, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1, 25, 5, 1, 0, 0);
  ok = ok && check(1, 18, 18, 3, 3, 3, 2, 2, 1, 1, 0, 0, 9, 9, 1, 0, 1);
  ok = ok && check(2, 17, 15, 2, 3, 3, 2, 2, 1, 1, 1, 1, 9, 8, 0, 1, 1);
  /* Planes of 6x6 (VWW's) and 8x8 at stride 2, channels one value throughout
   * (their outputs given, or worked out); VWW's last 3x3 layers, most
   * channels one value. */
  ok = ok && check(2, 6, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, 6, 6, 0, 0, 1);
  ok = ok && check(1, 6, 6, 6, 3, 3, 1, 1, 1, 1, 1, 1, 6, 6, 1, 0, 3);
  ok = ok && check(1, 16, 16, 4, 3, 3, 2, 2, 1, 1, 0, 0, 8, 8, 1, 1, 1);
  ok = ok && check(1, 16, 16, 4, 3, 3, 2, 2, 1, 1, 0, 0, 8, 8, 1, 0, 3);
  ok = ok && check(1, 3, 3, 6, 3, 3, 1, 1, 1, 1, 1, 1, 3, 3, 1, 0, 3);
  ok = ok && check(1, 6, 6, 6, 3, 3, 2, 2, 1, 1, 0, 0, 3, 3, 0, 0, 2);
  printf(ok ? "depthwise ok\n" : "depthwise failed\n");
  return ok ? 0 : 1;
}

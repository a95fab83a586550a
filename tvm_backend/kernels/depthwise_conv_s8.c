/* DEPTHWISE_CONV_2D of int8 activations (NHWC) and int8 weights (1HWC),
 * channel multiplier 1, per-channel requantization: what ffi_core_tvm's
 * int8_kernels.depthwise_conv2d computes, bit for bit. Each output pixel's
 * taps are found once: a tap in the padding reads a row of the input's zero
 * point, whose share the bias cancels, so the sums need no bounds test.
 * Then four channels at a time (dw_sums4), the rest one by one. */
#include "s8_primitives.h"

/* Four channels' sums over the taps: *sums += x[tap][c..c+3] * w[tap][c..c+3]. */
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
/* acc + a.lo * b.lo (int16 halves). */
static inline int32_t dw_mla_low(int32_t a, int32_t b, int32_t acc) {
  int32_t r;
  __asm__("smlabb %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}

/* acc + a.hi * b.hi. */
static inline int32_t dw_mla_high(int32_t a, int32_t b, int32_t acc) {
  int32_t r;
  __asm__("smlatt %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(acc));
  return r;
}

/* One word of inputs and one of weights per tap; SXTB16 splits each into
 * two int16 pairs (channels 0 and 2, 1 and 3), SMLABB / SMLATT add them. */
static inline void dw_sums4(const int8_t* const* tap, int32_t taps, int32_t c, const int8_t* wc,
                            int32_t step, int32_t sums[4]) {
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (; taps != 0; --taps, ++tap, wc += step) {
    const int32_t xv = s8_load32(*tap + c), wv = s8_load32(wc);
    const int32_t x02 = s8_lanes02(xv), w02 = s8_lanes02(wv);
    const int32_t x13 = s8_lanes13(xv), w13 = s8_lanes13(wv);
    a0 = dw_mla_low(x02, w02, a0);
    a2 = dw_mla_high(x02, w02, a2);
    a1 = dw_mla_low(x13, w13, a1);
    a3 = dw_mla_high(x13, w13, a3);
  }
  sums[0] = a0;
  sums[1] = a1;
  sums[2] = a2;
  sums[3] = a3;
}
#else
/* Without the DSP extension: a byte load each and a multiply-accumulate.
 * Sums wrap as the TE kernel's int32 sums do. */
static inline void dw_sums4(const int8_t* const* tap, int32_t taps, int32_t c, const int8_t* wc,
                            int32_t step, int32_t sums[4]) {
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  for (; taps != 0; --taps, ++tap, wc += step) {
    const int8_t* xc = *tap + c;
    a0 += (uint32_t)(xc[0] * wc[0]);
    a1 += (uint32_t)(xc[1] * wc[1]);
    a2 += (uint32_t)(xc[2] * wc[2]);
    a3 += (uint32_t)(xc[3] * wc[3]);
  }
  sums[0] = (int32_t)a0;
  sums[1] = (int32_t)a1;
  sums[2] = (int32_t)a2;
  sums[3] = (int32_t)a3;
}
#endif

void ffi_core_depthwise_conv_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off,
                                int32_t q_off, int32_t batch, int32_t in_h, int32_t in_w,
                                int32_t ch, int32_t out_h, int32_t out_w, int32_t k_h, int32_t k_w,
                                int32_t stride_h, int32_t stride_w, int32_t dil_h, int32_t dil_w,
                                int32_t pad_h, int32_t pad_w, int32_t in_zp, int32_t out_zp,
                                int32_t lo, int32_t hi) {
  const int8_t* w = blob + w_off;
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  const int32_t taps = k_h * k_w;
  int8_t zeros[ch] __attribute__((aligned(4)));
  const int8_t* at[taps];
  /* Each channel's requantization, read once rather than once a pixel. */
  S8Channel chans[ch];
  for (int32_t c = 0; c < ch; ++c) {
    zeros[c] = (int8_t)in_zp;
    chans[c] = s8_channel(q + 3 * c);
  }
  for (int32_t b = 0; b < batch; ++b) {
    const int8_t* image = x + b * in_h * in_w * ch;
    for (int32_t oh = 0; oh < out_h; ++oh) {
      for (int32_t ow = 0; ow < out_w; ++ow) {
        int32_t t = 0;
        for (int32_t kh = 0; kh < k_h; ++kh) {
          const int32_t ih = oh * stride_h + kh * dil_h - pad_h;
          for (int32_t kw = 0; kw < k_w; ++kw) {
            const int32_t iw = ow * stride_w + kw * dil_w - pad_w;
            const int inside = ih >= 0 && ih < in_h && iw >= 0 && iw < in_w;
            at[t++] = inside ? image + (ih * in_w + iw) * ch : zeros;
          }
        }
        int8_t* out = y + ((b * out_h + oh) * out_w + ow) * ch;
        int32_t c = 0;
        for (; c + 4 <= ch; c += 4) {
          int32_t sums[4];
          dw_sums4(at, taps, c, w + c, ch, sums);
          out[c] = s8_requantize(sums[0], &chans[c], out_zp, lo, hi);
          out[c + 1] = s8_requantize(sums[1], &chans[c + 1], out_zp, lo, hi);
          out[c + 2] = s8_requantize(sums[2], &chans[c + 2], out_zp, lo, hi);
          out[c + 3] = s8_requantize(sums[3], &chans[c + 3], out_zp, lo, hi);
        }
        for (; c < ch; ++c) {
          int32_t a = 0;
          for (t = 0; t < taps; ++t) {
            a = (int32_t)((uint32_t)a + (uint32_t)(at[t][c] * w[t * ch + c]));
          }
          out[c] = s8_requantize(a, &chans[c], out_zp, lo, hi);
        }
      }
    }
  }
}

/* CONV_2D of int8 activations (NHWC) and int8 weights (OHWI), per-channel
 * requantization: what ffi_core_tvm's int8_kernels.conv2d computes, bit for
 * bit, as a matrix product (s8_gemm.h) over the inputs under each output
 * pixel's taps (im2col), three pixels at a time. A tap in the padding reads
 * the input's zero point, whose share the bias already cancels. On Helium
 * (MVE) the columns stay int8 (s8_gemm_mve.h), eight pixels a call, and a
 * 1x1 kernel without padding reads them in place, an output row a call. */
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
#include "s8_gemm_mve.h"
#else
#include "s8_gemm.h"
#endif

typedef struct {
  int32_t in_h, in_w, in_c, out_w, k_h, k_w, stride_h, stride_w, dil_h, dil_w, pad_h, pad_w;
  int32_t in_zp;
  int32_t row4;   /* non-MVE: a kernel row's inputs rounded up to a word (0: not read so) */
  int32_t packed; /* non-MVE: three rows of nine (3x3 over 3 channels) widened as 28 inputs */
} Geometry;

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 1)
/* n bytes from src: sixteen at a time, the rest under a tail predicate. */
static inline int8_t* copy_bytes(int8_t* dst, const int8_t* src, int32_t n) {
  int32_t i = 0;
  for (; i + 16 <= n; i += 16) vstrbq_s8(dst + i, vldrbq_s8(src + i));
  if (i < n) {
    const mve_pred16_t p = vctp8q((uint32_t)(n - i));
    vstrbq_p_s8(dst + i, vldrbq_z_s8(src + i, p), p);
  }
  return dst + n;
}

/* n of the byte v. */
static inline int8_t* fill_bytes(int8_t* dst, int8_t v, int32_t n) {
  const int8x16_t vv = vdupq_n_s8(v);
  for (int32_t i = 0; i < n; i += 16) vstrbq_p_s8(dst + i, vv, vctp8q((uint32_t)(n - i)));
  return dst + n;
}

/* Output pixel (oh, ow)'s column of image x: its taps' inputs gathered
 * into col, a kernel row's taps in one copy where they all lie inside the
 * input. */
static inline void im2col(const int8_t* x, int32_t oh, int32_t ow, const Geometry* g, int8_t* col) {
  const int32_t in_c = g->in_c;
  const int32_t ih0 = oh * g->stride_h - g->pad_h, iw0 = ow * g->stride_w - g->pad_w;
  const int8_t zp = (int8_t)g->in_zp;
  const int whole = g->dil_w == 1 && iw0 >= 0 && iw0 + g->k_w <= g->in_w;
  int8_t* at = col;
  for (int32_t kh = 0; kh < g->k_h; ++kh) {
    const int32_t ih = ih0 + kh * g->dil_h;
    if (ih < 0 || ih >= g->in_h) {
      at = fill_bytes(at, zp, g->k_w * in_c);
    } else if (whole) {
      at = copy_bytes(at, x + (ih * g->in_w + iw0) * in_c, g->k_w * in_c);
    } else {
      for (int32_t kw = 0; kw < g->k_w; ++kw) {
        const int32_t iw = iw0 + kw * g->dil_w;
        const int inside = iw >= 0 && iw < g->in_w;
        at = inside ? copy_bytes(at, x + (ih * g->in_w + iw) * in_c, in_c)
                    : fill_bytes(at, zp, in_c);
      }
    }
  }
}

/* Every output of the columns, in the call's requantization form. */
static inline void conv_gemm(S8Mode mode, const int8_t* w, const int8_t* x, int32_t n,
                             int32_t x_step, int32_t cols, int32_t channels, const S8Requant* rq,
                             int8_t* y) {
  if (mode == S8_TWICE && S8_FORM_BUILT(S8_TWICE)) {
    s8_gemm_twice(w, x, n, x_step, cols, channels, rq, y);
  } else if (mode == S8_TWICE_FIXED && S8_FORM_BUILT(S8_TWICE_FIXED)) {
    s8_gemm_twice_fixed(w, x, n, x_step, cols, channels, rq, y);
  } else {
    s8_gemm_twice_left(w, x, n, x_step, cols, channels, rq, y);
  }
}

/* Output pixels gathered a call, so that each block of channels reads its
 * requantization once for all of them. */
#define CONV_COLUMNS 8

static __attribute__((noinline)) void conv_channels(
    const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off, int32_t q_off, int32_t batch,
    int32_t in_h, int32_t in_w, int32_t in_c, int32_t out_h, int32_t out_w, int32_t out_c,
    int32_t k_h, int32_t k_w, int32_t stride_h, int32_t stride_w, int32_t dil_h, int32_t dil_w,
    int32_t pad_h, int32_t pad_w, int32_t in_zp, int32_t out_zp, int32_t lo, int32_t hi) {
  const Geometry g = {in_h,  in_w,  in_c,  out_w, k_h,   k_w, stride_h, stride_w,
                      dil_h, dil_w, pad_h, pad_w, in_zp, 0,   0};
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  const S8Requant rq = {q, out_zp, lo, hi};
  const S8Mode mode = s8_mode(q, out_c, 0);
  const int8_t* w = blob + w_off;
  const int32_t n = k_h * k_w * in_c, pixels = out_h * out_w;
  if (n == in_c && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0) {
    /* A 1x1 kernel's columns: the pixels themselves, in one call. */
    conv_gemm(mode, w, x, n, n, batch * pixels, out_c, &rq, y);
    return;
  }
  /* A 1x1 kernel without padding reads each output row's columns in
   * place; others gather CONV_COLUMNS pixels' columns a call. */
  const int in_place = n == in_c && pad_h == 0 && pad_w == 0;
  int8_t cols[in_place ? 1 : CONV_COLUMNS * n];
  for (int32_t b = 0; b < batch; ++b) {
    const int8_t* image = x + b * in_h * in_w * in_c;
    int8_t* out = y + b * pixels * out_c;
    int32_t held = 0;
    for (int32_t oh = 0; oh < out_h; ++oh) {
      if (in_place) {
        const int8_t* row = image + oh * stride_h * in_w * in_c;
        conv_gemm(mode, w, row, n, stride_w * in_c, out_w, out_c, &rq, out);
        out += out_w * out_c;
        continue;
      }
      for (int32_t ow = 0; ow < out_w; ++ow, out += out_c) {
        im2col(image, oh, ow, &g, cols + held * n);
        if (++held == CONV_COLUMNS) {
          conv_gemm(mode, w, cols, n, n, held, out_c, &rq, out - (held - 1) * out_c);
          held = 0;
        }
      }
    }
    if (held != 0) conv_gemm(mode, w, cols, n, n, held, out_c, &rq, out - held * out_c);
  }
}
#else
/* The most bytes of weights copied with each kernel row rounded up to a
 * word (im2col_rows): MobileNet's and ResNet's first layers take 288 and 576.
 * Only where SMLAD takes the extra products two at a time: without the DSP
 * extension they cost more than the byte gathers they save. The host's
 * kernel tests set it, to check the rows' arithmetic. */
#ifndef CONV_ROW_WEIGHTS
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
#define CONV_ROW_WEIGHTS 1024
#else
#define CONV_ROW_WEIGHTS 0
#endif
#endif

/* Three kernel rows of nine inputs (a 3x3 window over three channels, a
 * first layer's) at a, b and r widened into column c as 28 inputs, the 27
 * back to back (seven words: nine loads, two ORRs) and one past them, which
 * meets a weight of 0: seven groups where rows rounded to a word take nine.
 * Reads up to ten bytes from each row. */
static inline __attribute__((always_inline)) void widen_packed9(const int8_t* a, const int8_t* b,
                                                                const int8_t* r,
                                                                const S8Column* c) {
  uint16_t b78;
  memcpy(&b78, b + 7, 2);
  /* Each word widened as it is made, at the step of three interleaved
   * columns (conv_channels' own; a constant: immediate offsets). */
  int16_t* group = c->group;
  group = s8_widen_group(s8_load32(a), group, 12);
  group = s8_widen_group(s8_load32(a + 4), group, 12);
  group =
      s8_widen_group((int32_t)((uint32_t)(uint8_t)a[8] | (uint32_t)s8_load32(b) << 8), group, 12);
  group = s8_widen_group(s8_load32(b + 3), group, 12);
  group = s8_widen_group((int32_t)((uint32_t)b78 | (uint32_t)s8_load32(r) << 16), group, 12);
  group = s8_widen_group(s8_load32(r + 2), group, 12);
  s8_widen_group(s8_load32(r + 6), group, 12);
}

/* A window's kernel rows at window on, row4 inputs each (a multiple of 4,
 * the bytes past a row meeting weights of 0), widened into column c. */
static inline __attribute__((always_inline)) void widen_rows(const int8_t* window,
                                                             const Geometry* g, const S8Column* c) {
  const int32_t row_step = g->dil_h * g->in_w * g->in_c, row4 = g->row4, step = c->step;
  int16_t* group = c->group;
  if (g->packed) {
    widen_packed9(window, window + row_step, window + 2 * row_step, c);
    return;
  }
  if (row4 == 12) {
    /* Rows of three words (three taps of four channels; 10 or 11 inputs
     * rounded up). */
    for (int32_t kh = g->k_h; kh != 0; --kh, window += row_step) {
      group = s8_widen_group(s8_load32(window), group, step);
      group = s8_widen_group(s8_load32(window + 4), group, step);
      group = s8_widen_group(s8_load32(window + 8), group, step);
    }
    return;
  }
  for (int32_t kh = g->k_h; kh != 0; --kh, window += row_step) {
    group = s8_widen_groups(window, row4, group, step);
  }
}

/* im2col_rows where the window meets an edge: a kernel row in the input,
 * and whose words end inside the image, is read in place; others are
 * gathered into row first: the padding's taps the zero point, the taps
 * inside one run of bytes. Not inlined: few pixels come here. */
static __attribute__((noinline)) void im2col_rows_edge(const int8_t* x, const int8_t* end,
                                                       int32_t ih0, int32_t iw0, const Geometry* g,
                                                       const S8Column* c, int8_t* row) {
  const int32_t in_c = g->in_c, row4 = g->row4;
  const int8_t zp = (int8_t)g->in_zp;
  /* A kernel row's taps inside the input: kw0 to kw1 (dil_w is 1). */
  const int32_t kw0 = iw0 < 0 ? -iw0 : 0;
  const int32_t kw1 = iw0 + g->k_w > g->in_w ? g->in_w - iw0 : g->k_w;
  int16_t* group = c->group;
  for (int32_t kh = 0; kh < g->k_h; ++kh) {
    const int32_t ih = ih0 + kh * g->dil_h;
    const int32_t first = kw0 < kw1 && ih >= 0 && ih < g->in_h ? kw0 * in_c : row4;
    const int32_t last = first < row4 ? kw1 * in_c : row4;
    /* The first tap inside (none: the image's start, not read). */
    const int8_t* src = first < row4 ? x + (ih * g->in_w + iw0 + kw0) * in_c : x;
    if (!g->packed && first == 0 && last == g->k_w * in_c && end - src >= row4) {
      group = s8_widen_groups(src, row4, group, c->step);
      continue;
    }
    for (int32_t i = 0; i < first; ++i) row[i] = zp;
    for (int32_t i = first; i < last; ++i) row[i] = src[i - first];
    for (int32_t i = last; i < row4; ++i) row[i] = zp;
    /* Packed: the three rows gathered first, row4 (12) apart. */
    if (g->packed) {
      row += row4;
      continue;
    }
    group = s8_widen_groups(row, row4, group, c->step);
  }
  if (g->packed) widen_packed9(row - 3 * row4, row - 2 * row4, row - row4, c);
}

static void im2col(const int8_t* x, int32_t oh, int32_t ow, const Geometry* g, const S8Column* c,
                   int8_t* row);

/* Column c of output pixel (oh, ow) of image x (end: the image's end) where
 * each kernel row's k_w * in_c inputs are read as g->row4 bytes, a word at
 * a time (the whole window inside, as most pixels' is, in place). */
static inline __attribute__((always_inline)) void im2col_rows(const int8_t* x, const int8_t* end,
                                                              int32_t oh, int32_t ow,
                                                              const Geometry* g, const S8Column* c,
                                                              int8_t* row) {
  const int32_t iw0 = ow * g->stride_w - g->pad_w, ih0 = oh * g->stride_h - g->pad_h;
  const int32_t ih_last = ih0 + (g->k_h - 1) * g->dil_h;
  if (iw0 >= 0 && iw0 + g->k_w <= g->in_w && ih0 >= 0 && ih_last < g->in_h &&
      end - (x + (ih_last * g->in_w + iw0) * g->in_c) >= g->row4) {
    widen_rows(x + (ih0 * g->in_w + iw0) * g->in_c, g, c);
  } else if (g->in_c % 4 == 0) {
    /* Whole words a tap: the padding's are filled a word at a time. */
    im2col(x, oh, ow, g, c, row);
  } else {
    im2col_rows_edge(x, end, ih0, iw0, g, c, row);
  }
}

/* Column c of output pixel (oh, ow) of image x: its taps' inputs, widened
 * (row: scratch for the taps' bytes). */
static void im2col(const int8_t* x, int32_t oh, int32_t ow, const Geometry* g, const S8Column* c,
                   int8_t* row) {
  if (g->k_h == 1 && g->k_w == 1 && g->pad_h == 0 && g->pad_w == 0) {
    /* A 1x1 kernel without padding (strided: at stride 1 the caller widens
     * the pixels in place): one input pixel's channels, no bounds to test. */
    s8_widen(x + (oh * g->stride_h * g->in_w + ow * g->stride_w) * g->in_c, c, g->in_c);
    return;
  }
  if (g->in_c % 4 == 0) {
    const int32_t zeros = s8_bytes4(g->in_zp);
    int16_t* group = c->group;
    const int32_t step = c->step, in_c = g->in_c;
    /* A kernel row wholly inside the input: one run of its taps' inputs. */
    const int32_t iw0 = ow * g->stride_w - g->pad_w;
    const int whole = g->dil_w == 1 && iw0 >= 0 && iw0 + g->k_w <= g->in_w;
    for (int32_t kh = 0; kh < g->k_h; ++kh) {
      int32_t ih = oh * g->stride_h + kh * g->dil_h - g->pad_h;
      if (whole && ih >= 0 && ih < g->in_h) {
        group = s8_widen_groups(x + (ih * g->in_w + iw0) * in_c, g->k_w * in_c, group, step);
        continue;
      }
      for (int32_t kw = 0; kw < g->k_w; ++kw) {
        int32_t iw = iw0 + kw * g->dil_w;
        if (ih >= 0 && ih < g->in_h && iw >= 0 && iw < g->in_w) {
          group = s8_widen_groups(x + (ih * g->in_w + iw) * in_c, in_c, group, step);
        } else {
          for (int32_t ci = 0; ci < in_c; ci += 4) group = s8_widen_group(zeros, group, step);
        }
      }
    }
    return;
  }
  /* Channels not in fours: the taps' bytes gathered in order, then widened;
   * a kernel row wholly inside the input is one run of bytes. */
  int8_t* at = row;
  int32_t iw0 = ow * g->stride_w - g->pad_w, span = g->k_w * g->in_c;
  int32_t iw_last = iw0 + (g->k_w - 1) * g->dil_w;
  int whole_rows = g->dil_w == 1 && iw0 >= 0 && iw_last < g->in_w;
  for (int32_t kh = 0; kh < g->k_h; ++kh) {
    int32_t ih = oh * g->stride_h + kh * g->dil_h - g->pad_h;
    int row_inside = ih >= 0 && ih < g->in_h;
    if (row_inside && whole_rows) {
      /* A word at a time (s8_load32 / s8_store32: unaligned words). */
      const int8_t* src = x + (ih * g->in_w + iw0) * g->in_c;
      int32_t i = 0;
      for (; i + 4 <= span; i += 4) s8_store32(at + i, s8_load32(src + i));
      for (; i < span; ++i) at[i] = src[i];
      at += span;
      continue;
    }
    for (int32_t kw = 0; kw < g->k_w; ++kw) {
      int32_t iw = iw0 + kw * g->dil_w;
      /* A byte loop: a call to memcpy costs more than one or three bytes. */
      if (row_inside && iw >= 0 && iw < g->in_w) {
        const int8_t* src = x + (ih * g->in_w + iw) * g->in_c;
        for (int32_t ci = 0; ci < g->in_c; ++ci) *at++ = src[ci];
      } else {
        for (int32_t ci = 0; ci < g->in_c; ++ci) *at++ = (int8_t)g->in_zp;
      }
    }
  }
  s8_widen(row, c, g->k_h * g->k_w * g->in_c);
}

/* Each channel's outputs y[0][ch], y[1][ch] and y[2][ch] from the sums
 * of three columns side by side, a channel read once for all three; the
 * requantization's form and `full` (s8_clamp's) known to the loop, so that
 * no output tests them. */
static inline __attribute__((always_inline)) void requantize_in(const int32_t* sums,
                                                                const S8Channel* chans,
                                                                int32_t channels, int32_t lo,
                                                                int32_t hi, int8_t* const* y,
                                                                S8Form form, int full) {
  int8_t *y0 = y[0], *y1 = y[1], *y2 = y[2];
  int32_t ch = 0;
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  /* Four channels a word for each pixel (a loop test and three stores for
   * twelve outputs), clamped four bytes at once (s8_clamp4) rather than
   * each output twice compared, where the clamp is narrower than SSAT's. */
  const int32_t lo4 = s8_bytes4(lo), hi4 = s8_bytes4(hi);
  /* A channel's three sums loaded together, after its table (the
   * compiler would move each load to its use, where it takes two cycles
   * rather than one after a load). */
#define CONV_PACK(k, at)                                                          \
  do {                                                                            \
    const S8Channel c = chans[ch + k];                                            \
    int32_t s0, s1, s2;                                                           \
    __asm__("ldr %0, [%3, #" #k                                                   \
            " * 12]\n\t"                                                          \
            "ldr %1, [%3, #" #k                                                   \
            " * 12 + 4]\n\t"                                                      \
            "ldr %2, [%3, #" #k " * 12 + 8]"                                      \
            : "=&r"(s0), "=&r"(s1), "=&r"(s2)                                     \
            : "r"(sums), "m"(*(const int32_t(*)[3])(const void*)(sums + 3 * k))); \
    S8_PACK_BYTE(w0, s8_value(s0, &c, form), at);                                 \
    S8_PACK_BYTE(w1, s8_value(s1, &c, form), at);                                 \
    S8_PACK_BYTE(w2, s8_value(s2, &c, form), at);                                 \
  } while (0)
  /* S8_FOLDED's alone (S8_ANY's tables are not real models'): a loop
   * fewer in flash. */
  for (; form == S8_FOLDED && ch + 4 <= channels; ch += 4, sums += 12) {
    int32_t w0 = 0, w1 = 0, w2 = 0;
    CONV_PACK(0, 0);
    CONV_PACK(1, 8);
    CONV_PACK(2, 16);
    CONV_PACK(3, 24);
    s8_store32(y0 + ch, full ? w0 : s8_clamp4(w0, lo4, hi4));
    s8_store32(y1 + ch, full ? w1 : s8_clamp4(w1, lo4, hi4));
    s8_store32(y2 + ch, full ? w2 : s8_clamp4(w2, lo4, hi4));
  }
#undef CONV_PACK
#endif
  for (; ch < channels; ++ch, sums += 3) {
    /* A copy: the int8 stores could alias the table, and reload it. */
    const S8Channel c = chans[ch];
    y0[ch] = s8_out(sums[0], &c, form, lo, hi, full);
    y1[ch] = s8_out(sums[1], &c, form, lo, hi, full);
    y2[ch] = s8_out(sums[2], &c, form, lo, hi, full);
  }
}

/* Not inlined: the caller's frame, with its variable-length buffers,
 * would take a register. An S8_DOWN table takes S8_ANY: a loop fewer in
 * flash, for tables that real models' (S8_FOLDED's) are not. Where the
 * DSP extension is, an S8_FOLDED table under int8's own clamp comes here
 * only for an odd last channel or a tail of inputs (the pairs requantize
 * in the GEMM's loop): it takes the clamp, a loop fewer. */
static __attribute__((noinline)) void requantize(const int32_t* sums, const S8Channel* chans,
                                                 int32_t channels, S8Form form, int32_t lo,
                                                 int32_t hi, int8_t* const* y) {
#if !(defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP)
  const int full = lo == -128 && hi == 127;
  if (form == S8_FOLDED && full) {
    requantize_in(sums, chans, channels, lo, hi, y, S8_FOLDED, 1);
    return;
  }
#endif
  if (form == S8_FOLDED) {
    requantize_in(sums, chans, channels, lo, hi, y, S8_FOLDED, 0);
  } else {
    requantize_in(sums, chans, channels, lo, hi, y, S8_ANY, 0);
  }
}

static __attribute__((noinline)) void conv_channels(
    const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off, int32_t q_off, int32_t batch,
    int32_t in_h, int32_t in_w, int32_t in_c, int32_t out_h, int32_t out_w, int32_t out_c,
    int32_t k_h, int32_t k_w, int32_t stride_h, int32_t stride_w, int32_t dil_h, int32_t dil_w,
    int32_t pad_h, int32_t pad_w, int32_t in_zp, int32_t out_zp, int32_t lo, int32_t hi) {
  /* Where dil_w is 1, each kernel row's inputs are contiguous and read a
   * word at a time (im2col_rows), a window inside the input in place. Rows
   * not whole words (a first layer's 3 channels) are rounded up to row4,
   * against a copy of the weights with 0 in the extra places (when the copy
   * is small: it takes the stack). Otherwise taps are gathered one by one,
   * bytes where the channels are not in fours. */
  const int32_t span = k_w * in_c, row4 = (span + 3) & ~3;
  const int padded_rows = row4 != span && out_c * k_h * row4 <= CONV_ROW_WEIGHTS;
  const int rows = dil_w == 1 && k_h * k_w > 1 && (row4 == span || padded_rows);
  /* Three rows of nine (a 3x3 window over three channels) widened back to
   * back as 28 inputs (widen_packed9), where rounded up they take 36. */
  const int packed = rows && k_h == 3 && span == 9;
  const Geometry g = {in_h,  in_w,     in_c,     out_w,           k_h,
                      k_w,   stride_h, stride_w, dil_h,           dil_w,
                      pad_h, pad_w,    in_zp,    rows ? row4 : 0, packed};
  const int32_t n = packed ? 28 : rows ? k_h * row4 : k_h * k_w * in_c;
  /* Each channel's requantization derived once a call, not once a pixel. */
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  S8Channel chans[out_c];
  const int64_t bound = s8_sum_bound(n);
  for (int32_t c = 0; c < out_c; ++c) chans[c] = s8_channel_folded(q + 3 * c, out_zp, bound);
  const S8Form form = s8_form(chans, out_c);
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
  /* Channel pairs requantized in the product's own loop where the table is
   * S8_FOLDED, the clamp int8's range and n whole groups (real models'
   * layers): their sums stay in registers. */
  const int32_t pairs = out_c & ~1;
  const int fused =
      form == S8_FOLDED && lo == -128 && hi == 127 && n != 0 && (n & 3) == 0 && pairs != 0;
#endif
  const int8_t* w = blob + w_off;
  int32_t pixels = out_h * out_w;
  /* Each channel's weights in the columns' order: its kernel rows row4
   * apart (packed: back to back), 0 in the extra places. */
  int8_t padded[rows && padded_rows ? out_c * n : 1] __attribute__((aligned(4)));
  if (rows && padded_rows) {
    const int32_t at = packed ? span : row4;
    memset(padded, 0, sizeof padded);
    for (int32_t ch = 0; ch < out_c; ++ch) {
      for (int32_t kh = 0; kh < k_h; ++kh) {
        memcpy(padded + ch * n + kh * at, w + (ch * k_h + kh) * span, (size_t)span);
      }
    }
    w = padded;
  }
  /* Word aligned: the DSP kernels read it with LDRD. */
  int16_t buffer[3 * n] __attribute__((aligned(4)));
  int32_t sums[3 * out_c];
  /* The taps' bytes, gathered where the channels are not in fours or a
   * window's rows meet an edge. */
  int8_t row[in_c % 4 != 0 || rows ? k_h * row4 : 1] __attribute__((aligned(4)));
  const S8Column cols[3] = {s8_column(buffer, n, 3, 0), s8_column(buffer, n, 3, 1),
                            s8_column(buffer, n, 3, 2)};
  /* A 1x1 kernel at stride 1 without padding: each column one input
   * pixel's channels, widened here rather than in a call a pixel. */
  const int pointwise = n == in_c && stride_h == 1 && stride_w == 1 && pad_h == 0 && pad_w == 0;
  for (int32_t b = 0; b < batch; ++b) {
    const int8_t* image = x + b * in_h * in_w * in_c;
    const int8_t* end = image + in_h * in_w * in_c;
    int8_t* out = y + b * pixels * out_c;
    /* Three pixels a step; a last step short of three repeats its last
     * pixel (its outputs written again), so that every pixel takes the same
     * loops. (oh, ow): the next pixel's place, stepped rather than divided
     * out. */
    int32_t oh = 0, ow = 0;
    for (int32_t p = 0; p < pixels; p += 3) {
      const int32_t at[3] = {p, p + 1 < pixels ? p + 1 : p, p + 2 < pixels ? p + 2 : pixels - 1};
      for (int32_t j = 0; j < 3 && pointwise; ++j) {
        /* Whole groups four words an iteration, their step a constant. */
        const int8_t* src = image + at[j] * in_c;
        s8_widen_groups_by(src, n & ~3, cols[j].group, 12);
        s8_widen_tail(src, &cols[j], n);
      }
      for (int32_t j = 0; j < 3 && !pointwise; ++j) {
        if (rows) {
          im2col_rows(image, end, oh, ow, &g, &cols[j], row);
        } else {
          im2col(image, oh, ow, &g, &cols[j], row);
        }
        if (p + j + 1 < pixels && ++ow == out_w) {
          ow = 0;
          ++oh;
        }
      }
#if defined(__ARM_FEATURE_DSP) && __ARM_FEATURE_DSP
      if (fused) {
        int8_t* y0 = out + at[0] * out_c;
        const S8PairsOut o = {chans, y0, (at[1] - at[0]) * out_c, (at[2] - at[0]) * out_c, NULL};
        ffi_core_s8_pairs_3cols(w, buffer, n, pairs, o);
        if (pairs == out_c) continue;
        /* The odd channel's three, as below. */
        int8_t* const last[3] = {y0 + pairs, y0 + o.d1 + pairs, y0 + o.d2 + pairs};
        ffi_core_s8_sums_3cols(w + pairs * n, buffer, n, 1, sums);
        requantize(sums, chans + pairs, 1, form, lo, hi, last);
        continue;
      }
#endif
      ffi_core_s8_sums_3cols(w, buffer, n, out_c, sums);
      int8_t* const y3[3] = {out + at[0] * out_c, out + at[1] * out_c, out + at[2] * out_c};
      requantize(sums, chans, out_c, form, lo, hi, y3);
    }
  }
}
#endif

/* Each pixel's outputs, `live` a row (conv_channels' for the live
 * channels), spread in place to out_c a row, the pruned channels' constants
 * put between them: from the last row back, each row first a copy of a
 * whole row holding the constants (`ready`, words at a time), then its live
 * outputs stored at their channels, read before (a copy of them where the
 * row's own outputs lie in its place; every later row's lie past it). */
static void conv_spread(int8_t* y, int32_t rows, int32_t live, int32_t out_c, const int32_t* q,
                        int32_t out_zp, int32_t lo, int32_t hi) {
  const int32_t dead = out_c - live;
  uint16_t at[live]; /* the live outputs' channels */
  uint8_t pruned[out_c];
  int8_t ready[out_c] __attribute__((aligned(4)));
  int8_t kept[live] __attribute__((aligned(4)));
  /* Every place set, in bounds, whatever the marks. */
  memset(at, 0, sizeof at);
  memset(pruned, 0, sizeof pruned);
  memset(ready, 0, sizeof ready);
  for (int32_t r = 0; r < dead; ++r) {
    const int32_t* row = q + 3 * (live + r);
    const uint32_t c = (uint32_t)row[2] >> 16;
    const S8Channel chan = s8_channel(row, out_zp);
    const uint32_t place = c < (uint32_t)out_c ? c : 0;
    pruned[place] = 1;
    ready[place] = s8_requantize(0, &chan, lo, hi);
  }
  for (int32_t c = 0, k = 0; c < out_c && k < live; ++c) {
    if (!pruned[c]) at[k++] = (uint16_t)c;
  }
  for (int32_t p = rows - 1; p >= 0; --p) {
    const int8_t* src = y + p * live;
    int8_t* dst = y + p * out_c;
    if (p * out_c < (p + 1) * live) {
      memcpy(kept, src, (size_t)live);
      src = kept;
    }
    memcpy(dst, ready, (size_t)out_c);
    /* Four a step: the loads in a row, a loop branch for four. */
    int32_t k = live;
    for (; k >= 4; k -= 4) {
      const int8_t a = src[k - 1], b = src[k - 2], c = src[k - 3], d = src[k - 4];
      dst[at[k - 1]] = a;
      dst[at[k - 2]] = b;
      dst[at[k - 3]] = c;
      dst[at[k - 4]] = d;
    }
    for (; k > 0; --k) dst[at[k - 1]] = src[k - 1];
  }
}

/* The compile path (int8_kernels.conv2d_c_constants) drops the weights of a
 * channel whose weights are all 0 (a pruned one: its sum is 0 for every
 * input, its output one value), its table row after every live channel's,
 * marked (S8_TABLE_MARK) with its output channel (bits 16 on):
 * the live channels run as a layer of their own, then each row spreads. */
void ffi_core_conv_s8(const int8_t* x, const int8_t* blob, int8_t* y, int32_t w_off, int32_t q_off,
                      int32_t batch, int32_t in_h, int32_t in_w, int32_t in_c, int32_t out_h,
                      int32_t out_w, int32_t out_c, int32_t k_h, int32_t k_w, int32_t stride_h,
                      int32_t stride_w, int32_t dil_h, int32_t dil_w, int32_t pad_h, int32_t pad_w,
                      int32_t in_zp, int32_t out_zp, int32_t lo, int32_t hi) {
  const int32_t* q = (const int32_t*)(const void*)(blob + q_off);
  int32_t live = out_c;
  while (live > 0 && s8_table_marked(q + 3 * live - 3)) --live;
  if (live > 0) {
    conv_channels(x, blob, y, w_off, q_off, batch, in_h, in_w, in_c, out_h, out_w, live, k_h, k_w,
                  stride_h, stride_w, dil_h, dil_w, pad_h, pad_w, in_zp, out_zp, lo, hi);
  }
  if (live < out_c) conv_spread(y, batch * out_h * out_w, live, out_c, q, out_zp, lo, hi);
}

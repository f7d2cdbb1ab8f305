/*===- ConvDirectAvx512.c - Grouped convolutions computed directly ---------===*
 *
 * The AVX-512 variant of the grouped convolution (x86-64; Conv.c takes it
 * where the CPU has AVX-512F, the groups have few filters, in fours, and
 * the output rows 12 pixels or more): each output row in chunks of 16
 * columns, four chunks times four filters of a group in registers, no
 * im2col or packing.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/conv/ConvInternal.h"

#if defined(__x86_64__)

enum { DirectSlots = 4, DirectFilters = 4 };

/// Image `b`, group `g` of `d`.
__attribute__((target("avx512f,fma"))) static void
directConvGroup(const DirectConv *d, int64_t b, int64_t g) {
  const __m512i even = ONNXC_EVEN_LANES;
  const float *x = d->x + b * d->xStride[0] + g * d->xStride[1];
  const float *w = d->w + g * d->wStride[0];
  float *y = d->y + b * d->yStride[0] + g * d->yStride[1];
  const float *res =
      d->res ? d->res + b * d->resStride[0] + g * d->resStride[1] : NULL;
  const float *bias = d->bias ? d->bias + g * d->filters : NULL;
  int64_t chunks = (d->ow + 15) / 16, slots = d->oh * chunks;
  int64_t taps = d->channels * d->kh * d->kw, sw = d->strideW;
  int64_t ws = d->wStride[1], ys = d->yStride[2];
  __m512 lo = _mm512_set1_ps(d->lo), hi = _mm512_set1_ps(d->hi);
  for (int64_t s0 = 0; s0 < slots; s0 += DirectSlots) {
    // Slot q: row i, columns [j, j + n) (none past the last slot: it then
    // reads and stores nothing).
    const float *in[DirectSlots];
    int64_t out[DirectSlots];
    __mmask16 m0[DirectSlots], m1[DirectSlots], store[DirectSlots];
    for (int q = 0; q < DirectSlots; ++q) {
      int64_t s = s0 + q < slots ? s0 + q : s0;
      int64_t i = s / chunks, j = s % chunks * 16;
      int64_t n = s0 + q < slots ? (d->ow - j < 16 ? d->ow - j : 16) : 0;
      int64_t span = n ? (n - 1) * sw + 1 : 0;
      in[q] = x + i * d->strideH * d->xStride[3] + j * sw;
      out[q] = i * d->yStride[3] + j;
      store[q] = (__mmask16)((1u << n) - 1);
      m0[q] = (__mmask16)(span >= 16 ? 0xffff : (1u << span) - 1);
      m1[q] = (__mmask16)(span <= 16 ? 0 : (1u << (span - 16)) - 1);
    }
    for (int64_t f0 = 0; f0 < d->filters; f0 += DirectFilters) {
      __m512 acc[DirectFilters][DirectSlots];
      for (int f = 0; f < DirectFilters; ++f)
        for (int q = 0; q < DirectSlots; ++q)
          acc[f][q] = bias ? _mm512_set1_ps(bias[f0 + f])
                           : _mm512_maskz_loadu_ps(store[q],
                                                   y + (f0 + f) * ys + out[q]);
      const float *wf = w + f0 * ws;
      for (int64_t t = 0; t < taps; ++t) {
        __m512 xv[DirectSlots];
        for (int q = 0; q < DirectSlots; ++q) {
          const float *at = in[q] + d->tapIn[t];
          xv[q] = _mm512_maskz_loadu_ps(m0[q], at);
          if (sw == 2)
            xv[q] = _mm512_permutex2var_ps(
                xv[q], even, _mm512_maskz_loadu_ps(m1[q], at + 16));
        }
        const float *wt = wf + d->tapW[t];
        for (int f = 0; f < DirectFilters; ++f) {
          __m512 wv = _mm512_set1_ps(wt[f * ws]);
          for (int q = 0; q < DirectSlots; ++q)
            acc[f][q] = _mm512_fmadd_ps(wv, xv[q], acc[f][q]);
        }
      }
      for (int f = 0; f < DirectFilters; ++f)
        for (int q = 0; q < DirectSlots; ++q) {
          int64_t at = (f0 + f) * ys + out[q];
          __m512 v = acc[f][q];
          if (res)
            v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(store[q], res + at));
          if (d->clamp)
            v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
          _mm512_mask_storeu_ps(y + at, store[q], v);
        }
    }
  }
}

void onnxcRunDirectGroups(void *ctx, int64_t begin, int64_t end) {
  const DirectConv *d = ctx;
  for (int64_t task = begin; task < end; ++task)
    directConvGroup(d, task / d->groups, task % d->groups);
}

/// True when the direct kernel suits `d`: AVX-512, filters in fours, unit
/// column strides, a window column stride of 1 or 2, and rows of at least
/// 12 outputs (narrower ones leave most of each vector idle: their GEMM,
/// pixels x filters, pads less).
int onnxcPrefersDirectConv(const DirectConv *d, int64_t xColumnStride,
                           int64_t yColumnStride) {
  return __builtin_cpu_supports("avx512f") && d->filters % 4 == 0 &&
         d->filters <= 64 && xColumnStride == 1 && yColumnStride == 1 &&
         (d->strideW == 1 || d->strideW == 2) && d->ow >= 12;
}
#endif

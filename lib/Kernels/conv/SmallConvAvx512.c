/*===- SmallConvAvx512.c - Small-plane convolutions with AVX-512 -----------===*
 *
 * The AVX-512 variant of the plain convolution of small planes (SmallConv.c):
 * in the depthwise flat form, up to four vectors per plane, each input
 * channel's shifted plane loaded once per tap and multiplied into the sums
 * of up to 16 filters held in registers; no GEMM, im2col or padded copy.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/conv/ConvInternal.h"

#if defined(__x86_64__)

/// Filters [f0, f0 + G) of image `b` of `s` in its flat form, V vectors per
/// plane (both constants once inlined): the G x V sums stay in registers
/// over all channels and taps.
__attribute__((always_inline)) ONNXC_AVX512_DW static inline void
smallConvFilters(const SmallConv *s, int64_t b, int64_t f0, int V, int G) {
  const Depthwise *d = &s->d;
  const DepthwiseFlat *flat = s->flat;
  const float *x = d->x + b * d->xStride[0];
  const float *w = d->w + f0 * s->wStride[0];
  int64_t tail = d->oh * d->ow - 16 * (V - 1);
  __mmask16 last = (__mmask16)(tail >= 16 ? 0xffff : (1u << tail) - 1);
  // The sums start from the bias, or from the output.
  __m512 acc[16][SmallConvVectors];
  _Pragma("GCC unroll 16") for (int g = 0; g < G; ++g) {
    const float *out = d->y + b * d->yStride[0] + (f0 + g) * d->yStride[1];
    _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) acc[g][q] =
        d->bias
            ? _mm512_set1_ps(d->bias[f0 + g])
            : _mm512_maskz_loadu_ps(q == V - 1 ? last : 0xffff, out + 16 * q);
  }
  for (int64_t c = 0; c < d->channels; ++c) {
    const float *xc = x + c * d->xStride[1];
    const float *wc = w + c * s->wStride[1];
    for (int64_t t = 0; t < flat->taps; ++t) {
      const float *at = xc + flat->offset[t];
      const __mmask16 *mask = flat->mask + t * flat->vectors;
      __m512 in[SmallConvVectors];
      _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) in[q] =
          _mm512_maskz_loadu_ps(mask[q], at + 16 * q);
      const float *wt = wc + s->wTap[t];
      _Pragma("GCC unroll 16") for (int g = 0; g < G; ++g) {
        __m512 weight = _mm512_set1_ps(wt[g * s->wStride[0]]);
        _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) acc[g][q] =
            _mm512_fmadd_ps(weight, in[q], acc[g][q]);
      }
    }
  }
  _Pragma("GCC unroll 16") for (int g = 0; g < G; ++g) {
    int64_t at = b * d->yStride[0] + (f0 + g) * d->yStride[1];
    _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) finishDepthwiseAvx512(
        d, acc[g][q], d->res ? d->res + at + 16 * q : NULL, d->y + at + 16 * q,
        q == V - 1 ? last : 0xffff);
  }
}

/// Images [begin, end) of `s` in its flat form: its filters in groups of
/// the most that fit the registers, down to one.
ONNXC_AVX512_DW void onnxcSmallConvImagesAvx512(void *ctx, int64_t begin,
                                                int64_t end) {
  const SmallConv *s = ctx;
  int V = (int)s->flat->vectors;
  int most = SmallConvSums / V < 16 ? SmallConvSums / V : 16;
  static const int groups[] = {16, 12, 8, 6, 4, 3, 2, 1};
  for (int64_t b = begin; b < end; ++b)
    for (int64_t f0 = 0; f0 < s->filters;) {
      int64_t left = s->filters - f0;
      int G = 1;
      for (int i = 0; i < 8; ++i)
        if (groups[i] <= most && groups[i] <= left) {
          G = groups[i];
          break;
        }
      switch (V * 100 + G) {
#define ONNXC_SMALL_CONV(V, G)                                                 \
  case V * 100 + G:                                                            \
    smallConvFilters(s, b, f0, V, G);                                          \
    break;
#define ONNXC_SMALL_CONV_GROUPS(V)                                             \
  ONNXC_SMALL_CONV(V, 6)                                                       \
  ONNXC_SMALL_CONV(V, 4)                                                       \
  ONNXC_SMALL_CONV(V, 3) ONNXC_SMALL_CONV(V, 2) ONNXC_SMALL_CONV(V, 1)
        ONNXC_SMALL_CONV(1, 16)
        ONNXC_SMALL_CONV(1, 12)
        ONNXC_SMALL_CONV(1, 8)
        ONNXC_SMALL_CONV_GROUPS(1)
        ONNXC_SMALL_CONV(2, 12)
        ONNXC_SMALL_CONV(2, 8)
        ONNXC_SMALL_CONV_GROUPS(2)
        ONNXC_SMALL_CONV(3, 8)
        ONNXC_SMALL_CONV_GROUPS(3)
        ONNXC_SMALL_CONV_GROUPS(4)
#undef ONNXC_SMALL_CONV_GROUPS
#undef ONNXC_SMALL_CONV
      }
      f0 += G;
    }
}
#endif

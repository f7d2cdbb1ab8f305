/*===- Depthwise.c - Depthwise convolutions --------------------------------===*
 *
 * The function that `convert-linalg-to-kernel-calls` calls in place of f32
 * linalg.depthwise_conv_2d_nchw_chw, on an input read as if padded with
 * zeros (no padded copy). It picks the AVX-512 forms of DepthwiseAvx512.c
 * (sweep, flat or by rows) where the CPU has AVX-512F and the shape fits,
 * else the planes in C here, compiled for AVX2 + FMA and portable C (the
 * row loops vectorize). Also onnxcAveragePoolFlat, a same-size average
 * pooling as a depthwise convolution of 1/(kh kw) taps in the flat form.
 * Planes are spread over the current session's thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/conv/ConvInternal.h"

#include <stdlib.h>
#include <string.h>

/// True when every window lies inside the input (no padding is read).
static int windowsInside(const Depthwise *d) {
  return d->top == 0 && d->left == 0 &&
         (d->oh - 1) * d->strideH + (d->kh - 1) * d->dilationH < d->height &&
         (d->ow - 1) * d->strideW + (d->kw - 1) * d->dilationW < d->width;
}

/// out[0, n) (unit stride `ys` 1 or not) after its sums are in: + res, the
/// clamp, then HardSwish.
static void finishDepthwiseRow(const Depthwise *d, float *out, const float *res,
                               int64_t ys) {
  // (Scalars in locals: the stores to out could alias *d, and the loop
  // would reload them every element instead of vectorizing.)
  const float lo = d->lo, hi = d->hi, alpha = d->alpha, beta = d->beta;
  const int clamp = d->clamp, hardSwish = d->hardSwish;
  if (!res && !clamp && !hardSwish)
    return;
  const int64_t ow = d->ow;
  for (int64_t j = 0; j < ow; ++j) {
    float v = out[j * ys];
    if (res)
      v += res[j * ys];
    // Two selects each, not a chain: branch-free (a clamp's branches
    // mispredict on data of either sign), NaN kept.
    if (clamp) {
      v = v < lo ? lo : v;
      v = v > hi ? hi : v;
    }
    if (hardSwish) {
      float gate = v * alpha + beta;
      gate = gate < 0.0f ? 0.0f : gate;
      v *= gate > 1.0f ? 1.0f : gate;
    }
    out[j * ys] = v;
  }
}

/// The planes of one (image, channel) each in [begin, end), compiled once
/// per vector ISA (ATTR: its target attribute, and `static` for a copy that
/// only this file calls) so that the unit-stride row loops vectorize. Each
/// tap adds to the outputs whose input it reads inside the image (the
/// padding adds nothing).
#define ONNXC_DEPTHWISE_PLANES(NAME, ATTR)                                     \
  ATTR void NAME(const Depthwise *d, int64_t begin, int64_t end,               \
                 float *wide) {                                                \
    for (int64_t plane = begin; plane < end; ++plane) {                        \
      int64_t b = plane / d->channels, c = plane % d->channels;                \
      const float *x = d->x + b * d->xStride[0] + c * d->xStride[1];           \
      const float *w = d->w + c * d->wStride[0];                               \
      int64_t yAt = b * d->yStride[0] + c * d->yStride[1];                     \
      float *y = d->y + yAt;                                                   \
      const float *res = d->res ? d->res + yAt : NULL;                         \
      int64_t sw = d->strideW, xs = d->xStride[3], ys = d->yStride[3];         \
      if (d->bias)                                                             \
        for (int64_t i = 0; i < d->oh; ++i)                                    \
          for (int64_t j = 0; j < d->ow; ++j)                                  \
            y[i * d->yStride[2] + j * ys] = d->bias[c];                        \
      if (wide) {                                                              \
        /* Unit strides: rows of the input's full width, so that each tap      \
         * is one long loop over the plane; the valid columns are kept. */     \
        int64_t width = d->xStride[2], length = (d->oh - 1) * width + d->ow;   \
        for (int64_t j = 0; j < length; ++j)                                   \
          wide[j] = 0.0f;                                                      \
        for (int64_t u = 0; u < d->kh; ++u)                                    \
          for (int64_t v = 0; v < d->kw; ++v) {                                \
            float weight = w[u * d->wStride[1] + v * d->wStride[2]];           \
            const float *in = x + u * d->dilationH * width + v * d->dilationW; \
            for (int64_t j = 0; j < length; ++j)                               \
              wide[j] += weight * in[j];                                       \
          }                                                                    \
        for (int64_t i = 0; i < d->oh; ++i) {                                  \
          float *out = y + i * d->yStride[2];                                  \
          const float *sum = wide + i * width;                                 \
          for (int64_t j = 0; j < d->ow; ++j)                                  \
            out[j] += sum[j];                                                  \
          finishDepthwiseRow(d, out, res ? res + i * d->yStride[2] : NULL, 1); \
        }                                                                      \
        continue;                                                              \
      }                                                                        \
      for (int64_t i = 0; i < d->oh; ++i) {                                    \
        float *out = y + i * d->yStride[2];                                    \
        for (int64_t u = 0; u < d->kh; ++u) {                                  \
          int64_t r = i * d->strideH + u * d->dilationH - d->top;              \
          if (r < 0 || r >= d->height)                                         \
            continue;                                                          \
          for (int64_t v = 0; v < d->kw; ++v) {                                \
            float weight = w[u * d->wStride[1] + v * d->wStride[2]];           \
            int64_t first, last, at = v * d->dilationW - d->left;              \
            validRange(at, sw, d->width, d->ow, &first, &last);                \
            const float *in = x + r * d->xStride[2] + (at + first * sw) * xs;  \
            float *o = out + first * ys;                                       \
            if (sw * xs == 1 && ys == 1) {                                     \
              for (int64_t j = 0; j < last - first; ++j)                       \
                o[j] += weight * in[j];                                        \
            } else {                                                           \
              for (int64_t j = 0; j < last - first; ++j)                       \
                o[j * ys] += weight * in[j * sw * xs];                         \
            }                                                                  \
          }                                                                    \
        }                                                                      \
        finishDepthwiseRow(d, out, res ? res + i * d->yStride[2] : NULL, ys);  \
      }                                                                        \
    }                                                                          \
  }

ONNXC_DEPTHWISE_PLANES(onnxcDepthwisePlanes, )
#if defined(__x86_64__)
ONNXC_DEPTHWISE_PLANES(depthwisePlanesAvx2,
                       static __attribute__((target("avx2,fma"))))
#endif

#if defined(__x86_64__)
/// finishDepthwiseRow on 8 sums: + res (8 values, or NULL), the clamp, then
/// HardSwish; NaN stays NaN, as in the scalar form.
__attribute__((target("avx2,fma"))) static inline __m256
finishDepthwiseAvx2(const Depthwise *d, __m256 v, const float *res) {
  if (res)
    v = _mm256_add_ps(v, _mm256_loadu_ps(res));
  if (d->clamp)
    v = _mm256_min_ps(_mm256_set1_ps(d->hi),
                      _mm256_max_ps(_mm256_set1_ps(d->lo), v));
  if (d->hardSwish) {
    __m256 gate =
        _mm256_fmadd_ps(v, _mm256_set1_ps(d->alpha), _mm256_set1_ps(d->beta));
    gate = _mm256_min_ps(_mm256_set1_ps(1.0f),
                         _mm256_max_ps(_mm256_setzero_ps(), gate));
    v = _mm256_mul_ps(v, gate);
  }
  return v;
}
#endif

#if defined(__x86_64__)
/// The planes [begin, end) at column stride 1 or 2 (any row stride) over
/// unit-stride rows, with AVX2.
/// Each plane is first copied into `padded`, zeros around it, so that every
/// tap's load is a plain one; then each output row goes in chunks of up to
/// four vectors of 8 sums that stay in registers over all the taps (one
/// load and one FMA per tap and vector), starting from the bias (or, without
/// one, from the output), the epilogue applied before they are stored.
/// `padded` holds
/// `rows` x `width` floats.
/// Columns in[0], in[s], ..., in[7 s] for s = `stride` (1 or 2: two
/// loads, even lanes gathered by a shuffle and a permute).
__attribute__((target("avx2,fma"))) static inline __m256
loadColumnsAvx2(const float *in, int64_t stride) {
  if (stride == 1)
    return _mm256_loadu_ps(in);
  __m256 even = _mm256_shuffle_ps(_mm256_loadu_ps(in), _mm256_loadu_ps(in + 8),
                                  _MM_SHUFFLE(2, 0, 2, 0));
  return _mm256_castpd_ps(
      _mm256_permute4x64_pd(_mm256_castps_pd(even), _MM_SHUFFLE(3, 1, 2, 0)));
}

__attribute__((target("avx2,fma"))) static void
depthwiseAvx2(const Depthwise *d, int64_t begin, int64_t end, float *padded,
              int64_t rows, int64_t width) {
  const int64_t sw = d->strideW;
  for (int64_t plane = begin; plane < end; ++plane) {
    int64_t b = plane / d->channels, c = plane % d->channels;
    const float *x = d->x + b * d->xStride[0] + c * d->xStride[1];
    const float *w = d->w + c * d->wStride[0];
    int64_t yAt = b * d->yStride[0] + c * d->yStride[1];
    const float *res = d->res ? d->res + yAt : NULL;
    // Input row r at padded row r + top, column q at q + left.
    for (int64_t p = 0; p < rows * width; ++p)
      padded[p] = 0.0f;
    // The input rows and columns that land inside the buffer (the others
    // are read by no output), each row's run in one copy.
    int64_t rFirst = d->top < 0 ? -d->top : 0;
    int64_t rEnd = rows - d->top < d->height ? rows - d->top : d->height;
    int64_t qFirst = d->left < 0 ? -d->left : 0;
    int64_t qEnd = width - d->left < d->width ? width - d->left : d->width;
    if (qFirst < qEnd)
      for (int64_t r = rFirst; r < rEnd; ++r)
        memcpy(padded + (r + d->top) * width + qFirst + d->left,
               x + r * d->xStride[2] + qFirst,
               sizeof(float) * (size_t)(qEnd - qFirst));
    __m256 bias = _mm256_set1_ps(d->bias ? d->bias[c] : 0.0f);
    for (int64_t i = 0; i < d->oh; ++i) {
      float *out = d->y + yAt + i * d->yStride[2];
      for (int64_t j0 = 0; j0 < d->ow; j0 += 32) {
        int64_t n = d->ow - j0 < 32 ? d->ow - j0 : 32;
        // The sums start from the bias, or (no bias) from the output.
        float sums[32];
        __m256 a0 = bias, a1 = bias, a2 = bias, a3 = bias;
        if (!d->bias) {
          const float *from = out + j0;
          if (n < 32) {
            for (int64_t j = 0; j < 32; ++j)
              sums[j] = j < n ? out[j0 + j] : 0.0f;
            from = sums;
          }
          a0 = _mm256_loadu_ps(from);
          a1 = _mm256_loadu_ps(from + 8);
          a2 = _mm256_loadu_ps(from + 16);
          a3 = _mm256_loadu_ps(from + 24);
        }
        for (int64_t u = 0; u < d->kh; ++u) {
          const float *row =
              padded + (i * d->strideH + u * d->dilationH) * width + j0 * sw;
          for (int64_t v = 0; v < d->kw; ++v) {
            __m256 weight =
                _mm256_set1_ps(w[u * d->wStride[1] + v * d->wStride[2]]);
            const float *in = row + v * d->dilationW;
            a0 = _mm256_fmadd_ps(weight, loadColumnsAvx2(in, sw), a0);
            a1 = _mm256_fmadd_ps(weight, loadColumnsAvx2(in + 8 * sw, sw), a1);
            a2 = _mm256_fmadd_ps(weight, loadColumnsAvx2(in + 16 * sw, sw), a2);
            a3 = _mm256_fmadd_ps(weight, loadColumnsAvx2(in + 24 * sw, sw), a3);
          }
        }
        // The epilogue in registers (the residual of a last chunk through
        // a copy, so that no load runs past the row).
        const float *r = res ? res + i * d->yStride[2] + j0 : NULL;
        float rest[32];
        if (r && n < 32) {
          for (int64_t j = 0; j < 32; ++j)
            rest[j] = j < n ? r[j] : 0.0f;
          r = rest;
        }
        a0 = finishDepthwiseAvx2(d, a0, r);
        a1 = finishDepthwiseAvx2(d, a1, r ? r + 8 : NULL);
        a2 = finishDepthwiseAvx2(d, a2, r ? r + 16 : NULL);
        a3 = finishDepthwiseAvx2(d, a3, r ? r + 24 : NULL);
        if (n == 32) {
          _mm256_storeu_ps(out + j0, a0);
          _mm256_storeu_ps(out + j0 + 8, a1);
          _mm256_storeu_ps(out + j0 + 16, a2);
          _mm256_storeu_ps(out + j0 + 24, a3);
        } else {
          _mm256_storeu_ps(sums, a0);
          _mm256_storeu_ps(sums + 8, a1);
          _mm256_storeu_ps(sums + 16, a2);
          _mm256_storeu_ps(sums + 24, a3);
          for (int64_t j = 0; j < n; ++j)
            out[j0 + j] = sums[j];
        }
      }
    }
  }
}
#endif

static void runDepthwise(void *ctx, int64_t begin, int64_t end) {
  const Depthwise *d = ctx;
#if defined(__x86_64__)
  // Column stride 1 or 2 over unit-stride rows: the padded plane with AVX2.
  // Its rows cover every tap of every output row; its width every tap of
  // the output rounded up to whole chunks of 32 (and, at stride 2, the
  // second load of the last vector).
  if ((d->strideW == 1 || d->strideW == 2) && d->xStride[3] == 1 &&
      d->yStride[3] == 1 && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma")) {
    int64_t rows = (d->oh - 1) * d->strideH + (d->kh - 1) * d->dilationH + 1;
    int64_t width =
        (d->ow + 31) / 32 * 32 * d->strideW + (d->kw - 1) * d->dilationW + 8;
    float *padded = malloc(sizeof(float) * (size_t)(rows * width));
    if (padded) {
      depthwiseAvx2(d, begin, end, padded, rows, width);
      free(padded);
      return;
    }
  }
#endif
  // Stride 1 over contiguous rows without padding: the wide form (one plane
  // of the input's width per call of this function).
  float *wide = NULL;
  if (d->strideH == 1 && d->strideW == 1 && d->xStride[3] == 1 &&
      d->yStride[3] == 1 && d->xStride[2] >= d->ow && windowsInside(d))
    wide = malloc(sizeof(float) * (size_t)(d->oh * d->xStride[2]));
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    depthwisePlanesAvx2(d, begin, end, wide);
  else
#endif
    onnxcDepthwisePlanes(d, begin, end, wide);
  free(wide);
}

int onnxcAveragePoolFlat(const float *x, float *y, int64_t images,
                         int64_t channels, int64_t h, int64_t w, int64_t kh,
                         int64_t kw, int64_t dh, int64_t dw, int64_t top,
                         int64_t left, const int64_t xs[4],
                         const int64_t ys[4]) {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("avx512f") || kh * kw > DepthwiseMaxTaps ||
      images <= 0 || channels <= 0)
    return 0;
  // Every filter is the same kh x kw taps of 1 / (kh kw) (wStride 0), from
  // a bias of zeros.
  float *weights = malloc(sizeof(float) * (size_t)(kh * kw + channels));
  if (!weights)
    return 0;
  float *zeros = weights + kh * kw;
  for (int64_t t = 0; t < kh * kw; ++t)
    weights[t] = 1.0f / (float)(kh * kw);
  for (int64_t c = 0; c < channels; ++c)
    zeros[c] = 0.0f;
  Depthwise d = {.x = x,
                 .w = weights,
                 .bias = zeros,
                 .y = y,
                 .channels = channels,
                 .kh = kh,
                 .kw = kw,
                 .oh = h,
                 .ow = w,
                 .height = h,
                 .width = w,
                 .top = top,
                 .left = left,
                 .xStride = {xs[0], xs[1], xs[2], xs[3]},
                 .wStride = {0, kw, 1},
                 .yStride = {ys[0], ys[1], ys[2], ys[3]},
                 .strideH = 1,
                 .strideW = 1,
                 .dilationH = dh,
                 .dilationW = dw};
  const DepthwiseFlat *flat = onnxcDepthwiseFlat(&d);
  if (flat) {
    DepthwiseAvx512 k = {&d, NULL, flat, 0};
    runPlanes(onnxcRunDepthwiseAvx512, &k, images * channels,
              (double)(images * channels * h * w * kh * kw));
  }
  free(weights);
  return flat != NULL;
#else
  (void)x, (void)y, (void)images, (void)channels, (void)h, (void)w, (void)kh,
      (void)kw, (void)dh, (void)dw, (void)top, (void)left, (void)xs, (void)ys;
  return 0;
#endif
}

void onnxc_kernel_depthwise_conv2d_nchw_chw_f32(
    ONNXC_MEMREF4(x), ONNXC_MEMREF3(w), ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
    ONNXC_MEMREF4(res), int64_t strideH, int64_t strideW, int64_t dilationH,
    int64_t dilationW, int64_t padTop, int64_t padLeft, int64_t flags, float lo,
    float hi, float alpha, float beta) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)xSize1,
      (void)wSize0, (void)ySize1, (void)biasAlloc, (void)biasSize0,
      (void)biasStride0, (void)resAlloc, (void)resSize0, (void)resSize1,
      (void)resSize2, (void)resSize3, (void)resStride0, (void)resStride1,
      (void)resStride2, (void)resStride3;
  Depthwise d = {ONNXC_PADDED_CONV_FIELDS,
                 .channels = ySize1,
                 .kh = wSize1,
                 .kw = wSize2,
                 .wStride = {wStride0, wStride1, wStride2},
                 .alpha = alpha,
                 .beta = beta};
  int64_t planes = ySize0 * ySize1;
  double work = (double)planes * (double)(ySize2 * ySize3 * wSize1 * wSize2);
  if (planes <= 0 || ySize2 <= 0 || ySize3 <= 0)
    return;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && xStride3 == 1 && yStride3 == 1 &&
      (strideW == 1 || strideW == 2) && wSize1 * wSize2 <= DepthwiseMaxTaps) {
    if (onnxcDepthwiseSweepFits(&d)) {
      DepthwiseAvx512 k = {&d, NULL, NULL, 1};
      runPlanes(onnxcRunDepthwiseAvx512, &k, planes, work);
      return;
    }
    const DepthwiseFlat *flat = onnxcDepthwiseFlat(&d);
    if (flat) {
      DepthwiseAvx512 k = {&d, NULL, flat, 0};
      runPlanes(onnxcRunDepthwiseAvx512, &k, planes, work);
      return;
    }
    DepthwiseMasks *masks = malloc(sizeof(DepthwiseMasks));
    int64_t *rows = malloc(sizeof(int64_t) * 2 * (size_t)ySize2);
    if (masks && rows) {
      masks->rowFirst = rows;
      masks->rowLast = rows + ySize2;
    }
    if (masks && rows && onnxcInitDepthwiseMasks(&d, masks)) {
      DepthwiseAvx512 k = {&d, masks, NULL, 0};
      runPlanes(onnxcRunDepthwiseAvx512, &k, planes, work);
      free(rows);
      free(masks);
      return;
    }
    free(rows);
    free(masks);
  }
#endif
  runPlanes(runDepthwise, &d, planes, work);
}

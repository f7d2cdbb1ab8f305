/*===- Kernels.c - Entry points of lowered linalg ops ----------------------===*
 *
 * The functions that `convert-linalg-to-kernel-calls` calls in place of f32
 * matmuls and convolutions. Each receives its memrefs as expanded
 * descriptors, builds the offset tables of the GEMM in Gemm.c and runs it;
 * depthwise convolution has a direct kernel here. Work is spread over the
 * current session's thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "Kernels.h"

#include <math.h>
#include <stdlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum {
  FlagRelu = 1, // matmuls: max(., 0); convolutions: clamp to [lo, hi]
  FlagConstFirst = 2,
  FlagConstSecond = 4,
  FlagBias = 8,
  FlagResidual = 16
};

/// Offset tables live in one allocation; a failed allocation leaves the
/// result untouched, which the models cannot report (nor can they survive
/// it elsewhere: every lowered op allocates).
static int64_t *allocOffsets(int64_t count) {
  return malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
}

static void fillStrided(int64_t *table, int64_t n, int64_t stride) {
  for (int64_t i = 0; i < n; ++i)
    table[i] = i * stride;
}

/// The GEMM of strided matrices (row and column strides), its offset tables
/// in `t` (2 (m + k + n) values); the flags' clamp is max(., 0).
static OnnxcGemm stridedGemm(int64_t *t, int64_t m, int64_t n, int64_t k,
                             const float *a, int64_t aRows, int64_t aCols,
                             const float *b, int64_t bRows, int64_t bCols,
                             float *c, int64_t cRows, int64_t cCols,
                             int64_t flags) {
  int64_t *aRow = t, *aCol = aRow + m, *bRow = aCol + k, *bCol = bRow + k,
          *cRow = bCol + n, *cCol = cRow + m;
  fillStrided(aRow, m, aRows);
  fillStrided(aCol, k, aCols);
  fillStrided(bRow, k, bRows);
  fillStrided(bCol, n, bCols);
  fillStrided(cRow, m, cRows);
  fillStrided(cCol, n, cCols);
  return (OnnxcGemm){.m = m,
                     .n = n,
                     .k = k,
                     .a = a,
                     .aRow = aRow,
                     .aCol = aCol,
                     .b = b,
                     .bRow = bRow,
                     .bCol = bCol,
                     .c = c,
                     .cRow = cRow,
                     .cCol = cCol,
                     .clamp = (flags & FlagRelu) != 0,
                     .lo = 0.0f,
                     .hi = INFINITY,
                     .constA = (flags & FlagConstFirst) != 0,
                     .constB = (flags & FlagConstSecond) != 0};
}

void onnxc_kernel_matmul_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF2(b),
                             ONNXC_MEMREF2(c), int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)cSize0,
      (void)cSize1;
  int64_t m = aSize0, k = aSize1, n = bSize1;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  OnnxcGemm g =
      stridedGemm(t, m, n, k, a + aOff, aStride0, aStride1, b + bOff, bStride0,
                  bStride1, c + cOff, cStride0, cStride1, flags);
  onnxcGemm(&g);
  free(t);
}

void onnxc_kernel_matmul_packed_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF1(b),
                                    ONNXC_MEMREF2(c), int64_t n, int64_t nr,
                                    int64_t kcBlock, int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)bStride0,
      (void)cSize0, (void)cSize1;
  int64_t m = aSize0, k = aSize1;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  OnnxcGemm g = stridedGemm(t, m, n, k, a + aOff, aStride0, aStride1, NULL, 0,
                            0, c + cOff, cStride0, cStride1, flags);
  g.constB = 0;
  onnxcGemmPacked(&g, b + bOff, (int)nr, kcBlock);
  free(t);
}

typedef struct {
  OnnxcGemm g;
  int64_t aBatch, bBatch, cBatch;
} BatchGemm;

static void runBatches(void *ctx, int64_t begin, int64_t end) {
  const BatchGemm *batch = ctx;
  for (int64_t i = begin; i < end; ++i) {
    OnnxcGemm g = batch->g;
    g.a += i * batch->aBatch;
    g.b += i * batch->bBatch;
    g.c += i * batch->cBatch;
    onnxcGemm(&g);
  }
}

void onnxc_kernel_batch_matmul_f32(ONNXC_MEMREF3(a), ONNXC_MEMREF3(b),
                                   ONNXC_MEMREF3(c), int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)bSize1,
      (void)cSize0, (void)cSize1, (void)cSize2;
  int64_t batches = aSize0, m = aSize1, k = aSize2, n = bSize2;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  // Each batch reads other matrices, so none is kept packed.
  BatchGemm batch = {stridedGemm(t, m, n, k, a + aOff, aStride1, aStride2,
                                 b + bOff, bStride1, bStride2, c + cOff,
                                 cStride1, cStride2, flags & FlagRelu),
                     aStride0, bStride0, cStride0};
  // Small products: one per thread; large ones: each over the whole pool.
  if ((double)m * (double)n * (double)k < 1e6)
    onnxc_parallel_for(onnxc_current_threadpool(), batches, runBatches,
                       &batch);
  else
    runBatches(&batch, 0, batches);
  free(t);
}

void onnxc_kernel_conv2d_nchw_fchw_f32(ONNXC_MEMREF4(x), ONNXC_MEMREF4(w),
                                       ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
                                       ONNXC_MEMREF4(res), int64_t strideH,
                                       int64_t strideW, int64_t dilationH,
                                       int64_t dilationW, int64_t flags,
                                       float lo, float hi) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)xSize1,
      (void)xSize2, (void)xSize3, (void)wSize1, (void)ySize1, (void)biasAlloc,
      (void)biasSize0, (void)resAlloc, (void)resSize0, (void)resSize1,
      (void)resSize2, (void)resSize3, (void)resStride1, (void)resStride2,
      (void)resStride3;
  // The bias is read with unit stride (the pass passes a contiguous one);
  // the residual shares the output's strides.
  (void)biasStride0;
  int64_t batches = ySize0, filters = wSize0, channels = wSize1;
  int64_t kh = wSize2, kw = wSize3, oh = ySize2, ow = ySize3;
  int64_t m = filters, k = channels * kh * kw, n = oh * ow;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  int64_t *aRow = t, *aCol = aRow + m, *bRow = aCol + k, *bCol = bRow + k,
          *cRow = bCol + n, *cCol = cRow + m;
  // A: the filters as [F, C * kH * kW]; B: the implicit im2col matrix
  // [C * kH * kW, OH * OW] of one image; C: that image's [F, OH * OW].
  fillStrided(aRow, m, wStride0);
  fillStrided(cRow, m, yStride1);
  for (int64_t c = 0, p = 0; c < channels; ++c)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j, ++p) {
        aCol[p] = c * wStride1 + i * wStride2 + j * wStride3;
        bRow[p] = c * xStride1 + i * dilationH * xStride2 +
                  j * dilationW * xStride3;
      }
  for (int64_t i = 0, q = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j, ++q) {
      bCol[q] = i * strideH * xStride2 + j * strideW * xStride3;
      cCol[q] = i * yStride2 + j * yStride3;
    }
  // Few pixels (or few filters) pad the micro-tiles less the other way
  // round: C' = [OH * OW, F] = im2col' filters', the filters along the
  // vectors.
  int transposed = onnxcGemmPrefersTransposed(m, n);
  for (int64_t b = 0; b < batches; ++b) {
    OnnxcGemm g = {.m = m,
                   .n = n,
                   .k = k,
                   .a = w + wOff,
                   .aRow = aRow,
                   .aCol = aCol,
                   .b = x + xOff + b * xStride0,
                   .bRow = bRow,
                   .bCol = bCol,
                   .c = y + yOff + b * yStride0,
                   .cRow = cRow,
                   .cCol = cCol,
                   .bias = flags & FlagBias ? bias + biasOff : NULL,
                   .res = flags & FlagResidual ? res + resOff + b * resStride0
                                               : NULL,
                   .clamp = (flags & FlagRelu) != 0,
                   .lo = lo,
                   .hi = hi,
                   .constA = (flags & FlagConstSecond) != 0};
    if (transposed) {
      OnnxcGemm gt = g;
      gt.m = n;
      gt.n = m;
      gt.a = g.b;
      gt.aRow = bCol;
      gt.aCol = bRow;
      gt.b = g.a;
      gt.bRow = aCol;
      gt.bCol = aRow;
      gt.cRow = cCol;
      gt.cCol = cRow;
      gt.biasColumns = 1;
      gt.constA = 0;
      gt.constB = g.constA;
      g = gt;
    }
    onnxcGemm(&g);
  }
  free(t);
}

/// fn over the planes [0, planes) on the session's thread pool, or serially
/// when the `work` (in elements or multiply-adds) is too small to share.
static void runPlanes(onnxc_range_fn fn, void *ctx, int64_t planes,
                      double work) {
  if (work < 1e5)
    fn(ctx, 0, planes);
  else
    onnxc_parallel_for(onnxc_current_threadpool(), planes, fn, ctx);
}

typedef struct {
  const float *x, *w, *bias, *res;
  float *y;
  int64_t channels, kh, kw, oh, ow;
  int64_t xStride[4], wStride[3], yStride[4];
  int64_t strideH, strideW, dilationH, dilationW;
  int clamp;
  float lo, hi;
} Depthwise;

/// out[0, n) (unit stride `ys` 1 or not) after its sums are in: + res, then
/// the clamp.
static void finishDepthwiseRow(const Depthwise *d, float *out, const float *res,
                               int64_t ys) {
  for (int64_t j = 0; j < d->ow; ++j) {
    float v = out[j * ys];
    if (res)
      v += res[j * ys];
    if (d->clamp)
      v = v < d->lo ? d->lo : v > d->hi ? d->hi : v;
    out[j * ys] = v;
  }
}

/// The planes of one (image, channel) each in [begin, end), compiled once
/// per vector ISA (ATTR) so that the unit-stride row loop vectorizes.
#define ONNXC_DEPTHWISE_PLANES(NAME, ATTR)                                     \
  ATTR static void NAME(const Depthwise *d, int64_t begin, int64_t end,        \
                        float *wide) {                                         \
    for (int64_t plane = begin; plane < end; ++plane) {                        \
      int64_t b = plane / d->channels, c = plane % d->channels;                \
      const float *x = d->x + b * d->xStride[0] + c * d->xStride[1];           \
      const float *w = d->w + c * d->wStride[0];                               \
      int64_t yAt = b * d->yStride[0] + c * d->yStride[1];                     \
      float *y = d->y + yAt;                                                   \
      const float *res = d->res ? d->res + yAt : NULL;                         \
      int64_t xs = d->strideW * d->xStride[3], ys = d->yStride[3];             \
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
          const float *row =                                                   \
              x + (i * d->strideH + u * d->dilationH) * d->xStride[2];         \
          for (int64_t v = 0; v < d->kw; ++v) {                                \
            float weight = w[u * d->wStride[1] + v * d->wStride[2]];           \
            const float *in = row + v * d->dilationW * d->xStride[3];          \
            if (xs == 1 && ys == 1) {                                          \
              for (int64_t j = 0; j < d->ow; ++j)                              \
                out[j] += weight * in[j];                                      \
            } else {                                                           \
              for (int64_t j = 0; j < d->ow; ++j)                              \
                out[j * ys] += weight * in[j * xs];                            \
            }                                                                  \
          }                                                                    \
        }                                                                      \
        finishDepthwiseRow(d, out, res ? res + i * d->yStride[2] : NULL, ys);  \
      }                                                                        \
    }                                                                          \
  }

ONNXC_DEPTHWISE_PLANES(depthwisePlanes, )
#if defined(__x86_64__)
ONNXC_DEPTHWISE_PLANES(depthwisePlanesAvx2, __attribute__((target("avx2,fma"))))

/// AVX-512, for unit column strides of input and output and a column stride
/// of the window of 1 or 2: each output row in vectors of 16 columns, the
/// sums in registers from the bias (or the output) to the clamp.
__attribute__((target("avx512f,fma"))) static void
depthwisePlanesAvx512(const Depthwise *d, int64_t begin, int64_t end) {
  enum { MaxTaps = 64 };
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12,
                                        10, 8, 6, 4, 2, 0);
  int64_t taps = d->kh * d->kw, sw = d->strideW;
  for (int64_t plane = begin; plane < end; ++plane) {
    int64_t b = plane / d->channels, c = plane % d->channels;
    const float *x = d->x + b * d->xStride[0] + c * d->xStride[1];
    const float *w = d->w + c * d->wStride[0];
    int64_t yAt = b * d->yStride[0] + c * d->yStride[1];
    __m512 weight[MaxTaps];
    int64_t offset[MaxTaps];
    for (int64_t u = 0, t = 0; u < d->kh; ++u)
      for (int64_t v = 0; v < d->kw; ++v, ++t) {
        weight[t] = _mm512_set1_ps(w[u * d->wStride[1] + v * d->wStride[2]]);
        offset[t] = u * d->dilationH * d->xStride[2] + v * d->dilationW;
      }
    __m512 lo = _mm512_set1_ps(d->lo), hi = _mm512_set1_ps(d->hi);
    __m512 init = _mm512_set1_ps(d->bias ? d->bias[c] : 0.0f);
    for (int64_t i = 0; i < d->oh; ++i) {
      const float *row = x + i * d->strideH * d->xStride[2];
      float *out = d->y + yAt + i * d->yStride[2];
      const float *res = d->res ? d->res + yAt + i * d->yStride[2] : NULL;
      for (int64_t j = 0; j < d->ow; j += 16) {
        int64_t n = d->ow - j < 16 ? d->ow - j : 16;
        __mmask16 mask = (__mmask16)((1u << n) - 1);
        __m512 acc = d->bias ? init : _mm512_maskz_loadu_ps(mask, out + j);
        if (sw == 1) {
          for (int64_t t = 0; t < taps; ++t)
            acc = _mm512_fmadd_ps(
                weight[t], _mm512_maskz_loadu_ps(mask, row + offset[t] + j),
                acc);
        } else {
          // Columns 2j, 2j + 2, ...: the even lanes of two loads.
          int64_t span = 2 * n - 1;
          __mmask16 m0 = (__mmask16)(span >= 16 ? 0xffff : (1u << span) - 1);
          __mmask16 m1 = (__mmask16)(span <= 16 ? 0 : (1u << (span - 16)) - 1);
          for (int64_t t = 0; t < taps; ++t) {
            const float *in = row + offset[t] + 2 * j;
            __m512 v =
                _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(m0, in), even,
                                       _mm512_maskz_loadu_ps(m1, in + 16));
            acc = _mm512_fmadd_ps(weight[t], v, acc);
          }
        }
        if (res)
          acc = _mm512_add_ps(acc, _mm512_maskz_loadu_ps(mask, res + j));
        if (d->clamp)
          acc = _mm512_min_ps(_mm512_max_ps(acc, lo), hi);
        _mm512_mask_storeu_ps(out + j, mask, acc);
      }
    }
  }
}
#endif

static void runDepthwise(void *ctx, int64_t begin, int64_t end) {
  const Depthwise *d = ctx;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && d->xStride[3] == 1 &&
      d->yStride[3] == 1 && (d->strideW == 1 || d->strideW == 2) &&
      d->kh * d->kw <= 64) {
    depthwisePlanesAvx512(d, begin, end);
    return;
  }
#endif
  // Stride 1 over contiguous rows: the wide form (one plane of the input's
  // width per call of this function).
  float *wide = NULL;
  if (d->strideH == 1 && d->strideW == 1 && d->xStride[3] == 1 &&
      d->yStride[3] == 1 && d->xStride[2] >= d->ow)
    wide = malloc(sizeof(float) * (size_t)(d->oh * d->xStride[2]));
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    depthwisePlanesAvx2(d, begin, end, wide);
  else
#endif
    depthwisePlanes(d, begin, end, wide);
  free(wide);
}

void onnxc_kernel_depthwise_conv2d_nchw_chw_f32(
    ONNXC_MEMREF4(x), ONNXC_MEMREF3(w), ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
    ONNXC_MEMREF4(res), int64_t strideH, int64_t strideW, int64_t dilationH,
    int64_t dilationW, int64_t flags, float lo, float hi) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)xSize1,
      (void)xSize2, (void)xSize3, (void)wSize0, (void)ySize1, (void)biasAlloc,
      (void)biasSize0, (void)biasStride0, (void)resAlloc, (void)resSize0,
      (void)resSize1, (void)resSize2, (void)resSize3, (void)resStride0,
      (void)resStride1, (void)resStride2, (void)resStride3;
  Depthwise d = {.x = x + xOff,
                 .w = w + wOff,
                 .bias = flags & FlagBias ? bias + biasOff : NULL,
                 .res = flags & FlagResidual ? res + resOff : NULL,
                 .y = y + yOff,
                 .channels = ySize1,
                 .kh = wSize1,
                 .kw = wSize2,
                 .oh = ySize2,
                 .ow = ySize3,
                 .xStride = {xStride0, xStride1, xStride2, xStride3},
                 .wStride = {wStride0, wStride1, wStride2},
                 .yStride = {yStride0, yStride1, yStride2, yStride3},
                 .strideH = strideH,
                 .strideW = strideW,
                 .dilationH = dilationH,
                 .dilationW = dilationW,
                 .clamp = (flags & FlagRelu) != 0,
                 .lo = lo,
                 .hi = hi};
  int64_t planes = ySize0 * ySize1;
  runPlanes(runDepthwise, &d, planes,
            (double)planes * (double)(ySize2 * ySize3 * wSize1 * wSize2));
}

typedef struct {
  const float *src;
  float *dst;
  int64_t channels, top, left, srcH, srcW, dstH, dstW;
  int64_t srcStride[4], dstStride[4];
  float value;
} Pad;

/// row[0, n) = value, at unit stride when `stride` is 1 (so it vectorizes).
static void fillRow(float *row, int64_t n, int64_t stride, float value) {
  if (stride == 1) {
    for (int64_t w = 0; w < n; ++w)
      row[w] = value;
    return;
  }
  for (int64_t w = 0; w < n; ++w)
    row[w * stride] = value;
}

static void runPad(void *ctx, int64_t begin, int64_t end) {
  const Pad *p = ctx;
  int64_t ds = p->dstStride[3], ss = p->srcStride[3];
  int64_t right = p->dstW - p->left - p->srcW;
  for (int64_t plane = begin; plane < end; ++plane) {
    int64_t b = plane / p->channels, c = plane % p->channels;
    const float *src = p->src + b * p->srcStride[0] + c * p->srcStride[1];
    float *dst = p->dst + b * p->dstStride[0] + c * p->dstStride[1];
    for (int64_t h = 0; h < p->dstH; ++h) {
      float *row = dst + h * p->dstStride[2];
      int64_t from = h - p->top;
      if (from < 0 || from >= p->srcH) {
        fillRow(row, p->dstW, ds, p->value);
        continue;
      }
      const float *in = src + from * p->srcStride[2];
      fillRow(row, p->left, ds, p->value);
      float *out = row + p->left * ds;
      if (ss == 1 && ds == 1) {
        for (int64_t w = 0; w < p->srcW; ++w)
          out[w] = in[w];
      } else {
        for (int64_t w = 0; w < p->srcW; ++w)
          out[w * ds] = in[w * ss];
      }
      fillRow(out + p->srcW * ds, right, ds, p->value);
    }
  }
}

void onnxc_kernel_pad_f32(ONNXC_MEMREF4(src), ONNXC_MEMREF4(dst), int64_t top,
                          int64_t left, float value) {
  (void)srcAlloc, (void)dstAlloc;
  Pad p = {.src = src + srcOff,
           .dst = dst + dstOff,
           .channels = dstSize1,
           .top = top,
           .left = left,
           .srcH = srcSize2,
           .srcW = srcSize3,
           .dstH = dstSize2,
           .dstW = dstSize3,
           .srcStride = {srcStride0, srcStride1, srcStride2, srcStride3},
           .dstStride = {dstStride0, dstStride1, dstStride2, dstStride3},
           .value = value};
  (void)srcSize0, (void)srcSize1;
  int64_t planes = dstSize0 * dstSize1;
  runPlanes(runPad, &p, planes, (double)planes * (double)(dstSize2 * dstSize3));
}

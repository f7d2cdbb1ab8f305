/*===- QuantOps.c - Entry points of lowered fused.qmatmul and qconv --------===*
 *
 * The functions that `convert-fused-to-kernel-calls` calls in place of
 * fused.qmatmul and fused.qconv on memrefs: each copies its 1-D parameters
 * (zero points, bias, scales), builds the offset tables of the int8 GEMM
 * (GemmInt8.c) and runs it; a convolution runs one GEMM per image over its
 * implicit im2col matrix. Generated code calls them under one alias per
 * element types of the result and the bias.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/Kernels.h"

#include <stdlib.h>
#include <string.h>

/// The 1-D parameters of a call, copied contiguous.
typedef struct {
  int32_t xZero, yZero;
  int32_t *wZero;
  void *bias;
  float *scale;
  int64_t wZeroCount, biasCount, scaleCount;
} QParams;

/// Copies `count` 4-byte elements `stride` apart from `src` (NULL for none).
static void *copyParam(const void *src, int64_t count, int64_t stride) {
  if (count <= 0)
    return NULL;
  uint32_t *dst = malloc(sizeof(uint32_t) * (size_t)count);
  if (dst)
    for (int64_t i = 0; i < count; ++i)
      memcpy(dst + i, (const uint32_t *)src + i * stride, sizeof(uint32_t));
  return dst;
}

static int readParams(QParams *p, const int32_t *xZero, int64_t xZeroCount,
                      const int32_t *wZero, int64_t wZeroCount,
                      int64_t wZeroStride, const void *bias, int64_t biasCount,
                      int64_t biasStride, const float *scale,
                      int64_t scaleCount, int64_t scaleStride,
                      const int32_t *yZero, int64_t yZeroCount) {
  p->xZero = xZeroCount ? xZero[0] : 0;
  p->yZero = yZeroCount ? yZero[0] : 0;
  p->wZeroCount = wZeroCount;
  p->biasCount = biasCount;
  p->scaleCount = scaleCount;
  p->wZero = copyParam(wZero, wZeroCount, wZeroStride);
  p->bias = copyParam(bias, biasCount, biasStride);
  p->scale = copyParam(scale, scaleCount, scaleStride);
  return (p->wZero || !wZeroCount) && (p->bias || !biasCount) &&
         (p->scale || !scaleCount);
}

static void freeParams(QParams *p) {
  free(p->wZero);
  free(p->bias);
  free(p->scale);
}

#define ONNXC_READ_PARAMS(p)                                                   \
  readParams(&(p), (const int32_t *)xZero + xZeroOff, xZeroSize0,              \
             (const int32_t *)wZero + wZeroOff, wZeroSize0, wZeroStride0,      \
             (const int32_t *)bias + biasOff, biasSize0, biasStride0,          \
             (const float *)scale + scaleOff, scaleSize0, scaleStride0,        \
             (const int32_t *)yZero + yZeroOff, yZeroSize0)

/// The fields of OnnxcQGemm that come from the flags and parameters.
static void applyParams(OnnxcQGemm *g, const QParams *p, int64_t flags) {
  g->xSigned = (flags & ONNXC_QFLAG_X_SIGNED) != 0;
  g->wSigned = (flags & ONNXC_QFLAG_W_SIGNED) != 0;
  g->xZero = p->xZero;
  g->wZero = p->wZero;
  g->wZeroCount = p->wZeroCount;
  if (flags & ONNXC_QFLAG_BIAS_F32)
    g->biasF32 = p->bias;
  else
    g->biasI32 = p->bias;
  g->biasCount = p->biasCount;
  g->scale = p->scale;
  g->scaleCount = p->scaleCount;
  g->yZero = p->yZero;
  g->out = (int)(flags >> ONNXC_QFLAG_OUT_SHIFT) & 3;
  g->relu = (flags & ONNXC_QFLAG_RELU) != 0;
}

/// The byte size of an output element of kind `out`.
static int64_t outBytes(int out) {
  return out == ONNXC_QOUT_U8 || out == ONNXC_QOUT_S8 ? 1 : 4;
}

static void fillSteps(int64_t *table, int64_t n, int64_t stride) {
  for (int64_t i = 0; i < n; ++i)
    table[i] = i * stride;
}

/// The offset tables of a call, writable while they are filled.
typedef struct {
  int64_t *aRow, *aCol, *bRow, *bCol, *cRow, *cCol;
} QTables;

/// The offset tables of an m x k by k x n product, in one allocation that
/// `t->aRow` owns, set in `g` too; 0 when out of memory.
static int allocTables(OnnxcQGemm *g, QTables *t, int64_t m, int64_t k,
                       int64_t n) {
  int64_t *all = malloc(sizeof(int64_t) * (size_t)(2 * m + 2 * k + 2 * n + 1));
  if (!all)
    return 0;
  *t = (QTables){all,
                 all + m,
                 all + m + k,
                 all + m + 2 * k,
                 all + m + 2 * k + n,
                 all + 2 * m + 2 * k + n};
  g->m = m;
  g->k = k;
  g->n = n;
  g->aRow = t->aRow;
  g->aCol = t->aCol;
  g->bRow = t->bRow;
  g->bCol = t->bCol;
  g->cRow = t->cRow;
  g->cCol = t->cCol;
  return 1;
}

void onnxc_kernel_qmatmul(ONNXC_QMEMREF2(x), ONNXC_QMEMREF2(w), ONNXC_QPARAMS,
                          ONNXC_QMEMREF2(y), int64_t flags) {
  (void)xAlloc, (void)wAlloc, (void)xZeroAlloc, (void)wZeroAlloc,
      (void)biasAlloc, (void)scaleAlloc, (void)yZeroAlloc, (void)yAlloc,
      (void)wSize0, (void)ySize0, (void)ySize1, (void)xZeroStride0,
      (void)yZeroStride0;
  QParams p;
  if (!ONNXC_READ_PARAMS(p)) {
    freeParams(&p);
    return;
  }
  OnnxcQGemm g;
  memset(&g, 0, sizeof(g));
  QTables tables;
  if (!allocTables(&g, &tables, xSize0, xSize1, wSize1)) {
    freeParams(&p);
    return;
  }
  int64_t *aRow = tables.aRow, *aCol = tables.aCol, *bRow = tables.bRow,
          *bCol = tables.bCol, *cRow = tables.cRow, *cCol = tables.cCol;
  fillSteps(aRow, g.m, xStride0);
  fillSteps(aCol, g.k, xStride1);
  fillSteps(bRow, g.k, wStride0);
  fillSteps(bCol, g.n, wStride1);
  fillSteps(cRow, g.m, yStride0);
  fillSteps(cCol, g.n, yStride1);
  g.a = (const uint8_t *)x + xOff;
  g.b = (const uint8_t *)w + wOff;
  applyParams(&g, &p, flags);
  g.c = (char *)y + yOff * outBytes(g.out);
  g.constA = (flags & ONNXC_QFLAG_CONST_X) != 0;
  g.constB = (flags & ONNXC_QFLAG_CONST_W) != 0;
  onnxcQGemm(&g);
  free(aRow);
  freeParams(&p);
}

void onnxc_kernel_qconv2d(ONNXC_QMEMREF4(x), ONNXC_QMEMREF4(w), ONNXC_QPARAMS,
                          ONNXC_QMEMREF4(y), int64_t strideH, int64_t strideW,
                          int64_t dilationH, int64_t dilationW, int64_t flags) {
  (void)xAlloc, (void)wAlloc, (void)xZeroAlloc, (void)wZeroAlloc,
      (void)biasAlloc, (void)scaleAlloc, (void)yZeroAlloc, (void)yAlloc,
      (void)xSize0, (void)xSize1, (void)xSize2, (void)xSize3, (void)ySize1,
      (void)xZeroStride0, (void)yZeroStride0;
  QParams p;
  if (!ONNXC_READ_PARAMS(p)) {
    freeParams(&p);
    return;
  }
  int64_t channels = wSize1, kh = wSize2, kw = wSize3, oh = ySize2, ow = ySize3;
  OnnxcQGemm g;
  memset(&g, 0, sizeof(g));
  QTables tables;
  if (!allocTables(&g, &tables, wSize0, channels * kh * kw, oh * ow)) {
    freeParams(&p);
    return;
  }
  int64_t *aRow = tables.aRow, *aCol = tables.aCol, *bRow = tables.bRow,
          *bCol = tables.bCol, *cRow = tables.cRow, *cCol = tables.cCol;
  // A: the filters as [F, C * kH * kW]; B: the implicit im2col matrix of
  // one image; C: that image's [F, OH * OW].
  fillSteps(aRow, g.m, wStride0);
  fillSteps(cRow, g.m, yStride1);
  for (int64_t c = 0, q = 0; c < channels; ++c)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j, ++q) {
        aCol[q] = c * wStride1 + i * wStride2 + j * wStride3;
        bRow[q] =
            c * xStride1 + i * dilationH * xStride2 + j * dilationW * xStride3;
      }
  for (int64_t i = 0, q = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j, ++q) {
      bCol[q] = i * strideH * xStride2 + j * strideW * xStride3;
      cCol[q] = i * yStride2 + j * yStride3;
    }
  g.weightsA = 1;
  g.a = (const uint8_t *)w + wOff;
  applyParams(&g, &p, flags);
  g.constA = (flags & ONNXC_QFLAG_CONST_W) != 0;
  int64_t bytes = outBytes(g.out);
  for (int64_t b = 0; b < ySize0; ++b) {
    g.b = (const uint8_t *)x + xOff + b * xStride0;
    g.c = (char *)y + (yOff + b * yStride0) * bytes;
    onnxcQGemm(&g);
  }
  free(aRow);
  freeParams(&p);
}

/* The symbols that convert-fused-to-kernel-calls calls: one per element
 * types of the result and the bias, as a function has one MLIR type. */
#define ONNXC_QALIAS(NAME, OUT, BIAS)                                          \
  __typeof__(NAME) NAME##_##OUT##_##BIAS __attribute__((alias(#NAME)));
#define ONNXC_QALIASES(NAME)                                                   \
  ONNXC_QALIAS(NAME, i8, i32)                                                  \
  ONNXC_QALIAS(NAME, i32, i32)                                                 \
  ONNXC_QALIAS(NAME, f32, i32)                                                 \
  ONNXC_QALIAS(NAME, f32, f32)
ONNXC_QALIASES(onnxc_kernel_qmatmul)
ONNXC_QALIASES(onnxc_kernel_qconv2d)

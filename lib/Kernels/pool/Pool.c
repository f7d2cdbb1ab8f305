/*===- Pool.c - Max and average pooling kernel -----------------------------===*
 *
 * The entry point that a lowered 2-D MaxPool or AveragePool on f32 calls,
 * with the padding implicit (taps outside the input are skipped, so no
 * padded copy is made) and the output written, not accumulated into. Each
 * output row is computed in two passes: the window's input rows combined
 * into one row (contiguous, so it vectorizes), then the window's columns
 * combined along it (AVX-512 for column strides 1 and 2, PoolAvx512.c: the
 * even lanes of two loads for 2). Planes are spread over the session's
 * thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/pool/PoolInternal.h"

#include <math.h>
#include <stdlib.h>

enum { FlagAverage = 1, FlagCountPad = 2 };

/// The number of taps of a window (`k` taps `d` apart from `start`) in
/// [lo, hi).
static int64_t countTaps(int64_t start, int64_t k, int64_t d, int64_t lo,
                         int64_t hi) {
  int64_t count = 0;
  for (int64_t t = 0; t < k; ++t) {
    int64_t at = start + t * d;
    count += at >= lo && at < hi;
  }
  return count;
}

static inline float combine(int average, float acc, float v) {
  return average ? acc + v : (v > acc ? v : acc);
}

/// row[0, w) = the combination of the `n` input rows `rows` (column stride
/// `xs`), compiled once per vector ISA (ATTR).
#define ONNXC_POOL_ROWS(NAME, ATTR)                                            \
  ATTR static void NAME(float *row, const float *const *rows, int64_t n,       \
                        int64_t w, int64_t xs, int average) {                  \
    const float *first = rows[0];                                              \
    if (xs == 1)                                                               \
      for (int64_t j = 0; j < w; ++j)                                          \
        row[j] = first[j];                                                     \
    else                                                                       \
      for (int64_t j = 0; j < w; ++j)                                          \
        row[j] = first[j * xs];                                                \
    for (int64_t r = 1; r < n; ++r) {                                          \
      const float *in = rows[r];                                               \
      if (xs == 1 && average)                                                  \
        for (int64_t j = 0; j < w; ++j)                                        \
          row[j] += in[j];                                                     \
      else if (xs == 1)                                                        \
        for (int64_t j = 0; j < w; ++j)                                        \
          row[j] = in[j] > row[j] ? in[j] : row[j];                            \
      else                                                                     \
        for (int64_t j = 0; j < w; ++j)                                        \
          row[j] = combine(average, row[j], in[j * xs]);                       \
    }                                                                          \
  }

ONNXC_POOL_ROWS(poolRows, )
#if defined(__x86_64__)
ONNXC_POOL_ROWS(poolRowsAvx2, __attribute__((target("avx2"))))
ONNXC_POOL_ROWS(poolRowsAvx512, __attribute__((target("avx512f"))))
#endif

/// Output columns [from, to) of one output row (column stride `ys`) from the
/// `n` input rows `rows` (column stride `xs`), the taps outside [0, w)
/// skipped. An average is multiplied by `invRow` and the column's inverse
/// count.
static void poolColumns(const Pool *p, const float *const *rows, int64_t n,
                        int64_t xs, float *out, int64_t ys, int64_t from,
                        int64_t to, float invRow) {
  for (int64_t j = from; j < to; ++j) {
    int64_t start = j * p->sw - p->left;
    float acc = p->average ? 0.0f : -INFINITY;
    for (int64_t r = 0; r < n; ++r)
      for (int64_t s = 0; s < p->kw; ++s) {
        int64_t at = start + s * p->dw;
        if (at >= 0 && at < p->w)
          acc = combine(p->average, acc, rows[r][at * xs]);
      }
    if (p->average)
      acc = acc * invRow * p->invCol[j];
    out[j * ys] = acc;
  }
}

typedef void (*PoolRowsFn)(float *, const float *const *, int64_t, int64_t,
                           int64_t, int);

static void runPool(void *ctx, int64_t begin, int64_t end) {
  const Pool *p = ctx;
  PoolRowsFn rowsFn = poolRows;
#if defined(__x86_64__)
  int wide = 0;
  if (__builtin_cpu_supports("avx512f")) {
    rowsFn = poolRowsAvx512;
    wide =
        p->xStride[3] == 1 && p->yStride[3] == 1 && (p->sw == 1 || p->sw == 2);
  } else if (__builtin_cpu_supports("avx2")) {
    rowsFn = poolRowsAvx2;
  }
  // Output columns whose windows lie inside the input: [inFrom, inTo).
  int64_t inFrom = (p->left + p->sw - 1) / p->sw;
  int64_t lastStart = p->w - 1 - (p->kw - 1) * p->dw + p->left;
  int64_t inTo = lastStart < 0 ? 0 : lastStart / p->sw + 1;
  if (inTo > p->ow)
    inTo = p->ow;
  if (inFrom > inTo)
    inFrom = inTo;
#endif
  float *row = malloc(sizeof(float) * (size_t)p->w);
  const float **rows = malloc(sizeof(float *) * (size_t)p->kh);
  if (!row || !rows) {
    free(row);
    free((void *)rows);
    return;
  }
  int64_t xs = p->xStride[3], ys = p->yStride[3];
  for (int64_t plane = begin; plane < end; ++plane) {
    int64_t b = plane / p->channels, c = plane % p->channels;
    const float *x = p->x + b * p->xStride[0] + c * p->xStride[1];
    float *y = p->y + b * p->yStride[0] + c * p->yStride[1];
    for (int64_t i = 0; i < p->oh; ++i) {
      int64_t start = i * p->sh - p->top, n = 0;
      for (int64_t r = 0; r < p->kh; ++r) {
        int64_t at = start + r * p->dh;
        if (at >= 0 && at < p->h)
          rows[n++] = x + at * p->xStride[2];
      }
      float invRow = p->average
                         ? 1.0f / (float)countTaps(start, p->kh, p->dh,
                                                   p->countLoH, p->countHiH)
                         : 1.0f;
      float *out = y + i * p->yStride[2];
#if defined(__x86_64__)
      if (wide) {
        poolColumns(p, rows, n, 1, out, 1, 0, inFrom, invRow);
        onnxcPoolColumnsAvx512(p, rows, n, out, inFrom, inTo, invRow);
        poolColumns(p, rows, n, 1, out, 1, inTo, p->ow, invRow);
        continue;
      }
#endif
      // The rows combined into one first (vectorized), then its columns.
      const float *combined = row;
      if (n == 1 && xs == 1)
        combined = rows[0];
      else if (n > 0)
        rowsFn(row, rows, n, p->w, xs, p->average);
      poolColumns(p, &combined, n > 0, 1, out, ys, 0, p->ow, invRow);
    }
  }
  free(row);
  free((void *)rows);
}

void onnxc_kernel_pool2d_f32(ONNXC_MEMREF4(x), ONNXC_MEMREF4(y), int64_t kh,
                             int64_t kw, int64_t sh, int64_t sw, int64_t dh,
                             int64_t dw, int64_t top, int64_t left,
                             int64_t bottom, int64_t right, int64_t flags) {
  (void)xAlloc, (void)yAlloc, (void)xSize0, (void)xSize1;
  if (ySize0 <= 0 || ySize1 <= 0 || ySize2 <= 0 || ySize3 <= 0)
    return;
  int average = (flags & FlagAverage) != 0;
  int countPad = (flags & FlagCountPad) != 0;
  // A same-size average counting the padding is a depthwise convolution.
  if (average && countPad && sh == 1 && sw == 1 && ySize2 == xSize2 &&
      ySize3 == xSize3 &&
      onnxcAveragePoolFlat(
          x + xOff, y + yOff, ySize0, ySize1, xSize2, xSize3, kh, kw, dh, dw,
          top, left, (int64_t[4]){xStride0, xStride1, xStride2, xStride3},
          (int64_t[4]){yStride0, yStride1, yStride2, yStride3}))
    return;
  Pool p = {.x = x + xOff,
            .y = y + yOff,
            .channels = ySize1,
            .h = xSize2,
            .w = xSize3,
            .oh = ySize2,
            .ow = ySize3,
            .kh = kh,
            .kw = kw,
            .sh = sh,
            .sw = sw,
            .dh = dh,
            .dw = dw,
            .top = top,
            .left = left,
            .xStride = {xStride0, xStride1, xStride2, xStride3},
            .yStride = {yStride0, yStride1, yStride2, yStride3},
            .average = average,
            .countLoH = countPad ? -top : 0,
            .countHiH = countPad ? xSize2 + bottom : xSize2,
            .countLoW = countPad ? -left : 0,
            .countHiW = countPad ? xSize3 + right : xSize3};
  float *invCol = NULL;
  if (average) {
    invCol = malloc(sizeof(float) * (size_t)ySize3);
    if (!invCol)
      return;
    for (int64_t j = 0; j < ySize3; ++j)
      invCol[j] = 1.0f / (float)countTaps(j * sw - left, kw, dw, p.countLoW,
                                          p.countHiW);
    p.invCol = invCol;
  }
  int64_t planes = ySize0 * ySize1;
  double work = (double)planes * (double)(ySize2 * (kh * xSize3 + kw * ySize3));
  if (work < 1e5)
    runPool(&p, 0, planes);
  else
    onnxc_parallel_for(onnxc_current_threadpool(), planes, runPool, &p);
  free(invCol);
}

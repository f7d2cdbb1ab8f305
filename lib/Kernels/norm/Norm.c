/*===- Norm.c - Layer normalization kernel ---------------------------------===*
 *
 * The entry point that a lowered LayerNormalization over the last axis
 * calls: per row, the mean and variance in two passes (independent lane
 * accumulators, so the loops vectorize without reordering a float sum the
 * compiler would have to keep), then (x - mean) / sqrt(var + epsilon) *
 * scale + bias in one more. Rows are spread over the session's thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/Kernels.h"

#include <math.h>

enum { FlagHasBias = 1 };

/// Independent partial sums, one vector register's worth.
#define ONNXC_NORM_LANES 16

typedef struct {
  const float *x, *scale, *bias;
  float *y;
  int64_t n, xStride, yStride;
  float epsilon;
} LayerNorm;

/// One row of `n` contiguous elements, compiled once per vector ISA (ATTR).
#define ONNXC_LAYER_NORM_ROW(NAME, ATTR)                                       \
  ATTR static void NAME(const float *x, float *y, int64_t n,                   \
                        const float *scale, const float *bias,                 \
                        float epsilon) {                                       \
    float lanes[ONNXC_NORM_LANES];                                             \
    int64_t full = n / ONNXC_NORM_LANES * ONNXC_NORM_LANES;                    \
    for (int l = 0; l < ONNXC_NORM_LANES; ++l)                                 \
      lanes[l] = 0.0f;                                                         \
    for (int64_t j = 0; j < full; j += ONNXC_NORM_LANES)                       \
      for (int l = 0; l < ONNXC_NORM_LANES; ++l)                               \
        lanes[l] += x[j + l];                                                  \
    float sum = 0.0f;                                                          \
    for (int64_t j = full; j < n; ++j)                                         \
      sum += x[j];                                                             \
    for (int l = 0; l < ONNXC_NORM_LANES; ++l)                                 \
      sum += lanes[l];                                                         \
    float mean = sum / (float)n;                                               \
    for (int l = 0; l < ONNXC_NORM_LANES; ++l)                                 \
      lanes[l] = 0.0f;                                                         \
    for (int64_t j = 0; j < full; j += ONNXC_NORM_LANES)                       \
      for (int l = 0; l < ONNXC_NORM_LANES; ++l) {                             \
        float d = x[j + l] - mean;                                             \
        lanes[l] += d * d;                                                     \
      }                                                                        \
    float squares = 0.0f;                                                      \
    for (int64_t j = full; j < n; ++j)                                         \
      squares += (x[j] - mean) * (x[j] - mean);                                \
    for (int l = 0; l < ONNXC_NORM_LANES; ++l)                                 \
      squares += lanes[l];                                                     \
    float inv = 1.0f / sqrtf(squares / (float)n + epsilon);                    \
    if (bias)                                                                  \
      for (int64_t j = 0; j < n; ++j)                                          \
        y[j] = (x[j] - mean) * inv * scale[j] + bias[j];                       \
    else                                                                       \
      for (int64_t j = 0; j < n; ++j)                                          \
        y[j] = (x[j] - mean) * inv * scale[j];                                 \
  }

ONNXC_LAYER_NORM_ROW(layerNormRow, )
#if defined(__x86_64__)
ONNXC_LAYER_NORM_ROW(layerNormRowAvx512, __attribute__((target("avx512f,fma"))))
ONNXC_LAYER_NORM_ROW(layerNormRowAvx2, __attribute__((target("avx2,fma"))))
#endif

typedef void (*LayerNormRowFn)(const float *, float *, int64_t, const float *,
                               const float *, float);

static void runRows(void *ctx, int64_t begin, int64_t end) {
  const LayerNorm *ln = ctx;
  LayerNormRowFn row = layerNormRow;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f"))
    row = layerNormRowAvx512;
  else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    row = layerNormRowAvx2;
#endif
  for (int64_t i = begin; i < end; ++i)
    row(ln->x + i * ln->xStride, ln->y + i * ln->yStride, ln->n, ln->scale,
        ln->bias, ln->epsilon);
}

void onnxc_kernel_layer_norm_f32(ONNXC_MEMREF2(x), ONNXC_MEMREF1(s),
                                 ONNXC_MEMREF1(b), ONNXC_MEMREF2(y),
                                 float epsilon, int64_t flags) {
  (void)xAlloc, (void)sAlloc, (void)bAlloc, (void)yAlloc, (void)xStride1,
      (void)sSize0, (void)sStride0, (void)bSize0, (void)bStride0, (void)ySize0,
      (void)ySize1, (void)yStride1;
  int64_t rows = xSize0, n = xSize1;
  if (rows <= 0 || n <= 0)
    return;
  LayerNorm ln = {x + xOff, s + sOff, (flags & FlagHasBias) ? b + bOff : NULL,
                  y + yOff, n,        xStride0,
                  yStride0, epsilon};
  /* Small tensors: not worth waking the pool. */
  if ((double)rows * (double)n < 32768.0)
    runRows(&ln, 0, rows);
  else
    onnxc_parallel_for(onnxc_current_threadpool(), rows, runRows, &ln);
}

/*===- Attention.c - Multi-head attention kernel ---------------------------===*
 *
 * The entry point that lowered fused.attention calls. Per (batch, head):
 * scores = Q_h K_g^T through the packed GEMM of gemm/ (K_g transposed into a
 * contiguous buffer first), then one pass per row that scales, adds the
 * mask, and normalizes with a vectorizable exp, then P V_g through the GEMM
 * again, written straight into the head's columns of the [B, S, H * D]
 * result. g is h itself, or with grouped-query attention (key and value of
 * G < H heads, G taken from their widths) h / (H / G). The (batch, head) pairs
 *are spread over the session's thread pool; the GEMMs inside run serially on
 *their thread.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/Kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { FlagHasMask = 1 };

typedef struct {
  const float *q, *k, *v, *mask;
  float *y;
  int64_t heads, group, rows, keys, keyDim, valueDim;
  int64_t qStride[3], kStride[3], vStride[3], maskStride[4], yStride[3];
  float scale;
  /* Offset tables of the two GEMMs (the same for every head). */
  const int64_t *qRow, *qCol, *kRow, *kCol, *sRow, *sCol;
  const int64_t *vRow, *vCol, *yRow, *yCol;
} Attention;

/// exp(x) to about 1 ulp on [-87.3, 88.7] and 0 below, in arithmetic that
/// vectorizes (Cephes' expf: x = n ln 2 + r, a degree-6 polynomial in r,
/// 2^n built in the exponent bits).
#define ONNXC_EXP_BODY(x, out)                                                 \
  do {                                                                         \
    float xc = (x) > 88.7f ? 88.7f : (x);                                      \
    float under = xc < -87.3f ? 0.0f : 1.0f;                                   \
    xc = xc < -87.3f ? -87.3f : xc;                                            \
    float n = floorf(xc * 1.44269504088896341f + 0.5f);                        \
    float r = xc - n * 0.693359375f + n * 2.12194440e-4f;                      \
    float p = 1.9875691500E-4f;                                                \
    p = p * r + 1.3981999507E-3f;                                              \
    p = p * r + 8.3334519073E-3f;                                              \
    p = p * r + 4.1665795894E-2f;                                              \
    p = p * r + 1.6666665459E-1f;                                              \
    p = p * r + 5.0000001201E-1f;                                              \
    p = p * r * r + r + 1.0f;                                                  \
    int32_t bits = ((int32_t)n + 127) << 23;                                   \
    float two;                                                                 \
    memcpy(&two, &bits, sizeof two);                                           \
    (out) = p * two * under;                                                   \
  } while (0)

/// Lanes of the partial maxima and sums: independent accumulators that the
/// compiler turns into one vector register without reassociating floats.
#define ONNXC_LANES 16

/// One row of scores: x = scale * s + mask, then softmax in place.
/// Compiled once per vector ISA (ATTR) so that the loops vectorize.
#define ONNXC_SOFTMAX_ROW(NAME, ATTR)                                          \
  ATTR static void NAME(float *s, int64_t n, float scale, const float *mask,   \
                        int64_t maskStride) {                                  \
    float lanes[ONNXC_LANES];                                                  \
    for (int l = 0; l < ONNXC_LANES; ++l)                                      \
      lanes[l] = -INFINITY;                                                    \
    int64_t full = n / ONNXC_LANES * ONNXC_LANES;                              \
    if (mask && maskStride != 1)                                               \
      for (int64_t j = 0; j < n; ++j)                                          \
        s[j] = s[j] * scale + mask[j * maskStride];                            \
    else if (mask)                                                             \
      for (int64_t j = 0; j < n; ++j)                                          \
        s[j] = s[j] * scale + mask[j];                                         \
    else                                                                       \
      for (int64_t j = 0; j < n; ++j)                                          \
        s[j] *= scale;                                                         \
    for (int64_t j = 0; j < full; j += ONNXC_LANES)                            \
      for (int l = 0; l < ONNXC_LANES; ++l)                                    \
        lanes[l] = s[j + l] > lanes[l] ? s[j + l] : lanes[l];                  \
    float max = -INFINITY;                                                     \
    for (int64_t j = full; j < n; ++j)                                         \
      max = s[j] > max ? s[j] : max;                                           \
    for (int l = 0; l < ONNXC_LANES; ++l)                                      \
      max = lanes[l] > max ? lanes[l] : max;                                   \
    for (int l = 0; l < ONNXC_LANES; ++l)                                      \
      lanes[l] = 0.0f;                                                         \
    for (int64_t j = 0; j < full; j += ONNXC_LANES)                            \
      for (int l = 0; l < ONNXC_LANES; ++l) {                                  \
        float e;                                                               \
        ONNXC_EXP_BODY(s[j + l] - max, e);                                     \
        s[j + l] = e;                                                          \
        lanes[l] += e;                                                         \
      }                                                                        \
    float sum = 0.0f;                                                          \
    for (int64_t j = full; j < n; ++j) {                                       \
      float e;                                                                 \
      ONNXC_EXP_BODY(s[j] - max, e);                                           \
      s[j] = e;                                                                \
      sum += e;                                                                \
    }                                                                          \
    for (int l = 0; l < ONNXC_LANES; ++l)                                      \
      sum += lanes[l];                                                         \
    float inv = 1.0f / sum;                                                    \
    for (int64_t j = 0; j < n; ++j)                                            \
      s[j] *= inv;                                                             \
  }

ONNXC_SOFTMAX_ROW(softmaxRow, )
#if defined(__x86_64__)
ONNXC_SOFTMAX_ROW(softmaxRowAvx512, __attribute__((target("avx512f,fma"))))
ONNXC_SOFTMAX_ROW(softmaxRowAvx2, __attribute__((target("avx2,fma"))))
#endif

typedef void (*SoftmaxRowFn)(float *, int64_t, float, const float *, int64_t);

static SoftmaxRowFn chooseSoftmaxRow(void) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f"))
    return softmaxRowAvx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return softmaxRowAvx2;
#endif
  return softmaxRow;
}

static void runHeads(void *ctx, int64_t begin, int64_t end) {
  const Attention *a = ctx;
  int64_t rows = a->rows, keys = a->keys;
  /* The scores, then K_h^T made contiguous ([keyDim, keys]): packing the
   * GEMM's B from K itself would gather its columns a row apart. */
  float *scores =
      malloc(sizeof(float) * (size_t)(rows * keys + a->keyDim * keys));
  if (!scores)
    return;
  float *keysT = scores + rows * keys;
  SoftmaxRowFn row = chooseSoftmaxRow();
  for (int64_t task = begin; task < end; ++task) {
    int64_t b = task / a->heads, h = task % a->heads, g = h / a->group;
    const float *q = a->q + b * a->qStride[0] + h * a->keyDim * a->qStride[2];
    const float *k = a->k + b * a->kStride[0] + g * a->keyDim * a->kStride[2];
    const float *v = a->v + b * a->vStride[0] + g * a->valueDim * a->vStride[2];
    float *y = a->y + b * a->yStride[0] + h * a->valueDim * a->yStride[2];

    for (int64_t j = 0; j < keys; ++j)
      for (int64_t d = 0; d < a->keyDim; ++d)
        keysT[d * keys + j] = k[j * a->kStride[1] + d * a->kStride[2]];
    memset(scores, 0, sizeof(float) * (size_t)(rows * keys));
    OnnxcGemm qk = {.m = rows,
                    .n = keys,
                    .k = a->keyDim,
                    .a = q,
                    .aRow = a->qRow,
                    .aCol = a->qCol,
                    .b = keysT,
                    .bRow = a->kRow,
                    .bCol = a->kCol,
                    .c = scores,
                    .cRow = a->sRow,
                    .cCol = a->sCol};
    onnxcGemm(&qk);

    for (int64_t i = 0; i < rows; ++i) {
      const float *mask = NULL;
      if (a->mask)
        mask = a->mask + b * a->maskStride[0] + h * a->maskStride[1] +
               i * a->maskStride[2];
      row(scores + i * keys, keys, a->scale, mask, a->maskStride[3]);
    }

    for (int64_t i = 0; i < rows; ++i)
      for (int64_t d = 0; d < a->valueDim; ++d)
        y[i * a->yStride[1] + d * a->yStride[2]] = 0.0f;
    OnnxcGemm pv = {.m = rows,
                    .n = a->valueDim,
                    .k = keys,
                    .a = scores,
                    .aRow = a->sRow,
                    .aCol = a->sCol,
                    .b = v,
                    .bRow = a->vRow,
                    .bCol = a->vCol,
                    .c = y,
                    .cRow = a->yRow,
                    .cCol = a->yCol};
    onnxcGemm(&pv);
  }
  free(scores);
}

static void fillStrided(int64_t *table, int64_t n, int64_t stride) {
  for (int64_t i = 0; i < n; ++i)
    table[i] = i * stride;
}

void onnxc_kernel_attention_f32(ONNXC_MEMREF3(q), ONNXC_MEMREF3(k),
                                ONNXC_MEMREF3(v), ONNXC_MEMREF4(m),
                                ONNXC_MEMREF3(y), int64_t heads, float scale,
                                int64_t flags) {
  (void)qAlloc, (void)kAlloc, (void)vAlloc, (void)mAlloc, (void)yAlloc,
      (void)kSize0, (void)vSize0, (void)vSize1, (void)ySize0, (void)ySize1;
  int64_t batch = qSize0, rows = qSize1, keys = kSize1;
  if (heads <= 0 || batch <= 0 || rows <= 0)
    return;
  /* Key and value heads from the widths (fused.attention's verifier keeps
     them consistent): G = kSize2 / keyDim, each serving H / G heads. */
  int64_t keyDim = qSize2 / heads, valueDim = ySize2 / heads;
  int64_t kvHeads = keyDim > 0 ? kSize2 / keyDim : heads;
  if (kvHeads <= 0 || heads % kvHeads != 0 || vSize2 != kvHeads * valueDim)
    return;
  /* A broadcast mask dim (size 1) is read with stride 0. */
  int64_t maskStride[4] = {
      mSize0 == 1 ? 0 : mStride0, mSize1 == 1 ? 0 : mStride1,
      mSize2 == 1 ? 0 : mStride2, mSize3 == 1 ? 0 : mStride3};
  int64_t *t = malloc(sizeof(int64_t) * (size_t)(3 * rows + 2 * keyDim +
                                                 3 * keys + 2 * valueDim + 1));
  if (!t)
    return;
  int64_t *qRow = t, *qCol = qRow + rows, *kRow = qCol + keyDim,
          *kCol = kRow + keyDim, *sRow = kCol + keys, *sCol = sRow + rows,
          *vRow = sCol + keys, *vCol = vRow + keys, *yRow = vCol + valueDim,
          *yCol = yRow + rows;
  fillStrided(qRow, rows, qStride1);
  fillStrided(qCol, keyDim, qStride2);
  /* K^T, as runHeads lays it out. */
  fillStrided(kRow, keyDim, keys);
  fillStrided(kCol, keys, 1);
  fillStrided(sRow, rows, keys);
  fillStrided(sCol, keys, 1);
  fillStrided(vRow, keys, vStride1);
  fillStrided(vCol, valueDim, vStride2);
  fillStrided(yRow, rows, yStride1);
  fillStrided(yCol, valueDim, yStride2);
  Attention a = {q + qOff,
                 k + kOff,
                 v + vOff,
                 (flags & FlagHasMask) ? m + mOff : NULL,
                 y + yOff,
                 heads,
                 heads / kvHeads,
                 rows,
                 keys,
                 keyDim,
                 valueDim,
                 {qStride0, qStride1, qStride2},
                 {kStride0, kStride1, kStride2},
                 {vStride0, vStride1, vStride2},
                 {maskStride[0], maskStride[1], maskStride[2], maskStride[3]},
                 {yStride0, yStride1, yStride2},
                 scale,
                 qRow,
                 qCol,
                 kRow,
                 kCol,
                 sRow,
                 sCol,
                 vRow,
                 vCol,
                 yRow,
                 yCol};
  onnxc_parallel_for(onnxc_current_threadpool(), batch * heads, runHeads, &a);
  free(t);
}

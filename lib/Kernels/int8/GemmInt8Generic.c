/*===- GemmInt8Generic.c - The int8 GEMM's portable C kernel ---------------===*
 *
 * The portable variant of the int8 GEMM (GemmInt8.c), for CPUs without the
 * dot-product instructions of the other variants: a 4 x 8 tile of i32 sums
 * over groups of four bytes, in plain C, and the epilogue element by
 * element, which the other variants fall back on.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/int8/GemmInt8Internal.h"

#include <math.h>

/*===----------------------------------------------------------------------===*
 * Epilogues
 *===----------------------------------------------------------------------===*/

/// One element: `acc` of C at (i, j).
static inline void epilogueOne(const QEpilogue *e, int32_t acc, int64_t i,
                               int64_t j) {
  const OnnxcQGemm *g = e->g;
  int64_t ch = g->weightsA ? i : j;
  int32_t v = acc + e->corr[ch];
  if (e->rowSums)
    v -= e->wZero[ch] * e->rowSums[g->weightsA ? j : i];
  int64_t at = g->cRow[i] + g->cCol[j];
  if (g->out == ONNXC_QOUT_I32) {
    ((int32_t *)g->c)[at] = v;
    return;
  }
  float f = (float)v * e->scale[ch];
  if (g->out == ONNXC_QOUT_F32) {
    if (e->biasF32)
      f += e->biasF32[ch];
    ((float *)g->c)[at] = g->relu && f < 0.0f ? 0.0f : f;
    return;
  }
  f = f < e->lo ? e->lo : f > e->hi ? e->hi : f;
  int32_t q = (int32_t)nearbyintf(f) + g->yZero;
  if (g->out == ONNXC_QOUT_U8)
    ((uint8_t *)g->c)[at] = (uint8_t)q;
  else
    ((int8_t *)g->c)[at] = (int8_t)q;
}

void onnxcQGemmEpilogueGeneric(const QEpilogue *e, const int32_t *acc,
                               int64_t i, int64_t j, int64_t cols) {
  for (int64_t s = 0; s < cols; ++s)
    epilogueOne(e, acc[s], i, j + s);
}

/*===----------------------------------------------------------------------===*
 * Micro-kernel
 *===----------------------------------------------------------------------===*/

void onnxcQGemmKernelGeneric(int64_t kq, const uint8_t *a, const uint8_t *b,
                             int32_t *c, int64_t ldc, int aIsActivation) {
  enum { MR = 4, NR = 8 };
  int32_t acc[MR][NR] = {{0}};
  for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 4 * NR)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j)
        for (int t = 0; t < 4; ++t) {
          uint8_t x = a[4 * i + t], y = b[4 * j + t];
          acc[i][j] +=
              aIsActivation ? (int32_t)x * (int8_t)y : (int32_t)(int8_t)x * y;
        }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j)
      c[i * ldc + j] = acc[i][j];
}

/*===- GemvAvx2.c - The GEMV's AVX2 kernel ---------------------------------===*
 *
 * The AVX2 + FMA variant of the few-row product (Gemv.c): blocks of 32
 * columns, at most 3 rows at a time in the 16 registers.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemv/GemvInternal.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// M rows by V vectors of 8 columns, the last one masked by `last`.
__attribute__((always_inline)) ONNXC_GEMV_AVX2 static inline void
tileAvx2(int M, int V, int64_t k, const float *const *a, const GemvB *b,
         int64_t j0, __m256i last, float *sums) {
  __m256 acc[3][4];
  for (int i = 0; i < M; ++i)
    for (int v = 0; v < V; ++v)
      acc[i][v] = _mm256_setzero_ps();
  for (int64_t p = 0; p < k; ++p) {
    const float *row = rowOf(b, p, j0);
    __m256 bv[4];
    for (int v = 0; v < V - 1; ++v)
      bv[v] = _mm256_loadu_ps(row + 8 * v);
    bv[V - 1] = _mm256_maskload_ps(row + 8 * (V - 1), last);
    for (int i = 0; i < M; ++i) {
      __m256 x = _mm256_broadcast_ss(a[i] + p);
      for (int v = 0; v < V; ++v)
        acc[i][v] = _mm256_fmadd_ps(x, bv[v], acc[i][v]);
    }
  }
  for (int i = 0; i < M; ++i)
    for (int v = 0; v < V; ++v)
      _mm256_storeu_ps(sums + i * MaxWidth + 8 * v, acc[i][v]);
}

/// Blocks of 32 columns (4 vectors), at most 3 rows at a time so that the
/// 12 accumulators and B's vectors fit the 16 registers.
ONNXC_GEMV_AVX2 void onnxcGemvAvx2(int m, int64_t k, const float *const *a,
                                   const GemvB *b, int64_t j0, int cols,
                                   float *sums) {
  int vectors = (cols + 7) / 8;
  int tail = cols - 8 * (vectors - 1);
  __m256i last = _mm256_cmpgt_epi32(_mm256_set1_epi32(tail),
                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  // 4 rows as 2 + 2.
  int groups = m == 4 ? 2 : 1, rows = m == 4 ? 2 : m;
  for (int group = 0; group < groups; ++group) {
    int i0 = group * rows;
    float *out = sums + i0 * MaxWidth;
    switch ((rows - 1) * 4 + vectors - 1) {
#define ONNXC_CASE(M, V)                                                       \
  case (M - 1) * 4 + V - 1:                                                    \
    tileAvx2(M, V, k, a + i0, b, j0, last, out);                               \
    break;
#define ONNXC_ROWS(M)                                                          \
  ONNXC_CASE(M, 1) ONNXC_CASE(M, 2) ONNXC_CASE(M, 3) ONNXC_CASE(M, 4)
      ONNXC_ROWS(1)
      ONNXC_ROWS(2)
      ONNXC_ROWS(3)
#undef ONNXC_ROWS
#undef ONNXC_CASE
    }
  }
}

#endif

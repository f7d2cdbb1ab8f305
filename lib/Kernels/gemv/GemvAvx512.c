/*===- GemvAvx512.c - The GEMV's AVX-512 kernel ----------------------------===*
 *
 * The AVX-512 variant of the few-row product (Gemv.c): blocks of 64 columns,
 * the sums of up to 4 rows x 4 vectors in registers, a packed B fetched a
 * few rows ahead.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemv/GemvInternal.h"

#if defined(__x86_64__)
#include "lib/Kernels/Avx512.h"

/// How many rows ahead a packed B block is fetched: a recurrent time step's
/// weights stream from L2 (lstm 0.187 -> 0.167 ms, gru 0.143 -> 0.129).
enum { PrefetchRows = 8 };

/// M rows by V vectors of 16 columns; only the last vector is masked (to
/// `last`), which keeps an unpacked B's reads within its columns.
__attribute__((always_inline)) ONNXC_GEMV_AVX512 static inline void
tileAvx512(int M, int V, int64_t k, const float *const *a, const GemvB *b,
           int64_t j0, __mmask16 last, float *sums) {
  __m512 acc[MaxRows][4];
  for (int i = 0; i < M; ++i)
    for (int v = 0; v < V; ++v)
      acc[i][v] = _mm512_setzero_ps();
  for (int64_t p = 0; p < k; ++p) {
    const float *row = rowOf(b, p, j0);
    if (!b->rows)
      for (int v = 0; v < V; ++v)
        ONNXC_PREFETCH(row, PrefetchRows * b->ldb + 16 * v);
    __m512 bv[4];
    for (int v = 0; v < V - 1; ++v)
      bv[v] = _mm512_loadu_ps(row + 16 * v);
    bv[V - 1] = _mm512_maskz_loadu_ps(last, row + 16 * (V - 1));
    for (int i = 0; i < M; ++i) {
      __m512 x = _mm512_set1_ps(a[i][p]);
      for (int v = 0; v < V; ++v)
        acc[i][v] = _mm512_fmadd_ps(x, bv[v], acc[i][v]);
    }
  }
  for (int i = 0; i < M; ++i)
    for (int v = 0; v < V; ++v)
      _mm512_storeu_ps(sums + i * MaxWidth + 16 * v, acc[i][v]);
}

/// Blocks of 64 columns (4 vectors): up to 16 accumulators and 4 of B.
ONNXC_GEMV_AVX512 void onnxcGemvAvx512(int m, int64_t k, const float *const *a,
                                       const GemvB *b, int64_t j0, int cols,
                                       float *sums) {
  int vectors = (cols + 15) / 16;
  int tail = cols - 16 * (vectors - 1);
  __mmask16 last = (__mmask16)(tail == 16 ? 0xffff : (1u << tail) - 1);
  switch ((m - 1) * 4 + vectors - 1) {
#define ONNXC_CASE(M, V)                                                       \
  case (M - 1) * 4 + V - 1:                                                    \
    tileAvx512(M, V, k, a, b, j0, last, sums);                                 \
    return;
#define ONNXC_ROWS(M)                                                          \
  ONNXC_CASE(M, 1) ONNXC_CASE(M, 2) ONNXC_CASE(M, 3) ONNXC_CASE(M, 4)
    ONNXC_ROWS(1)
    ONNXC_ROWS(2)
    ONNXC_ROWS(3)
    ONNXC_ROWS(4)
#undef ONNXC_ROWS
#undef ONNXC_CASE
  }
}

#endif

/*===- GemmAvx2.c - The GEMM's AVX2 micro-kernel ---------------------------===*
 *
 * The AVX2 + FMA variant of the fp32 GEMM (x86-64; Gemm.c picks it where the
 * CPU has AVX2 and FMA but not AVX-512F): a 6 x 16 tile, the sums of its
 * rows in twelve registers, with the tile epilogue in vectors of 8.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemm/GemmInternal.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// The epilogue of one 8-wide vector `v` of tile row `i` at c + at.
ONNXC_AVX2 static inline __m256 finishAvx2(const TileEpilogue *e, __m256 v,
                                           int i, const float *c, int64_t at) {
  if (!e)
    return _mm256_add_ps(_mm256_loadu_ps(c + at), v);
  if (e->load)
    v = _mm256_add_ps(_mm256_loadu_ps(c + at), v);
  if (e->bias)
    v = _mm256_add_ps(v, _mm256_set1_ps(e->bias[i]));
  if (e->res)
    v = _mm256_add_ps(v, _mm256_loadu_ps(e->res + at));
  if (e->clamp)
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(e->lo)),
                      _mm256_set1_ps(e->hi));
  if (e->hardSwish) {
    __m256 gate =
        _mm256_fmadd_ps(v, _mm256_set1_ps(1.0f / 6.0f), _mm256_set1_ps(0.5f));
    gate = _mm256_min_ps(_mm256_max_ps(gate, _mm256_setzero_ps()),
                         _mm256_set1_ps(1.0f));
    v = _mm256_mul_ps(v, gate);
  }
  return v;
}

ONNXC_AVX2 void onnxcGemmKernelAvx2(int64_t kc, const float *a, const float *b,
                                    float *c, int64_t ldc,
                                    const TileEpilogue *e) {
  enum { MR = 6 };
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
  __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
  __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
  __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, a += MR, b += 16) {
    __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
    __m256 x;
#define ONNXC_ROW(I, C0, C1)                                                   \
  x = _mm256_broadcast_ss(a + (I));                                            \
  C0 = _mm256_fmadd_ps(x, b0, C0);                                             \
  C1 = _mm256_fmadd_ps(x, b1, C1);
    ONNXC_ROW(0, c00, c01)
    ONNXC_ROW(1, c10, c11)
    ONNXC_ROW(2, c20, c21)
    ONNXC_ROW(3, c30, c31)
    ONNXC_ROW(4, c40, c41)
    ONNXC_ROW(5, c50, c51)
#undef ONNXC_ROW
  }
#define ONNXC_STORE(I, C0, C1)                                                 \
  {                                                                            \
    int64_t at = (I) * ldc;                                                    \
    _mm256_storeu_ps(c + at, finishAvx2(e, C0, I, c, at));                     \
    _mm256_storeu_ps(c + at + 8, finishAvx2(e, C1, I, c, at + 8));             \
  }
  ONNXC_STORE(0, c00, c01)
  ONNXC_STORE(1, c10, c11)
  ONNXC_STORE(2, c20, c21)
  ONNXC_STORE(3, c30, c31)
  ONNXC_STORE(4, c40, c41)
  ONNXC_STORE(5, c50, c51)
#undef ONNXC_STORE
}

#endif

/*===- GemmAvx512.h - AVX-512 helpers of the GEMM's tiles ------------------===*
 *
 * Internal to gemm/, x86-64 only: what the AVX-512 micro-kernels
 * (GemmAvx512.c) and those of the convolutions on their input's grid
 * (GemmGridAvx512.c) share: how far ahead they fetch, a tile's masked and
 * transposed stores (static inline; the store of a pair of slivers a
 * function of its own), and the 16 x 16 transpose in registers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_GEMM_GEMMAVX512_H
#define ONNXC_KERNELS_GEMM_GEMMAVX512_H

#include "lib/Kernels/Avx512.h"
#include "lib/Kernels/gemm/GemmInternal.h"

#if defined(__x86_64__)

/// How far ahead of the reduction step it sums a micro-kernel fetches the
/// packed filters it streams: A's rows in a plain tile, B's sliver in a
/// transposed or grid one (64 steps: 8 KiB of a 32-wide sliver). In a model
/// a tile's first pass over its filters reads them from DRAM, which the
/// hardware prefetcher alone did not hide: resnet50 38.2 -> 36.2 ms,
/// inception_v3 58.7 -> 54.0, T=2 resnet50 20.2 -> 19.2. (Fetching B too
/// in a plain tile, a matmul's weights, did not speed up BERT.)
enum { PrefetchSteps = 64 };

/// The epilogue of the lanes `mask` of vector `v` of tile row (or column)
/// `i` at c + at; `bias` is the value to add, if any.
ONNXC_AVX512 static inline void storeMaskedAvx512(const TileEpilogue *e,
                                                  __m512 v, const float *bias,
                                                  float *c, int64_t at,
                                                  __mmask16 mask) {
  if (!e || e->load)
    v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, c + at));
  if (e) {
    if (bias)
      v = _mm512_add_ps(v, _mm512_set1_ps(*bias));
    if (e->res)
      v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, e->res + at));
    if (e->clamp)
      v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(e->lo)),
                        _mm512_set1_ps(e->hi));
    if (e->hardSwish)
      v = onnxcHardSwish16(v);
  }
  _mm512_mask_storeu_ps(c + at, mask, v);
}

/// t = r transposed, 16 x 16 (t[j] lane i = r[i] lane j): unpacks of 32-
/// and 64-bit elements, then two rounds of 128-bit lane shuffles.
ONNXC_AVX512 static inline void transpose16(const __m512 r[16], __m512 t[16]) {
  __m512 a[16], b[16];
  _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k) {
    a[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    a[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  // b[4k + m], 128-bit lane L: column 4L + m of rows 4k .. 4k + 3.
  _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k) {
    __m512d a0 = _mm512_castps_pd(a[4 * k]),
            a1 = _mm512_castps_pd(a[4 * k + 1]);
    __m512d a2 = _mm512_castps_pd(a[4 * k + 2]),
            a3 = _mm512_castps_pd(a[4 * k + 3]);
    b[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
    b[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
    b[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
    b[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
  }
  _Pragma("GCC unroll 4") for (int m = 0; m < 4; ++m) {
    __m512 c0 = _mm512_shuffle_f32x4(b[m], b[4 + m], 0x88);
    __m512 c1 = _mm512_shuffle_f32x4(b[m], b[4 + m], 0xdd);
    __m512 c2 = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0x88);
    __m512 c3 = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0xdd);
    t[m] = _mm512_shuffle_f32x4(c0, c2, 0x88);
    t[4 + m] = _mm512_shuffle_f32x4(c1, c3, 0x88);
    t[8 + m] = _mm512_shuffle_f32x4(c0, c2, 0xdd);
    t[12 + m] = _mm512_shuffle_f32x4(c1, c3, 0xdd);
  }
}

/// The 14 x 32 sums `acc` of a tile stored transposed: each half is
/// transposed in registers, and of each of the first `cols` columns the
/// lanes (tile rows) `keep` are stored as consecutive values to its row of
/// C, the others dropped; the bias is per column.
ONNXC_AVX512 static inline void storeTransposedAvx512(__m512 acc[14][2],
                                                      float *c, int64_t ldc,
                                                      __mmask16 keep, int cols,
                                                      const TileEpilogue *e) {
  const __mmask16 stored =
      (__mmask16)((1u << __builtin_popcount((unsigned)keep)) - 1);
  for (int v = 0; v < 2 && 16 * v < cols; ++v) {
    __m512 r[16], t[16];
    _Pragma("GCC unroll 16") for (int i = 0; i < 14; ++i) r[i] = acc[i][v];
    r[14] = r[15] = _mm512_setzero_ps();
    transpose16(r, t);
    for (int m = 0; m < 16 && 16 * v + m < cols; ++m) {
      int j = 16 * v + m;
      __m512 column =
          keep == stored ? t[m] : _mm512_maskz_compress_ps(keep, t[m]);
      storeMaskedAvx512(e, column, e && e->bias ? e->bias + j : NULL, c,
                        j * ldc, stored);
    }
  }
}

/// The 28 x 16 sums `acc` of two slivers of rows stored transposed (as
/// storeTransposedAvx512 each half): of the 28 rows, the lanes `keep` are
/// stored, those of the second half following those of the first in C
/// (GemmAvx512.c; a function of its own, called by the pair kernel and the
/// grid's).
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmStorePairTransposedAvx512(const __m512 acc[28], float *c, int64_t ldc,
                                   uint32_t keep, int cols,
                                   const TileEpilogue *e);

#endif

#endif /* ONNXC_KERNELS_GEMM_GEMMAVX512_H */

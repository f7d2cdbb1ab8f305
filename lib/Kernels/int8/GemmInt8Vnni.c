/*===- GemmInt8Vnni.c - The int8 GEMM's AVX-512 VNNI kernel ----------------===*
 *
 * The AVX-512 VNNI variant of the int8 GEMM (x86-64; GemmInt8.c picks it
 * where the CPU has AVX-512 VNNI, BW and VL): a 14 x 32 tile of vpdpbusd
 * (u8 x s8), the activation on either side, and the requantization
 * epilogue of a row with contiguous columns in vectors of 16.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/int8/GemmInt8Internal.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// An AVX-512 VNNI kernel of MR rows and NV vectors of 16 columns; the
/// activation (u8) is A when U8A, else B.
#define ONNXC_VNNI_KERNEL(NAME, MR, NV, U8A)                                   \
  ONNXC_VNNI static void NAME(int64_t kq, const uint8_t *a, const uint8_t *b,  \
                              int32_t *c, int64_t ldc) {                       \
    __m512i acc[MR][NV];                                                       \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i)                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =       \
            _mm512_setzero_si512();                                            \
    for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 64 * NV) {              \
      __m512i bv[NV];                                                          \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) bv[v] =             \
          _mm512_load_si512((const void *)(b + 64 * v));                       \
      _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i) {                  \
        __m512i x = _mm512_set1_epi32(load32(a + 4 * i));                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =       \
            U8A ? _mm512_dpbusd_epi32(acc[i][v], x, bv[v])                     \
                : _mm512_dpbusd_epi32(acc[i][v], bv[v], x);                    \
      }                                                                        \
    }                                                                          \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i)                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v)                   \
            _mm512_storeu_si512((void *)(c + i * ldc + 16 * v), acc[i][v]);    \
  }

ONNXC_VNNI_KERNEL(kernelVnniActA, 14, 2, 1)
ONNXC_VNNI_KERNEL(kernelVnniActB, 14, 2, 0)

void onnxcQGemmKernelVnni(int64_t kq, const uint8_t *a, const uint8_t *b,
                          int32_t *c, int64_t ldc, int aIsActivation) {
  if (aIsActivation)
    kernelVnniActA(kq, a, b, c, ldc);
  else
    kernelVnniActB(kq, a, b, c, ldc);
}

/// The epilogue of a row whose output columns are contiguous, 16 at a time.
ONNXC_VNNI void onnxcQGemmEpilogueAvx512(const QEpilogue *e, const int32_t *acc,
                                         int64_t i, int64_t j, int64_t cols) {
  const OnnxcQGemm *g = e->g;
  if (e->rowSums || !e->unitColumns) {
    onnxcQGemmEpilogueGeneric(e, acc, i, j, cols);
    return;
  }
  int perRow = g->weightsA;
  int64_t at = g->cRow[i] + g->cCol[j];
  __m512 lo = _mm512_set1_ps(e->lo), hi = _mm512_set1_ps(e->hi);
  __m512i yZero = _mm512_set1_epi32(g->yZero);
  for (int64_t s = 0; s < cols; s += 16) {
    __mmask16 mask =
        cols - s >= 16 ? 0xffff : (__mmask16)((1u << (cols - s)) - 1);
    __m512i v = _mm512_maskz_loadu_epi32(mask, acc + s);
    v = _mm512_add_epi32(
        v, perRow ? _mm512_set1_epi32(e->corr[i])
                  : _mm512_maskz_loadu_epi32(mask, e->corr + j + s));
    if (g->out == ONNXC_QOUT_I32) {
      _mm512_mask_storeu_epi32((int32_t *)g->c + at + s, mask, v);
      continue;
    }
    __m512 scale = perRow ? _mm512_set1_ps(e->scale[i])
                          : _mm512_maskz_loadu_ps(mask, e->scale + j + s);
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(v), scale);
    if (g->out == ONNXC_QOUT_F32) {
      if (e->biasF32)
        f = _mm512_add_ps(
            f, perRow ? _mm512_set1_ps(e->biasF32[i])
                      : _mm512_maskz_loadu_ps(mask, e->biasF32 + j + s));
      if (g->relu)
        f = _mm512_max_ps(f, _mm512_setzero_ps());
      _mm512_mask_storeu_ps((float *)g->c + at + s, mask, f);
      continue;
    }
    f = _mm512_min_ps(_mm512_max_ps(f, lo), hi);
    __m512i q =
        _mm512_add_epi32(_mm512_cvt_roundps_epi32(f, _MM_FROUND_TO_NEAREST_INT |
                                                         _MM_FROUND_NO_EXC),
                         yZero);
    _mm512_mask_cvtepi32_storeu_epi8((int8_t *)g->c + at + s, mask, q);
  }
}

#endif

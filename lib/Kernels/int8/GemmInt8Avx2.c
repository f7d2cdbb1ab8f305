/*===- GemmInt8Avx2.c - The int8 GEMM's AVX2 kernel ------------------------===*
 *
 * The AVX2 variant of the int8 GEMM (x86-64; GemmInt8.c picks it where the
 * CPU has AVX2 but not AVX-512 VNNI): a 4 x 16 tile whose four-byte dot
 * products are computed exactly with vpmaddwd on bytes widened to i16, and
 * the element-wise epilogue compiled for AVX2.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/int8/GemmInt8Internal.h"

#if defined(__x86_64__)
#include <immintrin.h>

/// acc + the four-byte dot products of u8 `u` and s8 `s`, exactly: the
/// even and odd bytes widened to i16 and multiplied by vpmaddwd (vpmaddubsw
/// would saturate at 2 x 255 x 127).
ONNXC_AVX2 static inline __m256i dpbusdAvx2(__m256i acc, __m256i u, __m256i s) {
  __m256i uEven = _mm256_and_si256(u, _mm256_set1_epi16(0x00ff));
  __m256i uOdd = _mm256_srli_epi16(u, 8);
  __m256i sEven = _mm256_srai_epi16(_mm256_slli_epi16(s, 8), 8);
  __m256i sOdd = _mm256_srai_epi16(s, 8);
  __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(uEven, sEven),
                                 _mm256_madd_epi16(uOdd, sOdd));
  return _mm256_add_epi32(acc, sum);
}

ONNXC_AVX2 void onnxcQGemmKernelAvx2(int64_t kq, const uint8_t *a,
                                     const uint8_t *b, int32_t *c, int64_t ldc,
                                     int aIsActivation) {
  enum { MR = 4 };
  __m256i acc[MR][2];
  for (int i = 0; i < MR; ++i)
    acc[i][0] = acc[i][1] = _mm256_setzero_si256();
  for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 64) {
    __m256i b0 = _mm256_load_si256((const __m256i *)b);
    __m256i b1 = _mm256_load_si256((const __m256i *)(b + 32));
    for (int i = 0; i < MR; ++i) {
      __m256i x = _mm256_set1_epi32(load32(a + 4 * i));
      if (aIsActivation) {
        acc[i][0] = dpbusdAvx2(acc[i][0], x, b0);
        acc[i][1] = dpbusdAvx2(acc[i][1], x, b1);
      } else {
        acc[i][0] = dpbusdAvx2(acc[i][0], b0, x);
        acc[i][1] = dpbusdAvx2(acc[i][1], b1, x);
      }
    }
  }
  for (int i = 0; i < MR; ++i) {
    _mm256_storeu_si256((__m256i *)(c + i * ldc), acc[i][0]);
    _mm256_storeu_si256((__m256i *)(c + i * ldc + 8), acc[i][1]);
  }
}

ONNXC_AVX2 void onnxcQGemmEpilogueAvx2(const QEpilogue *e, const int32_t *acc,
                                       int64_t i, int64_t j, int64_t cols) {
  onnxcQGemmEpilogueGeneric(e, acc, i, j, cols);
}

#endif

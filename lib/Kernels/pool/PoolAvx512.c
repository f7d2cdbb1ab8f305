/*===- PoolAvx512.c - Pooling columns with AVX-512 -------------------------===*
 *
 * The AVX-512 variant of the pooling's second pass (Pool.c takes it where
 * the CPU has AVX-512F and the column strides are 1): the output columns
 * whose windows lie inside the input, each row's vectors of 16 in a
 * register over its window's input rows, at column strides 1 and 2 (the
 * even lanes of two loads), the common windows unrolled.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/pool/PoolInternal.h"

#if defined(__x86_64__)
#include <immintrin.h>
#include <math.h>

/// Output columns [from, to) of one output row, whose windows lie inside
/// the `n` input rows `rows` (unit column stride), column stride `sw` 1 or
/// 2, in vectors of 16 accumulated in a register; an average is multiplied
/// by `invRow` and the column's inverse count. Inlined into callers with
/// constant windows, so that the tap loops unroll.
__attribute__((target("avx512f"), always_inline)) static inline void
poolColumnsAvx512Body(const Pool *p, const float *const *rows, int64_t n,
                      float *out, int64_t from, int64_t to, float invRow,
                      int64_t kw, int64_t sw, int64_t dw, int average) {
  const __m512i even = ONNXC_EVEN_LANES;
  const __m512i odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13,
                                       11, 9, 7, 5, 3, 1);
  __m512 inv = _mm512_set1_ps(invRow);
  for (int64_t j = from; j < to; j += 16) {
    int64_t m = to - j < 16 ? to - j : 16;
    __mmask16 mask = (__mmask16)((1u << m) - 1);
    // Stride 2: the lanes of two loads that the even (odd) columns need.
    __mmask16 e0 =
        (__mmask16)(2 * m - 1 >= 16 ? 0xffff : (1u << (2 * m - 1)) - 1);
    __mmask16 e1 = (__mmask16)(2 * m - 1 <= 16 ? 0 : (1u << (2 * m - 17)) - 1);
    __mmask16 o1 = (__mmask16)(2 * m <= 16 ? 0 : (1u << (2 * m - 16)) - 1);
    int64_t start = j * sw - p->left;
    __m512 acc = _mm512_set1_ps(average ? 0.0f : -INFINITY);
    for (int64_t r = 0; r < n; ++r) {
      const float *base = rows[r] + start;
      if (sw == 1) {
        for (int64_t s = 0; s < kw; ++s) {
          __m512 v = _mm512_maskz_loadu_ps(mask, base + s * dw);
          acc = average ? _mm512_add_ps(acc, v) : _mm512_max_ps(v, acc);
        }
        continue;
      }
      for (int64_t s = 0; s < kw; ++s) {
        const float *in = base + s * dw;
        // With unit dilation, taps s and s + 1 share the loads.
        int pair = dw == 1 && s + 1 < kw;
        __m512 lo = _mm512_maskz_loadu_ps(pair ? 0xffff : e0, in);
        __m512 hi = _mm512_maskz_loadu_ps(pair ? o1 : e1, in + 16);
        __m512 v = _mm512_permutex2var_ps(lo, even, hi);
        acc = average ? _mm512_add_ps(acc, v) : _mm512_max_ps(v, acc);
        if (pair) {
          v = _mm512_permutex2var_ps(lo, odd, hi);
          acc = average ? _mm512_add_ps(acc, v) : _mm512_max_ps(v, acc);
          ++s;
        }
      }
    }
    if (average)
      acc = _mm512_mul_ps(_mm512_mul_ps(acc, inv),
                          _mm512_maskz_loadu_ps(mask, p->invCol + j));
    _mm512_mask_storeu_ps(out + j, mask, acc);
  }
}

/// poolColumnsAvx512Body with the common windows constant.
__attribute__((target("avx512f"))) void
onnxcPoolColumnsAvx512(const Pool *p, const float *const *rows, int64_t n,
                       float *out, int64_t from, int64_t to, float invRow) {
#define ONNXC_POOL_CASE(KW, SW, AVG)                                           \
  if (p->kw == KW && p->sw == SW && p->dw == 1 && p->average == AVG) {         \
    poolColumnsAvx512Body(p, rows, n, out, from, to, invRow, KW, SW, 1, AVG);  \
    return;                                                                    \
  }
  ONNXC_POOL_CASE(2, 2, 0)
  ONNXC_POOL_CASE(3, 2, 0)
  ONNXC_POOL_CASE(3, 1, 0)
  ONNXC_POOL_CASE(3, 1, 1)
  ONNXC_POOL_CASE(3, 2, 1)
  ONNXC_POOL_CASE(2, 2, 1)
#undef ONNXC_POOL_CASE
  poolColumnsAvx512Body(p, rows, n, out, from, to, invRow, p->kw, p->sw, p->dw,
                        p->average);
}
#endif

/*===- Avx512.h - AVX-512 helpers that the kernel families share -----------===*
 *
 * Internal to lib/Kernels. Included where <immintrin.h> may be used (x86-64);
 * the functions carry their own target attribute, so the including file
 * needs no -mavx512f.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_AVX512_H
#define ONNXC_KERNELS_AVX512_H

#if defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>

/// Fetches the line `floats` floats past `p` into L1 ahead of its use (the
/// address, which may lie past the array, is formed as an integer).
#define ONNXC_PREFETCH(p, floats)                                              \
  _mm_prefetch((const char *)((uintptr_t)(p) + sizeof(float) * (floats)),      \
               _MM_HINT_T0)

/// ONNX's HardSwish, x * clamp(x / 6 + 1/2, 0, 1), of 16 values.
__attribute__((target("avx512f,fma"))) static inline __m512
onnxcHardSwish16(__m512 v) {
  __m512 gate =
      _mm512_fmadd_ps(v, _mm512_set1_ps(1.0f / 6.0f), _mm512_set1_ps(0.5f));
  gate = _mm512_min_ps(_mm512_max_ps(gate, _mm512_setzero_ps()),
                       _mm512_set1_ps(1.0f));
  return _mm512_mul_ps(v, gate);
}
#endif

#endif /* ONNXC_KERNELS_AVX512_H */

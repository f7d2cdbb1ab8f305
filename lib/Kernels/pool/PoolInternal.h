/*===- PoolInternal.h - What the files of the pooling share ----------------===*
 *
 * Internal to pool/: one pooling's geometry, which the entry point (Pool.c)
 * and its AVX-512 columns (PoolAvx512.c) share.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_POOL_POOLINTERNAL_H
#define ONNXC_KERNELS_POOL_POOLINTERNAL_H

#include "lib/Kernels/Kernels.h"

typedef struct {
  const float *x;
  float *y;
  int64_t channels, h, w, oh, ow;
  int64_t kh, kw, sh, sw, dh, dw, top, left;
  int64_t xStride[4], yStride[4];
  int average;
  /// Average: taps at rows [countLoH, countHiH) and columns [countLoW,
  /// countHiW) count in the divisor.
  int64_t countLoH, countHiH, countLoW, countHiW;
  /// Average: 1 / the counted taps of each output column's window.
  const float *invCol;
} Pool;

#if defined(__x86_64__)
/// Output columns [from, to) of one output row, whose windows lie inside
/// the `n` input rows `rows` (unit column stride), column stride 1 or 2, in
/// vectors of 16 (PoolAvx512.c).
ONNXC_INTERNAL __attribute__((target("avx512f"))) void
onnxcPoolColumnsAvx512(const Pool *p, const float *const *rows, int64_t n,
                       float *out, int64_t from, int64_t to, float invRow);
#endif

#endif /* ONNXC_KERNELS_POOL_POOLINTERNAL_H */

/*===- GemmGeneric.c - The GEMM's portable C micro-kernel ------------------===*
 *
 * The portable variant of the fp32 GEMM, for CPUs without the vector ISAs of
 * the other variants (and ONNXC_GEMM_KERNEL=generic): a 4 x 8 tile in plain
 * C.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemm/GemmInternal.h"

void onnxcGemmKernelGeneric(int64_t kc, const float *a, const float *b,
                            float *c, int64_t ldc, const TileEpilogue *e) {
  enum { MR = 4, NR = 8 };
  float acc[MR][NR] = {{0}};
  for (int64_t p = 0; p < kc; ++p, a += MR, b += NR)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j)
        acc[i][j] += a[i] * b[j];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j)
      c[i * ldc + j] = finishValue(e, acc[i][j], i, j, c, i * ldc + j);
}

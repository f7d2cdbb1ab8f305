/*===- GemmNeon.c - The GEMM's NEON micro-kernel ---------------------------===*
 *
 * The NEON variant of the fp32 GEMM (AArch64, where Gemm.c always picks it):
 * an 8 x 8 tile, its sums in sixteen registers, multiplied by lane.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemm/GemmInternal.h"

#if defined(__aarch64__)
#include <arm_neon.h>

void onnxcGemmKernelNeon(int64_t kc, const float *a, const float *b, float *c,
                         int64_t ldc, const TileEpilogue *e) {
  enum { MR = 8 };
  float32x4_t acc[MR][2];
  for (int i = 0; i < MR; ++i)
    acc[i][0] = acc[i][1] = vdupq_n_f32(0.0f);
  for (int64_t p = 0; p < kc; ++p, a += MR, b += 8) {
    float32x4_t b0 = vld1q_f32(b), b1 = vld1q_f32(b + 4);
    float32x4_t a0 = vld1q_f32(a), a1 = vld1q_f32(a + 4);
    acc[0][0] = vfmaq_laneq_f32(acc[0][0], b0, a0, 0);
    acc[0][1] = vfmaq_laneq_f32(acc[0][1], b1, a0, 0);
    acc[1][0] = vfmaq_laneq_f32(acc[1][0], b0, a0, 1);
    acc[1][1] = vfmaq_laneq_f32(acc[1][1], b1, a0, 1);
    acc[2][0] = vfmaq_laneq_f32(acc[2][0], b0, a0, 2);
    acc[2][1] = vfmaq_laneq_f32(acc[2][1], b1, a0, 2);
    acc[3][0] = vfmaq_laneq_f32(acc[3][0], b0, a0, 3);
    acc[3][1] = vfmaq_laneq_f32(acc[3][1], b1, a0, 3);
    acc[4][0] = vfmaq_laneq_f32(acc[4][0], b0, a1, 0);
    acc[4][1] = vfmaq_laneq_f32(acc[4][1], b1, a1, 0);
    acc[5][0] = vfmaq_laneq_f32(acc[5][0], b0, a1, 1);
    acc[5][1] = vfmaq_laneq_f32(acc[5][1], b1, a1, 1);
    acc[6][0] = vfmaq_laneq_f32(acc[6][0], b0, a1, 2);
    acc[6][1] = vfmaq_laneq_f32(acc[6][1], b1, a1, 2);
    acc[7][0] = vfmaq_laneq_f32(acc[7][0], b0, a1, 3);
    acc[7][1] = vfmaq_laneq_f32(acc[7][1], b1, a1, 3);
  }
  if (e) {
    float sums[MR][8];
    for (int i = 0; i < MR; ++i) {
      vst1q_f32(sums[i], acc[i][0]);
      vst1q_f32(sums[i] + 4, acc[i][1]);
    }
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < 8; ++j)
        c[i * ldc + j] = finishValue(e, sums[i][j], i, j, c, i * ldc + j);
    return;
  }
  for (int i = 0; i < MR; ++i) {
    float *row = c + i * ldc;
    vst1q_f32(row, vaddq_f32(vld1q_f32(row), acc[i][0]));
    vst1q_f32(row + 4, vaddq_f32(vld1q_f32(row + 4), acc[i][1]));
  }
}

#endif

/*===- GemmInt8Sdot.c - The int8 GEMM's AArch64 sdot kernel ----------------===*
 *
 * The AArch64 dot-product variant of the int8 GEMM (GemmInt8.c picks it
 * where the CPU has the ASIMD dot product): an 8 x 8 tile of sdot, both
 * operands in the s8 domain.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/int8/GemmInt8Internal.h"

#if defined(__aarch64__)
#include <arm_neon.h>

/// sdot: both operands in the s8 domain, so the activation's side does not
/// matter.
ONNXC_DOTPROD void onnxcQGemmKernelSdot(int64_t kq, const uint8_t *a,
                                        const uint8_t *b, int32_t *c,
                                        int64_t ldc, int aIsActivation) {
  (void)aIsActivation;
  enum { MR = 8 };
  int32x4_t acc[MR][2];
  for (int i = 0; i < MR; ++i)
    acc[i][0] = acc[i][1] = vdupq_n_s32(0);
  for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 32) {
    int8x16_t b0 = vld1q_s8((const int8_t *)b);
    int8x16_t b1 = vld1q_s8((const int8_t *)b + 16);
    int8x16_t a0 = vld1q_s8((const int8_t *)a);
    int8x16_t a1 = vld1q_s8((const int8_t *)a + 16);
    acc[0][0] = vdotq_laneq_s32(acc[0][0], b0, a0, 0);
    acc[0][1] = vdotq_laneq_s32(acc[0][1], b1, a0, 0);
    acc[1][0] = vdotq_laneq_s32(acc[1][0], b0, a0, 1);
    acc[1][1] = vdotq_laneq_s32(acc[1][1], b1, a0, 1);
    acc[2][0] = vdotq_laneq_s32(acc[2][0], b0, a0, 2);
    acc[2][1] = vdotq_laneq_s32(acc[2][1], b1, a0, 2);
    acc[3][0] = vdotq_laneq_s32(acc[3][0], b0, a0, 3);
    acc[3][1] = vdotq_laneq_s32(acc[3][1], b1, a0, 3);
    acc[4][0] = vdotq_laneq_s32(acc[4][0], b0, a1, 0);
    acc[4][1] = vdotq_laneq_s32(acc[4][1], b1, a1, 0);
    acc[5][0] = vdotq_laneq_s32(acc[5][0], b0, a1, 1);
    acc[5][1] = vdotq_laneq_s32(acc[5][1], b1, a1, 1);
    acc[6][0] = vdotq_laneq_s32(acc[6][0], b0, a1, 2);
    acc[6][1] = vdotq_laneq_s32(acc[6][1], b1, a1, 2);
    acc[7][0] = vdotq_laneq_s32(acc[7][0], b0, a1, 3);
    acc[7][1] = vdotq_laneq_s32(acc[7][1], b1, a1, 3);
  }
  for (int i = 0; i < MR; ++i) {
    vst1q_s32(c + i * ldc, acc[i][0]);
    vst1q_s32(c + i * ldc + 4, acc[i][1]);
  }
}

#endif

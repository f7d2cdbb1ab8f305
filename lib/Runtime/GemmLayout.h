/*===- GemmLayout.h - Tiles of the fp32 GEMM and its packed B layout ------===*
 *
 * The micro-kernel tiles and cache blocks of the packed fp32 GEMM (Gemm.c),
 * and the layout a constant B operand is packed in. Shared by the runtime and
 * the compiler (convert-linalg-to-kernel-calls packs constant weights ahead
 * of time in the layout of the kernel the target CPU will run), so the two
 * cannot disagree. Plain C, no dependencies; every function is static inline.
 *
 * Packed B layout (nr, kcBlock) of a k x n matrix: the reduction is cut into
 * blocks of kcBlock steps (the last one shorter); block pc holds all of B's
 * slivers of nr columns (the last one zero padded to nr), each a kc x nr
 * row-major panel, so element (p, j) lies at
 *   pc * nPad + (j / nr) * kc * nr + (p - pc) * nr + j % nr
 * with pc = p - p % kcBlock, kc = min(kcBlock, k - pc), nPad = n rounded up
 * to nr: k * nPad floats in all.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_GEMMLAYOUT_H
#define ONNXC_RUNTIME_GEMMLAYOUT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The most rows of A that the runtime's GEMV path (Gemv.c) takes; the
/// compiler leaves the constant B of such products unpacked, as the GEMV
/// packs its own layout.
#define ONNXC_GEMV_MAX_ROWS 4

/// The vector ISAs the fp32 GEMM has micro-kernels for.
typedef enum {
  ONNXC_GEMM_ISA_GENERIC = 0,
  ONNXC_GEMM_ISA_AVX2,
  ONNXC_GEMM_ISA_AVX512,
  ONNXC_GEMM_ISA_NEON
} OnnxcGemmIsa;

/// A micro-kernel's tile (mr x nr) and cache blocks (kc steps of the
/// reduction, mc rows of A, nc columns of B).
typedef struct {
  int mr, nr;
  int64_t kc, mc, nc;
} OnnxcGemmTile;

/// The default tile of `isa`.
static inline OnnxcGemmTile onnxcGemmDefaultTile(OnnxcGemmIsa isa) {
  switch (isa) {
  case ONNXC_GEMM_ISA_AVX512: {
    OnnxcGemmTile t = {14, 32, 512, 112, 2048};
    return t;
  }
  case ONNXC_GEMM_ISA_AVX2: {
    OnnxcGemmTile t = {6, 16, 256, 144, 2048};
    return t;
  }
  case ONNXC_GEMM_ISA_NEON: {
    OnnxcGemmTile t = {8, 8, 256, 128, 2048};
    return t;
  }
  default: {
    OnnxcGemmTile t = {4, 8, 256, 128, 2048};
    return t;
  }
  }
}

/// The wide AVX-512 tile (8 x 48): less padding than 14 x 32 where M is a
/// multiple of 8 but not of 14 (a transformer's 128 tokens).
static inline OnnxcGemmTile onnxcGemmWideTile(void) {
  OnnxcGemmTile t = {8, 48, 256, 128, 2064};
  return t;
}

/// True when an m x n product (m <= 0: not known) runs on the wide tile
/// of AVX-512 rather than the default one: m (when known) fills whole
/// 8-row slivers, n whole 48-column ones (or at least four, the last one
/// partial: the wide tile has no edge kernel), and the tiles pad less than
/// 14 x 32 (when m is not known, n must fit exactly). (A margin of 3% for
/// the default tile kept mobilenet_v2's 1x1 16 -> 96 on 112x112 on it: 270
/// us against 242 on the wide one.)
static inline int onnxcGemmPrefersWide(OnnxcGemmIsa isa, int64_t m,
                                       int64_t n) {
  if (isa != ONNXC_GEMM_ISA_AVX512 || n <= 0 ||
      (n % 48 != 0 && (m <= 0 || n < 4 * 48)))
    return 0;
  if (m <= 0)
    return 1;
  if (m % 8 != 0)
    return 0;
  double wide = (double)m * (double)((n + 47) / 48 * 48);
  double narrow = (double)((m + 13) / 14 * 14) * (double)((n + 31) / 32 * 32);
  return wide < narrow;
}

/// The length of the reduction blocks of a reduction of length k for a
/// kernel blocked at kc: as few blocks as kc allows, of equal length
/// (rounded up to 8), so that no block is short.
static inline int64_t onnxcGemmBlockK(int64_t kc, int64_t k) {
  int64_t blocks = (k + kc - 1) / kc;
  int64_t block = blocks > 1 ? (k + blocks - 1) / blocks : k;
  block = (block + 7) / 8 * 8;
  if (block <= 0)
    block = 1;
  return block < kc ? block : kc;
}

/// The number of floats of B (k x n) packed with slivers nr wide.
static inline int64_t onnxcGemmPackedBSize(int64_t k, int64_t n, int nr) {
  return k * ((n + nr - 1) / nr * nr);
}

/// Packs B, element (p, j) at b[p * rowStride + j * colStride], into the
/// layout (nr, kcBlock) at dst (onnxcGemmPackedBSize floats).
static inline void onnxcGemmPackB(const float *b, int64_t rowStride,
                                  int64_t colStride, int64_t k, int64_t n,
                                  int nr, int64_t kcBlock, float *dst) {
  int64_t nPad = (n + nr - 1) / nr * nr;
  for (int64_t pc = 0; pc < k; pc += kcBlock) {
    int64_t kc = k - pc < kcBlock ? k - pc : kcBlock;
    for (int64_t j0 = 0; j0 < nPad; j0 += nr) {
      float *panel = dst + pc * nPad + j0 * kc;
      for (int64_t p = 0; p < kc; ++p)
        for (int64_t jj = 0; jj < nr; ++jj)
          panel[p * nr + jj] =
              j0 + jj < n ? b[(pc + p) * rowStride + (j0 + jj) * colStride]
                          : 0.0f;
    }
  }
}

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_RUNTIME_GEMMLAYOUT_H */

/*===- KernelABI.h - ABI of the CPU kernels that generated code calls ------===*
 *
 * The ABI between convert-linalg-to-kernel-calls (and
 * convert-fused-to-kernel-calls) and the CPU kernel library, lib/Kernels:
 * the vector ISAs, the micro-kernel tiles and cache blocks of the packed
 * fp32 GEMM and the layout a constant B operand is packed in (the compiler
 * packs constant weights ahead of time in the layout of the kernel the
 * target CPU will run), the GEMV threshold, and the C prototypes and flags
 * of the kernel entry points that generated code calls. Both sides include
 * it, so the two cannot disagree. Pure C, no dependencies (<stdint.h>
 * aside): static inline functions, macros and prototypes only.
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
#ifndef ONNXC_DIALECTS_KERNEL_KERNELABI_H
#define ONNXC_DIALECTS_KERNEL_KERNELABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*
 * The packed fp32 GEMM: ISAs, tiles, the packed B layout
 *===----------------------------------------------------------------------===*/

/// The most rows of A that the kernels' GEMV path takes; the compiler
/// leaves the constant B of such products unpacked, as the GEMV packs its
/// own layout.
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
static inline int onnxcGemmPrefersWide(OnnxcGemmIsa isa, int64_t m, int64_t n) {
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

/*===----------------------------------------------------------------------===*
 * Entry points of lowered f32 linalg ops
 *===----------------------------------------------------------------------===*/

/* Entry points of lowered linalg ops, on f32 memrefs passed as expanded
 * descriptors (allocated, aligned, offset, sizes, strides). `flags` bit 0:
 * apply max(., 0) to the result (convolutions: clamp it to [lo, hi]);
 * bit 1 (2): the first input is a constant; bit 2 (4): the second input is a
 * constant; convolutions only: bit 3 (8): the output starts from `bias` (one
 * value per channel) instead of its contents; bit 4 (16): `res`, of the
 * output's shape and strides, is added before the clamp. */
#define ONNXC_MEMREF1(p)                                                       \
  float *p##Alloc, float *p, int64_t p##Off, int64_t p##Size0,                 \
      int64_t p##Stride0
#define ONNXC_MEMREF2(p)                                                       \
  float *p##Alloc, float *p, int64_t p##Off, int64_t p##Size0,                 \
      int64_t p##Size1, int64_t p##Stride0, int64_t p##Stride1
#define ONNXC_MEMREF3(p)                                                       \
  float *p##Alloc, float *p, int64_t p##Off, int64_t p##Size0,                 \
      int64_t p##Size1, int64_t p##Size2, int64_t p##Stride0,                  \
      int64_t p##Stride1, int64_t p##Stride2
#define ONNXC_MEMREF4(p)                                                       \
  float *p##Alloc, float *p, int64_t p##Off, int64_t p##Size0,                 \
      int64_t p##Size1, int64_t p##Size2, int64_t p##Size3,                    \
      int64_t p##Stride0, int64_t p##Stride1, int64_t p##Stride2,              \
      int64_t p##Stride3
#define ONNXC_MEMREF5(p)                                                       \
  float *p##Alloc, float *p, int64_t p##Off, int64_t p##Size0,                 \
      int64_t p##Size1, int64_t p##Size2, int64_t p##Size3, int64_t p##Size4,  \
      int64_t p##Stride0, int64_t p##Stride1, int64_t p##Stride2,              \
      int64_t p##Stride3, int64_t p##Stride4

/// linalg.matmul (and its transposed forms, as strided views): C += A B.
void onnxc_kernel_matmul_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF2(b),
                             ONNXC_MEMREF2(c), int64_t flags);
/// linalg.matmul with a constant B that the compiler packed in the layout
/// (nr, kcBlock) above: C (m x n) += A (m x k) B.
void onnxc_kernel_matmul_packed_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF1(b),
                                    ONNXC_MEMREF2(c), int64_t n, int64_t nr,
                                    int64_t kcBlock, int64_t flags);
/// linalg.batch_matmul: C[b] += A[b] B[b].
void onnxc_kernel_batch_matmul_f32(ONNXC_MEMREF3(a), ONNXC_MEMREF3(b),
                                   ONNXC_MEMREF3(c), int64_t flags);
/// linalg.conv_2d_nchw_fchw on an already padded input, with the epilogue
/// of `flags` (bias, residual, clamp) fused; bit 5 (32): after the clamp,
/// ONNX's HardSwish v * clamp(v / 6 + 1/2, 0, 1).
void onnxc_kernel_conv2d_nchw_fchw_f32(ONNXC_MEMREF4(x), ONNXC_MEMREF4(w),
                                       ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
                                       ONNXC_MEMREF4(res), int64_t strideH,
                                       int64_t strideW, int64_t dilationH,
                                       int64_t dilationW, int64_t flags,
                                       float lo, float hi);
/// linalg.conv_2d_ngchw_gfchw (a grouped convolution: X [N, G, C/G, H, W],
/// W [G, M/G, C/G, kH, kW], Y [N, G, M/G, OH, OW]) on an already padded
/// input, one GEMM per image and group; the bias has M values (group-major),
/// the residual Y's shape and strides.
void onnxc_kernel_conv2d_ngchw_gfchw_f32(ONNXC_MEMREF5(x), ONNXC_MEMREF5(w),
                                         ONNXC_MEMREF5(y), ONNXC_MEMREF1(bias),
                                         ONNXC_MEMREF5(res), int64_t strideH,
                                         int64_t strideW, int64_t dilationH,
                                         int64_t dilationW, int64_t flags,
                                         float lo, float hi);
/// linalg.depthwise_conv_2d_nchw_chw, likewise, on an input read as if
/// padded with zeros: `padTop` rows and `padLeft` columns before it, and
/// after it as many as the output's size needs (0, 0 for an already padded
/// input). `flags` bit 5 (32): after the clamp, HardSwish v * clamp(alpha v
/// + beta, 0, 1).
void onnxc_kernel_depthwise_conv2d_nchw_chw_f32(
    ONNXC_MEMREF4(x), ONNXC_MEMREF3(w), ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
    ONNXC_MEMREF4(res), int64_t strideH, int64_t strideW, int64_t dilationH,
    int64_t dilationW, int64_t padTop, int64_t padLeft, int64_t flags, float lo,
    float hi, float alpha, float beta);
/// linalg.conv_2d_nchw_fchw on an input read as if padded with zeros (the
/// depthwise kernel's `padTop`, `padLeft`), for planes of few pixels: the
/// compiler calls it on AVX-512 for outputs of 16 to 64 pixels at stride 1
/// and dilation 1 that keep the input's size, with at most 2^18
/// multiply-adds per image (computed directly, no GEMM); any other shape is
/// computed too, element by element. The epilogue as for
/// onnxc_kernel_conv2d_nchw_fchw_f32.
void onnxc_kernel_conv2d_small_nchw_fchw_f32(
    ONNXC_MEMREF4(x), ONNXC_MEMREF4(w), ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
    ONNXC_MEMREF4(res), int64_t strideH, int64_t strideW, int64_t dilationH,
    int64_t dilationW, int64_t padTop, int64_t padLeft, int64_t flags, float lo,
    float hi);

/// dst = src padded with `value`: src at [:, :, top, left] of dst (a copy
/// into a constant-filled buffer, in one pass).
void onnxc_kernel_pad_f32(ONNXC_MEMREF4(src), ONNXC_MEMREF4(dst), int64_t top,
                          int64_t left, float value);

/// MaxPool (`flags` 0) or AveragePool (`flags` bit 0) over 2-D windows of
/// kh x kw taps, strides sh, sw and dilations dh, dw, the window of output
/// (i, j) starting at input (i sh - top, j sw - left); taps outside x are
/// skipped (no padded copy), y is written. An average divides by the number
/// of taps inside x, or with bit 1 (count_include_pad) inside x padded by
/// top, left, bottom and right.
void onnxc_kernel_pool2d_f32(ONNXC_MEMREF4(x), ONNXC_MEMREF4(y), int64_t kh,
                             int64_t kw, int64_t sh, int64_t sw, int64_t dh,
                             int64_t dw, int64_t top, int64_t left,
                             int64_t bottom, int64_t right, int64_t flags);

/// fused.attention: for each batch b and head h, Y[b, :, h] = softmax(scale
/// * Q[b, :, h] K[b, :, g]^T + M[b, h]) V[b, :, g], where head h of the 3-D
/// Q and Y is its h-th block of columns (width / heads of them), K and V
/// have G heads of the same sizes (G = K's width / Q's head size, a divisor
/// of heads; g = h / (heads / G), h itself when G = heads) and M broadcasts
/// to [B, heads, S, T] (a size-1 dim is read at stride 0). `flags` bit 0:
/// there is a mask (else `m` is not read). Inconsistent widths: no output.
void onnxc_kernel_attention_f32(ONNXC_MEMREF3(q), ONNXC_MEMREF3(k),
                                ONNXC_MEMREF3(v), ONNXC_MEMREF4(m),
                                ONNXC_MEMREF3(y), int64_t heads, float scale,
                                int64_t flags);

/// LayerNormalization over the last axis of the rows of a contiguous X (unit
/// column stride): Y = (X - mean) / sqrt(var + epsilon) * scale + bias, with
/// scale and bias (`flags` bit 0: present) contiguous vectors of X's width.
void onnxc_kernel_layer_norm_f32(ONNXC_MEMREF2(x), ONNXC_MEMREF1(s),
                                 ONNXC_MEMREF1(b), ONNXC_MEMREF2(y),
                                 float epsilon, int64_t flags);

/*===----------------------------------------------------------------------===*
 * Entry points of the 8-bit integer GEMM
 *===----------------------------------------------------------------------===*/

/// What the int8 GEMM stores: the i32 accumulators (plus bias), their f32
/// dequantization, or a requantized u8 / s8.
enum { ONNXC_QOUT_I32 = 0, ONNXC_QOUT_F32, ONNXC_QOUT_U8, ONNXC_QOUT_S8 };

/* Entry points of fused.qmatmul and fused.qconv on memrefs, passed as
 * expanded descriptors of any element type. The parameters are 1-D: x's zero
 * point (i32, one element), w's zero points (i32), the bias (i32, or f32 with
 * ONNXC_QFLAG_BIAS_F32; none when empty), the scales (f32) and y's zero
 * point (i32). */
enum {
  ONNXC_QFLAG_RELU = 1,
  ONNXC_QFLAG_CONST_X = 2,
  ONNXC_QFLAG_CONST_W = 4,
  ONNXC_QFLAG_X_SIGNED = 8,
  ONNXC_QFLAG_W_SIGNED = 16,
  ONNXC_QFLAG_OUT_SHIFT = 5, /* 2 bits: ONNXC_QOUT_* */
  ONNXC_QFLAG_BIAS_F32 = 128,
};
#define ONNXC_QMEMREF1(p)                                                      \
  void *p##Alloc, void *p, int64_t p##Off, int64_t p##Size0, int64_t p##Stride0
#define ONNXC_QMEMREF2(p)                                                      \
  void *p##Alloc, void *p, int64_t p##Off, int64_t p##Size0, int64_t p##Size1, \
      int64_t p##Stride0, int64_t p##Stride1
#define ONNXC_QMEMREF4(p)                                                      \
  void *p##Alloc, void *p, int64_t p##Off, int64_t p##Size0, int64_t p##Size1, \
      int64_t p##Size2, int64_t p##Size3, int64_t p##Stride0,                  \
      int64_t p##Stride1, int64_t p##Stride2, int64_t p##Stride3
#define ONNXC_QPARAMS                                                          \
  ONNXC_QMEMREF1(xZero), ONNXC_QMEMREF1(wZero), ONNXC_QMEMREF1(bias),          \
      ONNXC_QMEMREF1(scale), ONNXC_QMEMREF1(yZero)

/// fused.qmatmul: Y[M, N] = epilogue(X[M, K] W[K, N]).
void onnxc_kernel_qmatmul(ONNXC_QMEMREF2(x), ONNXC_QMEMREF2(w), ONNXC_QPARAMS,
                          ONNXC_QMEMREF2(y), int64_t flags);
/// fused.qconv: Y = epilogue(conv2d_nchw_fchw(X, W)) on an already padded X.
void onnxc_kernel_qconv2d(ONNXC_QMEMREF4(x), ONNXC_QMEMREF4(w), ONNXC_QPARAMS,
                          ONNXC_QMEMREF4(y), int64_t strideH, int64_t strideW,
                          int64_t dilationH, int64_t dilationW, int64_t flags);
/* Generated code calls both under one symbol per element types of the
 * result and the bias, as a function has one MLIR type: NAME_i8_i32,
 * NAME_i32_i32, NAME_f32_i32 and NAME_f32_f32, aliases of NAME. */

/*===----------------------------------------------------------------------===*
 * Entry point of compiled tree ensembles
 *===----------------------------------------------------------------------===*/

/* The packed forest of fused.tree_ensemble (passes/Conversion/ONNXToLinalg/
 * Trees.cpp packs it), i32 tables passed as QMEMREF1s. `nodes` [total * 4]
 * holds per node a word, the split's bits, and the successors when the test
 * holds and when it fails. The word's bits 0-29 name the feature; bit 31
 * flips x's sign before the test (x ^ sign) <= split; bit 30 marks a special
 * node whose split word is instead the offset in `special` of its record
 * (mode as in TreeEnsemble-5's nodes_modes, missing value goes the true way,
 * split, set size, the set). A leaf is its own successor both ways.
 * `trees` [trees * 2]: each tree's root and the steps its deepest leaf
 * needs; `leafOf` [total]: each leaf node's row of `w` [leaves, targets].
 * Y [N, targets] is the aggregate over the trees of the leaves reached by
 * X's rows. `flags` bits 0-1: the aggregate (1 SUM, 2 MIN, 3 MAX); bit 4:
 * there are special nodes. */
#define ONNXC_TREE_WORD_SIGN 0x80000000u
#define ONNXC_TREE_WORD_SPECIAL 0x40000000
#define ONNXC_TREE_WORD_FEATURE 0x3fffffff
#define ONNXC_TREE_FLAG_SPECIAL 16
void onnxc_kernel_tree_ensemble_f32(ONNXC_MEMREF2(x), ONNXC_QMEMREF1(nodes),
                                    ONNXC_QMEMREF1(trees),
                                    ONNXC_QMEMREF1(leafOf), ONNXC_MEMREF2(w),
                                    ONNXC_MEMREF1(special), ONNXC_MEMREF2(y),
                                    int64_t flags);

/*===----------------------------------------------------------------------===*
 * Entry point of products with packed 4-bit weights
 *===----------------------------------------------------------------------===*/

/* fused.matmul_nbits (com.microsoft MatMulNBits, 4 bits): Y [M, N] =
 * A [M, K] W^T + bias, W [N, K] quantized in blocks of `blockSize` (a power
 * of 2 from 16 to 256) along K, blocks = ceil(K / blockSize) per column.
 * `b`: the bytes of [N, blocks, blockSize / 2], contiguous, each byte two
 * unsigned 4-bit values of consecutive K, the lower nibble first (a last
 * block past K padded); `s` [N * blocks]: the scales; `z`: the zero points,
 * N rows of ceil(blocks / 2) bytes packed as `b` (block j of a row in
 * byte j / 2, upper nibble for odd j); `bias` [N]. W[n, k] = (q - zero
 * point) * scale of its block, the zero point 8 without `z`. `flags` bit 0
 * (ONNXC_NBITS_FLAG_ZERO_POINTS): `z` holds zero points; bit 1
 * (ONNXC_NBITS_FLAG_BIAS): `bias` holds a bias (else each is a placeholder
 * that is not read). A and Y may be strided; b, s, z and bias are
 * contiguous. */
#define ONNXC_NBITS_FLAG_ZERO_POINTS 1
#define ONNXC_NBITS_FLAG_BIAS 2
void onnxc_kernel_matmul_nbits_f32(ONNXC_MEMREF2(a), ONNXC_QMEMREF1(b),
                                   ONNXC_MEMREF1(s), ONNXC_QMEMREF1(z),
                                   ONNXC_MEMREF1(bias), ONNXC_MEMREF2(y),
                                   int64_t k, int64_t blockSize, int64_t flags);

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_DIALECTS_KERNEL_KERNELABI_H */

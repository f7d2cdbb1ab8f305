/*===- GemmInternal.h - What the files of the fp32 GEMM share --------------===*
 *
 * Internal to gemm/: the tile epilogue and the micro-kernel signatures, the
 * kernel set of one ISA (GemmArch), the packing of panels, and the functions
 * that the dispatch (Gemm.c), the blocked loops (GemmBlocked.c), the
 * convolutions on their input's grid (GemmGridAvx512.c) and the micro-kernels
 * of each ISA (GemmGeneric.c, GemmAvx2.c, GemmAvx512.c, GemmNeon.c) call
 * across files. Those were static while the GEMM was one file: they are
 * ONNXC_INTERNAL (hidden) now, and prefixed onnxcGemm.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_GEMM_GEMMINTERNAL_H
#define ONNXC_KERNELS_GEMM_GEMMINTERNAL_H

#include "lib/Kernels/Kernels.h"

/// What a micro-kernel does with its sums S of one tile: c = S + c (or S
/// alone without `load`), + bias[i] (one value per tile row, when not NULL),
/// + res[i * ldc + j] (when not NULL), clamped to [lo, hi] with `clamp`,
/// then with `hardSwish` x * clamp(x / 6 + 1/2, 0, 1).
typedef struct {
  int load, clamp;
  const float *bias, *res;
  float lo, hi;
  int biasColumns; // bias[j] (one value per tile column) instead of bias[i]
  int hardSwish;
} TileEpilogue;

/// The micro-kernel: c[i * ldc + j] = epilogue(sum_p a[p * mr + i] *
/// b[p * nr + j]) over a full mr x nr tile; a NULL epilogue accumulates.
typedef void (*MicroKernel)(int64_t kc, const float *a, const float *b,
                            float *c, int64_t ldc, const TileEpilogue *e);

/// The micro-kernel on a B read where it lies: step p of the sliver at
/// b + p * ldb, its columns consecutive (a 1x1 convolution's image: no
/// packing).
typedef void (*DirectBKernel)(int64_t kc, const float *a, const float *b,
                              int64_t ldb, float *c, int64_t ldc,
                              const TileEpilogue *e);

/// kernelT on two full slivers of rows at a0 and a1 (steps lda apart) for
/// at most nr / 2 columns, C's rows of both consecutive.
typedef void (*PairTKernel)(int64_t kc, const float *a0, const float *a1,
                            int64_t lda, const float *b, float *c, int64_t ldc,
                            int cols, const TileEpilogue *e);

/// A micro-kernel that also takes the part of the tile that C holds, its
/// first `rows` x `cols` (the packed operands are zero padded beyond), and
/// A's step `lda`: its column p at a[p * lda, p * lda + mr) (mr when packed;
/// an unpacked A whose mr rows are consecutive works too).
typedef void (*EdgeKernel)(int64_t kc, const float *a, int64_t lda,
                           const float *b, float *c, int64_t ldc, int rows,
                           int cols, const TileEpilogue *e);

/// The epilogue on one value `sum` of row `i`, column `j` at offset `at` of c
/// (and res).
static inline float finishValue(const TileEpilogue *e, float sum, int64_t i,
                                int64_t j, const float *c, int64_t at) {
  if (!e)
    return c[at] + sum;
  float v = e->load ? c[at] + sum : sum;
  if (e->bias)
    v += e->bias[e->biasColumns ? j : i];
  if (e->res)
    v += e->res[at];
  if (e->clamp)
    v = v < e->lo ? e->lo : v > e->hi ? e->hi : v;
  return e->hardSwish ? onnxcHardSwish(v) : v;
}

/// The most row slivers of a block of A (mc / mr, as every tile and
/// ONNXC_GEMM_BLOCKS keep it); the longest reduction block, and the most
/// rows of A, for which the kernels read B in place (kernelB) rather than
/// packed.
enum { MaxSlivers = 64, DirectBSteps = 512, DirectBRows = 128 };

typedef struct {
  int mr, nr;
  int64_t kc, mc, nc;
  MicroKernel kernel;
  /// `kernel` on a part of a tile (edge tiles); NULL if none.
  EdgeKernel kernelEdge;
  /// The tile stored transposed, element (i, j) at c[i + j * ldc] (a
  /// convolution's output computed as pixels x filters); NULL if none.
  EdgeKernel kernelT;
  /// `kernel` on a B read in place; NULL if none.
  DirectBKernel kernelB;
  /// kernelT over two full row slivers for at most nr / 2 columns; NULL if
  /// none.
  PairTKernel kernelT2;
} GemmArch;

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/// The blocking of a reduction of length k (see onnxcGemmBlockK).
static inline int64_t blockK(const GemmArch *arch, int64_t k) {
  return onnxcGemmBlockK(arch->kc, k);
}

/*===----------------------------------------------------------------------===*
 * Packing
 *===----------------------------------------------------------------------===*/

enum { MaxNR = 64 };

/// A run of a sliver's columns whose offsets step by a constant stride.
typedef struct {
  int64_t first, length, offset, stride;
} ColumnRun;

/// Splits the offsets col[0, n) into constant-stride runs; returns how many.
static inline int splitRuns(const int64_t *col, int64_t n, ColumnRun *runs) {
  int count = 0;
  for (int64_t j = 0; j < n;) {
    int64_t stride = j + 1 < n ? col[j + 1] - col[j] : 1;
    int64_t end = j + 1;
    while (end < n && col[end] - col[end - 1] == stride)
      ++end;
    runs[count++] = (ColumnRun){j, end - j, col[j], stride};
    j = end;
  }
  return count;
}

/* A panel is packed into slivers `w` wide along the vector dimension: the
 * element at step p of the reduction and position v of [0, width) comes from
 * base[kOff[p] + vOff[v]], and lands at sliver v / w, row p, column v % w
 * (kc x w row-major slivers, the last one zero padded). B's slivers run
 * along its columns, A's (for an im2col A) along its rows. A sliver crosses
 * few rows of an image, so each step is copied as a few runs of constant
 * stride rather than gathered. */

/// The body of packPanel, compiled once per vector ISA (ATTR: its target
/// attribute, and `static` for a copy that only one file calls), with
/// COPY(o, s, n) copying a unit-stride run and COPY2(o, s, n) one of stride
/// 2 (o[j] = s[2 j]).
#define ONNXC_PACK_PANEL(NAME, ATTR, COPY, COPY2)                              \
  ATTR void NAME(const float *base, const int64_t *kOff, const int64_t *vOff,  \
                 int w, int64_t kc, int64_t width, float *dst) {               \
    ColumnRun runs[MaxNR];                                                     \
    for (int64_t jr = 0; jr < width; jr += w, dst += kc * w) {                 \
      int64_t cols = min64(w, width - jr);                                     \
      int count = splitRuns(vOff + jr, cols, runs);                            \
      for (int64_t p = 0; p < kc; ++p) {                                       \
        const float *src = base + kOff[p];                                     \
        float *d = dst + p * w;                                                \
        for (int r = 0; r < count; ++r) {                                      \
          const ColumnRun *run = &runs[r];                                     \
          const float *s = src + run->offset;                                  \
          float *o = d + run->first;                                           \
          if (run->stride == 1) {                                              \
            COPY(o, s, run->length);                                           \
          } else if (run->stride == 2) {                                       \
            COPY2(o, s, run->length);                                          \
          } else {                                                             \
            for (int64_t j = 0; j < run->length; ++j)                          \
              o[j] = s[j * run->stride];                                       \
          }                                                                    \
        }                                                                      \
        for (int64_t j = cols; j < w; ++j)                                     \
          d[j] = 0.0f;                                                         \
      }                                                                        \
    }                                                                          \
  }

/*===----------------------------------------------------------------------===*
 * Shared between the files of the GEMM
 *===----------------------------------------------------------------------===*/

#if defined(__x86_64__)
#define ONNXC_AVX512 __attribute__((target("avx512f,fma")))
#define ONNXC_AVX2 __attribute__((target("avx2,fma")))
#endif

/// The micro-kernels of each ISA (see GemmArch for the forms).
ONNXC_INTERNAL void onnxcGemmKernelGeneric(int64_t kc, const float *a,
                                           const float *b, float *c,
                                           int64_t ldc, const TileEpilogue *e);
#if defined(__x86_64__)
ONNXC_INTERNAL ONNXC_AVX2 void onnxcGemmKernelAvx2(int64_t kc, const float *a,
                                                   const float *b, float *c,
                                                   int64_t ldc,
                                                   const TileEpilogue *e);
/// 14 x 32, its edge, transposed and pair forms, and on a B read in place.
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512(int64_t kc, const float *a, const float *b, float *c,
                      int64_t ldc, const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512Edge(int64_t kc, const float *a, int64_t lda,
                          const float *b, float *c, int64_t ldc, int rows,
                          int cols, const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512T(int64_t kc, const float *a, int64_t lda, const float *b,
                       float *c, int64_t ldc, int rows, int cols,
                       const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512T16(int64_t kc, const float *a0, const float *a1,
                         int64_t lda, const float *b, float *c, int64_t ldc,
                         int cols, const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512DirectB(int64_t kc, const float *a, const float *b,
                             int64_t ldb, float *c, int64_t ldc,
                             const TileEpilogue *e);
/// The wide tile (8 x 48), packed and in place, and two tiles that
/// ONNXC_GEMM_KERNEL can pick for comparisons (6 x 64, 12 x 32).
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512x8x48(int64_t kc, const float *a, const float *b, float *c,
                           int64_t ldc, const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512x8x48DirectB(int64_t kc, const float *a, const float *b,
                                  int64_t ldb, float *c, int64_t ldc,
                                  const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512x6x64(int64_t kc, const float *a, const float *b, float *c,
                           int64_t ldc, const TileEpilogue *e);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmKernelAvx512x12x32(int64_t kc, const float *a, const float *b,
                            float *c, int64_t ldc, const TileEpilogue *e);
/// Packing with AVX-512 moves (GemmAvx512.c): a panel (as packPanel), and
/// one sliver of packA from rows of consecutive steps.
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmPackPanelAvx512(const float *base, const int64_t *kOff,
                         const int64_t *vOff, int w, int64_t kc, int64_t width,
                         float *dst);
ONNXC_INTERNAL ONNXC_AVX512 void
onnxcGemmPackRowsAvx512(const float *const *rows, int count, int mr, int64_t kc,
                        float *dst);
/// Whether packing may use AVX-512 moves (set with the kernels, Gemm.c).
ONNXC_INTERNAL extern int onnxcGemmPackAvx512;
#elif defined(__aarch64__)
ONNXC_INTERNAL void onnxcGemmKernelNeon(int64_t kc, const float *a,
                                        const float *b, float *c, int64_t ldc,
                                        const TileEpilogue *e);
#endif

/// The kernel chosen for the process (Gemm.c).
ONNXC_INTERNAL const GemmArch *onnxcGemmArch(void);

/// Packs B[pc, pc + kc) x [jc, jc + nc) into slivers of nr columns.
ONNXC_INTERNAL void onnxcGemmPackBSlivers(const OnnxcGemm *g, int nr,
                                          int64_t pc, int64_t kc, int64_t jc,
                                          int64_t nc, float *dst);

/// The whole of operand `which` (0: A, 1: B) of `g` packed for `arch`, from
/// the process's cache or packed now; NULL when it cannot be (GemmBlocked.c).
ONNXC_INTERNAL const float *onnxcGemmPackWhole(const GemmArch *arch,
                                               const OnnxcGemm *g, int which);

/// Runs `g` with the kernel of `arch` on the current session's thread pool;
/// `packedA` / `packedB` (or NULL) hold an operand packed whole for `arch`
/// (GemmBlocked.c).
ONNXC_INTERNAL void onnxcGemmRun(const GemmArch *arch, const OnnxcGemm *g,
                                 const float *packedA, const float *packedB);

#endif /* ONNXC_KERNELS_GEMM_GEMMINTERNAL_H */

/*===- Gemm.c - Packed, register-blocked fp32 GEMM
 *--------------------------===*
 *
 * C += A * B (then a bias, residual and clamp epilogue) in the BLIS style: B is
 * packed into slivers NR columns wide, A into slivers MR rows tall, and a
 * register-blocked micro-kernel multiplies one sliver of each over KC steps
 * of the reduction. The micro-kernel is chosen once per process from the
 * CPU: AVX-512 (14x32), AVX2+FMA (6x16), NEON (8x8), or portable C (4x8).
 *
 * Operands are addressed through separable offset tables: element (i, j) of
 * a matrix is at base[row[i] + col[j]]. A strided matrix has row[i] = i * rs
 * and col[j] = j * cs; a convolution's implicit im2col matrix (see Conv.c)
 * fits the same form, so it is packed straight from the input image without
 * materializing the column buffer.
 *
 * Large problems are split into tasks over the current session's thread pool
 * (onnxc_current_threadpool()); each task packs its own panels.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "Kernels.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include "Avx512.h"
#elif defined(__aarch64__)
#include <arm_neon.h>
#endif

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

/*===----------------------------------------------------------------------===*
 * Micro-kernels
 *===----------------------------------------------------------------------===*/

static void kernelGeneric(int64_t kc, const float *a, const float *b, float *c,
                          int64_t ldc, const TileEpilogue *e) {
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

#if defined(__x86_64__)

#define ONNXC_AVX512 __attribute__((target("avx512f,fma")))
#define ONNXC_AVX2 __attribute__((target("avx2,fma")))

/// The epilogue of one 16-wide vector `v` of tile row `i` at c + at.
ONNXC_AVX512 static inline __m512 finishAvx512(const TileEpilogue *e, __m512 v,
                                               int i, const float *c,
                                               int64_t at) {
  if (!e)
    return _mm512_add_ps(_mm512_loadu_ps(c + at), v);
  if (e->load)
    v = _mm512_add_ps(_mm512_loadu_ps(c + at), v);
  if (e->bias)
    v = _mm512_add_ps(v, _mm512_set1_ps(e->bias[i]));
  if (e->res)
    v = _mm512_add_ps(v, _mm512_loadu_ps(e->res + at));
  if (e->clamp)
    v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(e->lo)),
                      _mm512_set1_ps(e->hi));
  return e->hardSwish ? onnxcHardSwish16(v) : v;
}

/// How far ahead of the reduction step it sums a micro-kernel fetches the
/// packed filters it streams: A's rows in a plain tile, B's sliver in a
/// transposed or grid one (64 steps: 8 KiB of a 32-wide sliver). In a model
/// a tile's first pass over its filters reads them from DRAM, which the
/// hardware prefetcher alone did not hide: resnet50 38.2 -> 36.2 ms,
/// inception_v3 58.7 -> 54.0, T=2 resnet50 20.2 -> 19.2. (Fetching B too
/// in a plain tile, a matmul's weights, did not speed up BERT.)
enum { PrefetchSteps = 64 };

/// How far ahead the wide (8 x 48) tile fetches a packed B: a matmul's
/// weights (the compiler's packing, on 4 KiB pages of the binary), which
/// each sliver's first tile read from DRAM: bert_encoder 109.0 -> 100.8 ms,
/// T=2 56.2 -> 53.5 (64 steps: 102.0).
enum { PrefetchWideBSteps = 32 };

ONNXC_AVX512 static void kernelAvx512(int64_t kc, const float *a,
                                      const float *b, float *c, int64_t ldc,
                                      const TileEpilogue *e) {
  enum { MR = 14 };
  __m512 c00 = _mm512_setzero_ps(), c01 = _mm512_setzero_ps();
  __m512 c10 = _mm512_setzero_ps(), c11 = _mm512_setzero_ps();
  __m512 c20 = _mm512_setzero_ps(), c21 = _mm512_setzero_ps();
  __m512 c30 = _mm512_setzero_ps(), c31 = _mm512_setzero_ps();
  __m512 c40 = _mm512_setzero_ps(), c41 = _mm512_setzero_ps();
  __m512 c50 = _mm512_setzero_ps(), c51 = _mm512_setzero_ps();
  __m512 c60 = _mm512_setzero_ps(), c61 = _mm512_setzero_ps();
  __m512 c70 = _mm512_setzero_ps(), c71 = _mm512_setzero_ps();
  __m512 c80 = _mm512_setzero_ps(), c81 = _mm512_setzero_ps();
  __m512 c90 = _mm512_setzero_ps(), c91 = _mm512_setzero_ps();
  __m512 ca0 = _mm512_setzero_ps(), ca1 = _mm512_setzero_ps();
  __m512 cb0 = _mm512_setzero_ps(), cb1 = _mm512_setzero_ps();
  __m512 cc0 = _mm512_setzero_ps(), cc1 = _mm512_setzero_ps();
  __m512 cd0 = _mm512_setzero_ps(), cd1 = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, a += MR, b += 32) {
    __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
    ONNXC_PREFETCH(a, MR * PrefetchSteps);
    __m512 x;
#define ONNXC_ROW(I, C0, C1)                                                   \
  x = _mm512_set1_ps(a[I]);                                                    \
  C0 = _mm512_fmadd_ps(x, b0, C0);                                             \
  C1 = _mm512_fmadd_ps(x, b1, C1);
    ONNXC_ROW(0, c00, c01)
    ONNXC_ROW(1, c10, c11)
    ONNXC_ROW(2, c20, c21)
    ONNXC_ROW(3, c30, c31)
    ONNXC_ROW(4, c40, c41)
    ONNXC_ROW(5, c50, c51)
    ONNXC_ROW(6, c60, c61)
    ONNXC_ROW(7, c70, c71)
    ONNXC_ROW(8, c80, c81)
    ONNXC_ROW(9, c90, c91)
    ONNXC_ROW(10, ca0, ca1)
    ONNXC_ROW(11, cb0, cb1)
    ONNXC_ROW(12, cc0, cc1)
    ONNXC_ROW(13, cd0, cd1)
#undef ONNXC_ROW
  }
#define ONNXC_STORE(I, C0, C1)                                                 \
  {                                                                            \
    int64_t at = (I)*ldc;                                                      \
    _mm512_storeu_ps(c + at, finishAvx512(e, C0, I, c, at));                   \
    _mm512_storeu_ps(c + at + 16, finishAvx512(e, C1, I, c, at + 16));         \
  }
  ONNXC_STORE(0, c00, c01)
  ONNXC_STORE(1, c10, c11)
  ONNXC_STORE(2, c20, c21)
  ONNXC_STORE(3, c30, c31)
  ONNXC_STORE(4, c40, c41)
  ONNXC_STORE(5, c50, c51)
  ONNXC_STORE(6, c60, c61)
  ONNXC_STORE(7, c70, c71)
  ONNXC_STORE(8, c80, c81)
  ONNXC_STORE(9, c90, c91)
  ONNXC_STORE(10, ca0, ca1)
  ONNXC_STORE(11, cb0, cb1)
  ONNXC_STORE(12, cc0, cc1)
  ONNXC_STORE(13, cd0, cd1)
#undef ONNXC_STORE
}

/// An AVX-512 kernel of MR rows and NV vectors of 16 columns, accumulators
/// in registers (the loops are fully unrolled); the body of both forms, B
/// packed (LDB 16 * NV, aligned loads, fetched ahead) or read in place
/// (DirectBKernel).
#define ONNXC_AVX512_KERNEL_BODY(MR, NV, LDB, LOAD)                            \
    __m512 acc[MR][NV];                                                        \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i)                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =       \
            _mm512_setzero_ps();                                               \
    for (int64_t p = 0; p < kc; ++p, a += MR, b += (LDB)) {                    \
      __m512 bv[NV];                                                           \
      ONNXC_PREFETCH(a, MR * PrefetchSteps);                                   \
      if ((LDB) == 16 * NV)                                                    \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v)                   \
            ONNXC_PREFETCH(b, (LDB) * PrefetchWideBSteps + 16 * v);           \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) bv[v] =             \
          LOAD(b + 16 * v);                                                    \
      _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i) {                  \
        __m512 x = _mm512_set1_ps(a[i]);                                       \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =       \
            _mm512_fmadd_ps(x, bv[v], acc[i][v]);                              \
      }                                                                        \
    }                                                                          \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i) {                    \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) {                   \
        int64_t at = i * ldc + 16 * v;                                         \
        _mm512_storeu_ps(c + at, finishAvx512(e, acc[i][v], i, c, at));        \
      }                                                                        \
    }

#define ONNXC_AVX512_KERNEL(NAME, MR, NV)                                      \
  ONNXC_AVX512 static void NAME(int64_t kc, const float *a, const float *b,    \
                                float *c, int64_t ldc,                         \
                                const TileEpilogue *e) {                       \
    ONNXC_AVX512_KERNEL_BODY(MR, NV, 16 * NV, _mm512_load_ps)                  \
  }

/// ONNXC_AVX512_KERNEL's kernel on a B read in place (DirectBKernel).
#define ONNXC_AVX512_DIRECT_B_KERNEL(NAME, MR, NV)                             \
  ONNXC_AVX512 static void NAME(int64_t kc, const float *a, const float *b,    \
                                int64_t ldb, float *c, int64_t ldc,            \
                                const TileEpilogue *e) {                       \
    ONNXC_AVX512_KERNEL_BODY(MR, NV, ldb, _mm512_loadu_ps)                     \
  }

/// The sums of kernelAvx512 in an array (kept in registers once inlined),
/// of its first `rows` rows (a constant once inlined); the others are zero.
__attribute__((always_inline)) ONNXC_AVX512 static inline void
sumsRowsAvx512(int64_t kc, const float *a, int64_t lda, const float *b,
               __m512 acc[14][2], int rows) {
  _Pragma("GCC unroll 16") for (int i = 0; i < 14; ++i) acc[i][0] = acc[i][1] =
      _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, a += lda, b += 32) {
    __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
    ONNXC_PREFETCH(b, 32 * PrefetchSteps);
    ONNXC_PREFETCH(b, 32 * PrefetchSteps + 16);
    _Pragma("GCC unroll 16") for (int i = 0; i < rows; ++i) {
      __m512 x = _mm512_set1_ps(a[i]);
      acc[i][0] = _mm512_fmadd_ps(x, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(x, b1, acc[i][1]);
    }
  }
}

/// The epilogue of the lanes `mask` of vector `v` of tile row (or column)
/// `i` at c + at; `bias` is the value to add, if any.
ONNXC_AVX512 static inline void storeMaskedAvx512(const TileEpilogue *e,
                                                  __m512 v, const float *bias,
                                                  float *c, int64_t at,
                                                  __mmask16 mask) {
  if (!e || e->load)
    v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, c + at));
  if (e) {
    if (bias)
      v = _mm512_add_ps(v, _mm512_set1_ps(*bias));
    if (e->res)
      v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, e->res + at));
    if (e->clamp)
      v = _mm512_min_ps(_mm512_max_ps(v, _mm512_set1_ps(e->lo)),
                        _mm512_set1_ps(e->hi));
    if (e->hardSwish)
      v = onnxcHardSwish16(v);
  }
  _mm512_mask_storeu_ps(c + at, mask, v);
}

/// kernelAvx512 on the first `rows` x `cols` of a tile, its first `sums`
/// rows summed (a constant once inlined, at least `rows`).
__attribute__((always_inline)) ONNXC_AVX512 static inline void
edgeAvx512(int64_t kc, const float *a, int64_t lda, const float *b, float *c,
           int64_t ldc, int rows, int cols, const TileEpilogue *e, int sums) {
  __m512 acc[14][2];
  sumsRowsAvx512(kc, a, lda, b, acc, sums);
  __mmask16 m0 = (__mmask16)(cols >= 16 ? 0xffff : (1u << cols) - 1);
  __mmask16 m1 = (__mmask16)(cols <= 16 ? 0 : (1u << (cols - 16)) - 1);
  for (int i = 0; i < rows; ++i) {
    const float *bias = e && e->bias ? e->bias + i : NULL;
    storeMaskedAvx512(e, acc[i][0], bias, c, i * ldc, m0);
    if (m1)
      storeMaskedAvx512(e, acc[i][1], bias, c, i * ldc + 16, m1);
  }
}

/// t = r transposed, 16 x 16 (t[j] lane i = r[i] lane j): unpacks of 32-
/// and 64-bit elements, then two rounds of 128-bit lane shuffles.
ONNXC_AVX512 static inline void transpose16(const __m512 r[16], __m512 t[16]) {
  __m512 a[16], b[16];
  _Pragma("GCC unroll 8") for (int k = 0; k < 8; ++k) {
    a[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    a[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  // b[4k + m], 128-bit lane L: column 4L + m of rows 4k .. 4k + 3.
  _Pragma("GCC unroll 4") for (int k = 0; k < 4; ++k) {
    __m512d a0 = _mm512_castps_pd(a[4 * k]),
            a1 = _mm512_castps_pd(a[4 * k + 1]);
    __m512d a2 = _mm512_castps_pd(a[4 * k + 2]),
            a3 = _mm512_castps_pd(a[4 * k + 3]);
    b[4 * k] = _mm512_castpd_ps(_mm512_unpacklo_pd(a0, a2));
    b[4 * k + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a0, a2));
    b[4 * k + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(a1, a3));
    b[4 * k + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(a1, a3));
  }
  _Pragma("GCC unroll 4") for (int m = 0; m < 4; ++m) {
    __m512 c0 = _mm512_shuffle_f32x4(b[m], b[4 + m], 0x88);
    __m512 c1 = _mm512_shuffle_f32x4(b[m], b[4 + m], 0xdd);
    __m512 c2 = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0x88);
    __m512 c3 = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0xdd);
    t[m] = _mm512_shuffle_f32x4(c0, c2, 0x88);
    t[4 + m] = _mm512_shuffle_f32x4(c1, c3, 0x88);
    t[8 + m] = _mm512_shuffle_f32x4(c0, c2, 0xdd);
    t[12 + m] = _mm512_shuffle_f32x4(c1, c3, 0xdd);
  }
}

/// The 14 x 32 sums `acc` of a tile stored transposed: each half is
/// transposed in registers, and of each of the first `cols` columns the
/// lanes (tile rows) `keep` are stored as consecutive values to its row of
/// C, the others dropped; the bias is per column.
ONNXC_AVX512 static inline void storeTransposedAvx512(__m512 acc[14][2],
                                                      float *c, int64_t ldc,
                                                      __mmask16 keep, int cols,
                                                      const TileEpilogue *e) {
  const __mmask16 stored =
      (__mmask16)((1u << __builtin_popcount((unsigned)keep)) - 1);
  for (int v = 0; v < 2 && 16 * v < cols; ++v) {
    __m512 r[16], t[16];
    _Pragma("GCC unroll 16") for (int i = 0; i < 14; ++i) r[i] = acc[i][v];
    r[14] = r[15] = _mm512_setzero_ps();
    transpose16(r, t);
    for (int m = 0; m < 16 && 16 * v + m < cols; ++m) {
      int j = 16 * v + m;
      __m512 column =
          keep == stored ? t[m] : _mm512_maskz_compress_ps(keep, t[m]);
      storeMaskedAvx512(e, column, e && e->bias ? e->bias + j : NULL, c,
                        j * ldc, stored);
    }
  }
}

/// kernelAvx512 with C stored transposed: each of the first `cols` columns
/// is stored as `rows` values to its row of C; the bias is per column. Its
/// first `sums` rows summed, as edgeAvx512's.
__attribute__((always_inline)) ONNXC_AVX512 static inline void
transposedAvx512(int64_t kc, const float *a, int64_t lda, const float *b,
                 float *c, int64_t ldc, int rows, int cols,
                 const TileEpilogue *e, int sums) {
  __m512 acc[14][2];
  sumsRowsAvx512(kc, a, lda, b, acc, sums);
  storeTransposedAvx512(acc, c, ldc, (__mmask16)((1u << rows) - 1), cols, e);
}

/// edgeAvx512 and transposedAvx512 summing R rows, each a function of its
/// own (so that each keeps its sums in registers).
#define ONNXC_AVX512_ROWS(R)                                                   \
  ONNXC_AVX512 static void kernelAvx512Edge##R(                                \
      int64_t kc, const float *a, int64_t lda, const float *b, float *c,       \
      int64_t ldc, int rows, int cols, const TileEpilogue *e) {                \
    edgeAvx512(kc, a, lda, b, c, ldc, rows, cols, e, R);                       \
  }                                                                            \
  ONNXC_AVX512 static void kernelAvx512T##R(                                   \
      int64_t kc, const float *a, int64_t lda, const float *b, float *c,       \
      int64_t ldc, int rows, int cols, const TileEpilogue *e) {                \
    transposedAvx512(kc, a, lda, b, c, ldc, rows, cols, e, R);                 \
  }
ONNXC_AVX512_ROWS(4)
ONNXC_AVX512_ROWS(7)
ONNXC_AVX512_ROWS(10)
ONNXC_AVX512_ROWS(14)
#undef ONNXC_AVX512_ROWS

/// The kernel of the fewest rows (4, 7, 10 or 14) that covers `rows`: a
/// short last sliver (of 49 pixels, of 72 or 120 filters) sums fewer than
/// 14.
static EdgeKernel rowsKernel(int rows, EdgeKernel k4, EdgeKernel k7,
                             EdgeKernel k10, EdgeKernel k14) {
  return rows <= 4 ? k4 : rows <= 7 ? k7 : rows <= 10 ? k10 : k14;
}

/// kernelAvx512 on the first `rows` x `cols` of a tile.
ONNXC_AVX512 static void kernelAvx512Edge(int64_t kc, const float *a,
                                          int64_t lda, const float *b, float *c,
                                          int64_t ldc, int rows, int cols,
                                          const TileEpilogue *e) {
  rowsKernel(rows, kernelAvx512Edge4, kernelAvx512Edge7, kernelAvx512Edge10,
             kernelAvx512Edge14)(kc, a, lda, b, c, ldc, rows, cols, e);
}

/// transposedAvx512 of the fewest rows that covers `rows`.
ONNXC_AVX512 static void kernelAvx512T(int64_t kc, const float *a, int64_t lda,
                                       const float *b, float *c, int64_t ldc,
                                       int rows, int cols,
                                       const TileEpilogue *e) {
  rowsKernel(rows, kernelAvx512T4, kernelAvx512T7, kernelAvx512T10,
             kernelAvx512T14)(kc, a, lda, b, c, ldc, rows, cols, e);
}

/// kernelAvx512T for a convolution's grid (onnxcConvGrid): step p of the
/// sliver's 14 rows at a + off[p], `step` apart (a constant once inlined:
/// 1, or 2 along a stride-2 convolution's output row); of the tile's rows,
/// the lanes `keep` are stored (the others are the grid's dropped columns,
/// or the padding of a row's last sliver).
__attribute__((always_inline)) ONNXC_AVX512 static inline void
gridAvx512(int64_t kc, const float *a, const int64_t *off, const float *b,
           float *c, int64_t ldc, __mmask16 keep, int cols,
           const TileEpilogue *e, int step) {
  __m512 acc[14][2];
  _Pragma("GCC unroll 16") for (int i = 0; i < 14; ++i) acc[i][0] =
      acc[i][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, b += 32) {
    const float *at = a + off[p];
    __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
    ONNXC_PREFETCH(b, 32 * PrefetchSteps);
    ONNXC_PREFETCH(b, 32 * PrefetchSteps + 16);
    _Pragma("GCC unroll 16") for (int i = 0; i < 14; ++i) {
      __m512 x = _mm512_set1_ps(at[i * step]);
      acc[i][0] = _mm512_fmadd_ps(x, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(x, b1, acc[i][1]);
    }
  }
  storeTransposedAvx512(acc, c, ldc, keep, cols, e);
}

/// gridAvx512 with its `step`, 1 or 2, made a constant.
ONNXC_AVX512 static void kernelAvx512Grid(int64_t kc, const float *a,
                                          const int64_t *off, const float *b,
                                          float *c, int64_t ldc,
                                          __mmask16 keep, int cols,
                                          const TileEpilogue *e, int step) {
  if (step == 2)
    gridAvx512(kc, a, off, b, c, ldc, keep, cols, e, 2);
  else
    gridAvx512(kc, a, off, b, c, ldc, keep, cols, e, 1);
}

/// The 28 x 16 sums `acc` of two slivers of rows stored transposed (as
/// storeTransposedAvx512 each half): of the 28 rows, the lanes `keep` are
/// stored, those of the second half following those of the first in C.
ONNXC_AVX512 static inline void
storePairTransposedAvx512(const __m512 acc[28], float *c, int64_t ldc,
                          uint32_t keep, int cols, const TileEpilogue *e) {
  __mmask16 keep0 = (__mmask16)(keep & 0x3fff), keep1 = (__mmask16)(keep >> 14);
  __m512 half[14][2];
  _Pragma("GCC unroll 14") for (int i = 0; i < 14; ++i) {
    half[i][0] = acc[i];
    half[i][1] = _mm512_setzero_ps();
  }
  storeTransposedAvx512(half, c, ldc, keep0, cols, e);
  if (!keep1)
    return;
  int kept = __builtin_popcount((unsigned)keep0);
  TileEpilogue second;
  if (e) {
    second = *e;
    second.res = e->res ? e->res + kept : NULL;
  }
  _Pragma("GCC unroll 14") for (int i = 0; i < 14; ++i) half[i][0] =
      acc[14 + i];
  storeTransposedAvx512(half, c + kept, ldc, keep1, cols, e ? &second : NULL);
}

/// kernelAvx512T for at most 16 columns (the first vector of each step of
/// B's 32-wide sliver) over two slivers of rows at once, 28 x 16: rows
/// 0..13 at a0, 14..27 at a1, each step `lda` on; C's 28 rows consecutive.
ONNXC_AVX512 static void kernelAvx512T16(int64_t kc, const float *a0,
                                         const float *a1, int64_t lda,
                                         const float *b, float *c, int64_t ldc,
                                         int cols, const TileEpilogue *e) {
  __m512 acc[28];
  _Pragma("GCC unroll 28") for (int i = 0; i < 28; ++i) acc[i] =
      _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, a0 += lda, a1 += lda, b += 32) {
    __m512 b0 = _mm512_load_ps(b);
    ONNXC_PREFETCH(b, 32 * PrefetchSteps);
    _Pragma("GCC unroll 14") for (int i = 0; i < 14; ++i) {
      acc[i] = _mm512_fmadd_ps(_mm512_set1_ps(a0[i]), b0, acc[i]);
      acc[14 + i] = _mm512_fmadd_ps(_mm512_set1_ps(a1[i]), b0, acc[14 + i]);
    }
  }
  storePairTransposedAvx512(acc, c, ldc, 0xfffffff, cols, e);
}

/// kernelAvx512Grid for at most 16 filters (the first vector of each step
/// of B's 32-wide sliver): 28 rows, two slivers of 14, so that no lane of
/// the sums is padding. `keep`: the lanes of the 28 rows that are stored
/// (those of the second half follow those of the first in C). Rows `step`
/// apart, as gridAvx512's.
__attribute__((always_inline)) ONNXC_AVX512 static inline void
grid16Avx512(int64_t kc, const float *a, const int64_t *off, const float *b,
             float *c, int64_t ldc, uint32_t keep, int cols,
             const TileEpilogue *e, int step) {
  __m512 acc[28];
  _Pragma("GCC unroll 28") for (int i = 0; i < 28; ++i) acc[i] =
      _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, b += 32) {
    const float *at = a + off[p];
    __m512 b0 = _mm512_load_ps(b);
    ONNXC_PREFETCH(b, 32 * PrefetchSteps);
    _Pragma("GCC unroll 28") for (int i = 0; i < 28; ++i) acc[i] =
        _mm512_fmadd_ps(_mm512_set1_ps(at[i * step]), b0, acc[i]);
  }
  storePairTransposedAvx512(acc, c, ldc, keep, cols, e);
}

/// grid16Avx512 with its `step`, 1 or 2, made a constant.
ONNXC_AVX512 static void kernelAvx512Grid16(int64_t kc, const float *a,
                                            const int64_t *off,
                                            const float *b, float *c,
                                            int64_t ldc, uint32_t keep,
                                            int cols, const TileEpilogue *e,
                                            int step) {
  if (step == 2)
    grid16Avx512(kc, a, off, b, c, ldc, keep, cols, e, 2);
  else
    grid16Avx512(kc, a, off, b, c, ldc, keep, cols, e, 1);
}

ONNXC_AVX512_KERNEL(kernelAvx512x8x48, 8, 3)
ONNXC_AVX512_DIRECT_B_KERNEL(kernelAvx512x8x48DirectB, 8, 3)
ONNXC_AVX512_DIRECT_B_KERNEL(kernelAvx512DirectB, 14, 2)
ONNXC_AVX512_KERNEL(kernelAvx512x6x64, 6, 4)
ONNXC_AVX512_KERNEL(kernelAvx512x12x32, 12, 2)

/// The epilogue of one 8-wide vector `v` of tile row `i` at c + at.
ONNXC_AVX2 static inline __m256 finishAvx2(const TileEpilogue *e, __m256 v,
                                           int i, const float *c, int64_t at) {
  if (!e)
    return _mm256_add_ps(_mm256_loadu_ps(c + at), v);
  if (e->load)
    v = _mm256_add_ps(_mm256_loadu_ps(c + at), v);
  if (e->bias)
    v = _mm256_add_ps(v, _mm256_set1_ps(e->bias[i]));
  if (e->res)
    v = _mm256_add_ps(v, _mm256_loadu_ps(e->res + at));
  if (e->clamp)
    v = _mm256_min_ps(_mm256_max_ps(v, _mm256_set1_ps(e->lo)),
                      _mm256_set1_ps(e->hi));
  if (e->hardSwish) {
    __m256 gate = _mm256_fmadd_ps(v, _mm256_set1_ps(1.0f / 6.0f),
                                  _mm256_set1_ps(0.5f));
    gate = _mm256_min_ps(_mm256_max_ps(gate, _mm256_setzero_ps()),
                         _mm256_set1_ps(1.0f));
    v = _mm256_mul_ps(v, gate);
  }
  return v;
}

ONNXC_AVX2 static void kernelAvx2(int64_t kc, const float *a, const float *b,
                                  float *c, int64_t ldc,
                                  const TileEpilogue *e) {
  enum { MR = 6 };
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps();
  __m256 c10 = _mm256_setzero_ps(), c11 = _mm256_setzero_ps();
  __m256 c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps();
  __m256 c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps();
  __m256 c40 = _mm256_setzero_ps(), c41 = _mm256_setzero_ps();
  __m256 c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
  for (int64_t p = 0; p < kc; ++p, a += MR, b += 16) {
    __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
    __m256 x;
#define ONNXC_ROW(I, C0, C1)                                                   \
  x = _mm256_broadcast_ss(a + (I));                                            \
  C0 = _mm256_fmadd_ps(x, b0, C0);                                             \
  C1 = _mm256_fmadd_ps(x, b1, C1);
    ONNXC_ROW(0, c00, c01)
    ONNXC_ROW(1, c10, c11)
    ONNXC_ROW(2, c20, c21)
    ONNXC_ROW(3, c30, c31)
    ONNXC_ROW(4, c40, c41)
    ONNXC_ROW(5, c50, c51)
#undef ONNXC_ROW
  }
#define ONNXC_STORE(I, C0, C1)                                                 \
  {                                                                            \
    int64_t at = (I)*ldc;                                                      \
    _mm256_storeu_ps(c + at, finishAvx2(e, C0, I, c, at));                     \
    _mm256_storeu_ps(c + at + 8, finishAvx2(e, C1, I, c, at + 8));             \
  }
  ONNXC_STORE(0, c00, c01)
  ONNXC_STORE(1, c10, c11)
  ONNXC_STORE(2, c20, c21)
  ONNXC_STORE(3, c30, c31)
  ONNXC_STORE(4, c40, c41)
  ONNXC_STORE(5, c50, c51)
#undef ONNXC_STORE
}

#elif defined(__aarch64__)

static void kernelNeon(int64_t kc, const float *a, const float *b, float *c,
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

/// `kernel` and its helpers on `tile` (no pair kernel: see kernelT2).
static GemmArch makeArch(OnnxcGemmTile tile, MicroKernel kernel,
                         EdgeKernel kernelEdge, EdgeKernel kernelT,
                         DirectBKernel kernelB) {
  return (GemmArch){tile.mr, tile.nr,    tile.kc, tile.mc, tile.nc,
                    kernel,  kernelEdge, kernelT, kernelB, NULL};
}

#if defined(__x86_64__)
/// Whether packing may use AVX-512 moves (set with the kernels).
static int packAvx512;
#endif

static GemmArch chooseArch(void) {
  const char *forced = getenv("ONNXC_GEMM_KERNEL");
  int any = !forced || !*forced;
#if defined(__x86_64__)
  __builtin_cpu_init();
  int avx512 = __builtin_cpu_supports("avx512f");
  packAvx512 = avx512;
  OnnxcGemmTile wide = onnxcGemmWideTile();
  if ((any || !strcmp(forced, "avx512")) && avx512) {
    GemmArch arch =
        makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_AVX512), kernelAvx512,
                 kernelAvx512Edge, kernelAvx512T, kernelAvx512DirectB);
    arch.kernelT2 = kernelAvx512T16;
    return arch;
  }
  if (forced && !strcmp(forced, "avx512-8x48") && avx512)
    return makeArch(wide, kernelAvx512x8x48, NULL, NULL, NULL);
  if (forced && !strcmp(forced, "avx512-6x64") && avx512)
    return (GemmArch){6,    64,   256,  120, 2048, kernelAvx512x6x64,
                      NULL, NULL, NULL, NULL};
  if (forced && !strcmp(forced, "avx512-12x32") && avx512)
    return (GemmArch){12,   32,   256,  120, 2048, kernelAvx512x12x32,
                      NULL, NULL, NULL, NULL};
  if ((any || !strcmp(forced, "avx2")) && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma"))
    return makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_AVX2), kernelAvx2,
                    NULL, NULL, NULL);
#elif defined(__aarch64__)
  if (any || !strcmp(forced, "neon"))
    return makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_NEON), kernelNeon,
                    NULL, NULL, NULL);
#endif
  (void)any;
  return makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_GENERIC), kernelGeneric,
                  NULL, NULL, NULL);
}

/// The kernel chosen for the process, and the wide AVX-512 one that calls
/// may pick by their shape (its kernel NULL unless the first is the default
/// AVX-512 one).
static GemmArch theArch, wideArch;
static pthread_once_t archOnce = PTHREAD_ONCE_INIT;

/// ONNXC_GEMM_BLOCKS="KC,MC,NC" overrides the cache blocking (for tuning).
static void initArch(void) {
  theArch = chooseArch();
#if defined(__x86_64__)
  if (theArch.kernel == kernelAvx512)
    wideArch = makeArch(onnxcGemmWideTile(), kernelAvx512x8x48, NULL, NULL,
                        kernelAvx512x8x48DirectB);
#endif
  const char *blocks = getenv("ONNXC_GEMM_BLOCKS");
  long long kc, mc, nc;
  if (blocks && sscanf(blocks, "%lld,%lld,%lld", &kc, &mc, &nc) == 3 &&
      kc > 0 && mc > 0 && nc > 0) {
    theArch.kc = kc;
    mc = mc < MaxSlivers * theArch.mr ? mc : MaxSlivers * theArch.mr;
    theArch.mc = (mc + theArch.mr - 1) / theArch.mr * theArch.mr;
    theArch.nc = (nc + theArch.nr - 1) / theArch.nr * theArch.nr;
  }
}

static const GemmArch *getArch(void) {
  pthread_once(&archOnce, initArch);
  return &theArch;
}

/*===----------------------------------------------------------------------===*
 * Packing and the blocked loops
 *===----------------------------------------------------------------------===*/

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

enum { MaxNR = 64 };

/// A run of a sliver's columns whose offsets step by a constant stride.
typedef struct {
  int64_t first, length, offset, stride;
} ColumnRun;

/// Splits the offsets col[0, n) into constant-stride runs; returns how many.
static int splitRuns(const int64_t *col, int64_t n, ColumnRun *runs) {
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

/// The body of packPanel, compiled once per vector ISA (ATTR), with
/// COPY(o, s, n) copying a unit-stride run and COPY2(o, s, n) one of stride
/// 2 (o[j] = s[2 j]).
#define ONNXC_PACK_PANEL(NAME, ATTR, COPY, COPY2)                              \
  ATTR static void NAME(const float *base, const int64_t *kOff,                \
                        const int64_t *vOff, int w, int64_t kc, int64_t width, \
                        float *dst) {                                          \
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

static inline void copyFloats(float *o, const float *s, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    o[j] = s[j];
}

static inline void copyEvenFloats(float *o, const float *s, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    o[j] = s[2 * j];
}

ONNXC_PACK_PANEL(packPanelGeneric, , copyFloats, copyEvenFloats)

#if defined(__x86_64__)
/// o[0, n) = s[0, n) in whole vectors: the last one overlaps the one before
/// rather than being masked, and nothing outside [0, n) is touched.
ONNXC_AVX512 static inline void copyFloatsAvx512(float *o, const float *s,
                                                 int64_t n) {
  if (n >= 16) {
    int64_t j = 0;
    for (; j + 16 <= n; j += 16)
      _mm512_storeu_ps(o + j, _mm512_loadu_ps(s + j));
    if (j < n)
      _mm512_storeu_ps(o + n - 16, _mm512_loadu_ps(s + n - 16));
  } else if (n >= 8) {
    __m256 head = _mm256_loadu_ps(s), tail = _mm256_loadu_ps(s + n - 8);
    _mm256_storeu_ps(o, head);
    _mm256_storeu_ps(o + n - 8, tail);
  } else if (n >= 4) {
    __m128 head = _mm_loadu_ps(s), tail = _mm_loadu_ps(s + n - 4);
    _mm_storeu_ps(o, head);
    _mm_storeu_ps(o + n - 4, tail);
  } else {
    for (int64_t j = 0; j < n; ++j)
      o[j] = s[j];
  }
}

/// o[0, n) = s[0, 2 n) at even positions, 16 at a time from two vectors
/// (the second one's last lane, s[2 j + 31], is never read: it may lie past
/// the run's last element, s[2 n - 2]).
ONNXC_AVX512 static inline void copyEvenFloatsAvx512(float *o, const float *s,
                                                     int64_t n) {
  const __m512i even = ONNXC_EVEN_LANES;
  int64_t j = 0;
  for (; j + 16 <= n; j += 16) {
    __m512 lo = _mm512_loadu_ps(s + 2 * j);
    __m512 hi = _mm512_maskz_loadu_ps(0x7fff, s + 2 * j + 16);
    _mm512_storeu_ps(o + j, _mm512_permutex2var_ps(lo, even, hi));
  }
  if (j < n) {
    // The last n - j < 16 values: elements [0, 2 (n - j) - 1) of s + 2 j.
    uint32_t bits = (1u << (2 * (n - j) - 1)) - 1;
    __m512 lo = _mm512_maskz_loadu_ps((__mmask16)bits, s + 2 * j);
    __m512 hi = _mm512_maskz_loadu_ps((__mmask16)(bits >> 16), s + 2 * j + 16);
    _mm512_mask_storeu_ps(o + j, (__mmask16)((1u << (n - j)) - 1),
                          _mm512_permutex2var_ps(lo, even, hi));
  }
}

ONNXC_PACK_PANEL(packPanelAvx512, ONNXC_AVX512, copyFloatsAvx512,
                 copyEvenFloatsAvx512)
#endif

static void packPanel(const float *base, const int64_t *kOff,
                      const int64_t *vOff, int w, int64_t kc, int64_t width,
                      float *dst) {
#if defined(__x86_64__)
  if (packAvx512) {
    packPanelAvx512(base, kOff, vOff, w, kc, width, dst);
    return;
  }
#endif
  packPanelGeneric(base, kOff, vOff, w, kc, width, dst);
}

/// Packs B[pc, pc + kc) x [jc, jc + nc) into slivers of nr columns.
static void packB(const OnnxcGemm *g, int nr, int64_t pc, int64_t kc,
                  int64_t jc, int64_t nc, float *dst) {
  packPanel(g->b, g->bRow + pc, g->bCol + jc, nr, kc, nc, dst);
}

#if defined(__x86_64__)
/// One sliver of packA from `count` (at most mr <= 16) rows whose steps are
/// consecutive floats, rows[i][0, kc): 16 steps at a time, transposed in
/// registers (rows from `count` on are zeros).
ONNXC_AVX512 static void packRowsAvx512(const float *const *rows, int count,
                                        int mr, int64_t kc, float *dst) {
  const __mmask16 lanes = (__mmask16)((1u << mr) - 1);
  for (int64_t p = 0; p < kc; p += 16) {
    int64_t steps = min64(16, kc - p);
    __mmask16 m = (__mmask16)(steps == 16 ? 0xffff : (1u << steps) - 1);
    __m512 r[16], t[16];
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; ++i) r[i] =
        i < count ? _mm512_maskz_loadu_ps(m, rows[i] + p) : _mm512_setzero_ps();
    transpose16(r, t);
    for (int64_t q = 0; q < steps; ++q)
      _mm512_mask_storeu_ps(dst + (p + q) * mr, lanes, t[q]);
  }
}
#endif

/// Packs A[ic, ic + mc) x [pc, pc + kc) into slivers of mr rows, each
/// kc x mr (column-major within the sliver), the last one zero padded.
static void packA(const OnnxcGemm *g, int mr, int64_t ic, int64_t mc,
                  int64_t pc, int64_t kc, float *dst) {
  const int64_t *col = g->aCol + pc;
  if (!onnxcIsUnitRun(col, kc)) {
    // Rows read across (a transposed matrix, or a transposed im2col whose
    // rows are runs of pixels): a step of the reduction at a time.
    packPanel(g->a, col, g->aRow + ic, mr, kc, mc, dst);
    return;
  }
  for (int64_t ir = 0; ir < mc; ir += mr, dst += kc * mr) {
    int64_t rows = min64(mr, mc - ir);
#if defined(__x86_64__)
    if (packAvx512 && mr <= 16) {
      const float *starts[16];
      for (int64_t i = 0; i < rows; ++i)
        starts[i] = g->a + g->aRow[ic + ir + i] + col[0];
      packRowsAvx512(starts, (int)rows, mr, kc, dst);
      continue;
    }
#endif
    for (int64_t i = 0; i < rows; ++i) {
      const float *src = g->a + g->aRow[ic + ir + i] + col[0];
      for (int64_t p = 0; p < kc; ++p)
        dst[p * mr + i] = src[p];
    }
    for (int64_t i = rows; i < mr; ++i)
      for (int64_t p = 0; p < kc; ++p)
        dst[p * mr + i] = 0.0f;
  }
}

/// The blocking of a reduction of length k (see onnxcGemmBlockK).
static int64_t blockK(const GemmArch *arch, int64_t k) {
  return onnxcGemmBlockK(arch->kc, k);
}

/// The layout of `lines` offsets into C: the step between them when they
/// are evenly spaced, else 0 (and `length` for a single line, which any
/// step fits).
static int64_t evenStep(const int64_t *offsets, int64_t lines, int64_t length) {
  if (lines == 1)
    return length;
  int64_t stride = offsets[1] - offsets[0];
  for (int64_t r = 2; r < lines; ++r)
    if (offsets[r] != offsets[0] + r * stride)
      return 0;
  return stride;
}

/// The stride between runs of `length` consecutive elements of C that start
/// `step` apart (evenStep's), when they form a plain block, else 0.
static int64_t blockOf(int64_t step, int64_t length) {
  return step < length && -step < length ? 0 : step;
}

/// The stride between the `lines` runs of `length` consecutive elements of
/// C that start at offsets[0, lines), when that is a plain block, else 0.
static int64_t blockStride(const int64_t *offsets, int64_t lines,
                           int64_t length) {
  return blockOf(evenStep(offsets, lines, length), length);
}

enum { MaxTile = 16 * 64 };

/// c[0, n) = epilogue(sum[0, n)) for row `r` of a tile whose columns are
/// contiguous in C, at offset `at` of C; in simple loops that vectorize.
/// `sum` is overwritten.
/// `along`: the run goes along the tile's row `r` (else down its column r).
static void finishRun(const TileEpilogue *e, float *sum, int64_t r, int along,
                      float *c, int64_t at, int64_t n) {
  c += at;
  if (!e || e->load)
    for (int64_t j = 0; j < n; ++j)
      sum[j] += c[j];
  if (e && e->bias && e->biasColumns == along)
    for (int64_t j = 0; j < n; ++j)
      sum[j] += e->bias[j];
  else if (e && e->bias) {
    // (Scalars in locals: the stores to sum could alias *e, and the loops
    // would reload them every element instead of vectorizing.)
    const float bias = e->bias[r];
    for (int64_t j = 0; j < n; ++j)
      sum[j] += bias;
  }
  if (e && e->res)
    for (int64_t j = 0; j < n; ++j)
      sum[j] += e->res[at + j];
  if (e && e->clamp) {
    const float lo = e->lo, hi = e->hi;
    for (int64_t j = 0; j < n; ++j)
      sum[j] = sum[j] < lo ? lo : sum[j] > hi ? hi : sum[j];
  }
  if (e && e->hardSwish)
    for (int64_t j = 0; j < n; ++j)
      sum[j] = onnxcHardSwish(sum[j]);
  for (int64_t j = 0; j < n; ++j)
    c[j] = sum[j];
}

/// Fetches `lines` runs of `length` floats, `stride` apart from `p`, into
/// the L1 cache ahead of their use (each run's every cache line, its last
/// included).
static void prefetchLines(const float *p, int64_t lines, int64_t stride,
                          int64_t length) {
  for (int64_t r = 0; r < lines; ++r) {
    const float *run = p + r * stride;
    for (int64_t j = 0; j < length; j += 16)
      __builtin_prefetch(run + j, 0, 3);
    __builtin_prefetch(run + length - 1, 0, 3);
  }
}

/// C[m0, m1) x [n0, n1) += A B on one thread.
/// `packedA` and `packedB`, when not NULL, hold the whole operand packed
/// ahead (see packWhole); the per-call buffers are used otherwise.
static void gemmBlock(const GemmArch *arch, const OnnxcGemm *g, int64_t m0,
                      int64_t m1, int64_t n0, int64_t n1, float *bufA,
                      float *bufB, const float *packedA,
                      const float *packedB) {
  int mr = arch->mr, nr = arch->nr;
  int64_t mPad = (g->m + mr - 1) / mr * mr, nPad = (g->n + nr - 1) / nr * nr;
  _Alignas(64) float tile[MaxTile];
  for (int64_t jc = n0; jc < n1; jc += arch->nc) {
    int64_t nc = min64(arch->nc, n1 - jc);
    int64_t kcBlock = blockK(arch, g->k);
    // The stride between C's columns when all of [n0, n1) can take the
    // transposed store, else 0.
    int64_t tStore = arch->kernelT && (!g->bias || g->biasColumns)
                         ? blockStride(g->cCol + n0, n1 - n0, mr)
                         : 0;
    // Whether C's columns of the block are consecutive (a plane's pixels):
    // then so are each sliver's, not checked again per sliver (with a short
    // reduction those checks took a fifth of the time: mobilenet_v2's 1x1
    // 32 -> 16 on 112x112).
    int colsConsecutive = onnxcUnitRunOf(g, g->cCol, jc, nc);
    for (int64_t pc = 0; pc < g->k; pc += kcBlock) {
      int64_t kc = min64(kcBlock, g->k - pc);
      // The first block starts from the bias (or C), the last one applies
      // the residual and the clamp.
      int first = pc == 0, last = pc + kc == g->k;
      TileEpilogue epilogue = {!(first && g->bias),
                               last && g->clamp,
                               NULL,
                               NULL,
                               g->lo,
                               g->hi,
                               g->biasColumns,
                               last && g->hardSwish};
      int plain =
          epilogue.load && !(last && (g->res || g->clamp || g->hardSwish));
      // B read where it lies (kernelB) when its steps are evenly spaced
      // rows of consecutive columns and few rows of A use them (a 1x1
      // convolution's image, a reduction block of up to 512 channels, into
      // 128 filters or fewer: packing would cost a pass over it for little
      // reuse; inception's 288 -> 64 on 35x35 238 -> 206 us with blocks of
      // 512 rather than 128; resnet50's 512 -> 128 on 28x28 481 -> 454 us
      // with 128 filters rather than 64, its 64 -> 256 slower with 256); a
      // sliver is packed only when a tile other than a full one needs it.
      int64_t ldb = kc > 1 ? g->bRow[pc + 1] - g->bRow[pc] : 0;
      int directB = !packedB && arch->kernelB && kc > 1 &&
                    kc <= DirectBSteps && m1 - m0 <= DirectBRows &&
                    ldb >= nr &&
                    evenStep(g->bRow + pc, kc, 0) == ldb &&
                    onnxcUnitRunOf(g, g->bCol, jc, nc);
      const float *panelB = bufB;
      if (packedB)
        panelB = packedB + pc * nPad + jc * kc;
      else if (!directB)
        packB(g, nr, pc, kc, jc, nc, bufB);
      // A straight from memory for the transposed store, when each sliver's
      // rows are consecutive and its steps evenly spaced (a 1x1
      // convolution's image): no packing.
      int64_t lda = kc > 1 ? g->aCol[pc + 1] - g->aCol[pc] : mr;
      int stepsEven = tStore && !packedA && lda >= mr &&
                      blockStride(g->aCol + pc, kc, 1) == lda;
      for (int64_t ic = m0; ic < m1; ic += arch->mc) {
        int64_t mc = min64(arch->mc, m1 - ic);
        int direct = stepsEven && mc % mr == 0;
        for (int64_t ir = 0; direct && ir < mc; ir += mr)
          direct = onnxcIsUnitRun(g->aRow + ic + ir, mr) &&
                   onnxcIsUnitRun(g->cRow + ic + ir, mr);
        const float *panelA = bufA;
        if (packedA)
          panelA = packedA + pc * mPad + ic * kc;
        else if (!direct)
          packA(g, mr, ic, mc, pc, kc, bufA);
        // How C's rows of each row sliver lie (checked once, not per tile):
        // the step between them (evenStep) and whether they are consecutive.
        int64_t rowStep[MaxSlivers];
        int rowsUnit[MaxSlivers];
        for (int64_t ir = 0; ir < mc; ir += mr) {
          int64_t rows = min64(mr, mc - ir);
          rowStep[ir / mr] = evenStep(g->cRow + ic + ir, rows, nr);
          rowsUnit[ir / mr] = onnxcIsUnitRun(g->cRow + ic + ir, rows);
        }
        for (int64_t jr = 0; jr < nc; jr += nr) {
          int64_t cols = min64(nr, nc - jr), j = jc + jr;
          const float *b = panelB + jr * kc;
          // Likewise C's columns of this sliver.
          int colsUnit =
              colsConsecutive || onnxcIsUnitRun(g->cCol + j, cols);
          int64_t colStep = colsConsecutive ? (cols == 1 ? mr : 1)
                                            : evenStep(g->cCol + j, cols, mr);
          int slivPacked = !directB;
          for (int64_t ir = 0; ir < mc; ir += mr) {
            int64_t rows = min64(mr, mc - ir), i = ic + ir;
            const float *a =
                direct ? g->a + g->aRow[i] + g->aCol[pc] : panelA + ir * kc;
            int full = rows == mr && cols == nr;
            // A plain block with unit column stride (its row stride), or
            // one stored transposed for arch->kernelT (its column stride).
            int64_t ldc = (full || arch->kernelEdge) && !g->biasColumns &&
                                  colsUnit
                              ? blockOf(rows == 1 ? cols : rowStep[ir / mr],
                                        cols)
                              : 0;
            epilogue.bias =
                first && g->bias ? g->bias + (g->biasColumns ? j : i) : NULL;
            int64_t ldcT = !ldc && arch->kernelT &&
                                   (!g->bias || g->biasColumns) &&
                                   rowsUnit[ir / mr]
                               ? blockOf(cols == 1 ? rows : colStep, rows)
                               : 0;
            int64_t at = g->cRow[i] + g->cCol[j];
            epilogue.res = last && g->res ? g->res + at : NULL;
            // The residual that the epilogue adds, fetched while the
            // kernel sums (on a 56x56 plane it comes from L3 otherwise:
            // resnet50's 1x1 64 -> 256 with a residual 688 -> 570 us).
            if (epilogue.res && ldc)
              prefetchLines(epilogue.res, rows, ldc, cols);
            const TileEpilogue *e = plain ? NULL : &epilogue;
            if (directB && ldc && full && !ldcT && !direct) {
              arch->kernelB(kc, a, g->b + g->bRow[pc] + g->bCol[j], ldb,
                            g->c + at, ldc, e);
              continue;
            }
            if (!slivPacked) {
              packB(g, nr, pc, kc, j, cols, bufB + jr * kc);
              slivPacked = 1;
            }
            if ((ldcT || direct) && arch->kernelT2 && 2 * cols <= nr &&
                ir + 2 * mr <= mc && g->cRow[i + mr] == g->cRow[i] + mr &&
                (direct || rowsUnit[ir / mr + 1])) {
              // Few columns: this sliver of rows and the next at once.
              const float *a1 = direct ? g->a + g->aRow[i + mr] + g->aCol[pc]
                                       : panelA + (ir + mr) * kc;
              arch->kernelT2(kc, a, a1, direct ? lda : mr, b, g->c + at,
                             direct ? tStore : ldcT, (int)cols, e);
              ir += mr;
              continue;
            }
            if (ldcT || direct) {
              arch->kernelT(kc, a, direct ? lda : mr, b, g->c + at,
                            direct ? tStore : ldcT, (int)rows, (int)cols, e);
              continue;
            }
            if (ldc && full) {
              arch->kernel(kc, a, b, g->c + at, ldc, e);
              continue;
            }
            if (ldc) {
              arch->kernelEdge(kc, a, mr, b, g->c + at, ldc, (int)rows,
                               (int)cols, e);
              continue;
            }
            memset(tile, 0, sizeof(float) * mr * nr);
            arch->kernel(kc, a, b, tile, nr, NULL);
            epilogue.res = last ? g->res : NULL;
            if (onnxcIsUnitRun(g->cCol + j, cols)) {
              for (int64_t r = 0; r < rows; ++r)
                finishRun(plain ? NULL : &epilogue, tile + r * nr, r, 1, g->c,
                          g->cRow[i + r] + g->cCol[j], cols);
              continue;
            }
            if (onnxcIsUnitRun(g->cRow + i, rows)) {
              // A transposed tile: its columns are contiguous in C.
              float column[MaxNR];
              for (int64_t s = 0; s < cols; ++s) {
                for (int64_t r = 0; r < rows; ++r)
                  column[r] = tile[r * nr + s];
                finishRun(plain ? NULL : &epilogue, column, s, 0, g->c,
                          g->cRow[i] + g->cCol[j + s], rows);
              }
              continue;
            }
            for (int64_t r = 0; r < rows; ++r)
              for (int64_t s = 0; s < cols; ++s) {
                int64_t at = g->cRow[i + r] + g->cCol[j + s];
                g->c[at] = finishValue(plain ? NULL : &epilogue,
                                       tile[r * nr + s], r, s, g->c, at);
              }
          }
        }
      }
    }
  }
  if (g->k == 0) {
    TileEpilogue epilogue = {!g->bias, g->clamp, g->bias,         g->res,
                             g->lo,    g->hi,    g->biasColumns, g->hardSwish};
    for (int64_t i = m0; i < m1; ++i)
      for (int64_t j = n0; j < n1; ++j) {
        int64_t at = g->cRow[i] + g->cCol[j];
        g->c[at] = finishValue(&epilogue, 0.0f, i, j, g->c, at);
      }
  }
}

/// C[m0, m1) x [n0, n1) += A B without packing buffers (when they cannot
/// be allocated).
static void gemmUnpacked(const OnnxcGemm *g, int64_t m0, int64_t m1,
                         int64_t n0, int64_t n1) {
  TileEpilogue epilogue = {!g->bias, g->clamp, g->bias,         g->res,
                           g->lo,    g->hi,    g->biasColumns, g->hardSwish};
  for (int64_t i = m0; i < m1; ++i) {
    const float *a = g->a + g->aRow[i];
    for (int64_t j = n0; j < n1; ++j) {
      float sum = 0.0f;
      for (int64_t p = 0; p < g->k; ++p)
        sum += a[g->aCol[p]] * g->b[g->bRow[p] + g->bCol[j]];
      int64_t at = g->cRow[i] + g->cCol[j];
      g->c[at] = finishValue(&epilogue, sum, i, j, g->c, at);
    }
  }
}

/// The tasks of one GEMM: mTasks x nTasks blocks of micro-tiles, or with
/// `balanced` (the number of tasks) runs of micro-tiles in row-block major
/// (`mOuter`) or column-block major order with like numbers of elements.
typedef struct {
  const GemmArch *arch;
  const OnnxcGemm *g;
  int64_t mTasks, nTasks, mBlocks, nBlocks;
  const float *packedA, *packedB;
  int64_t balanced;
  int mOuter;
} GemmTasks;

/*===----------------------------------------------------------------------===*
 * Constant operands, packed once
 *===----------------------------------------------------------------------===*/

/// A constant operand packed whole: for each KC block of the reduction, all
/// its slivers (A: rows padded to mr; B: columns padded to nr), so the panel
/// of block (pc, ic) starts at pc * mPad + ic * kc.
typedef struct PackedEntry {
  struct PackedEntry *next;
  const float *base;
  int64_t rows, cols, rowStep, colStep;
  int which, mr, nr;
  int64_t kc;
  float *packed;
} PackedEntry;

static pthread_mutex_t packedMutex = PTHREAD_MUTEX_INITIALIZER;
static PackedEntry *packedEntries;

/// The whole of operand `which` (0: A, 1: B) of `g` packed, from the cache
/// or packed now; NULL if it cannot be allocated or its offset tables are
/// not regular (then the caller packs per call).
static const float *packWhole(const GemmArch *arch, const OnnxcGemm *g,
                              int which) {
  const float *base = which ? g->b : g->a;
  const int64_t *row = which ? g->bRow : g->aRow;
  const int64_t *col = which ? g->bCol : g->aCol;
  int64_t rows = which ? g->k : g->m, cols = which ? g->n : g->k;
  int64_t rowStep = rows > 1 ? row[1] - row[0] : 0;
  int64_t colStep = cols > 1 ? col[1] - col[0] : 0;
  for (int64_t i = 0; i < rows; ++i)
    if (row[i] != i * rowStep)
      return NULL;
  for (int64_t j = 0; j < cols; ++j)
    if (col[j] != j * colStep)
      return NULL;
  pthread_mutex_lock(&packedMutex);
  PackedEntry *e = packedEntries;
  for (; e; e = e->next)
    if (e->base == base && e->rows == rows && e->cols == cols &&
        e->rowStep == rowStep && e->colStep == colStep && e->which == which &&
        e->mr == arch->mr && e->nr == arch->nr && e->kc == arch->kc)
      break;
  if (!e) {
    int64_t mPad = (g->m + arch->mr - 1) / arch->mr * arch->mr;
    int64_t nPad = (g->n + arch->nr - 1) / arch->nr * arch->nr;
    int64_t floats = which ? g->k * nPad : g->k * mPad;
    size_t bytes = ((size_t)floats * sizeof(float) + 63) & ~(size_t)63;
    e = malloc(sizeof(*e));
    float *packed = e ? onnxcPersistentAlloc(bytes) : NULL;
    if (!packed) {
      free(e);
      pthread_mutex_unlock(&packedMutex);
      return NULL;
    }
    int64_t kcBlock = blockK(arch, g->k);
    for (int64_t pc = 0; pc < g->k; pc += kcBlock) {
      int64_t kc = min64(kcBlock, g->k - pc);
      if (which)
        packB(g, arch->nr, pc, kc, 0, g->n, packed + pc * nPad);
      else
        packA(g, arch->mr, 0, g->m, pc, kc, packed + pc * mPad);
    }
    *e = (PackedEntry){packedEntries, base,     rows,     cols,
                       rowStep,       colStep,  which,    arch->mr,
                       arch->nr,      arch->kc, packed};
    packedEntries = e;
  }
  pthread_mutex_unlock(&packedMutex);
  return e->packed;
}

/// Packing buffers are kept per thread (grown as needed, freed when the
/// thread exits) so that a call does not fault in fresh pages.
typedef struct {
  float *data[2];
  size_t bytes[2];
} PanelCache;

static pthread_key_t panelKey;
static pthread_once_t panelOnce = PTHREAD_ONCE_INIT;

static void freePanels(void *p) {
  PanelCache *cache = p;
  free(cache->data[0]);
  free(cache->data[1]);
  free(cache);
}

static void initPanelKey(void) { pthread_key_create(&panelKey, freePanels); }

float *onnxcThreadBuffer(int which, int64_t floats) {
  pthread_once(&panelOnce, initPanelKey);
  PanelCache *cache = pthread_getspecific(panelKey);
  if (!cache) {
    cache = calloc(1, sizeof(*cache));
    if (!cache || pthread_setspecific(panelKey, cache) != 0) {
      free(cache);
      return NULL;
    }
  }
  size_t bytes = ((size_t)floats * sizeof(float) + 63) & ~(size_t)63;
  if (cache->bytes[which] >= bytes)
    return cache->data[which];
  free(cache->data[which]);
  cache->data[which] = aligned_alloc(64, bytes ? bytes : 64);
  cache->bytes[which] = cache->data[which] ? bytes : 0;
  return cache->data[which];
}

/// Rows [m0, m1) x columns [n0, n1) of the GEMM of `t`.
static void runGemmRange(const GemmTasks *t, int64_t m0, int64_t m1,
                         int64_t n0, int64_t n1) {
  const GemmArch *arch = t->arch;
  const OnnxcGemm *g = t->g;
  int64_t kc = blockK(arch, g->k > 0 ? g->k : 1);
  int64_t ncRounded =
      (min64(arch->nc, n1 - n0) + arch->nr - 1) / arch->nr * arch->nr;
  int64_t mcRounded =
      (min64(arch->mc, m1 - m0) + arch->mr - 1) / arch->mr * arch->mr;
  float *bufA = t->packedA ? NULL : onnxcThreadBuffer(0, mcRounded * kc);
  float *bufB = t->packedB ? NULL : onnxcThreadBuffer(1, ncRounded * kc);
  if ((bufA || t->packedA) && (bufB || t->packedB))
    gemmBlock(arch, g, m0, m1, n0, n1, bufA, bufB, t->packedA, t->packedB);
  else if (g->b) // (not when B only exists packed: C is left as it is)
    gemmUnpacked(g, m0, m1, n0, n1);
}

/// The elements of C in the micro-tiles before tile `u` of the order of a
/// balanced split: row-block major (`mOuter`), else column-block major.
static int64_t elementsBefore(const GemmTasks *t, int64_t u) {
  const GemmArch *arch = t->arch;
  // The outer dimension's and the inner one's lengths, tiles and blocks.
  int64_t outer = t->mOuter ? t->g->m : t->g->n;
  int64_t inner = t->mOuter ? t->g->n : t->g->m;
  int64_t outerTile = t->mOuter ? arch->mr : arch->nr;
  int64_t innerTile = t->mOuter ? arch->nr : arch->mr;
  int64_t innerBlocks = t->mOuter ? t->nBlocks : t->mBlocks;
  int64_t whole = min64(outer, u / innerBlocks * outerTile);
  return whole * inner + (min64(outer, whole + outerTile) - whole) *
                             min64(inner, u % innerBlocks * innerTile);
}

/// The first micro-tile of task `task` of a balanced split: where the
/// elements before it reach the task's share.
static int64_t balancedStart(const GemmTasks *t, int64_t task) {
  int64_t tiles = t->mBlocks * t->nBlocks;
  double share = (double)t->g->m * (double)t->g->n * (double)task /
                 (double)t->balanced;
  int64_t lo = 0, hi = tiles; // first u with elementsBefore(u) >= share
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if ((double)elementsBefore(t, mid) >= share)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

/// Task `task` of a balanced split: its run of micro-tiles in the split's
/// order, as up to three blocks (a partial row of tiles, whole rows, a
/// partial row).
static void runBalancedTask(const GemmTasks *t, int64_t task) {
  const GemmArch *arch = t->arch;
  int64_t m = t->g->m, n = t->g->n;
  int64_t u = balancedStart(t, task), end = balancedStart(t, task + 1);
  int64_t inner = t->mOuter ? t->nBlocks : t->mBlocks;
  while (u < end) {
    int64_t o0 = u / inner, i0 = u % inner, o1 = o0 + 1, i1;
    if (i0 == 0 && end - u >= inner) {
      o1 = o0 + (end - u) / inner;
      i1 = inner;
    } else {
      i1 = min64(inner, i0 + end - u);
    }
    u += (o1 - o0 - 1) * inner + i1 - i0;
    if (t->mOuter)
      runGemmRange(t, o0 * arch->mr, min64(m, o1 * arch->mr), i0 * arch->nr,
                   min64(n, i1 * arch->nr));
    else
      runGemmRange(t, i0 * arch->mr, min64(m, i1 * arch->mr), o0 * arch->nr,
                   min64(n, o1 * arch->nr));
  }
}

static void runGemmTasks(void *ctx, int64_t begin, int64_t end) {
  GemmTasks *t = ctx;
  const GemmArch *arch = t->arch;
  const OnnxcGemm *g = t->g;
  for (int64_t task = begin; task < end; ++task) {
    if (t->balanced) {
      runBalancedTask(t, task);
      continue;
    }
    int64_t r[4];
    if (onnxcGemmTaskRange(task, t->mTasks, t->nTasks, t->mBlocks,
                           t->nBlocks, arch->mr, arch->nr, g->m, g->n, r))
      runGemmRange(t, r[0], r[1], r[2], r[3]);
  }
}

void onnxcSplitGemmTasks(int64_t threads, int64_t mBlocks, int64_t nBlocks,
                         int64_t *mTasks, int64_t *nTasks) {
  *mTasks = *nTasks = 1;
  if (threads <= 1)
    return;
  // Split the dimension with more micro-tiles; the other one only when the
  // first cannot feed every thread.
  if (nBlocks >= mBlocks) {
    *nTasks = min64(threads, nBlocks);
    *mTasks = min64(threads / *nTasks, mBlocks);
  } else {
    *mTasks = min64(threads, mBlocks);
    *nTasks = min64(threads / *mTasks, nBlocks);
  }
}

int onnxcGemmTaskRange(int64_t task, int64_t mTasks, int64_t nTasks,
                       int64_t mBlocks, int64_t nBlocks, int64_t mr,
                       int64_t nr, int64_t m, int64_t n, int64_t range[4]) {
  int64_t mt = task / nTasks, nt = task % nTasks;
  range[0] = min64(m, mBlocks * mt / mTasks * mr);
  range[1] = min64(m, mBlocks * (mt + 1) / mTasks * mr);
  range[2] = min64(n, nBlocks * nt / nTasks * nr);
  range[3] = min64(n, nBlocks * (nt + 1) / nTasks * nr);
  return range[0] < range[1] && range[2] < range[3];
}

/// A row-major A packed whole (packWhole's layout) by several threads.
typedef struct {
  const GemmArch *arch;
  const OnnxcGemm *g;
  float *dst;
} SharedA;

/// Slivers [begin, end) of the SharedA `ctx`, in every reduction block.
static void packSharedA(void *ctx, int64_t begin, int64_t end) {
  const SharedA *s = ctx;
  const GemmArch *arch = s->arch;
  const OnnxcGemm *g = s->g;
  int64_t mPad = (g->m + arch->mr - 1) / arch->mr * arch->mr;
  int64_t i0 = begin * arch->mr, i1 = min64(end * arch->mr, g->m);
  int64_t kcBlock = blockK(arch, g->k);
  for (int64_t pc = 0; pc < g->k; pc += kcBlock) {
    int64_t kc = min64(kcBlock, g->k - pc);
    packA(g, arch->mr, i0, i1 - i0, pc, kc, s->dst + pc * mPad + i0 * kc);
  }
}

/// Runs `g` with the kernel of `arch` on the current session's thread pool;
/// `packedA` / `packedB` (or NULL) hold an operand packed whole for `arch`.
static void runGemm(const GemmArch *arch, const OnnxcGemm *g,
                    const float *packedA, const float *packedB) {
  onnxc_threadpool *pool = onnxc_current_threadpool();
  int64_t threads = onnxc_threadpool_size(pool);
  // Below about a million multiply-adds a second thread costs more than it
  // saves.
  if ((double)g->m * (double)g->n * (double)g->k < 1e6)
    threads = 1;
  GemmTasks t = {arch,
                 g,
                 1,
                 1,
                 (g->m + arch->mr - 1) / arch->mr,
                 (g->n + arch->nr - 1) / arch->nr,
                 packedA,
                 packedB,
                 0,
                 0};
  onnxcSplitGemmTasks(threads, t.mBlocks, t.nBlocks, &t.mTasks, &t.nTasks);
  int64_t tasks = t.mTasks * t.nTasks;
  if (tasks == 1) {
    runGemmTasks(&t, 0, 1);
    return;
  }
  // Blocks of micro-tiles that the threads cannot share evenly (5 slivers
  // of a 160-filter 1x1 convolution between 2 threads: 3 and 2) become runs
  // of tiles in the order in which the operand packed per call is packed
  // least often (its row or column blocks outermost), cut at like numbers
  // of elements (mobilenet_v2 at T=2, with three such layers: 1.940 ->
  // 1.892 ms).
  int64_t largest = (t.mBlocks + t.mTasks - 1) / t.mTasks *
                    ((t.nBlocks + t.nTasks - 1) / t.nTasks);
  if ((double)largest * (double)threads >
      1.1 * (double)(t.mBlocks * t.nBlocks)) {
    t.balanced = threads;
    t.mOuter = !packedA;
    onnxc_parallel_for(pool, threads, runGemmTasks, &t);
    return;
  }
  // Tasks that split only B's columns would each pack all of a row-major
  // A: it is packed once, its slivers shared out, into this thread's
  // buffer (a transformer's activations times packed weights).
  int64_t mPad = t.mBlocks * arch->mr;
  float *shared = NULL;
  if (t.mTasks == 1 && packedB && !packedA && g->k > 1 &&
      onnxcUnitRunOf(g, g->aCol, 0, g->k))
    shared = onnxcThreadBuffer(0, g->k * mPad);
  if (shared) {
    SharedA pack = {arch, g, shared};
    onnxc_parallel_for(pool, t.mBlocks, packSharedA, &pack);
    t.packedA = shared;
  }
  onnxc_parallel_for(pool, tasks, runGemmTasks, &t);
}

/// The kernel for `g`: the wide AVX-512 one where its tiles fit C better
/// (and C's rows are plain, so full tiles are stored directly), else the
/// process's one.
static const GemmArch *archFor(const OnnxcGemm *g) {
  const GemmArch *arch = getArch();
  if (wideArch.kernel && !g->biasColumns &&
      (g->n == 1 || g->cCol[1] - g->cCol[0] == 1) &&
      onnxcGemmPrefersWide(ONNXC_GEMM_ISA_AVX512, g->m, g->n))
    return &wideArch;
  return arch;
}

void onnxcGemm(const OnnxcGemm *g) {
  if (g->m <= 0 || g->n <= 0)
    return;
  if (onnxcGemv(g))
    return;
  const GemmArch *arch = archFor(g);
  runGemm(arch, g, g->constA && g->k > 0 ? packWhole(arch, g, 0) : NULL,
          g->constB && g->k > 0 ? packWhole(arch, g, 1) : NULL);
}

/// The kernel that reads B packed with slivers `nr` wide in reduction blocks
/// of `kcBlock` for a reduction of length k: the process's kernel or the
/// wide one, blocked at kcBlock (to the same blocks); NULL if neither.
static int archForPacked(int nr, int64_t kcBlock, int64_t k, GemmArch *out) {
  const GemmArch *arch = getArch();
  if (wideArch.kernel && nr == wideArch.nr)
    arch = &wideArch;
  if (arch->nr != nr || kcBlock <= 0)
    return 0;
  *out = *arch;
  out->kc = kcBlock;
  return blockK(out, k) == kcBlock;
}

void onnxcGemmPacked(const OnnxcGemm *g, const float *packedB, int nr,
                     int64_t kcBlock) {
  if (g->m <= 0 || g->n <= 0 || nr <= 0 || kcBlock <= 0)
    return;
  GemmArch arch;
  // The kernels load the packed slivers 64-byte aligned (as the compiler
  // places them).
  if (g->k > 0 && (uintptr_t)packedB % 64 == 0 &&
      archForPacked(nr, kcBlock, g->k, &arch)) {
    runGemm(&arch, g, NULL, packedB);
    return;
  }
  // Another kernel than the one B was packed for (another CPU, or one
  // picked by ONNXC_GEMM_KERNEL): one GEMM per reduction block, each block
  // of B read where it lies through its offset tables.
  int64_t nPad = (g->n + nr - 1) / nr * nr;
  int64_t *t = malloc(sizeof(int64_t) * (size_t)(kcBlock + g->n));
  if (!t)
    return;
  int64_t *bRow = t, *bCol = t + kcBlock;
  for (int64_t pc = 0; pc < g->k || pc == 0; pc += kcBlock) {
    int64_t kc = min64(kcBlock, g->k - pc);
    int first = pc == 0, last = pc + kc >= g->k;
    for (int64_t p = 0; p < kc; ++p)
      bRow[p] = p * nr;
    for (int64_t j = 0; j < g->n; ++j)
      bCol[j] = j / nr * kc * nr + j % nr;
    OnnxcGemm block = *g;
    block.k = kc;
    block.aCol = g->aCol + pc;
    block.b = packedB + pc * nPad;
    block.bRow = bRow;
    block.bCol = bCol;
    block.constB = 0;
    block.strided = 0; // B's tables are the panels', not i * step
    block.bias = first ? g->bias : NULL;
    block.res = last ? g->res : NULL;
    block.clamp = last && g->clamp;
    onnxcGemm(&block);
  }
  free(t);
}

/*===----------------------------------------------------------------------===*
 * Convolutions on their input's grid
 *===----------------------------------------------------------------------===*/

typedef struct {
  const OnnxcConvGrid *g;
  const GemmArch *arch;
  const float *packedB;
  int64_t rows, mTasks, nTasks, mBlocks, nBlocks;
} GridTasks;

#if defined(__x86_64__)
/// Grid rows [m0, m1) x filters [n0, n1) of image `image` of `t` on one
/// thread, in the blocking of gemmBlock: reduction blocks, mc rows, nr
/// filters, mr rows.
static void gridBlock(const GridTasks *t, int64_t image, int64_t m0,
                      int64_t m1, int64_t n0, int64_t n1) {
  const OnnxcConvGrid *g = t->g;
  const float *x = g->x + image * g->xImageStride;
  float *c = g->c + image * g->cImageStride;
  const float *res = g->res ? g->res + image * g->cImageStride : NULL;
  const GemmArch *arch = t->arch;
  int64_t nPad = (g->n + 31) / 32 * 32, kcBlock = blockK(arch, g->k);
  int64_t step = g->rowSlivers ? g->stride : 1;
  int64_t segments = (g->ow + 13) / 14, last = t->rows / 14 - 1;
  _Alignas(64) float sliver[14 * 512];
  int64_t packedSteps[512];
  for (int64_t p = 0; p < kcBlock; ++p)
    packedSteps[p] = p * 14;
  for (int64_t pc = 0; pc < g->k; pc += kcBlock) {
    int64_t kc = min64(kcBlock, g->k - pc);
    int first = pc == 0, lastBlock = pc + kc == g->k;
    const int64_t *off = g->aCol + pc;
    TileEpilogue epilogue = {!(first && g->bias), lastBlock && g->clamp, NULL,
                             NULL, g->lo, g->hi, 1,
                             lastBlock && g->hardSwish};
    int plain =
        epilogue.load && !(lastBlock && (res || g->clamp || g->hardSwish));
    for (int64_t ic = m0; ic < m1; ic += arch->mc) {
      int64_t mc = min64(arch->mc, m1 - ic), slivers = (mc + 13) / 14;
      // Once per block, not per tile: where each sliver of 14 rows starts
      // in the image, which of its lanes are output pixels, and where the
      // first of them goes.
      uint32_t keep[MaxSlivers];
      int64_t from[MaxSlivers], at[MaxSlivers];
      // A sliver that would read past the image, copied (its `lanes`).
      int64_t copied = -1, lanes = 0;
      for (int64_t s = 0; s < slivers; ++s) {
        int64_t i = ic + 14 * s, rows = min64(14, ic + mc - i);
        if (g->rowSlivers) {
          int64_t row = i / 14 / segments, column = i / 14 % segments * 14;
          int64_t kept = min64(14, g->ow - column);
          keep[s] = (1u << kept) - 1;
          from[s] = row * g->stride * g->xRowStride + column * g->stride;
          at[s] = row * g->ow + column;
          if (i / 14 == last && kept < 14)
            copied = s, lanes = kept;
          continue;
        }
        int64_t row = i / g->xRowStride, col = i % g->xRowStride;
        keep[s] = 0;
        from[s] = i;
        at[s] = -1;
        for (int64_t l = 0; l < rows; ++l, ++col) {
          if (col == g->xRowStride) {
            col = 0;
            ++row;
          }
          if (col >= g->ow)
            continue;
          keep[s] |= 1u << l;
          if (at[s] < 0)
            at[s] = row * g->ow + col;
        }
        if (rows < 14)
          copied = s, lanes = rows;
      }
      if (copied >= 0) {
        const float *a = x + from[copied];
        for (int64_t p = 0; p < kc; ++p)
          for (int64_t l = 0; l < 14; ++l)
            sliver[p * 14 + l] = l < lanes ? a[off[p] + l * step] : 0.0f;
      }
      for (int64_t jr = n0; jr < n1; jr += 32) {
        int cols = (int)min64(32, n1 - jr);
        const float *b = t->packedB + pc * nPad + jr * kc;
        for (int64_t s = 0, pair; s < slivers; s += pair ? 2 : 1) {
          // Two slivers at once (28 x 16) where the filters fit one vector
          // and the second's pixels follow the first's in the image.
          pair = cols <= 16 && s + 1 < slivers && s + 1 != copied &&
                 s != copied &&
                 (!g->rowSlivers ||
                  (keep[s] == 0x3fff && from[s + 1] == from[s] + 14 * step &&
                   at[s + 1] == at[s] + 14));
          uint32_t kept = pair ? keep[s] | keep[s + 1] << 14 : keep[s];
          int64_t start = at[s] >= 0 || !pair ? at[s] : at[s + 1];
          if (!kept)
            continue;
          float *out = c + jr * g->cFilterStride + start;
          epilogue.bias = first && g->bias ? g->bias + jr : NULL;
          epilogue.res =
              lastBlock && res ? res + jr * g->cFilterStride + start : NULL;
          const float *a = x + from[s];
          const TileEpilogue *e = plain ? NULL : &epilogue;
          if (s == copied)
            kernelAvx512Grid(kc, sliver, packedSteps, b, out,
                             g->cFilterStride, (__mmask16)kept, cols, e, 1);
          else if (pair)
            kernelAvx512Grid16(kc, a, off, b, out, g->cFilterStride, kept,
                               cols, e, (int)step);
          else
            kernelAvx512Grid(kc, a, off, b, out, g->cFilterStride,
                             (__mmask16)kept, cols, e, (int)step);
        }
      }
    }
  }
}

static void runGridTasks(void *ctx, int64_t begin, int64_t end) {
  const GridTasks *t = ctx;
  int64_t perImage = t->mTasks * t->nTasks;
  for (int64_t task = begin; task < end; ++task) {
    int64_t r[4];
    if (onnxcGemmTaskRange(task % perImage, t->mTasks, t->nTasks, t->mBlocks,
                           t->nBlocks, 14, 32, t->rows, t->g->n, r))
      gridBlock(t, task / perImage, r[0], r[1], r[2], r[3]);
  }
}
#endif

int onnxcConvGrid(const OnnxcConvGrid *g) {
#if defined(__x86_64__)
  const GemmArch *arch = getArch();
  if (arch->kernel != kernelAvx512 || arch->kc > 512 || g->k <= 0 ||
      g->oh <= 0 || g->ow <= 0 || g->n <= 0 ||
      (g->rowSlivers ? g->stride != 1 && g->stride != 2 : g->stride != 1))
    return 0;
  if (g->images <= 0)
    return 1;
  // The B of the grid's GEMM: constant filters packed once like any
  // constant operand, others for this call.
  // The GEMM's rows: the grid's, or 14 per sliver of an output row.
  int64_t rows = g->rowSlivers ? g->oh * ((g->ow + 13) / 14) * 14
                               : (g->oh - 1) * g->xRowStride + g->ow;
  OnnxcGemm gemm = {.m = rows,
                    .n = g->n,
                    .k = g->k,
                    .b = g->w,
                    .bRow = g->bRow,
                    .bCol = g->bCol,
                    .constB = g->constW};
  float *own = NULL;
  const float *packedB = NULL;
  if (g->constW) {
    packedB = packWhole(arch, &gemm, 1);
  } else {
    int64_t kcBlock = blockK(arch, g->k), nPad = (g->n + 31) / 32 * 32;
    own = aligned_alloc(64, (size_t)(g->k * nPad) * sizeof(float));
    for (int64_t pc = 0; own && pc < g->k; pc += kcBlock)
      packB(&gemm, 32, pc, min64(kcBlock, g->k - pc), 0, g->n,
            own + pc * nPad);
    packedB = own;
  }
  if (!packedB)
    return 0;
  GridTasks t = {g,    arch, packedB, rows, 1, 1, (rows + 13) / 14,
                 (g->n + 31) / 32};
  onnxc_threadpool *pool = onnxc_current_threadpool();
  int64_t threads = onnxc_threadpool_size(pool);
  // Where the filters outweigh the image (3x3 over 14x14 planes), threads
  // share out the filters, each reading its part of them only; else the
  // dimension with more tiles.
  if (threads > 1 && t.nBlocks >= threads && g->k * g->n > g->xImageStride)
    t.nTasks = threads;
  else
    onnxcSplitGemmTasks(threads, t.mBlocks, t.nBlocks, &t.mTasks, &t.nTasks);
  int64_t tasks = g->images * t.mTasks * t.nTasks;
  if (tasks == 1)
    runGridTasks(&t, 0, 1);
  else
    onnxc_parallel_for(pool, tasks, runGridTasks, &t);
  free(own);
  return 1;
#else
  (void)g;
  return 0;
#endif
}

int onnxcGemmPrefersTransposed(int64_t m, int64_t n) {
  const GemmArch *arch = getArch();
  if (!arch->kernelT || m <= 0 || n <= 0)
    return 0;
  int64_t mr = arch->mr, nr = arch->nr;
  double plain =
      (double)((m + mr - 1) / mr * mr) * (double)((n + nr - 1) / nr * nr);
  // (Plain, the wide tile where it would be taken: 16 filters fill it.)
  if (wideArch.kernel && onnxcGemmPrefersWide(ONNXC_GEMM_ISA_AVX512, m, n))
    plain = (double)m * (double)((n + 47) / 48 * 48);
  // Transposed, a last sliver of at most nr / 2 columns costs half of one
  // (kernelT2, on pairs of row slivers: n must make some).
  int64_t tail = m % nr, half = arch->kernelT2 && n >= 2 * mr ? nr / 2 : nr;
  int64_t mPadded = m / nr * nr + (tail == 0 ? 0 : tail <= half ? half : nr);
  double transposed = (double)((n + mr - 1) / mr * mr) * (double)mPadded;
  // The transposed store costs a few percent of a tile.
  return transposed < 0.9 * plain;
}

const char *onnxcGemmKernelName(void) {
  const GemmArch *arch = getArch();
#if defined(__x86_64__)
  if (arch->kernel == kernelAvx512)
    return "avx512";
  if (arch->kernel == kernelAvx2)
    return "avx2";
#elif defined(__aarch64__)
  if (arch->kernel == kernelNeon)
    return "neon";
#endif
  return "generic";
}

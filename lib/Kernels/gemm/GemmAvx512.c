/*===- GemmAvx512.c - The GEMM's AVX-512 micro-kernels and packing ---------===*
 *
 * The AVX-512 variant of the fp32 GEMM (x86-64; Gemm.c picks it where the
 * CPU has AVX-512F): the 14 x 32 micro-kernel with its edge, transposed and
 * pair (28 x 16) forms and its form on a B read in place, the wide 8 x 48
 * tile, two tiles for comparisons, and packing with AVX-512 moves. Every
 * function carries its target attribute, so the file needs no -mavx512f.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemm/GemmAvx512.h"

#if defined(__x86_64__)

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

/// How far ahead the wide (8 x 48) tile fetches a packed B: a matmul's
/// weights (the compiler's packing, on 4 KiB pages of the binary), which
/// each sliver's first tile read from DRAM: bert_encoder 109.0 -> 100.8 ms,
/// T=2 56.2 -> 53.5 (64 steps: 102.0).
enum { PrefetchWideBSteps = 32 };

ONNXC_AVX512 void onnxcGemmKernelAvx512(int64_t kc, const float *a,
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
    int64_t at = (I) * ldc;                                                    \
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
  __m512 acc[MR][NV];                                                          \
  _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i)                        \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =         \
          _mm512_setzero_ps();                                                 \
  for (int64_t p = 0; p < kc; ++p, a += MR, b += (LDB)) {                      \
    __m512 bv[NV];                                                             \
    ONNXC_PREFETCH(a, MR *PrefetchSteps);                                      \
    if ((LDB) == 16 * NV)                                                      \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v)                     \
          ONNXC_PREFETCH(b, (LDB) * PrefetchWideBSteps + 16 * v);              \
    _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) bv[v] =               \
        LOAD(b + 16 * v);                                                      \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i) {                    \
      __m512 x = _mm512_set1_ps(a[i]);                                         \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =         \
          _mm512_fmadd_ps(x, bv[v], acc[i][v]);                                \
    }                                                                          \
  }                                                                            \
  _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i) {                      \
    _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) {                     \
      int64_t at = i * ldc + 16 * v;                                           \
      _mm512_storeu_ps(c + at, finishAvx512(e, acc[i][v], i, c, at));          \
    }                                                                          \
  }

#define ONNXC_AVX512_KERNEL(NAME, MR, NV)                                      \
  ONNXC_AVX512 void NAME(int64_t kc, const float *a, const float *b, float *c, \
                         int64_t ldc, const TileEpilogue *e) {                 \
    ONNXC_AVX512_KERNEL_BODY(MR, NV, 16 * NV, _mm512_load_ps)                  \
  }

/// ONNXC_AVX512_KERNEL's kernel on a B read in place (DirectBKernel).
#define ONNXC_AVX512_DIRECT_B_KERNEL(NAME, MR, NV)                             \
  ONNXC_AVX512 void NAME(int64_t kc, const float *a, const float *b,           \
                         int64_t ldb, float *c, int64_t ldc,                   \
                         const TileEpilogue *e) {                              \
    ONNXC_AVX512_KERNEL_BODY(MR, NV, ldb, _mm512_loadu_ps)                     \
  }

/// The sums of onnxcGemmKernelAvx512 in an array (kept in registers once
/// inlined), of its first `rows` rows (a constant once inlined); the others are
/// zero.
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

/// onnxcGemmKernelAvx512 on the first `rows` x `cols` of a tile, its first
/// `sums` rows summed (a constant once inlined, at least `rows`).
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

/// onnxcGemmKernelAvx512 with C stored transposed: each of the first `cols`
/// columns is stored as `rows` values to its row of C; the bias is per column.
/// Its first `sums` rows summed, as edgeAvx512's.
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

/// onnxcGemmKernelAvx512 on the first `rows` x `cols` of a tile.
ONNXC_AVX512 void onnxcGemmKernelAvx512Edge(int64_t kc, const float *a,
                                            int64_t lda, const float *b,
                                            float *c, int64_t ldc, int rows,
                                            int cols, const TileEpilogue *e) {
  rowsKernel(rows, kernelAvx512Edge4, kernelAvx512Edge7, kernelAvx512Edge10,
             kernelAvx512Edge14)(kc, a, lda, b, c, ldc, rows, cols, e);
}

/// transposedAvx512 of the fewest rows that covers `rows`.
ONNXC_AVX512 void onnxcGemmKernelAvx512T(int64_t kc, const float *a,
                                         int64_t lda, const float *b, float *c,
                                         int64_t ldc, int rows, int cols,
                                         const TileEpilogue *e) {
  rowsKernel(rows, kernelAvx512T4, kernelAvx512T7, kernelAvx512T10,
             kernelAvx512T14)(kc, a, lda, b, c, ldc, rows, cols, e);
}

/// The 28 x 16 sums `acc` of two slivers of rows stored transposed (as
/// storeTransposedAvx512 each half): of the 28 rows, the lanes `keep` are
/// stored, those of the second half following those of the first in C.
ONNXC_AVX512 void onnxcGemmStorePairTransposedAvx512(const __m512 acc[28],
                                                     float *c, int64_t ldc,
                                                     uint32_t keep, int cols,
                                                     const TileEpilogue *e) {
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

/// onnxcGemmKernelAvx512T for at most 16 columns (the first vector of each step
/// of B's 32-wide sliver) over two slivers of rows at once, 28 x 16: rows 0..13
/// at a0, 14..27 at a1, each step `lda` on; C's 28 rows consecutive.
ONNXC_AVX512 void onnxcGemmKernelAvx512T16(int64_t kc, const float *a0,
                                           const float *a1, int64_t lda,
                                           const float *b, float *c,
                                           int64_t ldc, int cols,
                                           const TileEpilogue *e) {
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
  onnxcGemmStorePairTransposedAvx512(acc, c, ldc, 0xfffffff, cols, e);
}

ONNXC_AVX512_KERNEL(onnxcGemmKernelAvx512x8x48, 8, 3)
ONNXC_AVX512_DIRECT_B_KERNEL(onnxcGemmKernelAvx512x8x48DirectB, 8, 3)
ONNXC_AVX512_DIRECT_B_KERNEL(onnxcGemmKernelAvx512DirectB, 14, 2)
ONNXC_AVX512_KERNEL(onnxcGemmKernelAvx512x6x64, 6, 4)
ONNXC_AVX512_KERNEL(onnxcGemmKernelAvx512x12x32, 12, 2)

/*===----------------------------------------------------------------------===*
 * Packing with AVX-512 moves
 *===----------------------------------------------------------------------===*/

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

ONNXC_PACK_PANEL(onnxcGemmPackPanelAvx512, ONNXC_AVX512, copyFloatsAvx512,
                 copyEvenFloatsAvx512)

/// One sliver of packA from `count` (at most mr <= 16) rows whose steps are
/// consecutive floats, rows[i][0, kc): 16 steps at a time, transposed in
/// registers (rows from `count` on are zeros).
ONNXC_AVX512 void onnxcGemmPackRowsAvx512(const float *const *rows, int count,
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

/*===- GemmGridAvx512.c - Convolutions on their input's grid (AVX-512) -----===*
 *
 * onnxcConvGrid: a stride-1 convolution computed on its input's grid, grid
 * row i's implicit im2col row read in place at i + a tap offset (or, in row
 * slivers, an output row's pixels at stride 1 or 2), so neither im2col nor
 * packing of the image; the tiles are stored transposed, the grid's columns
 * past the output's width dropped by a lane compress. AVX-512 only (the
 * micro-kernels' grid forms are here, beside the loops that call them);
 * elsewhere onnxcConvGrid does nothing and the caller takes the GEMM.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "lib/Kernels/gemm/GemmInternal.h"

#include <stdlib.h>

#if defined(__x86_64__)
#include "lib/Kernels/gemm/GemmAvx512.h"

/// onnxcGemmKernelAvx512T for a convolution's grid (onnxcConvGrid): step p of
/// the sliver's 14 rows at a + off[p], `step` apart (a constant once inlined:
/// 1, or 2 along a stride-2 convolution's output row); of the tile's rows,
/// the lanes `keep` are stored (the others are the grid's dropped columns,
/// or the padding of a row's last sliver).
__attribute__((always_inline)) ONNXC_AVX512 static inline void
gridAvx512(int64_t kc, const float *a, const int64_t *off, const float *b,
           float *c, int64_t ldc, __mmask16 keep, int cols,
           const TileEpilogue *e, int step) {
  __m512 acc[14][2];
  _Pragma("GCC unroll 16") for (int i = 0; i < 14; ++i) acc[i][0] = acc[i][1] =
      _mm512_setzero_ps();
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
                                          float *c, int64_t ldc, __mmask16 keep,
                                          int cols, const TileEpilogue *e,
                                          int step) {
  if (step == 2)
    gridAvx512(kc, a, off, b, c, ldc, keep, cols, e, 2);
  else
    gridAvx512(kc, a, off, b, c, ldc, keep, cols, e, 1);
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
  onnxcGemmStorePairTransposedAvx512(acc, c, ldc, keep, cols, e);
}

/// grid16Avx512 with its `step`, 1 or 2, made a constant.
ONNXC_AVX512 static void kernelAvx512Grid16(int64_t kc, const float *a,
                                            const int64_t *off, const float *b,
                                            float *c, int64_t ldc,
                                            uint32_t keep, int cols,
                                            const TileEpilogue *e, int step) {
  if (step == 2)
    grid16Avx512(kc, a, off, b, c, ldc, keep, cols, e, 2);
  else
    grid16Avx512(kc, a, off, b, c, ldc, keep, cols, e, 1);
}
#endif

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
static void gridBlock(const GridTasks *t, int64_t image, int64_t m0, int64_t m1,
                      int64_t n0, int64_t n1) {
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
    TileEpilogue epilogue = {!(first && g->bias),
                             lastBlock && g->clamp,
                             NULL,
                             NULL,
                             g->lo,
                             g->hi,
                             1,
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
            kernelAvx512Grid(kc, sliver, packedSteps, b, out, g->cFilterStride,
                             (__mmask16)kept, cols, e, 1);
          else if (pair)
            kernelAvx512Grid16(kc, a, off, b, out, g->cFilterStride, kept, cols,
                               e, (int)step);
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
  const GemmArch *arch = onnxcGemmArch();
  if (arch->kernel != onnxcGemmKernelAvx512 || arch->kc > 512 || g->k <= 0 ||
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
    packedB = onnxcGemmPackWhole(arch, &gemm, 1);
  } else {
    int64_t kcBlock = blockK(arch, g->k), nPad = (g->n + 31) / 32 * 32;
    own = aligned_alloc(64, (size_t)(g->k * nPad) * sizeof(float));
    for (int64_t pc = 0; own && pc < g->k; pc += kcBlock)
      onnxcGemmPackBSlivers(&gemm, 32, pc, min64(kcBlock, g->k - pc), 0, g->n,
                            own + pc * nPad);
    packedB = own;
  }
  if (!packedB)
    return 0;
  GridTasks t = {g, arch, packedB,          rows,
                 1, 1,    (rows + 13) / 14, (g->n + 31) / 32};
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

/*===- GemmBlocked.c - The GEMM's packing, blocking and thread split -------===*
 *
 * The loops of the fp32 GEMM around its micro-kernels, whichever ISA they
 * are for: B packed into slivers nr columns wide and A into slivers mr rows
 * tall (or read where they lie when that costs less), cache blocks of kc
 * reduction steps, mc rows and nc columns, the tile epilogue on C's offset
 * tables, constant operands packed once per process, the per-thread packing
 * buffers, and the split of a GEMM's micro-tiles over the session's thread
 * pool.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "lib/Kernels/gemm/GemmInternal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------------------------------------------------------===*
 * Packing and the blocked loops
 *===----------------------------------------------------------------------===*/

static inline void copyFloats(float *o, const float *s, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    o[j] = s[j];
}

static inline void copyEvenFloats(float *o, const float *s, int64_t n) {
  for (int64_t j = 0; j < n; ++j)
    o[j] = s[2 * j];
}

ONNXC_PACK_PANEL(packPanelGeneric, static, copyFloats, copyEvenFloats)

static void packPanel(const float *base, const int64_t *kOff,
                      const int64_t *vOff, int w, int64_t kc, int64_t width,
                      float *dst) {
#if defined(__x86_64__)
  if (onnxcGemmPackAvx512) {
    onnxcGemmPackPanelAvx512(base, kOff, vOff, w, kc, width, dst);
    return;
  }
#endif
  packPanelGeneric(base, kOff, vOff, w, kc, width, dst);
}

/// Packs B[pc, pc + kc) x [jc, jc + nc) into slivers of nr columns.
void onnxcGemmPackBSlivers(const OnnxcGemm *g, int nr, int64_t pc, int64_t kc,
                           int64_t jc, int64_t nc, float *dst) {
  packPanel(g->b, g->bRow + pc, g->bCol + jc, nr, kc, nc, dst);
}

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
    if (onnxcGemmPackAvx512 && mr <= 16) {
      const float *starts[16];
      for (int64_t i = 0; i < rows; ++i)
        starts[i] = g->a + g->aRow[ic + ir + i] + col[0];
      onnxcGemmPackRowsAvx512(starts, (int)rows, mr, kc, dst);
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
/// ahead (see onnxcGemmPackWhole); the per-call buffers are used otherwise.
static void gemmBlock(const GemmArch *arch, const OnnxcGemm *g, int64_t m0,
                      int64_t m1, int64_t n0, int64_t n1, float *bufA,
                      float *bufB, const float *packedA, const float *packedB) {
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
      TileEpilogue epilogue = {
          !(first && g->bias), last && g->clamp,    NULL, NULL, g->lo, g->hi,
          g->biasColumns,      last && g->hardSwish};
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
      int directB = !packedB && arch->kernelB && kc > 1 && kc <= DirectBSteps &&
                    m1 - m0 <= DirectBRows && ldb >= nr &&
                    evenStep(g->bRow + pc, kc, 0) == ldb &&
                    onnxcUnitRunOf(g, g->bCol, jc, nc);
      const float *panelB = bufB;
      if (packedB)
        panelB = packedB + pc * nPad + jc * kc;
      else if (!directB)
        onnxcGemmPackBSlivers(g, nr, pc, kc, jc, nc, bufB);
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
          int colsUnit = colsConsecutive || onnxcIsUnitRun(g->cCol + j, cols);
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
            int64_t ldc =
                (full || arch->kernelEdge) && !g->biasColumns && colsUnit
                    ? blockOf(rows == 1 ? cols : rowStep[ir / mr], cols)
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
              onnxcGemmPackBSlivers(g, nr, pc, kc, j, cols, bufB + jr * kc);
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
    TileEpilogue epilogue = {!g->bias, g->clamp, g->bias,        g->res,
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
static void gemmUnpacked(const OnnxcGemm *g, int64_t m0, int64_t m1, int64_t n0,
                         int64_t n1) {
  TileEpilogue epilogue = {!g->bias, g->clamp, g->bias,        g->res,
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
const float *onnxcGemmPackWhole(const GemmArch *arch, const OnnxcGemm *g,
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
        onnxcGemmPackBSlivers(g, arch->nr, pc, kc, 0, g->n, packed + pc * nPad);
      else
        packA(g, arch->mr, 0, g->m, pc, kc, packed + pc * mPad);
    }
    *e = (PackedEntry){packedEntries, base,     rows,  cols,
                       rowStep,       colStep,  which, arch->mr,
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
static void runGemmRange(const GemmTasks *t, int64_t m0, int64_t m1, int64_t n0,
                         int64_t n1) {
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
  double share =
      (double)t->g->m * (double)t->g->n * (double)task / (double)t->balanced;
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
    if (onnxcGemmTaskRange(task, t->mTasks, t->nTasks, t->mBlocks, t->nBlocks,
                           arch->mr, arch->nr, g->m, g->n, r))
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
                       int64_t mBlocks, int64_t nBlocks, int64_t mr, int64_t nr,
                       int64_t m, int64_t n, int64_t range[4]) {
  int64_t mt = task / nTasks, nt = task % nTasks;
  range[0] = min64(m, mBlocks * mt / mTasks * mr);
  range[1] = min64(m, mBlocks * (mt + 1) / mTasks * mr);
  range[2] = min64(n, nBlocks * nt / nTasks * nr);
  range[3] = min64(n, nBlocks * (nt + 1) / nTasks * nr);
  return range[0] < range[1] && range[2] < range[3];
}

/// A row-major A packed whole (onnxcGemmPackWhole's layout) by several threads.
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
void onnxcGemmRun(const GemmArch *arch, const OnnxcGemm *g,
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

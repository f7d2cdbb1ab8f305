/*===- Kernels.c - Entry points of lowered linalg ops ----------------------===*
 *
 * The functions that `convert-linalg-to-kernel-calls` calls in place of f32
 * matmuls and convolutions. Each receives its memrefs as expanded
 * descriptors, builds the offset tables of the GEMM in Gemm.c and runs it;
 * depthwise convolution, and plain convolution of small planes, have direct
 * kernels here. Work is spread over the current session's thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "Kernels.h"

#include <math.h>
#include <pthread.h>
#include <string.h>
#include <stdlib.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum {
  FlagRelu = 1, // matmuls: max(., 0); convolutions: clamp to [lo, hi]
  FlagConstFirst = 2,
  FlagConstSecond = 4,
  FlagBias = 8,
  FlagResidual = 16,
  FlagHardSwish = 32
};

/// Offset tables live in one allocation; a failed allocation leaves the
/// result untouched, which the models cannot report (nor can they survive
/// it elsewhere: every lowered op allocates).
static int64_t *allocOffsets(int64_t count) {
  return malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
}

#define ONNXC_FILL_STRIDED(NAME, ATTR)                                         \
  ATTR static void NAME(int64_t *table, int64_t n, int64_t stride) {           \
    for (int64_t i = 0; i < n; ++i)                                            \
      table[i] = i * stride;                                                   \
  }
ONNXC_FILL_STRIDED(fillStridedPortable, )
#if defined(__x86_64__)
// In AVX2 vectors: a small matmul (a recurrent step) spends a noticeable
// part of its call filling over a thousand entries.
ONNXC_FILL_STRIDED(fillStridedAvx2, __attribute__((target("avx2"))))
#endif

static void fillStrided(int64_t *table, int64_t n, int64_t stride) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) {
    fillStridedAvx2(table, n, stride);
    return;
  }
#endif
  fillStridedPortable(table, n, stride);
}

/// The GEMM of strided matrices (row and column strides), its offset tables
/// in `t` (2 (m + k + n) values); the flags' clamp is max(., 0).
static OnnxcGemm stridedGemm(int64_t *t, int64_t m, int64_t n, int64_t k,
                             const float *a, int64_t aRows, int64_t aCols,
                             const float *b, int64_t bRows, int64_t bCols,
                             float *c, int64_t cRows, int64_t cCols,
                             int64_t flags) {
  int64_t *aRow = t, *aCol = aRow + m, *bRow = aCol + k, *bCol = bRow + k,
          *cRow = bCol + n, *cCol = cRow + m;
  fillStrided(aRow, m, aRows);
  fillStrided(aCol, k, aCols);
  fillStrided(bRow, k, bRows);
  fillStrided(bCol, n, bCols);
  fillStrided(cRow, m, cRows);
  fillStrided(cCol, n, cCols);
  return (OnnxcGemm){.m = m,
                     .n = n,
                     .k = k,
                     .a = a,
                     .aRow = aRow,
                     .aCol = aCol,
                     .b = b,
                     .bRow = bRow,
                     .bCol = bCol,
                     .c = c,
                     .cRow = cRow,
                     .cCol = cCol,
                     .clamp = (flags & FlagRelu) != 0,
                     .lo = 0.0f,
                     .hi = INFINITY,
                     .constA = (flags & FlagConstFirst) != 0,
                     .constB = (flags & FlagConstSecond) != 0,
                     .strided = 1};
}

void onnxc_kernel_matmul_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF2(b),
                             ONNXC_MEMREF2(c), int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)cSize0,
      (void)cSize1;
  int64_t m = aSize0, k = aSize1, n = bSize1;
  // Small products (a recurrent op's steps) keep their tables on the stack.
  int64_t small[2048];
  int64_t count = 2 * m + 2 * k + 2 * n;
  int64_t *t = count <= 2048 ? small : allocOffsets(count);
  if (!t)
    return;
  OnnxcGemm g =
      stridedGemm(t, m, n, k, a + aOff, aStride0, aStride1, b + bOff, bStride0,
                  bStride1, c + cOff, cStride0, cStride1, flags);
  onnxcGemm(&g);
  if (t != small)
    free(t);
}

void onnxc_kernel_matmul_packed_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF1(b),
                                    ONNXC_MEMREF2(c), int64_t n, int64_t nr,
                                    int64_t kcBlock, int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)bStride0,
      (void)cSize0, (void)cSize1;
  int64_t m = aSize0, k = aSize1;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  OnnxcGemm g = stridedGemm(t, m, n, k, a + aOff, aStride0, aStride1, NULL, 0,
                            0, c + cOff, cStride0, cStride1, flags);
  g.constB = 0;
  onnxcGemmPacked(&g, b + bOff, (int)nr, kcBlock);
  free(t);
}

typedef struct {
  OnnxcGemm g;
  int64_t aBatch, bBatch, cBatch;
} BatchGemm;

static void runBatches(void *ctx, int64_t begin, int64_t end) {
  const BatchGemm *batch = ctx;
  for (int64_t i = begin; i < end; ++i) {
    OnnxcGemm g = batch->g;
    g.a += i * batch->aBatch;
    g.b += i * batch->bBatch;
    g.c += i * batch->cBatch;
    onnxcGemm(&g);
  }
}

void onnxc_kernel_batch_matmul_f32(ONNXC_MEMREF3(a), ONNXC_MEMREF3(b),
                                   ONNXC_MEMREF3(c), int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)bSize1,
      (void)cSize0, (void)cSize1, (void)cSize2;
  int64_t batches = aSize0, m = aSize1, k = aSize2, n = bSize2;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  // Each batch reads other matrices, so none is kept packed.
  BatchGemm batch = {stridedGemm(t, m, n, k, a + aOff, aStride1, aStride2,
                                 b + bOff, bStride1, bStride2, c + cOff,
                                 cStride1, cStride2, flags & FlagRelu),
                     aStride0, bStride0, cStride0};
  // Small products: one per thread; large ones: each over the whole pool.
  if ((double)m * (double)n * (double)k < 1e6)
    onnxc_parallel_for(onnxc_current_threadpool(), batches, runBatches, &batch);
  else
    runBatches(&batch, 0, batches);
  free(t);
}

/// fn over the planes [0, planes) on the session's thread pool, or serially
/// when the `work` (in elements or multiply-adds) is too small to share.
static void runPlanes(onnxc_range_fn fn, void *ctx, int64_t planes,
                      double work) {
  if (work < 1e5)
    fn(ctx, 0, planes);
  else
    onnxc_parallel_for(onnxc_current_threadpool(), planes, fn, ctx);
}

/// The GEMM of one image's convolution (of one group's slice of it): A the
/// filters [F, C * kH * kW], B the implicit im2col matrix [C * kH * kW,
/// OH * OW], C the output [F, OH * OW]; or, where fewer pixels (or filters)
/// pad the micro-tiles less that way, C' = [OH * OW, F] = im2col' filters',
/// the filters along the vectors. The offset tables in `t` (2 (m + k + n)
/// values) hold for every image and group; cachedConvGemm sets the
/// epilogue, runConvGemm the operands.
typedef struct {
  OnnxcGemm g;
  int transposed;
} ConvGemm;

/// Strides: `xs` of the input's (channel, row, column), `ws` of the
/// filters' (filter, channel, row, column), `ys` of the output's (filter,
/// row, column).
static ConvGemm convGemm(int64_t *t, int64_t filters, int64_t channels,
                         int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                         const int64_t xs[3], const int64_t ws[4],
                         const int64_t ys[3], int64_t strideH, int64_t strideW,
                         int64_t dilationH, int64_t dilationW) {
  int64_t m = filters, k = channels * kh * kw, n = oh * ow;
  int64_t *aRow = t, *aCol = aRow + m, *bRow = aCol + k, *bCol = bRow + k,
          *cRow = bCol + n, *cCol = cRow + m;
  fillStrided(aRow, m, ws[0]);
  fillStrided(cRow, m, ys[0]);
  for (int64_t c = 0, p = 0; c < channels; ++c)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j, ++p) {
        aCol[p] = c * ws[1] + i * ws[2] + j * ws[3];
        bRow[p] = c * xs[0] + i * dilationH * xs[1] + j * dilationW * xs[2];
      }
  for (int64_t i = 0, q = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j, ++q) {
      bCol[q] = i * strideH * xs[1] + j * strideW * xs[2];
      cCol[q] = i * ys[1] + j * ys[2];
    }
  OnnxcGemm g = {.m = m,
                 .n = n,
                 .k = k,
                 .aRow = aRow,
                 .aCol = aCol,
                 .bRow = bRow,
                 .bCol = bCol,
                 .cRow = cRow,
                 .cCol = cCol};
  // Strided tables (a 1x1 convolution over whole rows) spare the GEMM its
  // checks of them at every block (made once here: the tables are kept).
  g.strided =
      onnxcRegularStep(aRow, m) >= 0 && onnxcRegularStep(aCol, k) >= 0 &&
      onnxcRegularStep(bRow, k) >= 0 && onnxcRegularStep(bCol, n) >= 0 &&
      onnxcRegularStep(cRow, m) >= 0 && onnxcRegularStep(cCol, n) >= 0;
  if (!onnxcGemmPrefersTransposed(m, n))
    return (ConvGemm){g, 0};
  OnnxcGemm gt = g;
  gt.m = n;
  gt.n = m;
  gt.aRow = bCol;
  gt.aCol = bRow;
  gt.bRow = aCol;
  gt.bCol = aRow;
  gt.cRow = cCol;
  gt.cCol = cRow;
  gt.biasColumns = 1;
  return (ConvGemm){gt, 1};
}

/// convGemm's tables for one geometry, kept for the process like packed
/// weights: a model runs each convolution with the same shapes every time,
/// and making the tables again cost about 1 us a call (1.5% of
/// mobilenet_v3). `t` follows the entry.
typedef struct ConvTables {
  struct ConvTables *next;
  int64_t key[20];
  ConvGemm cg;
} ConvTables;

enum { ConvTableBuckets = 256 };
static pthread_mutex_t convTablesMutex = PTHREAD_MUTEX_INITIALIZER;
static ConvTables *convTables[ConvTableBuckets];

/// Sets `out` to convGemm of the geometry, its tables made once, with the
/// epilogue of `flags` (clamp to [lo, hi], HardSwish) and its filters
/// constant or not; 0 when memory runs out.
static int cachedConvGemm(ConvGemm *out, int64_t filters, int64_t channels,
                          int64_t kh, int64_t kw, int64_t oh, int64_t ow,
                          const int64_t xs[3], const int64_t ws[4],
                          const int64_t ys[3], int64_t strideH,
                          int64_t strideW, int64_t dilationH,
                          int64_t dilationW, int64_t flags, float lo,
                          float hi) {
  int64_t key[20] = {filters, channels, kh,    kw,    oh,      ow,
                     xs[0],   xs[1],    xs[2], ws[0], ws[1],   ws[2],
                     ws[3],   ys[0],    ys[1], ys[2], strideH, strideW,
                     dilationH, dilationW};
  uint64_t hash = 1469598103934665603ull; // FNV-1a over the key's values
  for (int i = 0; i < 20; ++i)
    hash = (hash ^ (uint64_t)key[i]) * 1099511628211ull;
  ConvTables **bucket = &convTables[hash % ConvTableBuckets];
  pthread_mutex_lock(&convTablesMutex);
  ConvTables *e = *bucket;
  while (e && memcmp(e->key, key, sizeof(key)) != 0)
    e = e->next;
  if (!e) {
    int64_t count = 2 * (filters + channels * kh * kw + oh * ow);
    e = malloc(sizeof(ConvTables) +
               sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
    if (e) {
      memcpy(e->key, key, sizeof(key));
      e->cg = convGemm((int64_t *)(e + 1), filters, channels, kh, kw, oh, ow,
                       xs, ws, ys, strideH, strideW, dilationH, dilationW);
      e->next = *bucket;
      *bucket = e;
    }
  }
  pthread_mutex_unlock(&convTablesMutex);
  if (!e)
    return 0;
  *out = e->cg;
  out->g.clamp = (flags & FlagRelu) != 0;
  out->g.lo = lo;
  out->g.hi = hi;
  out->g.hardSwish = (flags & FlagHardSwish) != 0;
  int constW = (flags & FlagConstSecond) != 0;
  if (out->transposed)
    out->g.constB = constW;
  else
    out->g.constA = constW;
  return 1;
}

/// Runs `cg` on filters `w`, input `x` and output `y`, with the `bias` and
/// `res` of the flags (NULL when absent).
static void runConvGemm(const ConvGemm *cg, const float *w, const float *x,
                        float *y, const float *bias, const float *res) {
  OnnxcGemm g = cg->g;
  g.a = cg->transposed ? x : w;
  g.b = cg->transposed ? w : x;
  g.c = y;
  g.bias = bias;
  g.res = res;
  onnxcGemm(&g);
}

/// Runs the convolution on its input's grid (onnxcConvGrid) when that
/// fits: a window of more than one tap, unit column strides and output rows
/// one after the other, and little computed for nothing (at most a tenth):
/// at stride 1 the grid's dropped columns (3x3 windows over rows of 28 and
/// more), or at stride 1 or 2 the padding of each output row's last sliver
/// of 14 (rows of 14, 28, 56, 112 pixels: none). Strides as in
/// onnxc_kernel_conv2d_nchw_fchw_f32 (image, channel, row, column); returns
/// 0 when it did nothing.
static int convOnGrid(const float *x, const float *w, float *y,
                      const float *bias, const float *res, int64_t images,
                      int64_t filters, int64_t channels, int64_t kh,
                      int64_t kw, int64_t oh, int64_t ow, const int64_t xs[4],
                      const int64_t ws[4], const int64_t ys[4],
                      int64_t strideH, int64_t strideW, int64_t dilationH,
                      int64_t dilationW, int64_t flags, float lo, float hi) {
  // What each form computes for nothing: the grid's columns past the
  // output's width (stride 1 only), or the lanes that pad each output row's
  // last sliver of 14 (row slivers, stride 1 or 2); the lesser is taken.
  int64_t rowStride = xs[2], rowLanes = (ow + 13) / 14 * 14;
  double gridWaste = strideH == 1 && strideW == 1
                         ? (double)(rowStride - ow) / (double)rowStride
                         : 1.0;
  double rowWaste = strideH == strideW && (strideH == 1 || strideH == 2)
                        ? (double)(rowLanes - ow) / (double)rowLanes
                        : 1.0;
  int rowSlivers = rowWaste < gridWaste;
  if (kh * kw == 1 || xs[3] != 1 || ys[3] != 1 || ys[2] != ow ||
      (rowSlivers ? rowWaste : gridWaste) > 0.1)
    return 0;
  int64_t k = channels * kh * kw;
  int64_t *t = allocOffsets(2 * k + filters);
  if (!t)
    return 0;
  int64_t *aCol = t, *bRow = t + k, *bCol = t + 2 * k;
  for (int64_t c = 0, p = 0; c < channels; ++c)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j, ++p) {
        aCol[p] = c * xs[1] + i * dilationH * rowStride + j * dilationW;
        bRow[p] = c * ws[1] + i * ws[2] + j * ws[3];
      }
  fillStrided(bCol, filters, ws[0]);
  OnnxcConvGrid g = {.images = images,
                     .xImageStride = xs[0],
                     .cImageStride = ys[0],
                     .x = x,
                     .aCol = aCol,
                     .k = k,
                     .oh = oh,
                     .ow = ow,
                     .xRowStride = rowStride,
                     .w = w,
                     .bRow = bRow,
                     .bCol = bCol,
                     .n = filters,
                     .c = y,
                     .cFilterStride = ys[1],
                     .bias = bias,
                     .res = res,
                     .clamp = (flags & FlagRelu) != 0,
                     .hardSwish = (flags & FlagHardSwish) != 0,
                     .constW = (flags & FlagConstSecond) != 0,
                     .lo = lo,
                     .hi = hi,
                     .rowSlivers = rowSlivers,
                     .stride = strideH};
  int done = onnxcConvGrid(&g);
  free(t);
  return done;
}

typedef struct {
  ConvGemm cg;
  const float *x, *w, *bias, *res;
  float *y;
  int64_t groups, filters; // per group
  int64_t xStride[2], wStride, yStride[2], resStride[2];
} GroupedConv;

/// The (image, group) pairs [begin, end) of a grouped convolution.
static void runGroups(void *ctx, int64_t begin, int64_t end) {
  const GroupedConv *c = ctx;
  for (int64_t task = begin; task < end; ++task) {
    int64_t b = task / c->groups, g = task % c->groups;
    runConvGemm(&c->cg, c->w + g * c->wStride,
                c->x + b * c->xStride[0] + g * c->xStride[1],
                c->y + b * c->yStride[0] + g * c->yStride[1],
                c->bias ? c->bias + g * c->filters : NULL,
                c->res ? c->res + b * c->resStride[0] + g * c->resStride[1]
                       : NULL);
  }
}

void onnxc_kernel_conv2d_nchw_fchw_f32(ONNXC_MEMREF4(x), ONNXC_MEMREF4(w),
                                       ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
                                       ONNXC_MEMREF4(res), int64_t strideH,
                                       int64_t strideW, int64_t dilationH,
                                       int64_t dilationW, int64_t flags,
                                       float lo, float hi) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)xSize1,
      (void)wSize1, (void)ySize1, (void)biasAlloc, (void)biasSize0,
      (void)resAlloc, (void)resSize0, (void)resSize1, (void)resSize2,
      (void)resSize3, (void)resStride1, (void)resStride2, (void)resStride3;
  // The bias is read with unit stride (the pass passes a contiguous one);
  // the residual shares the output's strides.
  (void)biasStride0;
  int64_t filters = wSize0, channels = wSize1, kh = wSize2, kw = wSize3;
  if (kh == 3 && kw == 3 && strideH == 1 && strideW == 1 && dilationH == 1 &&
      dilationW == 1 && xStride3 == 1 && yStride3 == 1 &&
      (flags & FlagConstSecond)) {
    OnnxcWinograd wc = {
        .images = ySize0,
        .filters = filters,
        .channels = channels,
        .oh = ySize2,
        .ow = ySize3,
        .x = x + xOff,
        .xs = {xStride0, xStride1, xStride2},
        .xh = xSize2,
        .xw = xSize3,
        .w = w + wOff,
        .ws = {wStride0, wStride1, wStride2, wStride3},
        .y = y + yOff,
        .ys = {yStride0, yStride1, yStride2},
        .bias = flags & FlagBias ? bias + biasOff : NULL,
        .res = flags & FlagResidual ? res + resOff : NULL,
        .resImageStride = resStride0,
        .clamp = (flags & FlagRelu) != 0,
        .hardSwish = (flags & FlagHardSwish) != 0,
        .lo = lo,
        .hi = hi};
    if (onnxcConvWinograd(&wc))
      return;
  }
  if (convOnGrid(x + xOff, w + wOff, y + yOff,
                 flags & FlagBias ? bias + biasOff : NULL,
                 flags & FlagResidual ? res + resOff : NULL, ySize0, filters,
                 channels, kh, kw, ySize2, ySize3,
                 (int64_t[4]){xStride0, xStride1, xStride2, xStride3},
                 (int64_t[4]){wStride0, wStride1, wStride2, wStride3},
                 (int64_t[4]){yStride0, yStride1, yStride2, yStride3},
                 strideH, strideW, dilationH, dilationW, flags, lo, hi))
    return;
  // One group: each task an image.
  GroupedConv c = {.x = x + xOff,
                   .w = w + wOff,
                   .bias = flags & FlagBias ? bias + biasOff : NULL,
                   .res = flags & FlagResidual ? res + resOff : NULL,
                   .y = y + yOff,
                   .groups = 1,
                   .filters = filters,
                   .xStride = {xStride0, 0},
                   .yStride = {yStride0, 0},
                   .resStride = {resStride0, 0}};
  if (!cachedConvGemm(&c.cg, filters, channels, kh, kw, ySize2, ySize3,
                      (int64_t[3]){xStride1, xStride2, xStride3},
                      (int64_t[4]){wStride0, wStride1, wStride2, wStride3},
                      (int64_t[3]){yStride1, yStride2, yStride3}, strideH,
                      strideW, dilationH, dilationW, flags, lo, hi))
    return;
  // Images whose GEMMs are each too small to share (a batch of small
  // images) are shared out instead; larger ones one after the other, each
  // GEMM over the whole pool.
  double work = (double)filters * (double)(channels * kh * kw) *
                (double)(ySize2 * ySize3);
  if (ySize0 > 1 && work < 1e6)
    runPlanes(runGroups, &c, ySize0, work * (double)ySize0);
  else
    runGroups(&c, 0, ySize0);
}

#if defined(__x86_64__)
/// A grouped convolution computed directly, for groups of few filters
/// (ResNeXt's 4 .. 32) whose GEMMs would mostly compute the padding of the
/// micro-tiles: each output row in chunks of 16 columns, four chunks (of
/// one or more rows) times four filters of a group in registers, every tap
/// a load (two and a permute at stride 2) and broadcast weights read in
/// place. `tapIn` and `tapW` hold each tap's offset in the input and in a
/// filter.
typedef struct {
  const float *x, *w, *bias, *res;
  float *y;
  int64_t groups, filters, channels, kh, kw, oh, ow;
  int64_t xStride[5], wStride[5], yStride[5], resStride[2];
  int64_t strideH, strideW;
  int clamp;
  float lo, hi;
  const int64_t *tapIn, *tapW;
} DirectConv;

enum { DirectSlots = 4, DirectFilters = 4 };

/// Image `b`, group `g` of `d`.
__attribute__((target("avx512f,fma"))) static void
directConvGroup(const DirectConv *d, int64_t b, int64_t g) {
  const __m512i even = ONNXC_EVEN_LANES;
  const float *x = d->x + b * d->xStride[0] + g * d->xStride[1];
  const float *w = d->w + g * d->wStride[0];
  float *y = d->y + b * d->yStride[0] + g * d->yStride[1];
  const float *res =
      d->res ? d->res + b * d->resStride[0] + g * d->resStride[1] : NULL;
  const float *bias = d->bias ? d->bias + g * d->filters : NULL;
  int64_t chunks = (d->ow + 15) / 16, slots = d->oh * chunks;
  int64_t taps = d->channels * d->kh * d->kw, sw = d->strideW;
  int64_t ws = d->wStride[1], ys = d->yStride[2];
  __m512 lo = _mm512_set1_ps(d->lo), hi = _mm512_set1_ps(d->hi);
  for (int64_t s0 = 0; s0 < slots; s0 += DirectSlots) {
    // Slot q: row i, columns [j, j + n) (none past the last slot: it then
    // reads and stores nothing).
    const float *in[DirectSlots];
    int64_t out[DirectSlots];
    __mmask16 m0[DirectSlots], m1[DirectSlots], store[DirectSlots];
    for (int q = 0; q < DirectSlots; ++q) {
      int64_t s = s0 + q < slots ? s0 + q : s0;
      int64_t i = s / chunks, j = s % chunks * 16;
      int64_t n = s0 + q < slots ? (d->ow - j < 16 ? d->ow - j : 16) : 0;
      int64_t span = n ? (n - 1) * sw + 1 : 0;
      in[q] = x + i * d->strideH * d->xStride[3] + j * sw;
      out[q] = i * d->yStride[3] + j;
      store[q] = (__mmask16)((1u << n) - 1);
      m0[q] = (__mmask16)(span >= 16 ? 0xffff : (1u << span) - 1);
      m1[q] = (__mmask16)(span <= 16 ? 0 : (1u << (span - 16)) - 1);
    }
    for (int64_t f0 = 0; f0 < d->filters; f0 += DirectFilters) {
      __m512 acc[DirectFilters][DirectSlots];
      for (int f = 0; f < DirectFilters; ++f)
        for (int q = 0; q < DirectSlots; ++q)
          acc[f][q] = bias ? _mm512_set1_ps(bias[f0 + f])
                           : _mm512_maskz_loadu_ps(store[q],
                                                   y + (f0 + f) * ys + out[q]);
      const float *wf = w + f0 * ws;
      for (int64_t t = 0; t < taps; ++t) {
        __m512 xv[DirectSlots];
        for (int q = 0; q < DirectSlots; ++q) {
          const float *at = in[q] + d->tapIn[t];
          xv[q] = _mm512_maskz_loadu_ps(m0[q], at);
          if (sw == 2)
            xv[q] = _mm512_permutex2var_ps(
                xv[q], even, _mm512_maskz_loadu_ps(m1[q], at + 16));
        }
        const float *wt = wf + d->tapW[t];
        for (int f = 0; f < DirectFilters; ++f) {
          __m512 wv = _mm512_set1_ps(wt[f * ws]);
          for (int q = 0; q < DirectSlots; ++q)
            acc[f][q] = _mm512_fmadd_ps(wv, xv[q], acc[f][q]);
        }
      }
      for (int f = 0; f < DirectFilters; ++f)
        for (int q = 0; q < DirectSlots; ++q) {
          int64_t at = (f0 + f) * ys + out[q];
          __m512 v = acc[f][q];
          if (res)
            v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(store[q], res + at));
          if (d->clamp)
            v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
          _mm512_mask_storeu_ps(y + at, store[q], v);
        }
    }
  }
}

static void runDirectGroups(void *ctx, int64_t begin, int64_t end) {
  const DirectConv *d = ctx;
  for (int64_t task = begin; task < end; ++task)
    directConvGroup(d, task / d->groups, task % d->groups);
}

/// True when the direct kernel suits `d`: AVX-512, filters in fours, unit
/// column strides, a window column stride of 1 or 2, and rows of at least
/// 12 outputs (narrower ones leave most of each vector idle: their GEMM,
/// pixels x filters, pads less).
static int prefersDirectConv(const DirectConv *d, int64_t xColumnStride,
                             int64_t yColumnStride) {
  return __builtin_cpu_supports("avx512f") && d->filters % 4 == 0 &&
         d->filters <= 64 && xColumnStride == 1 && yColumnStride == 1 &&
         (d->strideW == 1 || d->strideW == 2) && d->ow >= 12;
}
#endif

void onnxc_kernel_conv2d_ngchw_gfchw_f32(ONNXC_MEMREF5(x), ONNXC_MEMREF5(w),
                                         ONNXC_MEMREF5(y), ONNXC_MEMREF1(bias),
                                         ONNXC_MEMREF5(res), int64_t strideH,
                                         int64_t strideW, int64_t dilationH,
                                         int64_t dilationW, int64_t flags,
                                         float lo, float hi) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)xSize1,
      (void)xSize2, (void)xSize3, (void)xSize4, (void)wSize2, (void)ySize1,
      (void)ySize2, (void)biasAlloc, (void)biasSize0, (void)biasStride0,
      (void)resAlloc, (void)resSize0, (void)resSize1, (void)resSize2,
      (void)resSize3, (void)resSize4, (void)resStride2, (void)resStride3,
      (void)resStride4;
  int64_t groups = wSize0, filters = wSize1, channels = wSize2;
  int64_t kh = wSize3, kw = wSize4, n = ySize3 * ySize4;
  int64_t tasks = ySize0 * groups;
  double work = (double)filters * (double)(channels * kh * kw) * (double)n;
#if defined(__x86_64__)
  DirectConv d = {.x = x + xOff,
                  .w = w + wOff,
                  .bias = flags & FlagBias ? bias + biasOff : NULL,
                  .res = flags & FlagResidual ? res + resOff : NULL,
                  .y = y + yOff,
                  .groups = groups,
                  .filters = filters,
                  .channels = channels,
                  .kh = kh,
                  .kw = kw,
                  .oh = ySize3,
                  .ow = ySize4,
                  .xStride = {xStride0, xStride1, xStride2, xStride3, xStride4},
                  .wStride = {wStride0, wStride1, wStride2, wStride3, wStride4},
                  .yStride = {yStride0, yStride1, yStride2, yStride3, yStride4},
                  .resStride = {resStride0, resStride1},
                  .strideH = strideH,
                  .strideW = strideW,
                  .clamp = (flags & FlagRelu) != 0,
                  .lo = lo,
                  .hi = hi};
  // (The direct kernel has no HardSwish: with it, the GEMM path.)
  if (n > 0 && !(flags & FlagHardSwish) &&
      prefersDirectConv(&d, xStride4, yStride4)) {
    int64_t taps = channels * kh * kw;
    int64_t *tap = allocOffsets(2 * taps);
    if (!tap)
      return;
    for (int64_t c = 0, p = 0; c < channels; ++c)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j, ++p) {
          tap[p] = c * xStride2 + i * dilationH * xStride3 + j * dilationW;
          tap[taps + p] = c * wStride2 + i * wStride3 + j * wStride4;
        }
    d.tapIn = tap;
    d.tapW = tap + taps;
    runPlanes(runDirectGroups, &d, tasks, work * (double)tasks);
    free(tap);
    return;
  }
#endif
  GroupedConv c = {.x = x + xOff,
                   .w = w + wOff,
                   .bias = flags & FlagBias ? bias + biasOff : NULL,
                   .res = flags & FlagResidual ? res + resOff : NULL,
                   .y = y + yOff,
                   .groups = groups,
                   .filters = filters,
                   .xStride = {xStride0, xStride1},
                   .wStride = wStride0,
                   .yStride = {yStride0, yStride1},
                   .resStride = {resStride0, resStride1}};
  if (!cachedConvGemm(&c.cg, filters, channels, kh, kw, ySize3, ySize4,
                      (int64_t[3]){xStride2, xStride3, xStride4},
                      (int64_t[4]){wStride1, wStride2, wStride3, wStride4},
                      (int64_t[3]){yStride2, yStride3, yStride4}, strideH,
                      strideW, dilationH, dilationW, flags, lo, hi))
    return;
  // One task per (image, group) when they share the pool evenly or are each
  // too small for the GEMM to split (it runs nested tasks serially);
  // otherwise one after the other, each GEMM over the whole pool.
  int64_t threads = onnxc_threadpool_size(onnxc_current_threadpool());
  if (tasks % threads == 0 || tasks >= 4 * threads || work < 1e6)
    runPlanes(runGroups, &c, tasks, work * (double)tasks);
  else
    runGroups(&c, 0, tasks);
}

/// A depthwise convolution whose input is read as if padded: `top` rows
/// and `left` columns of zeros before its `height` x `width` pixels, and as
/// many after them as the output needs.
typedef struct {
  const float *x, *w, *bias, *res;
  float *y;
  int64_t channels, kh, kw, oh, ow, height, width, top, left;
  int64_t xStride[4], wStride[3], yStride[4];
  int64_t strideH, strideW, dilationH, dilationW;
  int clamp, hardSwish;
  float lo, hi, alpha, beta;
} Depthwise;

/// True when every window lies inside the input (no padding is read).
static int windowsInside(const Depthwise *d) {
  return d->top == 0 && d->left == 0 &&
         (d->oh - 1) * d->strideH + (d->kh - 1) * d->dilationH < d->height &&
         (d->ow - 1) * d->strideW + (d->kw - 1) * d->dilationW < d->width;
}

/// The first index i >= 0 with `start + i * step >= 0`, and one past the
/// last (at most `count`) with `start + i * step < limit`: the outputs whose
/// tap at `start` (for output 0) reads inside [0, limit).
static void validRange(int64_t start, int64_t step, int64_t limit,
                       int64_t count, int64_t *first, int64_t *last) {
  int64_t lo = start >= 0 ? 0 : (-start + step - 1) / step;
  int64_t hi = limit - start <= 0 ? 0 : (limit - start + step - 1) / step;
  *first = lo < count ? lo : count;
  *last = hi < count ? hi : count;
  if (*last < *first)
    *last = *first;
}

/// out[0, n) (unit stride `ys` 1 or not) after its sums are in: + res, the
/// clamp, then HardSwish.
static void finishDepthwiseRow(const Depthwise *d, float *out, const float *res,
                               int64_t ys) {
  // (Scalars in locals: the stores to out could alias *d, and the loop
  // would reload them every element instead of vectorizing.)
  const float lo = d->lo, hi = d->hi, alpha = d->alpha, beta = d->beta;
  const int clamp = d->clamp, hardSwish = d->hardSwish;
  const int64_t ow = d->ow;
  for (int64_t j = 0; j < ow; ++j) {
    float v = out[j * ys];
    if (res)
      v += res[j * ys];
    if (clamp)
      v = v < lo ? lo : v > hi ? hi : v;
    if (hardSwish) {
      float gate = v * alpha + beta;
      v *= gate < 0.0f ? 0.0f : gate > 1.0f ? 1.0f : gate;
    }
    out[j * ys] = v;
  }
}

/// The planes of one (image, channel) each in [begin, end), compiled once
/// per vector ISA (ATTR) so that the unit-stride row loops vectorize. Each
/// tap adds to the outputs whose input it reads inside the image (the
/// padding adds nothing).
#define ONNXC_DEPTHWISE_PLANES(NAME, ATTR)                                     \
  ATTR static void NAME(const Depthwise *d, int64_t begin, int64_t end,        \
                        float *wide) {                                         \
    for (int64_t plane = begin; plane < end; ++plane) {                        \
      int64_t b = plane / d->channels, c = plane % d->channels;                \
      const float *x = d->x + b * d->xStride[0] + c * d->xStride[1];           \
      const float *w = d->w + c * d->wStride[0];                               \
      int64_t yAt = b * d->yStride[0] + c * d->yStride[1];                     \
      float *y = d->y + yAt;                                                   \
      const float *res = d->res ? d->res + yAt : NULL;                         \
      int64_t sw = d->strideW, xs = d->xStride[3], ys = d->yStride[3];         \
      if (d->bias)                                                             \
        for (int64_t i = 0; i < d->oh; ++i)                                    \
          for (int64_t j = 0; j < d->ow; ++j)                                  \
            y[i * d->yStride[2] + j * ys] = d->bias[c];                        \
      if (wide) {                                                              \
        /* Unit strides: rows of the input's full width, so that each tap      \
         * is one long loop over the plane; the valid columns are kept. */     \
        int64_t width = d->xStride[2], length = (d->oh - 1) * width + d->ow;   \
        for (int64_t j = 0; j < length; ++j)                                   \
          wide[j] = 0.0f;                                                      \
        for (int64_t u = 0; u < d->kh; ++u)                                    \
          for (int64_t v = 0; v < d->kw; ++v) {                                \
            float weight = w[u * d->wStride[1] + v * d->wStride[2]];           \
            const float *in = x + u * d->dilationH * width + v * d->dilationW; \
            for (int64_t j = 0; j < length; ++j)                               \
              wide[j] += weight * in[j];                                       \
          }                                                                    \
        for (int64_t i = 0; i < d->oh; ++i) {                                  \
          float *out = y + i * d->yStride[2];                                  \
          const float *sum = wide + i * width;                                 \
          for (int64_t j = 0; j < d->ow; ++j)                                  \
            out[j] += sum[j];                                                  \
          finishDepthwiseRow(d, out, res ? res + i * d->yStride[2] : NULL, 1); \
        }                                                                      \
        continue;                                                              \
      }                                                                        \
      for (int64_t i = 0; i < d->oh; ++i) {                                    \
        float *out = y + i * d->yStride[2];                                    \
        for (int64_t u = 0; u < d->kh; ++u) {                                  \
          int64_t r = i * d->strideH + u * d->dilationH - d->top;              \
          if (r < 0 || r >= d->height)                                         \
            continue;                                                          \
          for (int64_t v = 0; v < d->kw; ++v) {                                \
            float weight = w[u * d->wStride[1] + v * d->wStride[2]];           \
            int64_t first, last, at = v * d->dilationW - d->left;              \
            validRange(at, sw, d->width, d->ow, &first, &last);                \
            const float *in = x + r * d->xStride[2] + (at + first * sw) * xs;  \
            float *o = out + first * ys;                                       \
            if (sw * xs == 1 && ys == 1) {                                     \
              for (int64_t j = 0; j < last - first; ++j)                       \
                o[j] += weight * in[j];                                        \
            } else {                                                           \
              for (int64_t j = 0; j < last - first; ++j)                       \
                o[j * ys] += weight * in[j * sw * xs];                         \
            }                                                                  \
          }                                                                    \
        }                                                                      \
        finishDepthwiseRow(d, out, res ? res + i * d->yStride[2] : NULL, ys);  \
      }                                                                        \
    }                                                                          \
  }

ONNXC_DEPTHWISE_PLANES(depthwisePlanes, )
#if defined(__x86_64__)
ONNXC_DEPTHWISE_PLANES(depthwisePlanesAvx2, __attribute__((target("avx2,fma"))))

#define ONNXC_AVX512_DW __attribute__((target("avx512f,fma")))
enum { DepthwiseMaxTaps = 64, DepthwiseMaxChunks = 64 };

/// What the AVX-512 depthwise kernel shares over all planes: for each
/// output row, its first and last valid tap row; for each chunk of 16
/// output columns and tap column, the lanes (stride 1) or the loaded
/// elements (stride 2: two vectors of 16) that lie inside the image.
typedef struct {
  int64_t chunks;
  int64_t *rowFirst, *rowLast;
  __mmask16 mask[DepthwiseMaxChunks][16][2];
} DepthwiseMasks;

/// The epilogue of one vector of sums `acc` of the output at `out` (the
/// lanes `store`): + the residual at `res` (when not NULL), the clamp, then
/// HardSwish.
ONNXC_AVX512_DW static inline void finishDepthwiseAvx512(const Depthwise *d,
                                                         __m512 acc,
                                                         const float *res,
                                                         float *out,
                                                         __mmask16 store) {
  if (res)
    acc = _mm512_add_ps(acc, _mm512_maskz_loadu_ps(store, res));
  if (d->clamp)
    acc = _mm512_min_ps(_mm512_max_ps(acc, _mm512_set1_ps(d->lo)),
                        _mm512_set1_ps(d->hi));
  if (d->hardSwish) {
    __m512 gate =
        _mm512_fmadd_ps(acc, _mm512_set1_ps(d->alpha), _mm512_set1_ps(d->beta));
    gate = _mm512_min_ps(_mm512_max_ps(gate, _mm512_setzero_ps()),
                         _mm512_set1_ps(1.0f));
    acc = _mm512_mul_ps(acc, gate);
  }
  _mm512_mask_storeu_ps(out, store, acc);
}

/// The input of plane `plane` (an image's channel) of `d`.
static const float *planeInput(const Depthwise *d, int64_t plane) {
  return d->x + plane / d->channels * d->xStride[0] +
         plane % d->channels * d->xStride[1];
}

/// Plane `plane` (an image's channel) of `d`: its input `x`, the offset
/// `yAt` of its output, its weights broadcast (one vector per tap, row by
/// row) and the vector its sums start from (the bias, or zeros).
ONNXC_AVX512_DW static inline void
startDepthwisePlane(const Depthwise *d, int64_t plane, const float **x,
                    int64_t *yAt, __m512 *weight, __m512 *init) {
  int64_t b = plane / d->channels, c = plane % d->channels;
  const float *w = d->w + c * d->wStride[0];
  *x = planeInput(d, plane);
  *yAt = b * d->yStride[0] + c * d->yStride[1];
  for (int64_t u = 0, t = 0; u < d->kh; ++u)
    for (int64_t v = 0; v < d->kw; ++v, ++t)
      weight[t] = _mm512_set1_ps(w[u * d->wStride[1] + v * d->wStride[2]]);
  *init = _mm512_set1_ps(d->bias ? d->bias[c] : 0.0f);
}

/// The sums of R output rows (at `in` + q * `rowStep`, q < R) of one chunk
/// of 16 columns over the tap rows [u0, u1), then the epilogue stored at
/// out + q * outStep. SW: the column stride, 1 or 2.
#define ONNXC_DEPTHWISE_ROWS(NAME, R, SW)                                      \
  ONNXC_AVX512_DW static inline void NAME(                                     \
      const Depthwise *d, const __m512 *weight, const int64_t *offset,         \
      const __mmask16(*mask)[2], __mmask16 store, const float *in,             \
      int64_t rowStep, int64_t u0, int64_t u1, float *out, int64_t outStep,    \
      const float *res, __m512 init) {                                         \
    const __m512i even = ONNXC_EVEN_LANES;                                     \
    __m512 acc[R];                                                             \
    for (int q = 0; q < R; ++q)                                                \
      acc[q] =                                                                 \
          d->bias ? init : _mm512_maskz_loadu_ps(store, out + q * outStep);    \
    for (int64_t u = u0; u < u1; ++u)                                          \
      for (int64_t v = 0; v < d->kw; ++v) {                                    \
        int64_t t = u * d->kw + v;                                             \
        __mmask16 m0 = mask[v][0];                                             \
        for (int q = 0; q < R; ++q) {                                          \
          const float *at = in + q * rowStep + offset[t];                      \
          __m512 x = _mm512_maskz_loadu_ps(m0, at);                            \
          if (SW == 2)                                                         \
            x = _mm512_permutex2var_ps(                                        \
                x, even, _mm512_maskz_loadu_ps(mask[v][1], at + 16));          \
          acc[q] = _mm512_fmadd_ps(weight[t], x, acc[q]);                      \
        }                                                                      \
      }                                                                        \
    for (int q = 0; q < R; ++q)                                                \
      finishDepthwiseAvx512(d, acc[q], res ? res + q * outStep : NULL,         \
                            out + q * outStep, store);                         \
  }

ONNXC_DEPTHWISE_ROWS(depthwiseRows8S1, 8, 1)
ONNXC_DEPTHWISE_ROWS(depthwiseRows4S1, 4, 1)
ONNXC_DEPTHWISE_ROWS(depthwiseRows1S1, 1, 1)
ONNXC_DEPTHWISE_ROWS(depthwiseRows8S2, 8, 2)
ONNXC_DEPTHWISE_ROWS(depthwiseRows4S2, 4, 2)
ONNXC_DEPTHWISE_ROWS(depthwiseRows1S2, 1, 2)

/// AVX-512, for unit column strides of input and output and a column stride
/// of the window of 1 or 2: each output row in chunks of 16 columns, eight
/// or four rows at a time where their windows lie inside the image
/// vertically, the sums in registers from the bias (or the output) to the
/// clamp. Taps that
/// read the padding load zeros (masked lanes are not read).
ONNXC_AVX512_DW static void depthwisePlanesAvx512(const Depthwise *d,
                                                  const DepthwiseMasks *dm,
                                                  int64_t begin, int64_t end) {
  int64_t sw = d->strideW, rowStep = d->strideH * d->xStride[2];
  int64_t offset[DepthwiseMaxTaps];
  for (int64_t u = 0, t = 0; u < d->kh; ++u)
    for (int64_t v = 0; v < d->kw; ++v, ++t)
      offset[t] = u * d->dilationH * d->xStride[2] + v * d->dilationW;
  for (int64_t plane = begin; plane < end; ++plane) {
    const float *x;
    int64_t yAt;
    __m512 weight[DepthwiseMaxTaps], init;
    startDepthwisePlane(d, plane, &x, &yAt, weight, &init);
    for (int64_t i = 0; i < d->oh;) {
      // Rows i .. i + 7 (or i + 3) at once when all read every tap row:
      // that many independent sums per tap.
      int rows = 1;
      for (int r = 8; r >= 4 && rows == 1; r /= 2)
        if (i + r <= d->oh && dm->rowFirst[i] == 0 &&
            dm->rowLast[i + r - 1] == d->kh)
          rows = r;
      int64_t u0 = dm->rowFirst[i], u1 = dm->rowLast[i];
      if (rows > 1)
        u1 = d->kh;
      for (int64_t chunk = 0; chunk < dm->chunks; ++chunk) {
        int64_t j = chunk * 16, n = d->ow - j < 16 ? d->ow - j : 16;
        __mmask16 store = (__mmask16)((1u << n) - 1);
        // The window of output (i, j) starts at input (i sh - top, j sw -
        // left): maybe before the image, where only masked lanes lie.
        const float *in =
            x + (i * d->strideH - d->top) * d->xStride[2] + j * sw - d->left;
        float *out = d->y + yAt + i * d->yStride[2] + j;
        const float *res = d->res ? d->res + yAt + i * d->yStride[2] + j : NULL;
        const __mmask16(*mask)[2] = dm->mask[chunk];
        if (rows == 8 && sw == 1)
          depthwiseRows8S1(d, weight, offset, mask, store, in, rowStep, u0, u1,
                           out, d->yStride[2], res, init);
        else if (rows == 8)
          depthwiseRows8S2(d, weight, offset, mask, store, in, rowStep, u0, u1,
                           out, d->yStride[2], res, init);
        else if (rows == 4 && sw == 1)
          depthwiseRows4S1(d, weight, offset, mask, store, in, rowStep, u0, u1,
                           out, d->yStride[2], res, init);
        else if (rows == 4)
          depthwiseRows4S2(d, weight, offset, mask, store, in, rowStep, u0, u1,
                           out, d->yStride[2], res, init);
        else if (sw == 1)
          depthwiseRows1S1(d, weight, offset, mask, store, in, rowStep, u0, u1,
                           out, d->yStride[2], res, init);
        else
          depthwiseRows1S2(d, weight, offset, mask, store, in, rowStep, u0, u1,
                           out, d->yStride[2], res, init);
      }
      i += rows;
    }
  }
}

/// The flat form of a depthwise convolution at stride 1 whose input and
/// output rows are contiguous and equally long: output pixel o (= row *
/// width + column) reads input pixel o + offset[t] at tap t, so a plane is
/// one long run of vectors of 16 pixels. mask[t * vectors + v]: the lanes of
/// vector v whose tap t lies inside the image (the others read zero); it
/// depends on the geometry only, and is kept for the process like packed
/// weights.
///
/// At stride 2 (without dilation, where the output covers the input: 2 oh
/// >= height, 2 ow >= width), the input plane is first split into its four
/// phases, the pixels of even or odd rows and even or odd columns, each an
/// oh x ow plane, one after the other in a buffer (`phases` 4; 1 at stride
/// 1). Input pixel (2 i + a, 2 j + b) is phase 2 a + b's pixel (i, j), so
/// output pixel (r, c) reads, at tap (u, v), phase pixel (r + dr, c + dc)
/// with dr = floor((u - top) / 2): again o + offset[t], within one phase.
typedef struct DepthwiseFlat {
  struct DepthwiseFlat *next;
  int64_t key[12];
  int64_t vectors, taps;
  int phases;
  int64_t offset[DepthwiseMaxTaps];
  __mmask16 *mask;
} DepthwiseFlat;

/// floor(a / 2), for negative a too.
static int64_t halfDown(int64_t a) { return a >= 0 ? a / 2 : -((1 - a) / 2); }

static pthread_mutex_t flatMutex = PTHREAD_MUTEX_INITIALIZER;
static DepthwiseFlat *flatTables;

/// The flat form of `d`, from the cache or made now; NULL when `d` has
/// another shape (or memory runs out).
static const DepthwiseFlat *depthwiseFlat(const Depthwise *d) {
  int phases = d->strideH == 2 && d->strideW == 2 && d->dilationH == 1 &&
                       d->dilationW == 1 && 2 * d->oh >= d->height &&
                       2 * d->ow >= d->width
                   ? 4
                   : 1;
  if ((phases == 1 && (d->strideH != 1 || d->strideW != 1 ||
                       d->ow != d->width)) ||
      d->xStride[3] != 1 || d->yStride[3] != 1 ||
      d->xStride[2] != d->width || d->yStride[2] != d->ow ||
      d->kh * d->kw > DepthwiseMaxTaps)
    return NULL;
  int64_t key[12] = {d->oh,        d->ow,        d->height,  d->width,
                     d->kh,        d->kw,        d->top,     d->left,
                     d->dilationH, d->dilationW, d->strideH, d->strideW};
  pthread_mutex_lock(&flatMutex);
  DepthwiseFlat *f = flatTables;
  while (f && memcmp(f->key, key, sizeof(key)) != 0)
    f = f->next;
  if (!f && (f = calloc(1, sizeof(*f)))) {
    int64_t pixels = d->oh * d->ow, taps = d->kh * d->kw;
    f->vectors = (pixels + 15) / 16;
    f->taps = taps;
    f->phases = phases;
    f->mask = calloc((size_t)(f->vectors * taps), sizeof(__mmask16));
    if (!f->mask) {
      free(f);
      f = NULL;
    } else {
      memcpy(f->key, key, sizeof(key));
      for (int64_t u = 0, t = 0; u < d->kh; ++u)
        for (int64_t v = 0; v < d->kw; ++v, ++t) {
          int64_t du = u * d->dilationH - d->top;
          int64_t dv = v * d->dilationW - d->left;
          // At stride 2: the phase of the tap's parities, and the step
          // within it.
          int64_t dr = halfDown(du), dc = halfDown(dv);
          int64_t phase = 2 * (du - 2 * dr) + dv - 2 * dc;
          f->offset[t] = phases == 1 ? du * d->width + dv
                                     : phase * pixels + dr * d->ow + dc;
        }
      for (int64_t o = 0; o < pixels; ++o) {
        int64_t row = o / d->ow, col = o % d->ow;
        for (int64_t u = 0, t = 0; u < d->kh; ++u)
          for (int64_t v = 0; v < d->kw; ++v, ++t) {
            int64_t r = row * d->strideH - d->top + u * d->dilationH;
            int64_t c = col * d->strideW - d->left + v * d->dilationW;
            if (r >= 0 && r < d->height && c >= 0 && c < d->width)
              f->mask[t * f->vectors + o / 16] |= (__mmask16)(1u << (o % 16));
          }
      }
      f->next = flatTables;
      flatTables = f;
    }
  }
  pthread_mutex_unlock(&flatMutex);
  return f;
}

/// V vectors of one plane's flat form from vector 0 at `in`, `out` (and
/// `res`), their masks from `mask` (mask[t * f->vectors] for tap t): the
/// sums from the bias (or the output) over all taps, then the epilogue;
/// the last vector stores the lanes `last` only.
#define ONNXC_DEPTHWISE_FLAT(NAME, V)                                          \
  ONNXC_AVX512_DW static inline void NAME(                                     \
      const Depthwise *d, const DepthwiseFlat *f, const __m512 *weight,        \
      const __mmask16 *mask, const float *in, float *out, const float *res,    \
      __m512 init, __mmask16 last) {                                           \
    __m512 acc[V];                                                             \
    _Pragma("GCC unroll 8") for (int q = 0; q < V; ++q) acc[q] =               \
        d->bias ? init                                                         \
                : _mm512_maskz_loadu_ps(q == V - 1 ? last : 0xffff,            \
                                        out + 16 * q);                         \
    for (int64_t t = 0; t < f->taps; ++t) {                                    \
      const float *at = in + f->offset[t];                                     \
      const __mmask16 *m = mask + t * f->vectors;                              \
      _Pragma("GCC unroll 8") for (int q = 0; q < V; ++q) acc[q] =             \
          _mm512_fmadd_ps(weight[t],                                           \
                          _mm512_maskz_loadu_ps(m[q],                           \
                                                at + 16 * q),                  \
                          acc[q]);                                             \
    }                                                                          \
    _Pragma("GCC unroll 8") for (int q = 0; q < V; ++q)                        \
        finishDepthwiseAvx512(d, acc[q], res ? res + 16 * q : NULL,            \
                              out + 16 * q, q == V - 1 ? last : 0xffff);       \
  }

ONNXC_DEPTHWISE_FLAT(depthwiseFlat8, 8)
ONNXC_DEPTHWISE_FLAT(depthwiseFlat4, 4)
ONNXC_DEPTHWISE_FLAT(depthwiseFlat2, 2)
ONNXC_DEPTHWISE_FLAT(depthwiseFlat1, 1)

/// Splits the input plane `x` of `d` into the four phases of its flat form
/// at stride 2 (see DepthwiseFlat), oh x ow each, at `phases`: a row's even
/// and odd pixels parted by two permutes per 32.
ONNXC_AVX512_DW static void splitPhases(const Depthwise *d, const float *x,
                                        float *phases) {
  const __m512i even = ONNXC_EVEN_LANES;
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  // (Locals: the stores could alias *d.)
  const int64_t width = d->width, height = d->height, ow = d->ow;
  const int64_t pixels = d->oh * ow;
  for (int64_t j = 0; j < ow; j += 16) {
    // Input columns [2 j, 2 j + 32) of each row, those past it as zeros,
    // to output columns [j, j + 16) of its two phases.
    int64_t left = width - 2 * j, n = ow - j < 16 ? ow - j : 16;
    __mmask16 m0 = (__mmask16)(left >= 16 ? 0xffff : (1u << left) - 1);
    __mmask16 m1 = (__mmask16)(left >= 32   ? 0xffff
                               : left <= 16 ? 0
                                            : (1u << (left - 16)) - 1);
    __mmask16 store = (__mmask16)(n == 16 ? 0xffff : (1u << n) - 1);
    for (int64_t y = 0; y < height; ++y) {
      const float *row = x + y * width + 2 * j;
      float *e = phases + 2 * (y % 2) * pixels + y / 2 * ow + j;
      __m512 a = _mm512_maskz_loadu_ps(m0, row);
      __m512 b = _mm512_maskz_loadu_ps(m1, row + 16);
      _mm512_mask_storeu_ps(e, store, _mm512_permutex2var_ps(a, even, b));
      _mm512_mask_storeu_ps(e + pixels, store,
                            _mm512_permutex2var_ps(a, odd, b));
    }
  }
}

/// The planes [begin, end) of `d` in its flat form `f`: eight vectors at a
/// time (eight independent sums per tap), then four, two and one; at stride
/// 2 from the plane's phases, split into `phases`.
ONNXC_AVX512_DW static void depthwiseFlatPlanes(const Depthwise *d,
                                                const DepthwiseFlat *f,
                                                float *phases, int64_t begin,
                                                int64_t end) {
  int64_t pixels = d->oh * d->ow;
  // At stride 2 the next plane's phases are split before this plane is
  // computed, into the other half of `phases` (8 oh ow floats): the loads
  // of this plane then read stores done a plane before, not just now.
  if (f->phases == 4 && begin < end)
    splitPhases(d, planeInput(d, begin), phases);
  for (int64_t plane = begin; plane < end; ++plane) {
    const float *x;
    int64_t yAt;
    __m512 weight[DepthwiseMaxTaps], init;
    startDepthwisePlane(d, plane, &x, &yAt, weight, &init);
    if (f->phases == 4) {
      x = phases + (plane - begin) % 2 * 4 * pixels;
      if (plane + 1 < end)
        splitPhases(d, planeInput(d, plane + 1),
                    phases + (plane + 1 - begin) % 2 * 4 * pixels);
    }
    for (int64_t v = 0; v < f->vectors;) {
      int64_t left = f->vectors - v;
      int n = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
      int64_t tail = pixels - 16 * (v + n - 1);
      __mmask16 last = (__mmask16)(tail >= 16 ? 0xffff : (1u << tail) - 1);
      const __mmask16 *mask = f->mask + v;
      const float *in = x + 16 * v;
      float *out = d->y + yAt + 16 * v;
      const float *res = d->res ? d->res + yAt + 16 * v : NULL;
      if (n == 8)
        depthwiseFlat8(d, f, weight, mask, in, out, res, init, last);
      else if (n == 4)
        depthwiseFlat4(d, f, weight, mask, in, out, res, init, last);
      else if (n == 2)
        depthwiseFlat2(d, f, weight, mask, in, out, res, init, last);
      else
        depthwiseFlat1(d, f, weight, mask, in, out, res, init, last);
      v += n;
    }
  }
}

/// The sweep form of a depthwise convolution with a square window of K = 3
/// or 5 taps without dilation, centred on its output (a left pad of K / 2),
/// at stride 1 or 2 both ways, on rows of unit column stride. Each group of
/// up to SweepMaxChunks[K] chunks of 16 output columns runs down the plane:
/// each input row is loaded once per tap column (at stride 2: as pairs of
/// vectors, their even and odd elements parted by permutes) and multiplied
/// into the sums of every output row that reads it, a window of
/// ceil(K / stride) rows held in registers. Only the plane's first and last
/// chunks read past its columns, through masks fixed down the plane (the
/// others lie inside, see depthwiseSweepFits). With few chunks, a row's
/// sums are split by tap column (S parts) so that enough independent sums
/// hide the FMA's latency.
enum {
  SweepMaxTaps = 5,
  SweepMaxSums = 3,
  /// The most chunks of a group (3x3), and output rows of a window (5x5 at
  /// stride 1).
  SweepMostChunks = 4,
  SweepMaxWindow = 5
};
static const int SweepMaxChunks[SweepMaxTaps + 1] = {0, 0, 0, SweepMostChunks,
                                                     0, 2};

/// The vectors one chunk loads per input row: K at stride 1; at stride 2,
/// K / 2 + 1 pairs.
#define ONNXC_SWEEP_LOADS(K, STRIDE) ((STRIDE) == 1 ? (K) : 2 * ((K) / 2 + 1))

/// The column of chunk 0's load l, from the chunk's first output column
/// times the stride: at stride 1, tap column l; at stride 2, pair l / 2's
/// first tap column 2 (l / 2), its second vector 16 further.
#define ONNXC_SWEEP_LOAD_AT(K, STRIDE, l)                                      \
  ((STRIDE) == 1 ? (l) - (K) / 2 : 2 * ((l) / 2) + 16 * ((l) % 2) - (K) / 2)

/// True when `d` takes the sweep form.
static int depthwiseSweepFits(const Depthwise *d) {
  int64_t k = d->kh, s = d->strideW, chunks = (d->ow + 15) / 16;
  // The last load of the chunk before the last ends inside the row.
  return (k == 3 || k == 5) && d->kw == k && d->dilationH == 1 &&
         d->dilationW == 1 && (s == 1 || s == 2) && d->strideH == s &&
         d->left == k / 2 && d->xStride[3] == 1 && d->yStride[3] == 1 &&
         d->ow >= 12 && 16 * s * (chunks - 1) + k / 2 - 1 < d->width;
}

/// The lanes p < 16 with 0 <= start + p < limit.
static inline __mmask16 laneRange(int64_t start, int64_t limit) {
  int64_t lo = start < 0 ? -start : 0, hi = limit - start;
  if (hi > 16)
    hi = 16;
  if (hi <= lo)
    return 0;
  return (__mmask16)(((1u << hi) - 1) & ~((1u << lo) - 1));
}

/// The K tap columns `tap` of one chunk of input row `row` (at the chunk's
/// first output column times the stride): its loads masked by `mask` where
/// not NULL (with `first`, only those that start left of the row).
ONNXC_AVX512_DW static inline __attribute__((always_inline)) void
sweepTaps(const float *row, const __mmask16 *mask, int first, const int K,
          const int stride, __m512 *tap) {
  __m512 load[ONNXC_SWEEP_LOADS(SweepMaxTaps, 2)];
  _Pragma("GCC unroll 6") for (int l = 0; l < ONNXC_SWEEP_LOADS(K, stride);
                               ++l) {
    const float *at = row + ONNXC_SWEEP_LOAD_AT(K, stride, l);
    int masked = mask && (!first || ONNXC_SWEEP_LOAD_AT(K, stride, l) < 0);
    load[l] = masked ? _mm512_maskz_loadu_ps(mask[l], at) : _mm512_loadu_ps(at);
  }
  if (stride == 1) {
    _Pragma("GCC unroll 5") for (int v = 0; v < K; ++v) tap[v] = load[v];
    return;
  }
  const __m512i even = ONNXC_EVEN_LANES;
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  _Pragma("GCC unroll 5") for (int v = 0; v < K; ++v) tap[v] =
      _mm512_permutex2var_ps(load[v / 2 * 2], v % 2 ? odd : even,
                             load[v / 2 * 2 + 1]);
}

/// The sums of one output row: [chunk][part].
typedef __m512 SweepSums[SweepMostChunks][SweepMaxSums];

/// Input row `row` of C chunks into the sums `acc` of the window's output
/// rows k that read it, at tap row q - stride k.
ONNXC_AVX512_DW static inline __attribute__((always_inline)) void
sweepRow(const __m512 *weight, const float *row, const __mmask16 *first,
         const __mmask16 *last, SweepSums *acc, const int q, const int K,
         const int stride, const int C, const int S) {
  _Pragma("GCC unroll 4") for (int c = 0; c < C; ++c) {
    __m512 tap[SweepMaxTaps];
    sweepTaps(row + 16 * stride * c,
              c == C - 1 ? last
              : c == 0   ? first
                         : NULL,
              c != C - 1, K, stride, tap);
    _Pragma("GCC unroll 5") for (int k = 0; k < (K + stride - 1) / stride;
                                 ++k) {
      int u = q - stride * k;
      if (u < 0 || u >= K)
        continue;
      _Pragma("GCC unroll 5") for (int v = 0; v < K; ++v) acc[k][c][v % S] =
          _mm512_fmadd_ps(weight[K * u + v], tap[v], acc[k][c][v % S]);
    }
  }
}

/// The sums' start of output row `o`: the bias (`init`), or what the
/// output at `out` holds (rows past the last: anything).
ONNXC_AVX512_DW static inline __attribute__((always_inline)) void
sweepInit(const Depthwise *d, SweepSums acc, __m512 init, const float *out,
          int64_t o, __mmask16 store, const int C, const int S) {
  _Pragma("GCC unroll 4") for (int c = 0; c < C; ++c) {
    _Pragma("GCC unroll 3") for (int s = 1; s < S; ++s) acc[c][s] =
        _mm512_setzero_ps();
    acc[c][0] = d->bias || o >= d->oh
                    ? init
                    : _mm512_maskz_loadu_ps(c == C - 1 ? store : 0xffff,
                                            out + o * d->yStride[2] + 16 * c);
  }
}

/// One group of C chunks of one plane from output column j0: `x` the
/// plane's input, `out` and `res` its output and residual from column j0.
ONNXC_AVX512_DW static inline __attribute__((always_inline)) void
depthwiseSweep(const Depthwise *d, const __m512 *weight, __m512 init,
               const float *x, float *out, const float *res, int64_t j0,
               const int K, const int stride, const int C, const int S) {
  const int window = (K + stride - 1) / stride;
  const int64_t height = d->height, oh = d->oh, top = d->top;
  const int64_t xs = d->xStride[2], ys = d->yStride[2];
  const float *in = x + stride * j0;
  __mmask16 first[ONNXC_SWEEP_LOADS(SweepMaxTaps, 2)];
  __mmask16 last[ONNXC_SWEEP_LOADS(SweepMaxTaps, 2)];
  for (int l = 0; l < ONNXC_SWEEP_LOADS(K, stride); ++l) {
    int64_t at = stride * j0 + ONNXC_SWEEP_LOAD_AT(K, stride, l);
    first[l] = laneRange(at, d->width);
    last[l] = laneRange(at + 16 * stride * (C - 1), d->width);
  }
  __mmask16 store = laneRange(j0 + 16 * (C - 1), d->ow);
  // acc[k]: the sums of output row o + k, which reads input rows stride (o
  // + k) - top + u (tap row u). The first K - stride rows of row 0's window
  // are read before the loop; step o reads the last stride rows of row o's
  // window, which also start the windows after it.
  SweepSums acc[SweepMaxWindow];
  _Pragma("GCC unroll 5") for (int k = 0; k < window; ++k)
      sweepInit(d, acc[k], init, out, k, store, C, S);
  _Pragma("GCC unroll 4") for (int q = 0; q < K - stride; ++q) {
    if (q - top >= 0 && q - top < height)
      sweepRow(weight, in + (q - top) * xs, first, last, acc, q, K, stride, C,
               S);
  }
  for (int64_t o = 0; o < oh; ++o) {
    _Pragma("GCC unroll 2") for (int q = K - stride; q < K; ++q) {
      int64_t r = stride * o - top + q;
      if (r >= 0 && r < height)
        sweepRow(weight, in + r * xs, first, last, acc, q, K, stride, C, S);
    }
    _Pragma("GCC unroll 4") for (int c = 0; c < C; ++c) {
      __m512 sum = acc[0][c][0];
      _Pragma("GCC unroll 3") for (int s = 1; s < S; ++s) sum =
          _mm512_add_ps(sum, acc[0][c][s]);
      finishDepthwiseAvx512(d, sum, res ? res + o * ys + 16 * c : NULL,
                            out + o * ys + 16 * c, c == C - 1 ? store : 0xffff);
    }
    _Pragma("GCC unroll 4") for (int k = 0; k + 1 < window; ++k)
        _Pragma("GCC unroll 4") for (int c = 0; c < C; ++c)
            _Pragma("GCC unroll 3") for (int s = 0; s < S; ++s) acc[k][c][s] =
                acc[k + 1][c][s];
    sweepInit(d, acc[window - 1], init, out, o + window, store, C, S);
  }
}

/// depthwiseSweep for each window, stride and C (and its split S).
#define ONNXC_SWEEP_GROUP(K, STRIDE, C, S)                                     \
  ONNXC_AVX512_DW static void depthwiseSweep##K##_##STRIDE##_##C(              \
      const Depthwise *d, const __m512 *weight, __m512 init, const float *x,   \
      float *out, const float *res, int64_t j0) {                              \
    depthwiseSweep(d, weight, init, x, out, res, j0, K, STRIDE, C, S);         \
  }
ONNXC_SWEEP_GROUP(3, 1, 1, 3)
ONNXC_SWEEP_GROUP(3, 1, 2, 2)
ONNXC_SWEEP_GROUP(3, 1, 3, 1)
ONNXC_SWEEP_GROUP(3, 1, 4, 1)
ONNXC_SWEEP_GROUP(3, 2, 1, 3)
ONNXC_SWEEP_GROUP(3, 2, 2, 2)
ONNXC_SWEEP_GROUP(3, 2, 3, 1)
ONNXC_SWEEP_GROUP(3, 2, 4, 1)
ONNXC_SWEEP_GROUP(5, 1, 1, 2)
ONNXC_SWEEP_GROUP(5, 1, 2, 1)
ONNXC_SWEEP_GROUP(5, 2, 1, 2)
ONNXC_SWEEP_GROUP(5, 2, 2, 1)

/// The planes [begin, end) of `d` in the sweep form.
ONNXC_AVX512_DW static void depthwiseSweepPlanes(const Depthwise *d,
                                                 int64_t begin, int64_t end) {
  typedef void (*Group)(const Depthwise *, const __m512 *, __m512,
                        const float *, float *, const float *, int64_t);
  // [5x5][stride - 1][chunks - 1]
  static const Group groups[2][2][SweepMostChunks] = {
      {{depthwiseSweep3_1_1, depthwiseSweep3_1_2, depthwiseSweep3_1_3,
        depthwiseSweep3_1_4},
       {depthwiseSweep3_2_1, depthwiseSweep3_2_2, depthwiseSweep3_2_3,
        depthwiseSweep3_2_4}},
      {{depthwiseSweep5_1_1, depthwiseSweep5_1_2},
       {depthwiseSweep5_2_1, depthwiseSweep5_2_2}}};
  const Group *group = groups[d->kh == 5][d->strideW - 1];
  int64_t chunks = (d->ow + 15) / 16, most = SweepMaxChunks[d->kh];
  for (int64_t plane = begin; plane < end; ++plane) {
    const float *x;
    int64_t yAt;
    __m512 weight[DepthwiseMaxTaps], init;
    startDepthwisePlane(d, plane, &x, &yAt, weight, &init);
    for (int64_t chunk = 0; chunk < chunks; chunk += most) {
      int64_t n = chunks - chunk < most ? chunks - chunk : most, j0 = 16 * chunk;
      group[n - 1](d, weight, init, x, d->y + yAt + j0,
                   d->res ? d->res + yAt + j0 : NULL, j0);
    }
  }
}

/// The masks of dm for `d`; 0 when its shape does not fit them.
static int initDepthwiseMasks(const Depthwise *d, DepthwiseMasks *dm) {
  dm->chunks = (d->ow + 15) / 16;
  if (dm->chunks > DepthwiseMaxChunks || d->kw > 16)
    return 0;
  for (int64_t chunk = 0; chunk < dm->chunks; ++chunk) {
    int64_t j = chunk * 16, n = d->ow - j < 16 ? d->ow - j : 16;
    // Loaded elements p of tap column v: input column j sw - left + v dw +
    // p, for p < (n - 1) sw + 1.
    int64_t span = (n - 1) * d->strideW + 1;
    for (int64_t v = 0; v < d->kw; ++v) {
      int64_t at = j * d->strideW - d->left + v * d->dilationW;
      int64_t lo = at >= 0 ? 0 : -at;
      int64_t hi = d->width - at < span ? d->width - at : span;
      uint32_t bits = 0;
      for (int64_t p = lo; p < hi; ++p)
        bits |= 1u << p;
      dm->mask[chunk][v][0] = (__mmask16)(bits & 0xffff);
      dm->mask[chunk][v][1] = (__mmask16)(bits >> 16);
    }
  }
  for (int64_t i = 0; i < d->oh; ++i)
    validRange(i * d->strideH - d->top, d->dilationH, d->height, d->kh,
               &dm->rowFirst[i], &dm->rowLast[i]);
  return 1;
}

/// How the AVX-512 kernel computes a depthwise convolution: in the sweep
/// form, the flat form (`flat`) or by rows (`masks`).
typedef struct {
  const Depthwise *d;
  const DepthwiseMasks *masks;
  const DepthwiseFlat *flat;
  int sweep;
} DepthwiseAvx512;

static void runDepthwiseAvx512(void *ctx, int64_t begin, int64_t end) {
  const DepthwiseAvx512 *k = ctx;
  if (k->sweep) {
    depthwiseSweepPlanes(k->d, begin, end);
    return;
  }
  if (!k->flat) {
    depthwisePlanesAvx512(k->d, k->masks, begin, end);
    return;
  }
  float *phases = NULL;
  if (k->flat->phases == 4) {
    // Two planes of phases: the next one is split while this one runs.
    phases = malloc(sizeof(float) * (size_t)(8 * k->d->oh * k->d->ow));
    if (!phases) {
      depthwisePlanes(k->d, begin, end, NULL);
      return;
    }
  }
  depthwiseFlatPlanes(k->d, k->flat, phases, begin, end);
  free(phases);
}
#endif

static void runDepthwise(void *ctx, int64_t begin, int64_t end) {
  const Depthwise *d = ctx;
  // Stride 1 over contiguous rows without padding: the wide form (one plane
  // of the input's width per call of this function).
  float *wide = NULL;
  if (d->strideH == 1 && d->strideW == 1 && d->xStride[3] == 1 &&
      d->yStride[3] == 1 && d->xStride[2] >= d->ow && windowsInside(d))
    wide = malloc(sizeof(float) * (size_t)(d->oh * d->xStride[2]));
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    depthwisePlanesAvx2(d, begin, end, wide);
  else
#endif
    depthwisePlanes(d, begin, end, wide);
  free(wide);
}

int onnxcAveragePoolFlat(const float *x, float *y, int64_t images,
                         int64_t channels, int64_t h, int64_t w, int64_t kh,
                         int64_t kw, int64_t dh, int64_t dw, int64_t top,
                         int64_t left, const int64_t xs[4],
                         const int64_t ys[4]) {
#if defined(__x86_64__)
  if (!__builtin_cpu_supports("avx512f") || kh * kw > DepthwiseMaxTaps ||
      images <= 0 || channels <= 0)
    return 0;
  // Every filter is the same kh x kw taps of 1 / (kh kw) (wStride 0), from
  // a bias of zeros.
  float *weights = malloc(sizeof(float) * (size_t)(kh * kw + channels));
  if (!weights)
    return 0;
  float *zeros = weights + kh * kw;
  for (int64_t t = 0; t < kh * kw; ++t)
    weights[t] = 1.0f / (float)(kh * kw);
  for (int64_t c = 0; c < channels; ++c)
    zeros[c] = 0.0f;
  Depthwise d = {.x = x,
                 .w = weights,
                 .bias = zeros,
                 .y = y,
                 .channels = channels,
                 .kh = kh,
                 .kw = kw,
                 .oh = h,
                 .ow = w,
                 .height = h,
                 .width = w,
                 .top = top,
                 .left = left,
                 .xStride = {xs[0], xs[1], xs[2], xs[3]},
                 .wStride = {0, kw, 1},
                 .yStride = {ys[0], ys[1], ys[2], ys[3]},
                 .strideH = 1,
                 .strideW = 1,
                 .dilationH = dh,
                 .dilationW = dw};
  const DepthwiseFlat *flat = depthwiseFlat(&d);
  if (flat) {
    DepthwiseAvx512 k = {&d, NULL, flat, 0};
    runPlanes(runDepthwiseAvx512, &k, images * channels,
              (double)(images * channels * h * w * kh * kw));
  }
  free(weights);
  return flat != NULL;
#else
  (void)x, (void)y, (void)images, (void)channels, (void)h, (void)w, (void)kh,
      (void)kw, (void)dh, (void)dw, (void)top, (void)left, (void)xs, (void)ys;
  return 0;
#endif
}

/// The fields of a Depthwise that the kernels on an implicitly padded input
/// (depthwise and small-plane) set alike from their expanded memrefs x, w,
/// y, bias, res and their scalars.
#define ONNXC_PADDED_CONV_FIELDS                                               \
  .x = x + xOff, .w = w + wOff,                                                \
  .bias = flags & FlagBias ? bias + biasOff : NULL,                            \
  .res = flags & FlagResidual ? res + resOff : NULL, .y = y + yOff,            \
  .oh = ySize2, .ow = ySize3, .height = xSize2, .width = xSize3,               \
  .top = padTop, .left = padLeft,                                              \
  .xStride = {xStride0, xStride1, xStride2, xStride3},                         \
  .yStride = {yStride0, yStride1, yStride2, yStride3}, .strideH = strideH,     \
  .strideW = strideW, .dilationH = dilationH, .dilationW = dilationW,          \
  .clamp = (flags & FlagRelu) != 0,                                            \
  .hardSwish = (flags & FlagHardSwish) != 0, .lo = lo, .hi = hi

/*===----------------------------------------------------------------------===*
 * Plain convolutions of small planes
 *===----------------------------------------------------------------------===*/

/// A plain convolution whose planes hold few pixels (a batch of 8x8
/// digits): each image's GEMM would be a few tiles, mostly padding, packing
/// and im2col. At stride 1 with the output the input's size, it is computed
/// directly in the depthwise flat form (at most SmallConvVectors vectors of
/// 16 pixels per plane): for each input channel and tap the shifted plane is
/// loaded once, its masks reading the zero padding, and multiplied into the
/// sums of G filters at once (G V <= SmallConvSums registers). Other shapes
/// take a plain loop. `d` holds the geometry (its channels are the input's)
/// and the epilogue.
enum { SmallConvVectors = 4, SmallConvSums = 24 };

typedef struct {
  Depthwise d;
  int64_t filters;
  int64_t wStride[4];
#if defined(__x86_64__)
  /// The flat form, and each tap's offset in a filter's channel.
  const DepthwiseFlat *flat;
  int64_t wTap[DepthwiseMaxTaps];
#endif
} SmallConv;

/// The sums at the output's (row, column) `oy`, `ox` of filter `f`, image
/// `b` of `s`, read through the implicit padding, from `sum` (the bias or
/// the output).
static float smallConvSum(const SmallConv *s, int64_t b, int64_t f,
                          int64_t oy, int64_t ox, float sum) {
  const Depthwise *d = &s->d;
  for (int64_t c = 0; c < d->channels; ++c)
    for (int64_t u = 0; u < d->kh; ++u) {
      int64_t iy = oy * d->strideH - d->top + u * d->dilationH;
      if (iy < 0 || iy >= d->height)
        continue;
      for (int64_t v = 0; v < d->kw; ++v) {
        int64_t ix = ox * d->strideW - d->left + v * d->dilationW;
        if (ix < 0 || ix >= d->width)
          continue;
        sum += d->x[b * d->xStride[0] + c * d->xStride[1] +
                    iy * d->xStride[2] + ix * d->xStride[3]] *
               d->w[f * s->wStride[0] + c * s->wStride[1] + u * s->wStride[2] +
                    v * s->wStride[3]];
      }
    }
  return sum;
}

/// Images [begin, end) of `s`, one output element at a time.
static void smallConvImages(void *ctx, int64_t begin, int64_t end) {
  const SmallConv *s = ctx;
  const Depthwise *d = &s->d;
  for (int64_t b = begin; b < end; ++b)
    for (int64_t f = 0; f < s->filters; ++f)
      for (int64_t oy = 0; oy < d->oh; ++oy)
        for (int64_t ox = 0; ox < d->ow; ++ox) {
          int64_t at = b * d->yStride[0] + f * d->yStride[1] +
                       oy * d->yStride[2] + ox * d->yStride[3];
          float v = smallConvSum(s, b, f, oy, ox,
                                 d->bias ? d->bias[f] : d->y[at]);
          if (d->res)
            v += d->res[at];
          if (d->clamp)
            v = v < d->lo ? d->lo : v > d->hi ? d->hi : v;
          d->y[at] = d->hardSwish ? onnxcHardSwish(v) : v;
        }
}

#if defined(__x86_64__)
/// Filters [f0, f0 + G) of image `b` of `s` in its flat form, V vectors per
/// plane (both constants once inlined): the G x V sums stay in registers
/// over all channels and taps.
__attribute__((always_inline)) ONNXC_AVX512_DW static inline void
smallConvFilters(const SmallConv *s, int64_t b, int64_t f0, int V, int G) {
  const Depthwise *d = &s->d;
  const DepthwiseFlat *flat = s->flat;
  const float *x = d->x + b * d->xStride[0];
  const float *w = d->w + f0 * s->wStride[0];
  int64_t tail = d->oh * d->ow - 16 * (V - 1);
  __mmask16 last = (__mmask16)(tail >= 16 ? 0xffff : (1u << tail) - 1);
  // The sums start from the bias, or from the output.
  __m512 acc[16][SmallConvVectors];
  _Pragma("GCC unroll 16") for (int g = 0; g < G; ++g) {
    const float *out = d->y + b * d->yStride[0] + (f0 + g) * d->yStride[1];
    _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) acc[g][q] =
        d->bias ? _mm512_set1_ps(d->bias[f0 + g])
                : _mm512_maskz_loadu_ps(q == V - 1 ? last : 0xffff,
                                        out + 16 * q);
  }
  for (int64_t c = 0; c < d->channels; ++c) {
    const float *xc = x + c * d->xStride[1];
    const float *wc = w + c * s->wStride[1];
    for (int64_t t = 0; t < flat->taps; ++t) {
      const float *at = xc + flat->offset[t];
      const __mmask16 *mask = flat->mask + t * flat->vectors;
      __m512 in[SmallConvVectors];
      _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) in[q] =
          _mm512_maskz_loadu_ps(mask[q], at + 16 * q);
      const float *wt = wc + s->wTap[t];
      _Pragma("GCC unroll 16") for (int g = 0; g < G; ++g) {
        __m512 weight = _mm512_set1_ps(wt[g * s->wStride[0]]);
        _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q) acc[g][q] =
            _mm512_fmadd_ps(weight, in[q], acc[g][q]);
      }
    }
  }
  _Pragma("GCC unroll 16") for (int g = 0; g < G; ++g) {
    int64_t at = b * d->yStride[0] + (f0 + g) * d->yStride[1];
    _Pragma("GCC unroll 4") for (int q = 0; q < V; ++q)
        finishDepthwiseAvx512(d, acc[g][q],
                              d->res ? d->res + at + 16 * q : NULL,
                              d->y + at + 16 * q, q == V - 1 ? last : 0xffff);
  }
}

/// Images [begin, end) of `s` in its flat form: its filters in groups of
/// the most that fit the registers, down to one.
ONNXC_AVX512_DW static void smallConvImagesAvx512(void *ctx, int64_t begin,
                                                  int64_t end) {
  const SmallConv *s = ctx;
  int V = (int)s->flat->vectors;
  int most = SmallConvSums / V < 16 ? SmallConvSums / V : 16;
  static const int groups[] = {16, 12, 8, 6, 4, 3, 2, 1};
  for (int64_t b = begin; b < end; ++b)
    for (int64_t f0 = 0; f0 < s->filters;) {
      int64_t left = s->filters - f0;
      int G = 1;
      for (int i = 0; i < 8; ++i)
        if (groups[i] <= most && groups[i] <= left) {
          G = groups[i];
          break;
        }
      switch (V * 100 + G) {
#define ONNXC_SMALL_CONV(V, G)                                                 \
  case V * 100 + G:                                                            \
    smallConvFilters(s, b, f0, V, G);                                          \
    break;
#define ONNXC_SMALL_CONV_GROUPS(V)                                             \
  ONNXC_SMALL_CONV(V, 6)                                                       \
  ONNXC_SMALL_CONV(V, 4)                                                       \
  ONNXC_SMALL_CONV(V, 3) ONNXC_SMALL_CONV(V, 2) ONNXC_SMALL_CONV(V, 1)
        ONNXC_SMALL_CONV(1, 16)
        ONNXC_SMALL_CONV(1, 12)
        ONNXC_SMALL_CONV(1, 8)
        ONNXC_SMALL_CONV_GROUPS(1)
        ONNXC_SMALL_CONV(2, 12)
        ONNXC_SMALL_CONV(2, 8)
        ONNXC_SMALL_CONV_GROUPS(2)
        ONNXC_SMALL_CONV(3, 8)
        ONNXC_SMALL_CONV_GROUPS(3)
        ONNXC_SMALL_CONV_GROUPS(4)
#undef ONNXC_SMALL_CONV_GROUPS
#undef ONNXC_SMALL_CONV
      }
      f0 += G;
    }
}
#endif

void onnxc_kernel_conv2d_small_nchw_fchw_f32(
    ONNXC_MEMREF4(x), ONNXC_MEMREF4(w), ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
    ONNXC_MEMREF4(res), int64_t strideH, int64_t strideW, int64_t dilationH,
    int64_t dilationW, int64_t padTop, int64_t padLeft, int64_t flags, float lo,
    float hi) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)wSize1,
      (void)ySize1, (void)biasAlloc, (void)biasSize0, (void)biasStride0,
      (void)resAlloc, (void)resSize0, (void)resSize1, (void)resSize2,
      (void)resSize3, (void)resStride0, (void)resStride1, (void)resStride2,
      (void)resStride3;
  // The residual shares the output's strides (as for the other kernels).
  SmallConv s = {.d = {ONNXC_PADDED_CONV_FIELDS,
                       .channels = xSize1,
                       .kh = wSize2,
                       .kw = wSize3,
                       .alpha = 1.0f / 6.0f,
                       .beta = 0.5f},
                 .filters = wSize0,
                 .wStride = {wStride0, wStride1, wStride2, wStride3}};
  int64_t images = ySize0;
  double work = (double)(images * wSize0 * xSize1 * wSize2 * wSize3) *
                (double)(ySize2 * ySize3);
  if (images <= 0 || wSize0 <= 0 || ySize2 <= 0 || ySize3 <= 0)
    return;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") &&
      wSize2 * wSize3 <= DepthwiseMaxTaps &&
      (s.flat = depthwiseFlat(&s.d)) && s.flat->phases == 1 &&
      s.flat->vectors <= SmallConvVectors) {
    for (int64_t u = 0, t = 0; u < wSize2; ++u)
      for (int64_t v = 0; v < wSize3; ++v, ++t)
        s.wTap[t] = u * wStride2 + v * wStride3;
    runPlanes(smallConvImagesAvx512, &s, images, work);
    return;
  }
#endif
  runPlanes(smallConvImages, &s, images, work);
}

void onnxc_kernel_depthwise_conv2d_nchw_chw_f32(
    ONNXC_MEMREF4(x), ONNXC_MEMREF3(w), ONNXC_MEMREF4(y), ONNXC_MEMREF1(bias),
    ONNXC_MEMREF4(res), int64_t strideH, int64_t strideW, int64_t dilationH,
    int64_t dilationW, int64_t padTop, int64_t padLeft, int64_t flags, float lo,
    float hi, float alpha, float beta) {
  (void)xAlloc, (void)wAlloc, (void)yAlloc, (void)xSize0, (void)xSize1,
      (void)wSize0, (void)ySize1, (void)biasAlloc, (void)biasSize0,
      (void)biasStride0, (void)resAlloc, (void)resSize0, (void)resSize1,
      (void)resSize2, (void)resSize3, (void)resStride0, (void)resStride1,
      (void)resStride2, (void)resStride3;
  Depthwise d = {ONNXC_PADDED_CONV_FIELDS,
                 .channels = ySize1,
                 .kh = wSize1,
                 .kw = wSize2,
                 .wStride = {wStride0, wStride1, wStride2},
                 .alpha = alpha,
                 .beta = beta};
  int64_t planes = ySize0 * ySize1;
  double work = (double)planes * (double)(ySize2 * ySize3 * wSize1 * wSize2);
  if (planes <= 0 || ySize2 <= 0 || ySize3 <= 0)
    return;
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && xStride3 == 1 && yStride3 == 1 &&
      (strideW == 1 || strideW == 2) && wSize1 * wSize2 <= DepthwiseMaxTaps) {
    if (depthwiseSweepFits(&d)) {
      DepthwiseAvx512 k = {&d, NULL, NULL, 1};
      runPlanes(runDepthwiseAvx512, &k, planes, work);
      return;
    }
    const DepthwiseFlat *flat = depthwiseFlat(&d);
    if (flat) {
      DepthwiseAvx512 k = {&d, NULL, flat, 0};
      runPlanes(runDepthwiseAvx512, &k, planes, work);
      return;
    }
    DepthwiseMasks *masks = malloc(sizeof(DepthwiseMasks));
    int64_t *rows = malloc(sizeof(int64_t) * 2 * (size_t)ySize2);
    if (masks && rows) {
      masks->rowFirst = rows;
      masks->rowLast = rows + ySize2;
    }
    if (masks && rows && initDepthwiseMasks(&d, masks)) {
      DepthwiseAvx512 k = {&d, masks, NULL, 0};
      runPlanes(runDepthwiseAvx512, &k, planes, work);
      free(rows);
      free(masks);
      return;
    }
    free(rows);
    free(masks);
  }
#endif
  runPlanes(runDepthwise, &d, planes, work);
}

typedef struct {
  const float *src;
  float *dst;
  int64_t channels, top, left, srcH, srcW, dstH, dstW;
  int64_t srcStride[4], dstStride[4];
  float value;
} Pad;

/// row[0, n) = value, at unit stride when `stride` is 1 (so it vectorizes).
static void fillRow(float *row, int64_t n, int64_t stride, float value) {
  if (stride == 1) {
    for (int64_t w = 0; w < n; ++w)
      row[w] = value;
    return;
  }
  for (int64_t w = 0; w < n; ++w)
    row[w * stride] = value;
}

static void runPad(void *ctx, int64_t begin, int64_t end) {
  const Pad *p = ctx;
  int64_t ds = p->dstStride[3], ss = p->srcStride[3];
  int64_t right = p->dstW - p->left - p->srcW;
  for (int64_t plane = begin; plane < end; ++plane) {
    int64_t b = plane / p->channels, c = plane % p->channels;
    const float *src = p->src + b * p->srcStride[0] + c * p->srcStride[1];
    float *dst = p->dst + b * p->dstStride[0] + c * p->dstStride[1];
    for (int64_t h = 0; h < p->dstH; ++h) {
      float *row = dst + h * p->dstStride[2];
      int64_t from = h - p->top;
      if (from < 0 || from >= p->srcH) {
        fillRow(row, p->dstW, ds, p->value);
        continue;
      }
      const float *in = src + from * p->srcStride[2];
      fillRow(row, p->left, ds, p->value);
      float *out = row + p->left * ds;
      if (ss == 1 && ds == 1) {
        for (int64_t w = 0; w < p->srcW; ++w)
          out[w] = in[w];
      } else {
        for (int64_t w = 0; w < p->srcW; ++w)
          out[w * ds] = in[w * ss];
      }
      fillRow(out + p->srcW * ds, right, ds, p->value);
    }
  }
}

void onnxc_kernel_pad_f32(ONNXC_MEMREF4(src), ONNXC_MEMREF4(dst), int64_t top,
                          int64_t left, float value) {
  (void)srcAlloc, (void)dstAlloc;
  Pad p = {.src = src + srcOff,
           .dst = dst + dstOff,
           .channels = dstSize1,
           .top = top,
           .left = left,
           .srcH = srcSize2,
           .srcW = srcSize3,
           .dstH = dstSize2,
           .dstW = dstSize3,
           .srcStride = {srcStride0, srcStride1, srcStride2, srcStride3},
           .dstStride = {dstStride0, dstStride1, dstStride2, dstStride3},
           .value = value};
  (void)srcSize0, (void)srcSize1;
  int64_t planes = dstSize0 * dstSize1;
  runPlanes(runPad, &p, planes, (double)planes * (double)(dstSize2 * dstSize3));
}

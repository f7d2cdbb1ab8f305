/*===- Conv.c - Entry points of lowered f32 convolutions -------------------===*
 *
 * The functions that `convert-linalg-to-kernel-calls` calls in place of f32
 * linalg.conv_2d_nchw_fchw and the grouped linalg.conv_2d_ngchw_gfchw. Each
 * receives its memrefs as expanded descriptors and picks a form: Winograd's
 * F(4x4, 3x3) (winograd/), the GEMM on the input's grid
 * (gemm/GemmGridAvx512.c), for groups of few filters the direct AVX-512
 * kernel (ConvDirectAvx512.c), else the GEMM of gemm/ over an implicit
 * im2col matrix, its offset tables made once per geometry and kept. Work is
 * spread over the current session's thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/conv/ConvInternal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
                          const int64_t ys[3], int64_t strideH, int64_t strideW,
                          int64_t dilationH, int64_t dilationW, int64_t flags,
                          float lo, float hi) {
  int64_t key[20] = {filters, channels, kh,      kw,        oh,
                     ow,      xs[0],    xs[1],   xs[2],     ws[0],
                     ws[1],   ws[2],    ws[3],   ys[0],     ys[1],
                     ys[2],   strideH,  strideW, dilationH, dilationW};
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
                      int64_t filters, int64_t channels, int64_t kh, int64_t kw,
                      int64_t oh, int64_t ow, const int64_t xs[4],
                      const int64_t ws[4], const int64_t ys[4], int64_t strideH,
                      int64_t strideW, int64_t dilationH, int64_t dilationW,
                      int64_t flags, float lo, float hi) {
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
    OnnxcWinograd wc = {.images = ySize0,
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
                 (int64_t[4]){yStride0, yStride1, yStride2, yStride3}, strideH,
                 strideW, dilationH, dilationW, flags, lo, hi))
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
      onnxcPrefersDirectConv(&d, xStride4, yStride4)) {
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
    runPlanes(onnxcRunDirectGroups, &d, tasks, work * (double)tasks);
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

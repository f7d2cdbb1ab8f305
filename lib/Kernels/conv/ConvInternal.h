/*===- ConvInternal.h - What the files of the convolutions share -----------===*
 *
 * Internal to conv/: the geometry and epilogue of a depthwise convolution
 * on an implicitly padded input (which the plain convolutions of small
 * planes and the flat average pooling reuse), the AVX-512 forms' tables,
 * the direct grouped convolution's task, and the functions that the entry
 * points (Conv.c, Depthwise.c, SmallConv.c) and the AVX-512 variants
 * (ConvDirectAvx512.c, DepthwiseAvx512.c, SmallConvAvx512.c) call across
 * files. Those were static while the convolutions were one file: they are
 * ONNXC_INTERNAL (hidden) now, and prefixed onnxc.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_CONV_CONVINTERNAL_H
#define ONNXC_KERNELS_CONV_CONVINTERNAL_H

#include "lib/Kernels/EntryPoints.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

/// The first index i >= 0 with `start + i * step >= 0`, and one past the
/// last (at most `count`) with `start + i * step < limit`: the outputs whose
/// tap at `start` (for output 0) reads inside [0, limit).
static inline void validRange(int64_t start, int64_t step, int64_t limit,
                              int64_t count, int64_t *first, int64_t *last) {
  int64_t lo = start >= 0 ? 0 : (-start + step - 1) / step;
  int64_t hi = limit - start <= 0 ? 0 : (limit - start + step - 1) / step;
  *first = lo < count ? lo : count;
  *last = hi < count ? hi : count;
  if (*last < *first)
    *last = *first;
}

/// The planes of one (image, channel) each in [begin, end) of `d` in
/// portable C (Depthwise.c); `wide`: a buffer for the wide form, or NULL.
ONNXC_INTERNAL void onnxcDepthwisePlanes(const Depthwise *d, int64_t begin,
                                         int64_t end, float *wide);

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
  .clamp = (flags & FlagRelu) != 0, .hardSwish = (flags & FlagHardSwish) != 0, \
  .lo = lo, .hi = hi

#if defined(__x86_64__)
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
ONNXC_AVX512_DW static inline void
finishDepthwiseAvx512(const Depthwise *d, __m512 acc, const float *res,
                      float *out, __mmask16 store) {
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

/// How the AVX-512 kernel computes a depthwise convolution: in the sweep
/// form, the flat form (`flat`) or by rows (`masks`).
typedef struct {
  const Depthwise *d;
  const DepthwiseMasks *masks;
  const DepthwiseFlat *flat;
  int sweep;
} DepthwiseAvx512;

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

#endif

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

#if defined(__x86_64__)
/// The flat form of `d`, from the cache or made now; NULL when `d` has
/// another shape (or memory runs out) (DepthwiseAvx512.c).
ONNXC_INTERNAL const DepthwiseFlat *onnxcDepthwiseFlat(const Depthwise *d);

/// True when `d` takes the sweep form (DepthwiseAvx512.c).
ONNXC_INTERNAL int onnxcDepthwiseSweepFits(const Depthwise *d);

/// The masks of dm for `d`; 0 when its shape does not fit them
/// (DepthwiseAvx512.c).
ONNXC_INTERNAL int onnxcInitDepthwiseMasks(const Depthwise *d,
                                           DepthwiseMasks *dm);

/// The planes [begin, end) of the DepthwiseAvx512 `ctx` (DepthwiseAvx512.c).
ONNXC_INTERNAL void onnxcRunDepthwiseAvx512(void *ctx, int64_t begin,
                                            int64_t end);

/// Images [begin, end) of the SmallConv `ctx` in its flat form
/// (SmallConvAvx512.c).
ONNXC_INTERNAL ONNXC_AVX512_DW void
onnxcSmallConvImagesAvx512(void *ctx, int64_t begin, int64_t end);

/// The (image, group) pairs [begin, end) of the DirectConv `ctx`, and
/// whether the direct kernel suits `d` (ConvDirectAvx512.c).
ONNXC_INTERNAL void onnxcRunDirectGroups(void *ctx, int64_t begin, int64_t end);
ONNXC_INTERNAL int onnxcPrefersDirectConv(const DirectConv *d,
                                          int64_t xColumnStride,
                                          int64_t yColumnStride);
#endif

#endif /* ONNXC_KERNELS_CONV_CONVINTERNAL_H */

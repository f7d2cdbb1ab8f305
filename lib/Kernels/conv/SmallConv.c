/*===- SmallConv.c - Plain convolutions of small planes --------------------===*
 *
 * The function that `convert-linalg-to-kernel-calls` calls, on AVX-512, in
 * place of an f32 linalg.conv_2d_nchw_fchw of small planes (a batch of 8x8
 * digits) on an implicitly padded input: computed directly, in the
 * depthwise flat form with AVX-512 (SmallConvAvx512.c) where it applies, else
 * element by element here. Images are spread over the current session's
 * thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/conv/ConvInternal.h"

/// The sums at the output's (row, column) `oy`, `ox` of filter `f`, image
/// `b` of `s`, read through the implicit padding, from `sum` (the bias or
/// the output).
static float smallConvSum(const SmallConv *s, int64_t b, int64_t f, int64_t oy,
                          int64_t ox, float sum) {
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
        sum += d->x[b * d->xStride[0] + c * d->xStride[1] + iy * d->xStride[2] +
                    ix * d->xStride[3]] *
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
          float v =
              smallConvSum(s, b, f, oy, ox, d->bias ? d->bias[f] : d->y[at]);
          if (d->res)
            v += d->res[at];
          if (d->clamp)
            v = v < d->lo ? d->lo : v > d->hi ? d->hi : v;
          d->y[at] = d->hardSwish ? onnxcHardSwish(v) : v;
        }
}

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
  SmallConv s = {.d = {ONNXC_PADDED_CONV_FIELDS, .channels = xSize1,
                       .kh = wSize2, .kw = wSize3, .alpha = 1.0f / 6.0f,
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
      (s.flat = onnxcDepthwiseFlat(&s.d)) && s.flat->phases == 1 &&
      s.flat->vectors <= SmallConvVectors) {
    for (int64_t u = 0, t = 0; u < wSize2; ++u)
      for (int64_t v = 0; v < wSize3; ++v, ++t)
        s.wTap[t] = u * wStride2 + v * wStride3;
    runPlanes(onnxcSmallConvImagesAvx512, &s, images, work);
    return;
  }
#endif
  runPlanes(smallConvImages, &s, images, work);
}

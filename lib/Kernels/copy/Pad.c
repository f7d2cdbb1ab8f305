/*===- Pad.c - A copy into a constant-filled buffer ------------------------===*
 *
 * The function that `convert-linalg-to-kernel-calls` calls in place of the
 * fill and copy that an NCHW padding makes: dst = src padded with a value,
 * in one pass over dst. Planes are spread over the current session's
 * thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/EntryPoints.h"

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

/*===- DepthwiseAvx512.c - Depthwise convolutions with AVX-512 -------------===*
 *
 * The AVX-512 variant of the depthwise convolution (x86-64; Depthwise.c
 * takes it where the CPU has AVX-512F, the column strides are 1 and the
 * window's 1 or 2), in three forms: the sweep form (3x3 and 5x5 windows
 * centred on their output, chunks of 16 output columns run down the plane,
 * each input row loaded once per tap column), the flat form (the plane as
 * one run of 16-pixel vectors with per-tap lane masks made once per
 * geometry; at stride 2 over the input's four phases), and by rows (eight
 * or four output rows at a time, the padding read through load masks).
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/conv/ConvInternal.h"

#if defined(__x86_64__)
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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
      finishDepthwiseAvx512(d, acc[q], res ? res + q *outStep : NULL,          \
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

/// floor(a / 2), for negative a too.
static int64_t halfDown(int64_t a) { return a >= 0 ? a / 2 : -((1 - a) / 2); }

static pthread_mutex_t flatMutex = PTHREAD_MUTEX_INITIALIZER;
static DepthwiseFlat *flatTables;

/// The flat form of `d`, from the cache or made now; NULL when `d` has
/// another shape (or memory runs out).
const DepthwiseFlat *onnxcDepthwiseFlat(const Depthwise *d) {
  int phases = d->strideH == 2 && d->strideW == 2 && d->dilationH == 1 &&
                       d->dilationW == 1 && 2 * d->oh >= d->height &&
                       2 * d->ow >= d->width
                   ? 4
                   : 1;
  if ((phases == 1 &&
       (d->strideH != 1 || d->strideW != 1 || d->ow != d->width)) ||
      d->xStride[3] != 1 || d->yStride[3] != 1 || d->xStride[2] != d->width ||
      d->yStride[2] != d->ow || d->kh * d->kw > DepthwiseMaxTaps)
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
        d->bias                                                                \
            ? init                                                             \
            : _mm512_maskz_loadu_ps(q == V - 1 ? last : 0xffff, out + 16 * q); \
    for (int64_t t = 0; t < f->taps; ++t) {                                    \
      const float *at = in + f->offset[t];                                     \
      const __mmask16 *m = mask + t * f->vectors;                              \
      _Pragma("GCC unroll 8") for (int q = 0; q < V; ++q) acc[q] =             \
          _mm512_fmadd_ps(weight[t], _mm512_maskz_loadu_ps(m[q], at + 16 * q), \
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
/// others lie inside, see onnxcDepthwiseSweepFits). With few chunks, a row's
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
int onnxcDepthwiseSweepFits(const Depthwise *d) {
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
      int64_t n = chunks - chunk < most ? chunks - chunk : most,
              j0 = 16 * chunk;
      group[n - 1](d, weight, init, x, d->y + yAt + j0,
                   d->res ? d->res + yAt + j0 : NULL, j0);
    }
  }
}

/// The masks of dm for `d`; 0 when its shape does not fit them.
int onnxcInitDepthwiseMasks(const Depthwise *d, DepthwiseMasks *dm) {
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

void onnxcRunDepthwiseAvx512(void *ctx, int64_t begin, int64_t end) {
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
      onnxcDepthwisePlanes(k->d, begin, end, NULL);
      return;
    }
  }
  depthwiseFlatPlanes(k->d, k->flat, phases, begin, end);
  free(phases);
}
#endif

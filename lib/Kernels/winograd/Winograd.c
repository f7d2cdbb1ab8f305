/*===- Winograd.c - 3x3 convolutions by Winograd's F(4x4, 3x3) -------------===*
 *
 * A stride-1 3x3 convolution computed as Lavin and Gray's F(4x4, 3x3)
 * ("Fast Algorithms for Convolutional Neural Networks", 2016): each 4x4
 * block of output pixels (a tile) comes from the 6x6 input patch under it.
 * With d a patch, g a filter's 3x3 window and
 *
 *   V = B' d B,  U = G g G',  Y = A' (sum over channels of U . V) A
 *
 * (. elementwise), the 36 sums over channels are 36 independent GEMMs, of
 * 36 multiply-adds per tile and channel pair where the direct form has 144.
 * U is made once per constant filter tensor and kept. The transforms are
 * vectorized over 16 tiles: 4 quads of 4 tiles side by side in one row of
 * tiles (16 output columns each), any quads of the image. A quad's 16
 * input columns are split into its tiles' patch columns by permutes, and
 * joined again on the way out.
 *
 * The algorithm is exact in real arithmetic; in float its error is about
 * ten times the direct form's (a few 1e-6 relative), as in the peers that
 * use it (TVM, XNNPACK, oneDNN, Arm Compute Library).
 *
 *===----------------------------------------------------------------------===*/

#include "lib/Kernels/Kernels.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include "lib/Kernels/Avx512.h"

#define ONNXC_WINO __attribute__((target("avx512f,fma")))

enum {
  WinoPoints = 36,    // the 6x6 transformed patch
  WinoFilters = 8,    // filters of one micro-tile (broadcast)
  WinoMaxVectors = 3, // vectors of 16 tiles of one micro-tile
  WinoMaxFilterBytesPerVector = 4 << 20
};

// ---- The filters, transformed once ------------------------------------------

/// G g G' of one filter window `g` (element (i, j) at g[i * s0 + j * s1])
/// into u[6 * i + j], in double and rounded once.
static void transformWindow(const float *g, int64_t s0, int64_t s1,
                            double u[WinoPoints]) {
  static const double G[6][3] = {{1.0 / 4, 0, 0},
                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                 {0, 0, 1}};
  double t[6][3];
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 3; ++j)
      t[i][j] = G[i][0] * g[j * s1] + G[i][1] * g[s0 + j * s1] +
                G[i][2] * g[2 * s0 + j * s1];
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      u[6 * i + j] = t[i][0] * G[j][0] + t[i][1] * G[j][1] + t[i][2] * G[j][2];
}

/// The transformed filters of one constant filter tensor: for each block of
/// WinoFilters filters (the last one padded with zeros) and point, the
/// channels' values of the block's filters side by side,
/// u[((block * 36 + point) * channels + c) * WinoFilters + f].
typedef struct WinoEntry {
  struct WinoEntry *next;
  const float *w;
  int64_t filters, channels, ws[4];
  float *u;
} WinoEntry;

static pthread_mutex_t winoMutex = PTHREAD_MUTEX_INITIALIZER;
static WinoEntry *winoEntries;

/// `c`'s transformed filters, from the cache or made now; NULL when out of
/// memory.
static const float *transformedFilters(const OnnxcWinograd *c) {
  int64_t blocks = (c->filters + WinoFilters - 1) / WinoFilters;
  pthread_mutex_lock(&winoMutex);
  WinoEntry *e = winoEntries;
  while (e && !(e->w == c->w && e->filters == c->filters &&
                e->channels == c->channels &&
                memcmp(e->ws, c->ws, sizeof(e->ws)) == 0))
    e = e->next;
  if (!e) {
    size_t floats = (size_t)(blocks * WinoPoints * c->channels * WinoFilters);
    e = malloc(sizeof(*e));
    float *u = e ? onnxcPersistentAlloc(floats * sizeof(float)) : NULL;
    if (!u) {
      free(e);
      pthread_mutex_unlock(&winoMutex);
      return NULL;
    }
    memset(u, 0, floats * sizeof(float));
    for (int64_t f = 0; f < c->filters; ++f)
      for (int64_t ch = 0; ch < c->channels; ++ch) {
        double t[WinoPoints];
        transformWindow(c->w + f * c->ws[0] + ch * c->ws[1], c->ws[2], c->ws[3],
                        t);
        float *at =
            u +
            ((f / WinoFilters) * WinoPoints * c->channels + ch) * WinoFilters +
            f % WinoFilters;
        for (int p = 0; p < WinoPoints; ++p)
          at[p * c->channels * WinoFilters] = (float)t[p];
      }
    *e = (WinoEntry){winoEntries,
                     c->w,
                     c->filters,
                     c->channels,
                     {c->ws[0], c->ws[1], c->ws[2], c->ws[3]},
                     u};
    winoEntries = e;
  }
  pthread_mutex_unlock(&winoMutex);
  return e->u;
}

// ---- Where a vector of 16 tiles lies --------------------------------------

/// One vector of tiles: quad k (lanes 4k .. 4k + 3) reads patch row r's 16
/// columns at x + in[r][k] under mask in0[r][k] (the columns inside the
/// input), and 16 more 4 to the right under in4[r][k] (the last tile's two
/// extra columns come from there); it writes output row i at
/// y + out[i][k] under outMask[i][k]. A quad past the image or a row past
/// it has empty masks.
typedef struct {
  int64_t in[6][4], out[4][4];
  __mmask16 in0[6][4], in4[6][4], outMask[4][4];
} WinoVector;

static __mmask16 columnsBelow(int64_t start, int64_t limit) {
  int64_t n = limit - start;
  return n <= 0 ? 0 : n >= 16 ? 0xFFFF : (__mmask16)((1u << n) - 1);
}

/// The geometry of vector `v` of `c`: quad q of the image is row of tiles
/// q / quadsPerRow, columns 16 * (q % quadsPerRow) onwards.
static void locateVector(const OnnxcWinograd *c, int64_t quads,
                         int64_t quadsPerRow, int64_t v, WinoVector *q) {
  for (int k = 0; k < 4; ++k) {
    int64_t quad = 4 * v + k, row = quad / quadsPerRow,
            col = 16 * (quad % quadsPerRow);
    for (int r = 0; r < 6; ++r) {
      int inside = quad < quads && 4 * row + r < c->xh;
      q->in[r][k] = inside ? (4 * row + r) * c->xs[2] + col : 0;
      q->in0[r][k] = inside ? columnsBelow(col, c->xw) : 0;
      q->in4[r][k] = inside ? columnsBelow(col + 4, c->xw) : 0;
    }
    for (int i = 0; i < 4; ++i) {
      int inside = quad < quads && 4 * row + i < c->oh;
      q->out[i][k] = inside ? (4 * row + i) * c->ys[2] + col : 0;
      q->outMask[i][k] = inside ? columnsBelow(col, c->ow) : 0;
    }
  }
}

// ---- The transforms -------------------------------------------------------

/// o = B' d for one column of 6 (each a vector of tiles).
ONNXC_WINO static inline void transformIn(const __m512 d[6], __m512 o[6]) {
  __m512 four = _mm512_set1_ps(4.0f), five = _mm512_set1_ps(5.0f);
  __m512 t0 = _mm512_fnmadd_ps(four, d[2], d[4]); // d4 - 4 d2
  __m512 t1 = _mm512_fnmadd_ps(four, d[1], d[3]); // d3 - 4 d1
  __m512 t2 = _mm512_sub_ps(d[4], d[2]);
  __m512 d31 = _mm512_sub_ps(d[3], d[1]);
  __m512 t3 = _mm512_add_ps(d31, d31); // 2 (d3 - d1)
  o[0] = _mm512_fmadd_ps(four, d[0], _mm512_fnmadd_ps(five, d[2], d[4]));
  o[1] = _mm512_add_ps(t0, t1);
  o[2] = _mm512_sub_ps(t0, t1);
  o[3] = _mm512_add_ps(t2, t3);
  o[4] = _mm512_sub_ps(t2, t3);
  o[5] = _mm512_fmadd_ps(four, d[1], _mm512_fnmadd_ps(five, d[3], d[5]));
}

/// o = A' m for one column of 6.
ONNXC_WINO static inline void transformOut(const __m512 m[6], __m512 o[4]) {
  __m512 a = _mm512_add_ps(m[1], m[2]), b = _mm512_sub_ps(m[1], m[2]);
  __m512 c = _mm512_add_ps(m[3], m[4]), d = _mm512_sub_ps(m[3], m[4]);
  o[0] = _mm512_add_ps(_mm512_add_ps(m[0], a), c);
  o[1] = _mm512_fmadd_ps(_mm512_set1_ps(2.0f), d, b);
  o[2] = _mm512_fmadd_ps(_mm512_set1_ps(4.0f), c, a);
  o[3] = _mm512_add_ps(_mm512_fmadd_ps(_mm512_set1_ps(8.0f), d, b), m[5]);
}

/// Writes V = B' d B of channel plane `x` for the tiles of `q` to
/// v[point * pointStride] (16 floats each).
ONNXC_WINO static void inputTransform(const float *x, const WinoVector *q,
                                      float *v, int64_t pointStride) {
  // Pairs of quads: columns 0, 1 (then 2, 3) of each tile, side by side.
  const __m512i pick01 = _mm512_set_epi32(29, 28, 25, 24, 21, 20, 17, 16, 13,
                                          12, 9, 8, 5, 4, 1, 0);
  const __m512i pick23 = _mm512_set_epi32(31, 30, 27, 26, 23, 22, 19, 18, 15,
                                          14, 11, 10, 7, 6, 3, 2);
  const __m512i even = ONNXC_EVEN_LANES;
  const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
  __m512 h[6][6];
  for (int r = 0; r < 6; ++r) {
    __m512 a[4], b[4];
    for (int k = 0; k < 4; ++k) {
      a[k] = _mm512_maskz_loadu_ps(q->in0[r][k], x + q->in[r][k]);
      b[k] = _mm512_maskz_loadu_ps(q->in4[r][k], x + q->in[r][k] + 4);
    }
    __m512 p01 = _mm512_permutex2var_ps(a[0], pick01, a[1]);
    __m512 p23 = _mm512_permutex2var_ps(a[0], pick23, a[1]);
    __m512 q01 = _mm512_permutex2var_ps(a[2], pick01, a[3]);
    __m512 q23 = _mm512_permutex2var_ps(a[2], pick23, a[3]);
    __m512 pb = _mm512_permutex2var_ps(b[0], pick01, b[1]);
    __m512 qb = _mm512_permutex2var_ps(b[2], pick01, b[3]);
    __m512 d[6] = {_mm512_permutex2var_ps(p01, even, q01),
                   _mm512_permutex2var_ps(p01, odd, q01),
                   _mm512_permutex2var_ps(p23, even, q23),
                   _mm512_permutex2var_ps(p23, odd, q23),
                   _mm512_permutex2var_ps(pb, even, qb),
                   _mm512_permutex2var_ps(pb, odd, qb)};
    transformIn(d, h[r]);
  }
  for (int j = 0; j < 6; ++j) {
    __m512 col[6] = {h[0][j], h[1][j], h[2][j], h[3][j], h[4][j], h[5][j]};
    __m512 o[6];
    transformIn(col, o);
    for (int i = 0; i < 6; ++i)
      _mm512_store_ps(v + (6 * i + j) * pointStride, o[i]);
  }
}

/// Y = A' M A for the tiles of `q` of one filter, M's points at
/// m[point * pointStride]; stores Y plus the filter's `bias` (NULL: plus
/// what `y` holds), plus the residual at `res` (NULL: none), then the
/// activation, to `y` (`res` shares its offsets).
ONNXC_WINO static void outputTransform(const float *m, int64_t pointStride,
                                       const WinoVector *q,
                                       const OnnxcWinograd *c,
                                       const float *bias, float *y,
                                       const float *res) {
  const __m512i low =
      _mm512_set_epi32(23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
  const __m512i high = _mm512_add_epi32(low, _mm512_set1_epi32(8));
  const __m512i quad0 =
      _mm512_set_epi32(23, 22, 7, 6, 21, 20, 5, 4, 19, 18, 3, 2, 17, 16, 1, 0);
  const __m512i quad1 = _mm512_add_epi32(quad0, _mm512_set1_epi32(8));
  __m512 t[4][6];
  for (int j = 0; j < 6; ++j) {
    __m512 col[6], o[4];
    for (int i = 0; i < 6; ++i)
      col[i] = _mm512_load_ps(m + (6 * i + j) * pointStride);
    transformOut(col, o);
    for (int i = 0; i < 4; ++i)
      t[i][j] = o[i];
  }
  __m512 vb = _mm512_set1_ps(bias ? *bias : 0.0f), lo = _mm512_set1_ps(c->lo),
         hi = _mm512_set1_ps(c->hi);
  for (int i = 0; i < 4; ++i) {
    __m512 o[4];
    transformOut(t[i], o);
    // Tile t's column s is lane t of o[s]: interleave into each quad's 16
    // columns (4 t + s).
    __m512 e01 = _mm512_permutex2var_ps(o[0], low, o[1]);
    __m512 f01 = _mm512_permutex2var_ps(o[0], high, o[1]);
    __m512 e23 = _mm512_permutex2var_ps(o[2], low, o[3]);
    __m512 f23 = _mm512_permutex2var_ps(o[2], high, o[3]);
    __m512 rows[4] = {_mm512_permutex2var_ps(e01, quad0, e23),
                      _mm512_permutex2var_ps(e01, quad1, e23),
                      _mm512_permutex2var_ps(f01, quad0, f23),
                      _mm512_permutex2var_ps(f01, quad1, f23)};
    for (int k = 0; k < 4; ++k) {
      __mmask16 mask = q->outMask[i][k];
      if (!mask)
        continue;
      __m512 v = _mm512_add_ps(
          rows[k], bias ? vb : _mm512_maskz_loadu_ps(mask, y + q->out[i][k]));
      if (res)
        v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, res + q->out[i][k]));
      if (c->clamp)
        v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
      if (c->hardSwish)
        v = onnxcHardSwish16(v);
      _mm512_mask_storeu_ps(y + q->out[i][k], mask, v);
    }
  }
}

// ---- The 36 products --------------------------------------------------------

/// m[f][16 NV] = sum over c of u[c][f] v[c][16 NV], for the WinoFilters
/// filters of `u` and NV vectors of tiles: one point of one block.
#define ONNXC_WINO_PRODUCTS(NAME, NV)                                          \
  ONNXC_WINO static void NAME(const float *u, const float *v,                  \
                              int64_t channels, float *m) {                    \
    __m512 acc[WinoFilters][NV];                                               \
    for (int f = 0; f < WinoFilters; ++f)                                      \
      for (int j = 0; j < NV; ++j)                                             \
        acc[f][j] = _mm512_setzero_ps();                                       \
    for (int64_t ch = 0; ch < channels;                                        \
         ++ch, u += WinoFilters, v += 16 * NV) {                               \
      __m512 b[NV];                                                            \
      for (int j = 0; j < NV; ++j)                                             \
        b[j] = _mm512_load_ps(v + 16 * j);                                     \
      for (int f = 0; f < WinoFilters; ++f) {                                  \
        __m512 a = _mm512_set1_ps(u[f]);                                       \
        for (int j = 0; j < NV; ++j)                                           \
          acc[f][j] = _mm512_fmadd_ps(a, b[j], acc[f][j]);                     \
      }                                                                        \
    }                                                                          \
    for (int f = 0; f < WinoFilters; ++f)                                      \
      for (int j = 0; j < NV; ++j)                                             \
        _mm512_store_ps(m + 16 * (f * NV + j), acc[f][j]);                     \
  }
ONNXC_WINO_PRODUCTS(products1, 1)
ONNXC_WINO_PRODUCTS(products2, 2)
ONNXC_WINO_PRODUCTS(products3, 3)
#undef ONNXC_WINO_PRODUCTS

typedef void (*WinoProducts)(const float *, const float *, int64_t, float *);

// ---- Blocks of vectors ------------------------------------------------------

typedef struct {
  const OnnxcWinograd *c;
  const float *u;
  int64_t quads, quadsPerRow, vectors;
  // Task t: image t / (blocks * slices), block of vectors t / slices %
  // blocks, slice of the filter blocks t % slices; `parts` sets of tasks.
  int64_t blocks, slices, tasks, parts;
  float *scratch; // per part: V, then M
} WinoRun;

enum {
  // Floats of M's buffer, and of V's per channel.
  WinoMFloats = WinoPoints * WinoFilters * 16 * WinoMaxVectors,
  WinoVFloatsPerChannel = WinoPoints * 16 * WinoMaxVectors,
  WinoVPad = WinoPoints * 16 // a line per point (see runBlock)
};

/// Task `task` of `run`.
ONNXC_WINO static void runBlock(const WinoRun *run, int64_t task, float *vBuf,
                                float *mBuf) {
  const OnnxcWinograd *c = run->c;
  int64_t slice = task % run->slices, block = task / run->slices % run->blocks,
          image = task / (run->slices * run->blocks);
  int64_t v0 = block * run->vectors / run->blocks,
          v1 = (block + 1) * run->vectors / run->blocks, nv = v1 - v0;
  int64_t filterBlocks = (c->filters + WinoFilters - 1) / WinoFilters;
  int64_t fb0 = slice * filterBlocks / run->slices,
          fb1 = (slice + 1) * filterBlocks / run->slices;
  static const WinoProducts products[WinoMaxVectors] = {products1, products2,
                                                        products3};
  WinoVector q[WinoMaxVectors];
  for (int64_t j = 0; j < nv; ++j)
    locateVector(c, run->quads, run->quadsPerRow, v0 + j, &q[j]);
  const float *x = c->x + image * c->xs[0];
  // V: [point][channel][vector], the points a line more than a multiple of
  // 4 KiB apart (else the transform's 36 stores of a patch share an L1 set).
  int64_t vPoint = c->channels * 16 * nv + 16;
  for (int64_t ch = 0; ch < c->channels; ++ch)
    for (int64_t j = 0; j < nv; ++j)
      inputTransform(x + ch * c->xs[1], &q[j], vBuf + (ch * nv + j) * 16,
                     vPoint);
  float *y = c->y + image * c->ys[0];
  const float *res = c->res ? c->res + image * c->resImageStride : NULL;
  int64_t mPoint = WinoFilters * 16 * nv; // M: [point][filter][vector]
  for (int64_t f0 = fb0 * WinoFilters; f0 < fb1 * WinoFilters;
       f0 += WinoFilters) {
    const float *u = run->u + f0 * WinoPoints * c->channels;
    for (int p = 0; p < WinoPoints; ++p)
      products[nv - 1](u + p * c->channels * WinoFilters, vBuf + p * vPoint,
                       c->channels, mBuf + p * mPoint);
    for (int64_t f = f0; f < c->filters && f < f0 + WinoFilters; ++f)
      for (int64_t j = 0; j < nv; ++j)
        outputTransform(mBuf + ((f - f0) * nv + j) * 16, mPoint, &q[j], c,
                        c->bias ? c->bias + f : NULL, y + f * c->ys[1],
                        res ? res + f * c->ys[1] : NULL);
  }
}

/// Parts [begin, end) of `run`'s tasks, each with its own slice of the
/// scratch buffer.
static void runParts(void *ctx, int64_t begin, int64_t end) {
  const WinoRun *run = ctx;
  int64_t vFloats = WinoVFloatsPerChannel * run->c->channels + WinoVPad;
  for (int64_t part = begin; part < end; ++part) {
    float *vBuf = run->scratch + part * (vFloats + WinoMFloats);
    for (int64_t task = part * run->tasks / run->parts,
                 last = (part + 1) * run->tasks / run->parts;
         task < last; ++task)
      runBlock(run, task, vBuf, vBuf + vFloats);
  }
}

static pthread_once_t enabledOnce = PTHREAD_ONCE_INIT;
static int enabled;

static void initEnabled(void) {
  const char *env = getenv("ONNXC_WINOGRAD");
  enabled = __builtin_cpu_supports("avx512f") && !(env && !strcmp(env, "0"));
}

int onnxcConvWinograd(const OnnxcWinograd *c) {
  pthread_once(&enabledOnce, initEnabled);
  if (!enabled || c->channels < 16 || c->filters < 16 || c->oh < 4 ||
      c->ow < 4 || c->xh < c->oh + 2 || c->xw < c->ow + 2)
    return 0;
  WinoRun run = {.c = c};
  int64_t tilesW = (c->ow + 3) / 4, tilesH = (c->oh + 3) / 4;
  run.quadsPerRow = (tilesW + 3) / 4;
  run.quads = tilesH * run.quadsPerRow;
  run.vectors = (run.quads + 3) / 4;
  // Most lanes must be output pixels (not 7x7 images: 49 of 256), and the
  // transformed filters, 4x the filters, streamed once per vector (from
  // memory, in a model) must not cost more than the products save: ResNet's
  // 256 -> 256 on 14 x 14 (9 MiB for one vector) lost 0.1 ms a layer.
  double filterBytes =
      (double)c->filters * (double)c->channels * WinoPoints * sizeof(float);
  if (c->oh * c->ow * 2 < run.vectors * 256 ||
      filterBytes > WinoMaxFilterBytesPerVector * (double)run.vectors)
    return 0;
  run.u = transformedFilters(c);
  if (!run.u)
    return 0;
  // Blocks of at most WinoMaxVectors vectors, as many per image as the
  // threads (or a multiple) so that each gets a like share; with fewer
  // vectors than threads, the filters are cut into a slice per thread
  // instead (each transforms the input anew).
  onnxc_threadpool *pool = onnxc_current_threadpool();
  int64_t threads = onnxc_threadpool_size(pool);
  int64_t blocks = (run.vectors + WinoMaxVectors - 1) / WinoMaxVectors;
  run.slices = 1;
  if (threads > 1 && c->images < threads && run.vectors >= threads)
    blocks = (blocks + threads - 1) / threads * threads;
  else if (threads > 1 && c->images * blocks < threads)
    run.slices = threads;
  run.blocks = blocks;
  run.tasks = c->images * blocks * run.slices;
  run.parts = threads < run.tasks ? threads : run.tasks;
  // The scratch of every part, from the calling thread (the workers'
  // buffers may not have been made yet, and making them can fail).
  run.scratch =
      onnxcThreadBuffer(0, run.parts * (WinoVFloatsPerChannel * c->channels +
                                        WinoVPad + WinoMFloats));
  if (!run.scratch)
    return 0;
  if (run.parts > 1)
    onnxc_parallel_for(pool, run.parts, runParts, &run);
  else
    runParts(&run, 0, 1);
  return 1;
}

#else

int onnxcConvWinograd(const OnnxcWinograd *c) {
  (void)c;
  return 0;
}

#endif

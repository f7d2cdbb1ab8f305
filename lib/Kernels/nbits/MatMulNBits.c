/*===- MatMulNBits.c - Products with packed 4-bit block-quantized weights --===*
 *
 * The entry point that fused.matmul_nbits (com.microsoft MatMulNBits)
 * calls: Y = A W^T + bias, W [N, K] held as 4-bit values, two to a byte
 * (lower nibble first), in blocks of `blockSize` along K, each block
 * dequantized as (q - zero point) * scale. The weights stay packed: a
 * quarter of the f32 bytes to stream.
 *
 * A of 1 to ONNXC_GEMV_MAX_ROWS rows (decoding one token at a time): one
 * pass over the packed bytes, each 8 bytes unpacked in registers into 16
 * values (mask and shift, widen, convert to f32) and multiplied into every
 * row; AVX2 dequantizes them in registers (q * scale - zero point *
 * scale), the portable C takes the zero point out of its inner loop as zero
 * point * scale * (the sum of A over the block). The unpacked order (the 8
 * lower nibbles, then the 8 upper ones) is not K's, so A is permuted once
 * into it. Columns go in groups whose sums are independent chains (four
 * columns for one row), and column ranges over the thread pool.
 *
 * More rows (a prompt): panels of W's columns dequantized to f32 (spread
 * over the pool) straight into the packed B layout of the GEMM's kernel
 * (KernelABI.h), each multiplied by the packed GEMM (Kernels.h): the
 * dequantization costs a pass per panel against the GEMM's M flops per
 * weight, and the GEMM packs no B.
 *
 * The AVX2 kernels carry their target attributes; without AVX2 and FMA
 * (or with ONNXC_NBITS_KERNEL=generic in the environment) portable C runs.
 *
 *===----------------------------------------------------------------------===*/

#include "lib/Kernels/Kernels.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#define ONNXC_NBITS_AVX2 __attribute__((target("avx2,fma")))
#endif

enum {
  FlagZeroPoints = ONNXC_NBITS_FLAG_ZERO_POINTS,
  FlagBias = ONNXC_NBITS_FLAG_BIAS
};

/// Values per unpacked chunk (8 bytes): their lower nibbles, then upper.
enum { Chunk = 16 };

/// Columns per task of the pool, and the least work (weights) worth one.
enum { ColumnGrain = 16 };
#define ONNXC_NBITS_PARALLEL_WEIGHTS (1 << 18)

/// Floats of dequantized weights per prefill panel.
#define ONNXC_NBITS_PANEL_FLOATS (1 << 20)

typedef struct {
  const uint8_t *b, *zeroPoints;
  const float *scales, *bias;
  int64_t k, n, blockSize, blocks;
  /* The GEMV: `rows` rows of A permuted into chunk order (blocks *
   * blockSize each, zero padded), the sums of each row's blocks. */
  const float *ap, *blockSums;
  int64_t rows;
  float *y;
  int64_t yStride0, yStride1;
  /* The prefill: the panel of columns [n0, n0 + count) in the packed B
   * layout (nr, kcBlock) of KernelABI.h, nPad columns. */
  float *panel;
  int64_t n0, kcBlock, nPad;
  int nr;
} NBits;

/// The zero point of block j of column n.
static inline float zeroPoint(const NBits *p, int64_t n, int64_t j) {
  if (!p->zeroPoints)
    return 8.0f;
  uint8_t byte = p->zeroPoints[n * ((p->blocks + 1) / 2) + j / 2];
  return (float)((j & 1) ? byte >> 4 : byte & 15);
}

/// Y[r, n] for the columns [n0, n1), portable C.
static void gemvGeneric(const NBits *p, int64_t n0, int64_t n1) {
  int64_t span = p->blocks * p->blockSize, bytes = p->blockSize / 2;
  for (int64_t n = n0; n < n1; ++n) {
    float sums[ONNXC_GEMV_MAX_ROWS] = {0};
    for (int64_t j = 0; j < p->blocks; ++j) {
      const uint8_t *q = p->b + (n * p->blocks + j) * bytes;
      float scale = p->scales[n * p->blocks + j], zero = zeroPoint(p, n, j);
      for (int64_t r = 0; r < p->rows; ++r) {
        const float *a = p->ap + r * span + j * p->blockSize;
        float dot = 0.0f;
        for (int64_t c = 0; c < bytes; c += Chunk / 2, a += Chunk)
          for (int i = 0; i < Chunk / 2; ++i)
            dot += a[i] * (float)(q[c + i] & 15) +
                   a[i + Chunk / 2] * (float)(q[c + i] >> 4);
        sums[r] += scale * (dot - zero * p->blockSums[r * p->blocks + j]);
      }
    }
    for (int64_t r = 0; r < p->rows; ++r)
      p->y[r * p->yStride0 + n * p->yStride1] =
          sums[r] + (p->bias ? p->bias[n] : 0.0f);
  }
}

#if defined(__x86_64__)
ONNXC_NBITS_AVX2 static inline float hsumAvx2(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

/// `cols` columns from n times `rows` rows (constants once inlined): each
/// chunk's 16 values dequantized in registers, q * scale - zero point *
/// scale, and multiplied into every row; the lower and upper nibbles' sums
/// of each pair in their own registers (independent chains).
ONNXC_NBITS_AVX2 static inline __attribute__((always_inline)) void
gemvTileAvx2(const NBits *p, int64_t n, const int rows, const int cols) {
  int64_t span = p->blocks * p->blockSize, bytes = p->blockSize / 2;
  const __m128i low = _mm_set1_epi8(15);
  __m256 lo[4][4], hi[4][4];
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r)
      lo[c][r] = hi[c][r] = _mm256_setzero_ps();
  const uint8_t *q[4];
  for (int c = 0; c < cols; ++c)
    q[c] = p->b + (n + c) * p->blocks * bytes;
  const float *a = p->ap;
  for (int64_t j = 0; j < p->blocks; ++j) {
    __m256 s[4], zs[4];
    for (int c = 0; c < cols; ++c) {
      float scale = p->scales[(n + c) * p->blocks + j];
      s[c] = _mm256_set1_ps(scale);
      zs[c] = _mm256_set1_ps(zeroPoint(p, n + c, j) * scale);
    }
    for (int64_t at = 0; at < bytes; at += Chunk / 2, a += Chunk) {
      for (int c = 0; c < cols; ++c) {
        __m128i v = _mm_loadl_epi64((const __m128i *)q[c]);
        q[c] += Chunk / 2;
        __m256 wl = _mm256_fmsub_ps(
            _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_and_si128(v, low))),
            s[c], zs[c]);
        __m256 wh =
            _mm256_fmsub_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(
                                _mm_and_si128(_mm_srli_epi16(v, 4), low))),
                            s[c], zs[c]);
        for (int r = 0; r < rows; ++r) {
          lo[c][r] =
              _mm256_fmadd_ps(wl, _mm256_loadu_ps(a + r * span), lo[c][r]);
          hi[c][r] =
              _mm256_fmadd_ps(wh, _mm256_loadu_ps(a + r * span + 8), hi[c][r]);
        }
      }
    }
  }
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r)
      p->y[r * p->yStride0 + (n + c) * p->yStride1] =
          hsumAvx2(_mm256_add_ps(lo[c][r], hi[c][r])) +
          (p->bias ? p->bias[n + c] : 0.0f);
}

/// Y[r, n] for the columns [n0, n1) with AVX2: eight chains of sums.
ONNXC_NBITS_AVX2 static void gemvAvx2(const NBits *p, int64_t n0, int64_t n1) {
  int64_t n = n0;
  switch (p->rows) {
  case 1:
    for (; n + 4 <= n1; n += 4)
      gemvTileAvx2(p, n, 1, 4);
    for (; n < n1; ++n)
      gemvTileAvx2(p, n, 1, 1);
    break;
  case 2:
    for (; n + 2 <= n1; n += 2)
      gemvTileAvx2(p, n, 2, 2);
    for (; n < n1; ++n)
      gemvTileAvx2(p, n, 2, 1);
    break;
  case 3:
    for (; n < n1; ++n)
      gemvTileAvx2(p, n, 3, 1);
    break;
  default:
    for (; n < n1; ++n)
      gemvTileAvx2(p, n, 4, 1);
    break;
  }
}

/// Column n of W into w[0, k) with AVX2: each 8 bytes interleaved back
/// into K's order.
ONNXC_NBITS_AVX2 static void dequantAvx2(const NBits *p, int64_t n, float *w) {
  int64_t bytes = p->blockSize / 2;
  const __m128i low = _mm_set1_epi8(15);
  float tail[256];
  {
    for (int64_t j = 0; j < p->blocks; ++j) {
      const uint8_t *q = p->b + (n * p->blocks + j) * bytes;
      float scale = p->scales[n * p->blocks + j];
      __m256 s = _mm256_set1_ps(scale);
      __m256 zs = _mm256_set1_ps(zeroPoint(p, n, j) * scale);
      int64_t first = j * p->blockSize;
      // The last block of a K it does not divide goes through `tail`.
      float *out = first + p->blockSize <= p->k ? w + first : tail;
      for (int64_t at = 0; at < bytes; at += Chunk / 2) {
        __m128i v = _mm_loadl_epi64((const __m128i *)(q + at));
        __m128i pairs = _mm_unpacklo_epi8(
            _mm_and_si128(v, low), _mm_and_si128(_mm_srli_epi16(v, 4), low));
        __m256 a = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(pairs));
        __m256 b =
            _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(pairs, 8)));
        _mm256_storeu_ps(out + 2 * at, _mm256_fmsub_ps(a, s, zs));
        _mm256_storeu_ps(out + 2 * at + 8, _mm256_fmsub_ps(b, s, zs));
      }
      if (out == tail)
        memcpy(w + first, tail, sizeof(float) * (size_t)(p->k - first));
    }
  }
}
#endif

/// Column n of W into w[0, k), portable C.
static void dequantGeneric(const NBits *p, int64_t n, float *w) {
  int64_t bytes = p->blockSize / 2;
  {
    for (int64_t j = 0; j < p->blocks; ++j) {
      const uint8_t *q = p->b + (n * p->blocks + j) * bytes;
      float scale = p->scales[n * p->blocks + j], zero = zeroPoint(p, n, j);
      float table[16];
      for (int v = 0; v < 16; ++v)
        table[v] = ((float)v - zero) * scale;
      int64_t first = j * p->blockSize;
      for (int64_t i = 0; i < bytes && first + 2 * i < p->k; ++i) {
        w[first + 2 * i] = table[q[i] & 15];
        if (first + 2 * i + 1 < p->k)
          w[first + 2 * i + 1] = table[q[i] >> 4];
      }
    }
  }
}

typedef void (*RangeFn)(const NBits *, int64_t, int64_t);
typedef void (*ColumnFn)(const NBits *, int64_t, float *);

/// Column `at` of the panel from w[0, k), in the packed layout.
static void packColumn(const NBits *p, int64_t at, const float *w) {
  int64_t sliver = at / p->nr, lane = at % p->nr;
  for (int64_t pc = 0; pc < p->k; pc += p->kcBlock) {
    int64_t kc = p->k - pc < p->kcBlock ? p->k - pc : p->kcBlock;
    float *dst = p->panel + pc * p->nPad + sliver * kc * p->nr + lane;
    for (int64_t i = 0; i < kc; ++i)
      dst[i * p->nr] = w[pc + i];
  }
}

/// AVX2 and FMA unless this CPU lacks them or ONNXC_NBITS_KERNEL=generic.
static int useAvx2(void) {
  static int chosen = -1;
  if (chosen < 0) {
    const char *forced = getenv("ONNXC_NBITS_KERNEL");
    int avx2 = 0;
#if defined(__x86_64__)
    __builtin_cpu_init();
    avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    chosen = avx2 && !(forced && !strcmp(forced, "generic"));
  }
  return chosen;
}

typedef struct {
  const NBits *p;
  RangeFn fn;
  int64_t first, end;
} Columns;

/// Column groups [begin, end) of ColumnGrain columns.
static void runColumns(void *ctx, int64_t begin, int64_t end) {
  const Columns *c = ctx;
  int64_t n1 = c->first + end * ColumnGrain;
  c->fn(c->p, c->first + begin * ColumnGrain, n1 < c->end ? n1 : c->end);
}

/// fn(p, first, end), split over the pool when the columns hold enough
/// weights.
static void forColumns(const NBits *p, RangeFn fn, int64_t first, int64_t end) {
  Columns c = {p, fn, first, end};
  int64_t groups = (end - first + ColumnGrain - 1) / ColumnGrain;
  onnxc_threadpool *pool = onnxc_current_threadpool();
  if (!pool || (double)(end - first) * (double)p->k <
                   (double)ONNXC_NBITS_PARALLEL_WEIGHTS)
    runColumns(&c, 0, groups);
  else
    onnxc_parallel_for(pool, groups, runColumns, &c);
}

/// The GEMV: A permuted into chunk order, then one pass over B.
static void gemv(NBits *p, const float *a, int64_t aStride0, int64_t aStride1) {
  int64_t span = p->blocks * p->blockSize;
  float *ap = calloc((size_t)(p->rows * (span + p->blocks)), sizeof(float));
  if (!ap)
    return;
  float *sums = ap + p->rows * span;
  for (int64_t r = 0; r < p->rows; ++r)
    for (int64_t i = 0; i < p->k; ++i) {
      float v = a[r * aStride0 + i * aStride1];
      int64_t chunk = i / Chunk * Chunk, at = i % Chunk;
      ap[r * span + chunk + (at & 1) * (Chunk / 2) + at / 2] = v;
      sums[r * p->blocks + i / p->blockSize] += v;
    }
  p->ap = ap;
  p->blockSums = sums;
#if defined(__x86_64__)
  if (useAvx2()) {
    forColumns(p, gemvAvx2, 0, p->n);
    free(ap);
    return;
  }
#endif
  forColumns(p, gemvGeneric, 0, p->n);
  free(ap);
}

/// This thread's panel buffer, kept and grown across calls.
static float *panelBuffer(int64_t floats) {
  static _Thread_local float *buffer;
  static _Thread_local int64_t size;
  if (floats > size) {
    free(buffer);
    buffer = aligned_alloc(64, (size_t)((floats * 4 + 63) / 64 * 64));
    size = buffer ? floats : 0;
  }
  return buffer;
}

/// Columns [n0, n1) of W into the panel.
static void dequantRange(const NBits *p, int64_t n0, int64_t n1) {
  ColumnFn column = dequantGeneric;
#if defined(__x86_64__)
  if (useAvx2())
    column = dequantAvx2;
#endif
  float *w = malloc(sizeof(float) * (size_t)p->k);
  if (!w)
    return;
  for (int64_t n = n0; n < n1; ++n) {
    column(p, n, w);
    packColumn(p, n - p->n0, w);
  }
  free(w);
}

/// The packed B layout of the GEMM's kernel for a reduction of length k.
static void packedLayout(int64_t k, int *nr, int64_t *kcBlock) {
  const char *name = onnxcGemmKernelName();
  OnnxcGemmIsa isa = !strcmp(name, "avx512") ? ONNXC_GEMM_ISA_AVX512
                     : !strcmp(name, "avx2") ? ONNXC_GEMM_ISA_AVX2
                     : !strcmp(name, "neon") ? ONNXC_GEMM_ISA_NEON
                                             : ONNXC_GEMM_ISA_GENERIC;
  OnnxcGemmTile tile = onnxcGemmDefaultTile(isa);
  *nr = tile.nr;
  *kcBlock = onnxcGemmBlockK(tile.kc, k);
}

/// The prefill: panels of columns dequantized straight into the GEMM's
/// packed B layout (no packing in the GEMM), each multiplied by A.
static void gemm(NBits *p, const float *a, int64_t aStride0, int64_t aStride1,
                 int64_t m) {
  packedLayout(p->k, &p->nr, &p->kcBlock);
  int64_t grain = p->nr > ColumnGrain ? p->nr : ColumnGrain;
  int64_t cols = ONNXC_NBITS_PANEL_FLOATS / p->k / grain * grain;
  if (cols < grain)
    cols = grain;
  if (cols > p->n)
    cols = (p->n + p->nr - 1) / p->nr * p->nr;
  float *panel = panelBuffer(cols * p->k);
  // (B's tables, all zero, are read only as those of a strided B.)
  int64_t *t = calloc((size_t)(2 * m + 2 * p->k + 2 * cols), sizeof(int64_t));
  int64_t most = cols > p->k ? cols : p->k;
  float *zeros = calloc((size_t)most, sizeof(float));
  if (!panel || !t || !zeros) {
    free(t);
    free(zeros);
    return;
  }
  int64_t *aRow = t, *cRow = t + m, *aCol = t + 2 * m, *cCol = aCol + p->k,
          *bRow = cCol + cols, *bCol = bRow + p->k;
  for (int64_t i = 0; i < m; ++i) {
    aRow[i] = i * aStride0;
    cRow[i] = i * p->yStride0;
  }
  for (int64_t i = 0; i < p->k; ++i)
    aCol[i] = i * aStride1;
  for (int64_t j = 0; j < cols; ++j)
    cCol[j] = j * p->yStride1;
  p->panel = panel;
  for (int64_t n0 = 0; n0 < p->n; n0 += cols) {
    int64_t count = p->n - n0 < cols ? p->n - n0 : cols;
    p->n0 = n0;
    p->nPad = (count + p->nr - 1) / p->nr * p->nr;
    forColumns(p, dequantRange, n0, n0 + count);
    for (int64_t j = count; j < p->nPad; ++j)
      packColumn(p, j, zeros);
    // Y's columns are set to the bias (or zero) plus the product.
    OnnxcGemm g = {.m = m,
                   .n = count,
                   .k = p->k,
                   .a = a,
                   .aRow = aRow,
                   .aCol = aCol,
                   .bRow = bRow,
                   .bCol = bCol,
                   .c = p->y + n0 * p->yStride1,
                   .cRow = cRow,
                   .cCol = cCol,
                   .bias = p->bias ? p->bias + n0 : zeros,
                   .biasColumns = 1,
                   .strided = 1};
    onnxcGemmPacked(&g, panel, p->nr, p->kcBlock);
  }
  free(t);
  free(zeros);
}

void onnxc_kernel_matmul_nbits_f32(ONNXC_MEMREF2(a), ONNXC_QMEMREF1(b),
                                   ONNXC_MEMREF1(s), ONNXC_QMEMREF1(z),
                                   ONNXC_MEMREF1(bias), ONNXC_MEMREF2(y),
                                   int64_t k, int64_t blockSize,
                                   int64_t flags) {
  (void)aAlloc, (void)aSize1, (void)bAlloc, (void)bSize0, (void)bStride0,
      (void)sAlloc, (void)sSize0, (void)sStride0, (void)zAlloc, (void)zSize0,
      (void)zStride0, (void)biasAlloc, (void)biasSize0, (void)biasStride0,
      (void)yAlloc, (void)ySize0;
  int64_t m = aSize0, n = ySize1;
  if (m <= 0 || n <= 0 || k <= 0 || blockSize < Chunk)
    return;
  NBits p = {.b = (const uint8_t *)b + bOff,
             .zeroPoints =
                 (flags & FlagZeroPoints) ? (const uint8_t *)z + zOff : NULL,
             .scales = s + sOff,
             .bias = (flags & FlagBias) ? bias + biasOff : NULL,
             .k = k,
             .n = n,
             .blockSize = blockSize,
             .blocks = (k + blockSize - 1) / blockSize,
             .y = y + yOff,
             .yStride0 = yStride0,
             .yStride1 = yStride1};
  const float *x = a + aOff;
  if (m > ONNXC_GEMV_MAX_ROWS) {
    gemm(&p, x, aStride0, aStride1, m);
    return;
  }
  p.rows = m;
  gemv(&p, x, aStride0, aStride1);
}

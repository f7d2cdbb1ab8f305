/*===- GemmInt8.c - Packed 8-bit integer GEMM with requantization ----------===*
 *
 * C = epilogue(sum_p (x - xZero) (w - wZero)) for an 8-bit activation x and
 * 8-bit weights w, accumulated exactly in i32. One operand of the GEMM is
 * the activation and the other the weights (a convolution's filters are the
 * rows of A, a MatMul's weights the columns of B); the weights' side holds
 * the output channels that per-channel parameters are indexed by.
 *
 * Both operands are packed into slivers whose reduction is grouped by four
 * bytes, the layout of the dot-product instructions: AVX-512 VNNI vpdpbusd
 * (u8 x s8), AVX2 (the same product computed exactly with vpmaddwd on
 * bytes widened to i16, so that nothing saturates), AArch64 sdot (s8 x s8)
 * and portable C. The kernel is chosen once per process from the CPU.
 *
 * Each kernel has a domain: the activation is converted to u8 (s8 for sdot)
 * and the weights to s8 by flipping the top bit of a byte (x +- 128), and
 * the zero points move with them, so that
 *   sum (x - zx)(w - zw) = D - zx' W[c] - zw'[c] X[r] + K zx' zw'[c]
 * where D is the kernel's product of the converted bytes, zx' and zw' the
 * converted zero points, W the column sums of the converted weights (kept
 * with their packed form) and X the row sums of the activation (computed
 * only when a weight zero point is not 0).
 *
 * The epilogue adds an i32 bias, then for an 8-bit output computes
 * saturate(roundeven(v * scale[c]) + yZero) (with Relu: from yZero up), for
 * an f32 output v * scale[c] (+ an f32 bias, then Relu), or stores v.
 * Constant weights are packed once per process.
 *
 * This file chooses the kernel, packs and runs the blocked loops; the
 * kernels of each ISA are GemmInt8Vnni.c, GemmInt8Avx2.c, GemmInt8Sdot.c and
 * GemmInt8Generic.c, the entry points of the lowered ops QuantOps.c.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "lib/Kernels/int8/GemmInt8Internal.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#endif

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/*===----------------------------------------------------------------------===*
 * Kernel choice
 *===----------------------------------------------------------------------===*/

static const QArch archGeneric = {
    "generic", 4, 8, 0, onnxcQGemmKernelGeneric, onnxcQGemmEpilogueGeneric};
#if defined(__x86_64__)
static const QArch archVnni = {
    "avx512vnni", 14, 32, 0, onnxcQGemmKernelVnni, onnxcQGemmEpilogueAvx512};
static const QArch archAvx2 = {
    "avx2", 4, 16, 0, onnxcQGemmKernelAvx2, onnxcQGemmEpilogueAvx2};
#elif defined(__aarch64__)
static const QArch archSdot = {
    "sdot", 8, 8, 1, onnxcQGemmKernelSdot, onnxcQGemmEpilogueGeneric};
#endif

/// The kernel named `name` ("" or NULL: the best one) if this CPU has it.
static const QArch *findArch(const char *name) {
  int any = !name || !*name;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if ((any || !strcmp(name, "avx512vnni")) &&
      __builtin_cpu_supports("avx512vnni") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
    return &archVnni;
  if ((any || !strcmp(name, "avx2")) && __builtin_cpu_supports("avx2"))
    return &archAvx2;
#elif defined(__aarch64__)
  if ((any || !strcmp(name, "sdot")) && (getauxval(AT_HWCAP) & HWCAP_ASIMDDP))
    return &archSdot;
#endif
  if (any || !strcmp(name, "generic"))
    return &archGeneric;
  return NULL;
}

static const QArch *theArch;
static pthread_once_t archOnce = PTHREAD_ONCE_INIT;
static pthread_mutex_t archMutex = PTHREAD_MUTEX_INITIALIZER;

/// ONNXC_QGEMM_KERNEL may pick a lesser kernel.
static void initArch(void) {
  const QArch *arch = findArch(getenv("ONNXC_QGEMM_KERNEL"));
  theArch = arch ? arch : findArch(NULL);
}

static const QArch *getArch(void) {
  pthread_once(&archOnce, initArch);
  pthread_mutex_lock(&archMutex);
  const QArch *arch = theArch;
  pthread_mutex_unlock(&archMutex);
  return arch;
}

const char *onnxcQGemmKernelName(void) { return getArch()->name; }

int onnxcQGemmSelectKernel(const char *name) {
  pthread_once(&archOnce, initArch);
  const QArch *arch = findArch(name);
  if (!arch)
    return 0;
  pthread_mutex_lock(&archMutex);
  theArch = arch;
  pthread_mutex_unlock(&archMutex);
  return 1;
}

/*===----------------------------------------------------------------------===*
 * Packing
 *===----------------------------------------------------------------------===*/

/// An operand seen as `rows` x k (B transposed: its rows are C's columns):
/// element (r, p) at base[row[r] + col[p]], its bytes xor `flip`.
typedef struct {
  const uint8_t *base;
  const int64_t *row, *col;
  uint8_t flip;
} QOperand;

static QOperand operandA(const OnnxcQGemm *g, uint8_t flip) {
  return (QOperand){g->a, g->aRow, g->aCol, flip};
}

static QOperand operandB(const OnnxcQGemm *g, uint8_t flip) {
  return (QOperand){g->b, g->bCol, g->bRow, flip};
}

/// Writes a[i], b[i], c[i], d[i] (xor `flip`) to out[4 i .. 4 i + 3] for i
/// in [0, n), n a multiple of 16.
static void interleave4(const uint8_t *a, const uint8_t *b, const uint8_t *c,
                        const uint8_t *d, int64_t n, uint8_t flip,
                        uint8_t *out) {
#if defined(__x86_64__)
  __m128i f = _mm_set1_epi8((char)flip);
  for (int64_t h = 0; h < n; h += 16, out += 64) {
    __m128i va = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(a + h)), f);
    __m128i vb = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(b + h)), f);
    __m128i vc = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(c + h)), f);
    __m128i vd = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(d + h)), f);
    __m128i ab0 = _mm_unpacklo_epi8(va, vb), ab1 = _mm_unpackhi_epi8(va, vb);
    __m128i cd0 = _mm_unpacklo_epi8(vc, vd), cd1 = _mm_unpackhi_epi8(vc, vd);
    _mm_storeu_si128((__m128i *)out, _mm_unpacklo_epi16(ab0, cd0));
    _mm_storeu_si128((__m128i *)(out + 16), _mm_unpackhi_epi16(ab0, cd0));
    _mm_storeu_si128((__m128i *)(out + 32), _mm_unpacklo_epi16(ab1, cd1));
    _mm_storeu_si128((__m128i *)(out + 48), _mm_unpackhi_epi16(ab1, cd1));
  }
#elif defined(__aarch64__)
  uint8x16_t f = vdupq_n_u8(flip);
  for (int64_t h = 0; h < n; h += 16, out += 64) {
    uint8x16x4_t v = {
        {veorq_u8(vld1q_u8(a + h), f), veorq_u8(vld1q_u8(b + h), f),
         veorq_u8(vld1q_u8(c + h), f), veorq_u8(vld1q_u8(d + h), f)}};
    vst4q_u8(out, v);
  }
#else
  for (int64_t i = 0; i < n; ++i, out += 4) {
    out[0] = a[i] ^ flip;
    out[1] = b[i] ^ flip;
    out[2] = c[i] ^ flip;
    out[3] = d[i] ^ flip;
  }
#endif
}

/// Packs rows [r0, r0 + rows) of `x` into slivers of `width` rows, each kp / 4
/// groups of width x 4 bytes; rows past the end and reduction steps past k
/// are zero.
static void packSlivers(const QOperand *x, int64_t r0, int64_t rows, int64_t k,
                        int64_t kp, int width, uint8_t *dst) {
  int unitCols = 1;
  for (int64_t p = 1; p < k && unitCols; ++p)
    unitCols = x->col[p] == x->col[0] + p;
  for (int64_t s = 0; s < rows; s += width, dst += kp * width) {
    int64_t count = min64(width, rows - s);
    const int64_t *row = x->row + r0 + s;
    int unitRows = 1;
    for (int64_t i = 1; i < count; ++i)
      unitRows &= row[i] == row[0] + i;
    if (count < width || k % 4)
      memset(dst, 0, (size_t)(kp * width));
    if (unitCols) {
      /* Four consecutive bytes of a row at a time. */
      uint32_t flip = x->flip * 0x01010101u;
      int64_t groups = k / 4;
      for (int64_t i = 0; i < count; ++i) {
        const uint8_t *src = x->base + row[i] + x->col[0];
        uint8_t *d = dst + 4 * i;
        for (int64_t q = 0; q < groups; ++q) {
          uint32_t v;
          memcpy(&v, src + 4 * q, 4);
          v ^= flip;
          memcpy(d + q * 4 * width, &v, 4);
        }
        for (int64_t p = 4 * groups; p < k; ++p)
          d[(p / 4) * 4 * width + p % 4] = src[p] ^ x->flip;
      }
      continue;
    }
    int64_t p0 = 0;
    if (unitRows && count == width && width % 16 == 0) {
      /* Whole groups: four rows of the source, contiguous, interleaved. */
      const uint8_t *src = x->base + row[0];
      for (; p0 + 4 <= k; p0 += 4)
        interleave4(src + x->col[p0], src + x->col[p0 + 1],
                    src + x->col[p0 + 2], src + x->col[p0 + 3], width, x->flip,
                    dst + p0 * width);
    }
    for (int64_t p = p0; p < k; ++p) {
      uint8_t *d = dst + (p / 4) * 4 * width + p % 4;
      if (unitRows) {
        const uint8_t *src = x->base + row[0] + x->col[p];
        for (int64_t i = 0; i < count; ++i)
          d[4 * i] = src[i] ^ x->flip;
      } else {
        const uint8_t *src = x->base + x->col[p];
        for (int64_t i = 0; i < count; ++i)
          d[4 * i] = src[row[i]] ^ x->flip;
      }
    }
  }
}

/// Sums over the reduction of rows [0, rows) of `x` in its domain (bytes as
/// s8 when `asSigned`).
static void rowSums(const QOperand *x, int64_t rows, int64_t k, int asSigned,
                    int32_t *sums) {
  for (int64_t r = 0; r < rows; ++r) {
    int32_t sum = 0;
    const uint8_t *src = x->base + x->row[r];
    for (int64_t p = 0; p < k; ++p) {
      uint8_t byte = src[x->col[p]] ^ x->flip;
      sum += asSigned ? (int32_t)(int8_t)byte : (int32_t)byte;
    }
    sums[r] = sum;
  }
}

/// Constant weights packed whole (slivers of all channels), with their
/// column sums.
typedef struct PackedQ {
  struct PackedQ *next;
  const QArch *arch;
  const uint8_t *base;
  int64_t rows, k, rowStep, colStep;
  uint8_t flip;
  int width;
  uint8_t *packed;
  int32_t *sums;
} PackedQ;

static pthread_mutex_t packedMutex = PTHREAD_MUTEX_INITIALIZER;
static PackedQ *packedList;

/// True when x->row[r] = r * rowStep and x->col[p] = p * colStep.
static int isRegular(const QOperand *x, int64_t rows, int64_t k,
                     int64_t *rowStep, int64_t *colStep) {
  *rowStep = rows > 1 ? x->row[1] - x->row[0] : 0;
  *colStep = k > 1 ? x->col[1] - x->col[0] : 0;
  for (int64_t r = 0; r < rows; ++r)
    if (x->row[r] != r * *rowStep)
      return 0;
  for (int64_t p = 0; p < k; ++p)
    if (x->col[p] != p * *colStep)
      return 0;
  return 1;
}

/// The weights `x` packed in slivers of `width` rows, from the cache or now;
/// NULL when they cannot be cached (then the caller packs per call).
static const PackedQ *packConstant(const QArch *arch, const QOperand *x,
                                   int64_t rows, int64_t k, int width) {
  int64_t rowStep, colStep;
  if (!isRegular(x, rows, k, &rowStep, &colStep))
    return NULL;
  pthread_mutex_lock(&packedMutex);
  PackedQ *e = packedList;
  for (; e; e = e->next)
    if (e->arch == arch && e->base == x->base && e->rows == rows && e->k == k &&
        e->rowStep == rowStep && e->colStep == colStep && e->flip == x->flip &&
        e->width == width)
      break;
  if (!e) {
    int64_t kp = (k + 3) / 4 * 4;
    int64_t padded = (rows + width - 1) / width * width;
    size_t bytes = ((size_t)(padded * kp) + 63) & ~(size_t)63;
    int32_t *sums = malloc(sizeof(int32_t) * (size_t)(rows ? rows : 1));
    e = sums ? malloc(sizeof(*e)) : NULL;
    uint8_t *packed = e ? onnxcPersistentAlloc(bytes) : NULL;
    if (!packed) {
      free(e);
      free(sums);
      pthread_mutex_unlock(&packedMutex);
      return NULL;
    }
    packSlivers(x, 0, rows, k, kp, width, packed);
    rowSums(x, rows, k, 1, sums);
    *e = (PackedQ){packedList, arch,    x->base, rows,   k,   rowStep,
                   colStep,    x->flip, width,   packed, sums};
    packedList = e;
  }
  pthread_mutex_unlock(&packedMutex);
  return e;
}

/// One buffer per thread for the per-call panels (kept, grown as needed,
/// freed when the thread exits).
static pthread_key_t bufferKey;
static pthread_once_t bufferOnce = PTHREAD_ONCE_INIT;

typedef struct {
  uint8_t *data;
  size_t bytes;
} ThreadBuffer;

static void freeBuffer(void *p) {
  ThreadBuffer *buffer = p;
  free(buffer->data);
  free(buffer);
}

static void initBufferKey(void) { pthread_key_create(&bufferKey, freeBuffer); }

static uint8_t *threadBuffer(size_t bytes) {
  pthread_once(&bufferOnce, initBufferKey);
  ThreadBuffer *buffer = pthread_getspecific(bufferKey);
  if (!buffer) {
    buffer = calloc(1, sizeof(*buffer));
    if (!buffer || pthread_setspecific(bufferKey, buffer) != 0) {
      free(buffer);
      return NULL;
    }
  }
  bytes = (bytes + 63) & ~(size_t)63;
  if (buffer->bytes < bytes) {
    free(buffer->data);
    buffer->data = aligned_alloc(64, bytes);
    buffer->bytes = buffer->data ? bytes : 0;
  }
  return buffer->data;
}

/*===----------------------------------------------------------------------===*
 * The blocked loops
 *===----------------------------------------------------------------------===*/

typedef struct {
  const QArch *arch;
  const OnnxcQGemm *g;
  QOperand a, b;
  int64_t kp, mc, nc;
  const uint8_t *packedA, *packedB; /* whole operand, or NULL */
  int64_t mTasks, nTasks, mBlocks, nBlocks;
  QEpilogue epilogue;
} QTasks;

/// C[m0, m1) x [n0, n1) on one thread; m0 and n0 are multiples of mr, nr.
static void qgemmBlock(const QTasks *t, int64_t m0, int64_t m1, int64_t n0,
                       int64_t n1, uint8_t *bufA, uint8_t *bufB) {
  const QArch *arch = t->arch;
  const OnnxcQGemm *g = t->g;
  int mr = arch->mr, nr = arch->nr;
  int64_t kp = t->kp;
  int aIsActivation = !g->weightsA;
  _Alignas(64) int32_t tile[16 * 64];
  /* A not packed ahead (an activation, small beside the weights): all of
   * this task's rows, once. */
  if (!t->packedA)
    packSlivers(&t->a, m0, m1 - m0, g->k, kp, mr, bufA);
  for (int64_t jc = n0; jc < n1; jc += t->nc) {
    int64_t nc = min64(t->nc, n1 - jc);
    const uint8_t *panelB = bufB;
    if (t->packedB)
      panelB = t->packedB + jc * kp;
    else
      packSlivers(&t->b, jc, nc, g->k, kp, nr, bufB);
    for (int64_t ic = m0; ic < m1; ic += t->mc) {
      int64_t mc = min64(t->mc, m1 - ic);
      const uint8_t *panelA =
          t->packedA ? t->packedA + ic * kp : bufA + (ic - m0) * kp;
      for (int64_t jr = 0; jr < nc; jr += nr) {
        int64_t cols = min64(nr, nc - jr);
        for (int64_t ir = 0; ir < mc; ir += mr) {
          int64_t rows = min64(mr, mc - ir);
          arch->kernel(kp / 4, panelA + ir * kp, panelB + jr * kp, tile, nr,
                       aIsActivation);
          for (int64_t r = 0; r < rows; ++r)
            arch->epilogue(&t->epilogue, tile + r * nr, ic + ir + r, jc + jr,
                           cols);
        }
      }
    }
  }
}

static void runQTasks(void *ctx, int64_t begin, int64_t end) {
  const QTasks *t = ctx;
  const QArch *arch = t->arch;
  const OnnxcQGemm *g = t->g;
  for (int64_t task = begin; task < end; ++task) {
    int64_t r[4];
    if (!onnxcGemmTaskRange(task, t->mTasks, t->nTasks, t->mBlocks, t->nBlocks,
                            arch->mr, arch->nr, g->m, g->n, r))
      continue;
    int64_t m0 = r[0], m1 = r[1], n0 = r[2], n1 = r[3];
    int64_t rowsA = (m1 - m0 + arch->mr - 1) / arch->mr * arch->mr;
    size_t bytesA = t->packedA ? 0 : (size_t)(rowsA * t->kp);
    size_t bytesB = t->packedB ? 0 : (size_t)(t->nc * t->kp);
    uint8_t *buffer = threadBuffer(bytesA + bytesB + 64);
    if (!buffer)
      return; /* out of memory: nothing to report it through */
    qgemmBlock(t, m0, m1, n0, n1, buffer,
               buffer + ((bytesA + 63) & ~(size_t)63));
  }
}

void onnxcQGemm(const OnnxcQGemm *g) {
  if (g->m <= 0 || g->n <= 0)
    return;
  const QArch *arch = getArch();
  int mr = arch->mr, nr = arch->nr;
  int64_t kp = (g->k + 3) / 4 * 4;
  int64_t channels = g->weightsA ? g->m : g->n;
  int64_t activations = g->weightsA ? g->n : g->m;
  /* Byte conversions to the kernel's domain, and the zero points with
   * them. */
  uint8_t xFlip = (g->xSigned != arch->signedActivation) ? 0x80 : 0;
  int32_t xShift = !xFlip ? 0 : g->xSigned ? 128 : -128;
  uint8_t wFlip = g->wSigned ? 0 : 0x80;
  int32_t wShift = g->wSigned ? 0 : -128;
  QTasks t;
  memset(&t, 0, sizeof(t));
  t.arch = arch;
  t.g = g;
  t.kp = kp;
  t.a = operandA(g, g->weightsA ? wFlip : xFlip);
  t.b = operandB(g, g->weightsA ? xFlip : wFlip);
  const QOperand *weights = g->weightsA ? &t.a : &t.b;
  const QOperand *activation = g->weightsA ? &t.b : &t.a;
  int32_t *scratch =
      malloc(sizeof(int32_t) * (size_t)(3 * channels + activations) +
             sizeof(float) * (size_t)channels);
  if (!scratch)
    return;
  int32_t *corr = scratch, *wZero = corr + channels, *sums = wZero + channels,
          *xSums = sums + channels;
  float *scale = (float *)(xSums + activations);
  const PackedQ *packed = NULL;
  if (g->weightsA ? g->constA : g->constB)
    packed = packConstant(arch, weights, channels, g->k, g->weightsA ? mr : nr);
  if (packed) {
    memcpy(sums, packed->sums, sizeof(int32_t) * (size_t)channels);
    if (g->weightsA)
      t.packedA = packed->packed;
    else
      t.packedB = packed->packed;
  } else {
    rowSums(weights, channels, g->k, 1, sums);
  }
  int needRowSums = 0;
  int32_t zx = g->xZero + xShift;
  for (int64_t c = 0; c < channels; ++c) {
    wZero[c] =
        (g->wZeroCount ? g->wZero[g->wZeroCount > 1 ? c : 0] : 0) + wShift;
    needRowSums |= wZero[c] != 0;
    int64_t v = -(int64_t)zx * sums[c] + g->k * (int64_t)zx * wZero[c];
    if (g->biasI32)
      v += g->biasI32[g->biasCount > 1 ? c : 0];
    corr[c] = (int32_t)v;
    scale[c] = g->scale ? g->scale[g->scaleCount > 1 ? c : 0] : 1.0f;
  }
  if (needRowSums)
    rowSums(activation, activations, g->k, arch->signedActivation, xSums);
  float lo = g->out == ONNXC_QOUT_U8 ? 0.0f : -128.0f;
  float hi = g->out == ONNXC_QOUT_U8 ? 255.0f : 127.0f;
  lo -= (float)g->yZero;
  hi -= (float)g->yZero;
  if (g->relu && lo < 0.0f)
    lo = 0.0f;
  int unitColumns = 1;
  for (int64_t j = 1; j < g->n && unitColumns; ++j)
    unitColumns = g->cCol[j] == g->cCol[0] + j;
  t.epilogue =
      (QEpilogue){g,  corr, scale,      NULL, wZero, needRowSums ? xSums : NULL,
                  lo, hi,   unitColumns};
  float *biasF32 = NULL;
  if (g->out == ONNXC_QOUT_F32 && g->biasF32) {
    /* Per-channel f32 biases, expanded like the scales. */
    biasF32 = malloc(sizeof(float) * (size_t)channels);
    if (!biasF32) {
      free(scratch);
      return;
    }
    for (int64_t c = 0; c < channels; ++c)
      biasF32[c] = g->biasF32[g->biasCount > 1 ? c : 0];
    t.epilogue.biasF32 = biasF32;
  }

  /* Panels of about 256 KiB (A) and 1 MiB (B), whole slivers. */
  t.mc = min64((g->m + mr - 1) / mr * mr,
               ((256 << 10) / kp / mr > 0 ? (256 << 10) / kp / mr : 1) * mr);
  t.nc = min64((g->n + nr - 1) / nr * nr,
               ((1 << 20) / kp / nr > 0 ? (1 << 20) / kp / nr : 1) * nr);
  t.mBlocks = (g->m + mr - 1) / mr;
  t.nBlocks = (g->n + nr - 1) / nr;
  onnxc_threadpool *pool = onnxc_current_threadpool();
  int64_t threads = onnxc_threadpool_size(pool);
  if ((double)g->m * (double)g->n * (double)g->k < 4e6)
    threads = 1;
  onnxcSplitGemmTasks(threads, t.mBlocks, t.nBlocks, &t.mTasks, &t.nTasks);
  int64_t tasks = t.mTasks * t.nTasks;
  if (tasks == 1)
    runQTasks(&t, 0, 1);
  else
    onnxc_parallel_for(pool, tasks, runQTasks, &t);
  free(biasF32);
  free(scratch);
}

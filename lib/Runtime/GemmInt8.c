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
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE

#include "Kernels.h"

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

/// The micro-kernel: c[i * ldc + j] = sum over kq groups of four bytes of
/// the mr x nr tile of packed A and B; `aIsActivation` says which one holds
/// the activation (u8 in the u8 x s8 kernels).
typedef void (*QMicroKernel)(int64_t kq, const uint8_t *a, const uint8_t *b,
                             int32_t *c, int64_t ldc, int aIsActivation);

struct QEpilogue;
/// Requantizes `cols` accumulators of row `i`, from column `j`, of C.
typedef void (*QEpilogueRow)(const struct QEpilogue *e, const int32_t *acc,
                             int64_t i, int64_t j, int64_t cols);

typedef struct {
  const char *name;
  int mr, nr;
  int signedActivation; /* the activation's domain is s8 (else u8) */
  QMicroKernel kernel;
  QEpilogueRow epilogue;
} QArch;

/// The epilogue's parameters, per output channel.
typedef struct QEpilogue {
  const OnnxcQGemm *g;
  const int32_t *corr;    /* bias and zero-point terms */
  const float *scale;     /* (out kinds F32 and 8-bit) */
  const float *biasF32;   /* (F32) or NULL */
  const int32_t *wZero;   /* converted weight zero points, with rowSums */
  const int32_t *rowSums; /* activation sums, or NULL when not needed */
  float lo, hi;           /* clamp bounds of v * scale (8-bit outputs) */
  int unitColumns;        /* C's columns are contiguous */
} QEpilogue;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/*===----------------------------------------------------------------------===*
 * Epilogues
 *===----------------------------------------------------------------------===*/

/// One element: `acc` of C at (i, j).
static inline void epilogueOne(const QEpilogue *e, int32_t acc, int64_t i,
                               int64_t j) {
  const OnnxcQGemm *g = e->g;
  int64_t ch = g->weightsA ? i : j;
  int32_t v = acc + e->corr[ch];
  if (e->rowSums)
    v -= e->wZero[ch] * e->rowSums[g->weightsA ? j : i];
  int64_t at = g->cRow[i] + g->cCol[j];
  if (g->out == ONNXC_QOUT_I32) {
    ((int32_t *)g->c)[at] = v;
    return;
  }
  float f = (float)v * e->scale[ch];
  if (g->out == ONNXC_QOUT_F32) {
    if (e->biasF32)
      f += e->biasF32[ch];
    ((float *)g->c)[at] = g->relu && f < 0.0f ? 0.0f : f;
    return;
  }
  f = f < e->lo ? e->lo : f > e->hi ? e->hi : f;
  int32_t q = (int32_t)nearbyintf(f) + g->yZero;
  if (g->out == ONNXC_QOUT_U8)
    ((uint8_t *)g->c)[at] = (uint8_t)q;
  else
    ((int8_t *)g->c)[at] = (int8_t)q;
}

static void epilogueGeneric(const QEpilogue *e, const int32_t *acc, int64_t i,
                            int64_t j, int64_t cols) {
  for (int64_t s = 0; s < cols; ++s)
    epilogueOne(e, acc[s], i, j + s);
}

/*===----------------------------------------------------------------------===*
 * Micro-kernels
 *===----------------------------------------------------------------------===*/

static void kernelGeneric(int64_t kq, const uint8_t *a, const uint8_t *b,
                          int32_t *c, int64_t ldc, int aIsActivation) {
  enum { MR = 4, NR = 8 };
  int32_t acc[MR][NR] = {{0}};
  for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 4 * NR)
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j)
        for (int t = 0; t < 4; ++t) {
          uint8_t x = a[4 * i + t], y = b[4 * j + t];
          acc[i][j] +=
              aIsActivation ? (int32_t)x * (int8_t)y : (int32_t)(int8_t)x * y;
        }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j)
      c[i * ldc + j] = acc[i][j];
}

#if defined(__x86_64__)

#define ONNXC_VNNI                                                             \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#define ONNXC_AVX2 __attribute__((target("avx2")))

static inline int32_t load32(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

/// An AVX-512 VNNI kernel of MR rows and NV vectors of 16 columns; the
/// activation (u8) is A when U8A, else B.
#define ONNXC_VNNI_KERNEL(NAME, MR, NV, U8A)                                   \
  ONNXC_VNNI static void NAME(int64_t kq, const uint8_t *a, const uint8_t *b,  \
                              int32_t *c, int64_t ldc) {                       \
    __m512i acc[MR][NV];                                                       \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i)                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =       \
            _mm512_setzero_si512();                                            \
    for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 64 * NV) {              \
      __m512i bv[NV];                                                          \
      _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) bv[v] =             \
          _mm512_load_si512((const void *)(b + 64 * v));                       \
      _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i) {                  \
        __m512i x = _mm512_set1_epi32(load32(a + 4 * i));                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v) acc[i][v] =       \
            U8A ? _mm512_dpbusd_epi32(acc[i][v], x, bv[v])                     \
                : _mm512_dpbusd_epi32(acc[i][v], bv[v], x);                    \
      }                                                                        \
    }                                                                          \
    _Pragma("GCC unroll 16") for (int i = 0; i < MR; ++i)                      \
        _Pragma("GCC unroll 4") for (int v = 0; v < NV; ++v)                   \
            _mm512_storeu_si512((void *)(c + i * ldc + 16 * v), acc[i][v]);    \
  }

ONNXC_VNNI_KERNEL(kernelVnniActA, 14, 2, 1)
ONNXC_VNNI_KERNEL(kernelVnniActB, 14, 2, 0)

static void kernelVnni(int64_t kq, const uint8_t *a, const uint8_t *b,
                       int32_t *c, int64_t ldc, int aIsActivation) {
  if (aIsActivation)
    kernelVnniActA(kq, a, b, c, ldc);
  else
    kernelVnniActB(kq, a, b, c, ldc);
}

/// acc + the four-byte dot products of u8 `u` and s8 `s`, exactly: the
/// even and odd bytes widened to i16 and multiplied by vpmaddwd (vpmaddubsw
/// would saturate at 2 x 255 x 127).
ONNXC_AVX2 static inline __m256i dpbusdAvx2(__m256i acc, __m256i u, __m256i s) {
  __m256i uEven = _mm256_and_si256(u, _mm256_set1_epi16(0x00ff));
  __m256i uOdd = _mm256_srli_epi16(u, 8);
  __m256i sEven = _mm256_srai_epi16(_mm256_slli_epi16(s, 8), 8);
  __m256i sOdd = _mm256_srai_epi16(s, 8);
  __m256i sum = _mm256_add_epi32(_mm256_madd_epi16(uEven, sEven),
                                 _mm256_madd_epi16(uOdd, sOdd));
  return _mm256_add_epi32(acc, sum);
}

ONNXC_AVX2 static void kernelAvx2(int64_t kq, const uint8_t *a,
                                  const uint8_t *b, int32_t *c, int64_t ldc,
                                  int aIsActivation) {
  enum { MR = 4 };
  __m256i acc[MR][2];
  for (int i = 0; i < MR; ++i)
    acc[i][0] = acc[i][1] = _mm256_setzero_si256();
  for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 64) {
    __m256i b0 = _mm256_load_si256((const __m256i *)b);
    __m256i b1 = _mm256_load_si256((const __m256i *)(b + 32));
    for (int i = 0; i < MR; ++i) {
      __m256i x = _mm256_set1_epi32(load32(a + 4 * i));
      if (aIsActivation) {
        acc[i][0] = dpbusdAvx2(acc[i][0], x, b0);
        acc[i][1] = dpbusdAvx2(acc[i][1], x, b1);
      } else {
        acc[i][0] = dpbusdAvx2(acc[i][0], b0, x);
        acc[i][1] = dpbusdAvx2(acc[i][1], b1, x);
      }
    }
  }
  for (int i = 0; i < MR; ++i) {
    _mm256_storeu_si256((__m256i *)(c + i * ldc), acc[i][0]);
    _mm256_storeu_si256((__m256i *)(c + i * ldc + 8), acc[i][1]);
  }
}

/// The epilogue of a row whose output columns are contiguous, 16 at a time.
ONNXC_VNNI static void epilogueAvx512(const QEpilogue *e, const int32_t *acc,
                                      int64_t i, int64_t j, int64_t cols) {
  const OnnxcQGemm *g = e->g;
  if (e->rowSums || !e->unitColumns) {
    epilogueGeneric(e, acc, i, j, cols);
    return;
  }
  int perRow = g->weightsA;
  int64_t at = g->cRow[i] + g->cCol[j];
  __m512 lo = _mm512_set1_ps(e->lo), hi = _mm512_set1_ps(e->hi);
  __m512i yZero = _mm512_set1_epi32(g->yZero);
  for (int64_t s = 0; s < cols; s += 16) {
    __mmask16 mask =
        cols - s >= 16 ? 0xffff : (__mmask16)((1u << (cols - s)) - 1);
    __m512i v = _mm512_maskz_loadu_epi32(mask, acc + s);
    v = _mm512_add_epi32(
        v, perRow ? _mm512_set1_epi32(e->corr[i])
                  : _mm512_maskz_loadu_epi32(mask, e->corr + j + s));
    if (g->out == ONNXC_QOUT_I32) {
      _mm512_mask_storeu_epi32((int32_t *)g->c + at + s, mask, v);
      continue;
    }
    __m512 scale = perRow ? _mm512_set1_ps(e->scale[i])
                          : _mm512_maskz_loadu_ps(mask, e->scale + j + s);
    __m512 f = _mm512_mul_ps(_mm512_cvtepi32_ps(v), scale);
    if (g->out == ONNXC_QOUT_F32) {
      if (e->biasF32)
        f = _mm512_add_ps(
            f, perRow ? _mm512_set1_ps(e->biasF32[i])
                      : _mm512_maskz_loadu_ps(mask, e->biasF32 + j + s));
      if (g->relu)
        f = _mm512_max_ps(f, _mm512_setzero_ps());
      _mm512_mask_storeu_ps((float *)g->c + at + s, mask, f);
      continue;
    }
    f = _mm512_min_ps(_mm512_max_ps(f, lo), hi);
    __m512i q =
        _mm512_add_epi32(_mm512_cvt_roundps_epi32(f, _MM_FROUND_TO_NEAREST_INT |
                                                         _MM_FROUND_NO_EXC),
                         yZero);
    _mm512_mask_cvtepi32_storeu_epi8((int8_t *)g->c + at + s, mask, q);
  }
}

ONNXC_AVX2 static void epilogueAvx2(const QEpilogue *e, const int32_t *acc,
                                    int64_t i, int64_t j, int64_t cols) {
  epilogueGeneric(e, acc, i, j, cols);
}

#elif defined(__aarch64__)

#if defined(__clang__)
#define ONNXC_DOTPROD __attribute__((target("dotprod")))
#else
#define ONNXC_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
#endif

/// sdot: both operands in the s8 domain, so the activation's side does not
/// matter.
ONNXC_DOTPROD static void kernelSdot(int64_t kq, const uint8_t *a,
                                     const uint8_t *b, int32_t *c, int64_t ldc,
                                     int aIsActivation) {
  (void)aIsActivation;
  enum { MR = 8 };
  int32x4_t acc[MR][2];
  for (int i = 0; i < MR; ++i)
    acc[i][0] = acc[i][1] = vdupq_n_s32(0);
  for (int64_t g = 0; g < kq; ++g, a += 4 * MR, b += 32) {
    int8x16_t b0 = vld1q_s8((const int8_t *)b);
    int8x16_t b1 = vld1q_s8((const int8_t *)b + 16);
    int8x16_t a0 = vld1q_s8((const int8_t *)a);
    int8x16_t a1 = vld1q_s8((const int8_t *)a + 16);
    acc[0][0] = vdotq_laneq_s32(acc[0][0], b0, a0, 0);
    acc[0][1] = vdotq_laneq_s32(acc[0][1], b1, a0, 0);
    acc[1][0] = vdotq_laneq_s32(acc[1][0], b0, a0, 1);
    acc[1][1] = vdotq_laneq_s32(acc[1][1], b1, a0, 1);
    acc[2][0] = vdotq_laneq_s32(acc[2][0], b0, a0, 2);
    acc[2][1] = vdotq_laneq_s32(acc[2][1], b1, a0, 2);
    acc[3][0] = vdotq_laneq_s32(acc[3][0], b0, a0, 3);
    acc[3][1] = vdotq_laneq_s32(acc[3][1], b1, a0, 3);
    acc[4][0] = vdotq_laneq_s32(acc[4][0], b0, a1, 0);
    acc[4][1] = vdotq_laneq_s32(acc[4][1], b1, a1, 0);
    acc[5][0] = vdotq_laneq_s32(acc[5][0], b0, a1, 1);
    acc[5][1] = vdotq_laneq_s32(acc[5][1], b1, a1, 1);
    acc[6][0] = vdotq_laneq_s32(acc[6][0], b0, a1, 2);
    acc[6][1] = vdotq_laneq_s32(acc[6][1], b1, a1, 2);
    acc[7][0] = vdotq_laneq_s32(acc[7][0], b0, a1, 3);
    acc[7][1] = vdotq_laneq_s32(acc[7][1], b1, a1, 3);
  }
  for (int i = 0; i < MR; ++i) {
    vst1q_s32(c + i * ldc, acc[i][0]);
    vst1q_s32(c + i * ldc + 4, acc[i][1]);
  }
}

#endif

/*===----------------------------------------------------------------------===*
 * Kernel choice
 *===----------------------------------------------------------------------===*/

static const QArch archGeneric = {"generic",      4, 8, 0, kernelGeneric,
                                  epilogueGeneric};
#if defined(__x86_64__)
static const QArch archVnni = {"avx512vnni",  14, 32, 0, kernelVnni,
                               epilogueAvx512};
static const QArch archAvx2 = {"avx2", 4, 16, 0, kernelAvx2, epilogueAvx2};
#elif defined(__aarch64__)
static const QArch archSdot = {"sdot", 8, 8, 1, kernelSdot, epilogueGeneric};
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
    if (!onnxcGemmTaskRange(task, t->mTasks, t->nTasks, t->mBlocks,
                            t->nBlocks, arch->mr, arch->nr, g->m, g->n, r))
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

/*===----------------------------------------------------------------------===*
 * Entry points of lowered fused.qmatmul and fused.qconv
 *===----------------------------------------------------------------------===*/

/// The 1-D parameters of a call, copied contiguous.
typedef struct {
  int32_t xZero, yZero;
  int32_t *wZero;
  void *bias;
  float *scale;
  int64_t wZeroCount, biasCount, scaleCount;
} QParams;

/// Copies `count` 4-byte elements `stride` apart from `src` (NULL for none).
static void *copyParam(const void *src, int64_t count, int64_t stride) {
  if (count <= 0)
    return NULL;
  uint32_t *dst = malloc(sizeof(uint32_t) * (size_t)count);
  if (dst)
    for (int64_t i = 0; i < count; ++i)
      memcpy(dst + i, (const uint32_t *)src + i * stride, sizeof(uint32_t));
  return dst;
}

static int readParams(QParams *p, const int32_t *xZero, int64_t xZeroCount,
                      const int32_t *wZero, int64_t wZeroCount,
                      int64_t wZeroStride, const void *bias, int64_t biasCount,
                      int64_t biasStride, const float *scale,
                      int64_t scaleCount, int64_t scaleStride,
                      const int32_t *yZero, int64_t yZeroCount) {
  p->xZero = xZeroCount ? xZero[0] : 0;
  p->yZero = yZeroCount ? yZero[0] : 0;
  p->wZeroCount = wZeroCount;
  p->biasCount = biasCount;
  p->scaleCount = scaleCount;
  p->wZero = copyParam(wZero, wZeroCount, wZeroStride);
  p->bias = copyParam(bias, biasCount, biasStride);
  p->scale = copyParam(scale, scaleCount, scaleStride);
  return (p->wZero || !wZeroCount) && (p->bias || !biasCount) &&
         (p->scale || !scaleCount);
}

static void freeParams(QParams *p) {
  free(p->wZero);
  free(p->bias);
  free(p->scale);
}

#define ONNXC_READ_PARAMS(p)                                                   \
  readParams(&(p), (const int32_t *)xZero + xZeroOff, xZeroSize0,              \
             (const int32_t *)wZero + wZeroOff, wZeroSize0, wZeroStride0,      \
             (const int32_t *)bias + biasOff, biasSize0, biasStride0,          \
             (const float *)scale + scaleOff, scaleSize0, scaleStride0,        \
             (const int32_t *)yZero + yZeroOff, yZeroSize0)

/// The fields of OnnxcQGemm that come from the flags and parameters.
static void applyParams(OnnxcQGemm *g, const QParams *p, int64_t flags) {
  g->xSigned = (flags & ONNXC_QFLAG_X_SIGNED) != 0;
  g->wSigned = (flags & ONNXC_QFLAG_W_SIGNED) != 0;
  g->xZero = p->xZero;
  g->wZero = p->wZero;
  g->wZeroCount = p->wZeroCount;
  if (flags & ONNXC_QFLAG_BIAS_F32)
    g->biasF32 = p->bias;
  else
    g->biasI32 = p->bias;
  g->biasCount = p->biasCount;
  g->scale = p->scale;
  g->scaleCount = p->scaleCount;
  g->yZero = p->yZero;
  g->out = (int)(flags >> ONNXC_QFLAG_OUT_SHIFT) & 3;
  g->relu = (flags & ONNXC_QFLAG_RELU) != 0;
}

/// The byte size of an output element of kind `out`.
static int64_t outBytes(int out) {
  return out == ONNXC_QOUT_U8 || out == ONNXC_QOUT_S8 ? 1 : 4;
}

static void fillSteps(int64_t *table, int64_t n, int64_t stride) {
  for (int64_t i = 0; i < n; ++i)
    table[i] = i * stride;
}

/// The offset tables of a call, writable while they are filled.
typedef struct {
  int64_t *aRow, *aCol, *bRow, *bCol, *cRow, *cCol;
} QTables;

/// The offset tables of an m x k by k x n product, in one allocation that
/// `t->aRow` owns, set in `g` too; 0 when out of memory.
static int allocTables(OnnxcQGemm *g, QTables *t, int64_t m, int64_t k,
                       int64_t n) {
  int64_t *all = malloc(sizeof(int64_t) * (size_t)(2 * m + 2 * k + 2 * n + 1));
  if (!all)
    return 0;
  *t = (QTables){all,
                 all + m,
                 all + m + k,
                 all + m + 2 * k,
                 all + m + 2 * k + n,
                 all + 2 * m + 2 * k + n};
  g->m = m;
  g->k = k;
  g->n = n;
  g->aRow = t->aRow;
  g->aCol = t->aCol;
  g->bRow = t->bRow;
  g->bCol = t->bCol;
  g->cRow = t->cRow;
  g->cCol = t->cCol;
  return 1;
}

void onnxc_kernel_qmatmul(ONNXC_QMEMREF2(x), ONNXC_QMEMREF2(w), ONNXC_QPARAMS,
                          ONNXC_QMEMREF2(y), int64_t flags) {
  (void)xAlloc, (void)wAlloc, (void)xZeroAlloc, (void)wZeroAlloc,
      (void)biasAlloc, (void)scaleAlloc, (void)yZeroAlloc, (void)yAlloc,
      (void)wSize0, (void)ySize0, (void)ySize1, (void)xZeroStride0,
      (void)yZeroStride0;
  QParams p;
  if (!ONNXC_READ_PARAMS(p)) {
    freeParams(&p);
    return;
  }
  OnnxcQGemm g;
  memset(&g, 0, sizeof(g));
  QTables tables;
  if (!allocTables(&g, &tables, xSize0, xSize1, wSize1)) {
    freeParams(&p);
    return;
  }
  int64_t *aRow = tables.aRow, *aCol = tables.aCol, *bRow = tables.bRow,
          *bCol = tables.bCol, *cRow = tables.cRow, *cCol = tables.cCol;
  fillSteps(aRow, g.m, xStride0);
  fillSteps(aCol, g.k, xStride1);
  fillSteps(bRow, g.k, wStride0);
  fillSteps(bCol, g.n, wStride1);
  fillSteps(cRow, g.m, yStride0);
  fillSteps(cCol, g.n, yStride1);
  g.a = (const uint8_t *)x + xOff;
  g.b = (const uint8_t *)w + wOff;
  applyParams(&g, &p, flags);
  g.c = (char *)y + yOff * outBytes(g.out);
  g.constA = (flags & ONNXC_QFLAG_CONST_X) != 0;
  g.constB = (flags & ONNXC_QFLAG_CONST_W) != 0;
  onnxcQGemm(&g);
  free(aRow);
  freeParams(&p);
}

void onnxc_kernel_qconv2d(ONNXC_QMEMREF4(x), ONNXC_QMEMREF4(w), ONNXC_QPARAMS,
                          ONNXC_QMEMREF4(y), int64_t strideH, int64_t strideW,
                          int64_t dilationH, int64_t dilationW, int64_t flags) {
  (void)xAlloc, (void)wAlloc, (void)xZeroAlloc, (void)wZeroAlloc,
      (void)biasAlloc, (void)scaleAlloc, (void)yZeroAlloc, (void)yAlloc,
      (void)xSize0, (void)xSize1, (void)xSize2, (void)xSize3, (void)ySize1,
      (void)xZeroStride0, (void)yZeroStride0;
  QParams p;
  if (!ONNXC_READ_PARAMS(p)) {
    freeParams(&p);
    return;
  }
  int64_t channels = wSize1, kh = wSize2, kw = wSize3, oh = ySize2, ow = ySize3;
  OnnxcQGemm g;
  memset(&g, 0, sizeof(g));
  QTables tables;
  if (!allocTables(&g, &tables, wSize0, channels * kh * kw, oh * ow)) {
    freeParams(&p);
    return;
  }
  int64_t *aRow = tables.aRow, *aCol = tables.aCol, *bRow = tables.bRow,
          *bCol = tables.bCol, *cRow = tables.cRow, *cCol = tables.cCol;
  // A: the filters as [F, C * kH * kW]; B: the implicit im2col matrix of
  // one image; C: that image's [F, OH * OW].
  fillSteps(aRow, g.m, wStride0);
  fillSteps(cRow, g.m, yStride1);
  for (int64_t c = 0, q = 0; c < channels; ++c)
    for (int64_t i = 0; i < kh; ++i)
      for (int64_t j = 0; j < kw; ++j, ++q) {
        aCol[q] = c * wStride1 + i * wStride2 + j * wStride3;
        bRow[q] =
            c * xStride1 + i * dilationH * xStride2 + j * dilationW * xStride3;
      }
  for (int64_t i = 0, q = 0; i < oh; ++i)
    for (int64_t j = 0; j < ow; ++j, ++q) {
      bCol[q] = i * strideH * xStride2 + j * strideW * xStride3;
      cCol[q] = i * yStride2 + j * yStride3;
    }
  g.weightsA = 1;
  g.a = (const uint8_t *)w + wOff;
  applyParams(&g, &p, flags);
  g.constA = (flags & ONNXC_QFLAG_CONST_W) != 0;
  int64_t bytes = outBytes(g.out);
  for (int64_t b = 0; b < ySize0; ++b) {
    g.b = (const uint8_t *)x + xOff + b * xStride0;
    g.c = (char *)y + (yOff + b * yStride0) * bytes;
    onnxcQGemm(&g);
  }
  free(aRow);
  freeParams(&p);
}

/* The symbols that convert-fused-to-kernel-calls calls: one per element
 * types of the result and the bias, as a function has one MLIR type. */
#define ONNXC_QALIAS(NAME, OUT, BIAS)                                          \
  __typeof__(NAME) NAME##_##OUT##_##BIAS __attribute__((alias(#NAME)));
#define ONNXC_QALIASES(NAME)                                                   \
  ONNXC_QALIAS(NAME, i8, i32)                                                  \
  ONNXC_QALIAS(NAME, i32, i32)                                                 \
  ONNXC_QALIAS(NAME, f32, i32)                                                 \
  ONNXC_QALIAS(NAME, f32, f32)
ONNXC_QALIASES(onnxc_kernel_qmatmul)
ONNXC_QALIASES(onnxc_kernel_qconv2d)

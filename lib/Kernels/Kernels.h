/*===- Kernels.h - What the families of the CPU kernel library share -------===*
 *
 * Internal to lib/Kernels (not part of onnxc_runtime.h): the packed GEMM
 * (gemm/) behind the kernel entry points that lowered linalg ops call with
 * their memref descriptors expanded into arguments (their prototypes and the
 * packed layouts: dialects/Kernel/KernelABI.h), and what one family calls of
 * another: the few-row GEMV (gemv/), the convolution on its input's grid
 * (gemm/), Winograd's convolution (winograd/), the flat average pooling
 * (conv/), the int8 GEMM (int8/), the per-thread scratch buffers.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_KERNELS_H
#define ONNXC_KERNELS_KERNELS_H

#include "dialects/Kernel/KernelABI.h"
#include "lib/Runtime/Arena.h"
#include "lib/Runtime/onnxc_runtime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What the files of one family share and nothing else calls: hidden, so
/// that it stays inside whatever the archive is linked into, as the static
/// functions it was while each family was one file.
#if defined(__GNUC__)
#define ONNXC_INTERNAL __attribute__((visibility("hidden")))
#else
#define ONNXC_INTERNAL
#endif

/// C += A B for an m x k A and a k x n B, then the epilogue. Element (i, j)
/// of X is at x[xRow[i] + xCol[j]], which describes strided and transposed
/// matrices as well as a convolution's implicit im2col matrix.
/// `constA` / `constB`: the operand is constant for the life of the process
/// (a model's weight), so its packed form is kept and reused across calls.
/// Epilogue: with `bias` (m values, one per row; with `biasColumns` n, one
/// per column), C is not read but set to bias + (A B)(i, j); `res` (NULL or
/// an addend at C's offsets) is added; then with `clamp` the result is
/// clamped to [lo, hi], and with `hardSwish` ONNX's HardSwish is applied,
/// x * clamp(x / 6 + 1/2, 0, 1). `strided`: every offset table is
/// i * (its second entry), as the caller built it (spares the GEMM scanning
/// them at every block and call).
typedef struct OnnxcGemm {
  int64_t m, n, k;
  const float *a;
  const int64_t *aRow, *aCol;
  const float *b;
  const int64_t *bRow, *bCol;
  float *c;
  const int64_t *cRow, *cCol;
  const float *bias, *res;
  int biasColumns, clamp;
  float lo, hi;
  int constA, constB;
  int strided;
  int hardSwish;
} OnnxcGemm;

/// True when offsets[0, n) are offsets[0] + 0, 1, ..., n - 1. (No early
/// exit: the loop vectorizes, and the checks mostly succeed.)
static inline int onnxcIsUnitRun(const int64_t *offsets, int64_t n) {
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad |= offsets[i] ^ (offsets[0] + i);
  return !bad;
}

/// The step of offsets[0, n) when they are i * step (0 for n <= 1), else
/// -1 (as onnxcIsUnitRun, without an early exit).
static inline int64_t onnxcRegularStep(const int64_t *offsets, int64_t n) {
  int64_t step = n > 1 ? offsets[1] - offsets[0] : 0, bad = 0;
  for (int64_t i = 0; i < n; ++i)
    bad |= offsets[i] ^ (i * step);
  return bad ? -1 : step;
}

/// onnxcIsUnitRun of table[first, first + n), one of `g`'s offset tables:
/// for a strided `g` (its tables i * table[1]) whether that step is 1,
/// with no scan.
static inline int onnxcUnitRunOf(const OnnxcGemm *g, const int64_t *table,
                                 int64_t first, int64_t n) {
  if (g->strided)
    return n <= 1 || table[1] == 1;
  return onnxcIsUnitRun(table + first, n);
}

/// ONNX's HardSwish of one value, x * clamp(x / 6 + 1/2, 0, 1) (the
/// epilogue of OnnxcGemm's `hardSwish`).
static inline float onnxcHardSwish(float v) {
  float gate = v * (1.0f / 6.0f) + 0.5f;
  return v * (gate < 0.0f ? 0.0f : gate > 1.0f ? 1.0f : gate);
}

/// The index of _mm512_permutex2var_ps(a, ONNXC_EVEN_LANES, b) that takes
/// the even elements of the 32 in a and b (a stride-2 row's pixels; + 1:
/// the odd ones). Expanded where <immintrin.h> and AVX-512 are in scope.
#define ONNXC_EVEN_LANES                                                       \
  _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0)

/// Runs `g` on the current session's thread pool (serially without one).
void onnxcGemm(const OnnxcGemm *g);

/// `g` for an A of 1 to ONNXC_GEMV_MAX_ROWS rows (batch-1 fully connected
/// layers, recurrent time steps) in one pass over B per block of columns
/// (gemv/): a constant B is packed once, another B must have consecutive
/// columns. Returns 1 when done, 0 (nothing done) when `g` is not such a
/// product; onnxcGemm tries it first.
int onnxcGemv(const OnnxcGemm *g);

/// Switches onnxcGemv to the kernel `name` ("avx512", "avx2", "generic";
/// "off": leave every product to the GEMM; NULL: the best one); returns 0
/// when this CPU lacks it. The environment variable ONNXC_GEMV_KERNEL
/// chooses likewise at start (by default the GEMM's kernel family).
int onnxcGemvSelectKernel(const char *name);

/// Runs `g` with B given packed in the layout (nr, kcBlock) of KernelABI.h
/// at `packedB` (g->b and its offset tables are not read): straight from
/// the packed panels when this CPU's kernel has that layout (and they are
/// 64-byte aligned), else through offset tables into them.
void onnxcGemmPacked(const OnnxcGemm *g, const float *packedB, int nr,
                     int64_t kcBlock);

/// How a GEMM of mBlocks x nBlocks micro-tiles is cut into mTasks x nTasks
/// tasks for `threads` threads (1 x 1 for one thread).
void onnxcSplitGemmTasks(int64_t threads, int64_t mBlocks, int64_t nBlocks,
                         int64_t *mTasks, int64_t *nTasks);

/// The block of C that task `task` of such a split computes, for an m x n C
/// in mr x nr micro-tiles: rows [range[0], range[1]) and columns [range[2],
/// range[3]); returns 0 when the block is empty.
int onnxcGemmTaskRange(int64_t task, int64_t mTasks, int64_t nTasks,
                       int64_t mBlocks, int64_t nBlocks, int64_t mr, int64_t nr,
                       int64_t m, int64_t n, int64_t range[4]);

/// A stride-1 convolution computed on its input's grid, image by image
/// (`images` of them, `xImageStride` and `cImageStride` apart): grid
/// row i (pixel (i / xRowStride, i % xRowStride) of the input) is output
/// pixel (i / xRowStride, i % xRowStride) when its column is below `ow`,
/// and step p of its implicit im2col row is x[i + aCol[p]], so the GEMM
/// reads the image where it lies (no im2col, no packing); the grid's other
/// columns are computed and dropped as C is stored. With `rowSlivers`, the
/// GEMM's rows are each output row's pixels instead, in slivers of 14 (the
/// last one of a row padded): output pixel (r, j) reads x[r * stride *
/// xRowStride + j * stride + aCol[p]], at `stride` 1 or 2, so no grid
/// column is computed. B: the filters, a
/// constant k x n matrix (element (p, j) at w[bRow[p] + bCol[j]]). C: the
/// output, filter j's oh x ow pixels contiguous at c + j * cFilterStride.
/// `constW`: the filters are constant for the life of the process (packed
/// once and kept, else per call). Epilogue as OnnxcGemm's, the bias per
/// filter.
typedef struct {
  int64_t images, xImageStride, cImageStride;
  const float *x;
  const int64_t *aCol;
  int64_t k, oh, ow, xRowStride;
  const float *w;
  const int64_t *bRow, *bCol;
  int64_t n;
  float *c;
  int64_t cFilterStride;
  const float *bias, *res;
  int clamp, hardSwish, constW;
  float lo, hi;
  int rowSlivers;
  int64_t stride;
} OnnxcConvGrid;

/// Runs `g` on the current session's thread pool; returns 0 (nothing done)
/// when this CPU's kernel has no grid form or memory runs out.
int onnxcConvGrid(const OnnxcConvGrid *g);

/// A stride-1, undilated 3x3 convolution of constant filters by Winograd's
/// F(4x4, 3x3) (winograd/). Input `x`: image i's channel c row r column j
/// at x[i * xs[0] + c * xs[1] + r * xs[2] + j], with rows [0, xh) and
/// columns [0, xw) readable (at least oh + 2 and ow + 2: the padding is in
/// the input). Filters `w`: [filters, channels, 3, 3] at strides `ws`,
/// constant for the life of the process (transformed once and kept).
/// Output `y`: [images, filters, oh, ow] at strides ys[0 .. 2], unit column
/// stride. Epilogue as OnnxcGemm's: `bias` (per filter; NULL: the sums are
/// added to what `y` holds), `res` at y's offsets within an image (images
/// `resImageStride` apart), then `clamp` to [lo, hi] and `hardSwish`.
/// Returns 1 when done, 0 when it did nothing: no AVX-512, fewer than 16
/// channels or filters, planes whose tiles would mostly be padding (7x7),
/// transformed filters of more than 4 MiB per vector of 16 tiles (streamed
/// for too few products), out of memory, or ONNXC_WINOGRAD=0 in the
/// environment (for comparisons).
typedef struct {
  int64_t images, filters, channels, oh, ow;
  const float *x;
  int64_t xs[3], xh, xw;
  const float *w;
  int64_t ws[4];
  float *y;
  int64_t ys[3];
  const float *bias, *res;
  int64_t resImageStride;
  int clamp, hardSwish;
  float lo, hi;
} OnnxcWinograd;

int onnxcConvWinograd(const OnnxcWinograd *c);

/// This thread's scratch buffer `which` (0 or 1: the GEMM's A and B
/// panels), at least `floats` long and 64-byte aligned, kept and grown
/// across calls; NULL when out of memory. What it held before is lost.
float *onnxcThreadBuffer(int which, int64_t floats);

/// True when an m x n C costs the micro-kernel less padding computed as
/// (C')' with C' = B' A' (which its transposed store supports).
int onnxcGemmPrefersTransposed(int64_t m, int64_t n);

/// The micro-kernel in use: "avx512", "avx2", "neon" or "generic" (the
/// environment variable ONNXC_GEMM_KERNEL may pick a lesser one).
const char *onnxcGemmKernelName(void);

/// An average pooling of stride 1 whose output planes are as large as the
/// input's (h x w) and that divides every window by its kh x kw taps
/// (count_include_pad), computed as a depthwise convolution in its flat
/// form (conv/Depthwise.c); returns 0 (nothing done) where that does not apply.
/// Strides `xs` and `ys` of (image, channel, row, column).
int onnxcAveragePoolFlat(const float *x, float *y, int64_t images,
                         int64_t channels, int64_t h, int64_t w, int64_t kh,
                         int64_t kw, int64_t dh, int64_t dw, int64_t top,
                         int64_t left, const int64_t xs[4],
                         const int64_t ys[4]);

/* 8-bit integer GEMM (int8/). */

/// C = epilogue(sum_p (x - xZero)(w - wZero[c])) for an 8-bit activation x
/// and 8-bit weights w. `weightsA`: A holds the weights and the output
/// channels c are C's rows (a convolution's filters); otherwise B holds
/// them and c are C's columns. Offset tables as in OnnxcGemm, in elements.
/// Per-channel parameters have 1 (per tensor) or `channels` elements; a
/// count of 0 means none. The epilogue adds `biasI32`, then for an 8-bit
/// output stores saturate(roundeven(v * scale[c]) + yZero) (Relu: not below
/// yZero), for f32 v * scale[c] + biasF32[c] (then Relu), for i32 v.
typedef struct OnnxcQGemm {
  int64_t m, n, k;
  const uint8_t *a;
  const int64_t *aRow, *aCol;
  const uint8_t *b;
  const int64_t *bRow, *bCol;
  void *c;
  const int64_t *cRow, *cCol;
  int weightsA;
  int xSigned, wSigned; /* int8 (1) or uint8 (0) elements */
  int constA, constB;
  int32_t xZero;
  const int32_t *wZero;
  int64_t wZeroCount;
  const int32_t *biasI32;
  const float *biasF32;
  int64_t biasCount;
  const float *scale;
  int64_t scaleCount;
  int32_t yZero;
  int out; /* ONNXC_QOUT_* */
  int relu;
} OnnxcQGemm;

/// Runs `g` on the current session's thread pool (serially without one).
void onnxcQGemm(const OnnxcQGemm *g);

/// The int8 micro-kernel in use: "avx512vnni", "avx2", "sdot" or "generic"
/// (the environment variable ONNXC_QGEMM_KERNEL may pick a lesser one).
const char *onnxcQGemmKernelName(void);

/// Switches to the kernel `name` (tests compare the kernels); returns 0 when
/// this CPU lacks it.
int onnxcQGemmSelectKernel(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_KERNELS_KERNELS_H */

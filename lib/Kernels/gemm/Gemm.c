/*===- Gemm.c - Packed, register-blocked fp32 GEMM -------------------------===*
 *
 * C += A * B (then a bias, residual and clamp epilogue) in the BLIS style: B is
 * packed into slivers NR columns wide, A into slivers MR rows tall, and a
 * register-blocked micro-kernel multiplies one sliver of each over KC steps
 * of the reduction. The micro-kernel is chosen once per process from the
 * CPU: AVX-512 (14x32), AVX2+FMA (6x16), NEON (8x8), or portable C (4x8).
 *
 * Operands are addressed through separable offset tables: element (i, j) of
 * a matrix is at base[row[i] + col[j]]. A strided matrix has row[i] = i * rs
 * and col[j] = j * cs; a convolution's implicit im2col matrix (see Conv.c)
 * fits the same form, so it is packed straight from the input image without
 * materializing the column buffer.
 *
 * Large problems are split into tasks over the current session's thread pool
 * (onnxc_current_threadpool()); each task packs its own panels.
 *
 * This file chooses the micro-kernel and holds the GEMM's entry points; the
 * variants are GemmAvx512.c, GemmAvx2.c, GemmNeon.c and GemmGeneric.c, the
 * packing and blocked loops GemmBlocked.c, the convolutions on their input's
 * grid GemmGridAvx512.c.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "lib/Kernels/gemm/GemmInternal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// `kernel` and its helpers on `tile` (no pair kernel: see kernelT2).
static GemmArch makeArch(OnnxcGemmTile tile, MicroKernel kernel,
                         EdgeKernel kernelEdge, EdgeKernel kernelT,
                         DirectBKernel kernelB) {
  return (GemmArch){tile.mr, tile.nr,    tile.kc, tile.mc, tile.nc,
                    kernel,  kernelEdge, kernelT, kernelB, NULL};
}

#if defined(__x86_64__)
int onnxcGemmPackAvx512;
#endif

static GemmArch chooseArch(void) {
  const char *forced = getenv("ONNXC_GEMM_KERNEL");
  int any = !forced || !*forced;
#if defined(__x86_64__)
  __builtin_cpu_init();
  int avx512 = __builtin_cpu_supports("avx512f");
  onnxcGemmPackAvx512 = avx512;
  OnnxcGemmTile wide = onnxcGemmWideTile();
  if ((any || !strcmp(forced, "avx512")) && avx512) {
    GemmArch arch =
        makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_AVX512),
                 onnxcGemmKernelAvx512, onnxcGemmKernelAvx512Edge,
                 onnxcGemmKernelAvx512T, onnxcGemmKernelAvx512DirectB);
    arch.kernelT2 = onnxcGemmKernelAvx512T16;
    return arch;
  }
  if (forced && !strcmp(forced, "avx512-8x48") && avx512)
    return makeArch(wide, onnxcGemmKernelAvx512x8x48, NULL, NULL, NULL);
  if (forced && !strcmp(forced, "avx512-6x64") && avx512)
    return (GemmArch){6,    64,   256,  120, 2048, onnxcGemmKernelAvx512x6x64,
                      NULL, NULL, NULL, NULL};
  if (forced && !strcmp(forced, "avx512-12x32") && avx512)
    return (GemmArch){12,   32,   256,  120, 2048, onnxcGemmKernelAvx512x12x32,
                      NULL, NULL, NULL, NULL};
  if ((any || !strcmp(forced, "avx2")) && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma"))
    return makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_AVX2),
                    onnxcGemmKernelAvx2, NULL, NULL, NULL);
#elif defined(__aarch64__)
  if (any || !strcmp(forced, "neon"))
    return makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_NEON),
                    onnxcGemmKernelNeon, NULL, NULL, NULL);
#endif
  (void)any;
  return makeArch(onnxcGemmDefaultTile(ONNXC_GEMM_ISA_GENERIC),
                  onnxcGemmKernelGeneric, NULL, NULL, NULL);
}

/// The kernel chosen for the process, and the wide AVX-512 one that calls
/// may pick by their shape (its kernel NULL unless the first is the default
/// AVX-512 one).
static GemmArch theArch, wideArch;
static pthread_once_t archOnce = PTHREAD_ONCE_INIT;

/// ONNXC_GEMM_BLOCKS="KC,MC,NC" overrides the cache blocking (for tuning).
static void initArch(void) {
  theArch = chooseArch();
#if defined(__x86_64__)
  if (theArch.kernel == onnxcGemmKernelAvx512)
    wideArch = makeArch(onnxcGemmWideTile(), onnxcGemmKernelAvx512x8x48, NULL,
                        NULL, onnxcGemmKernelAvx512x8x48DirectB);
#endif
  const char *blocks = getenv("ONNXC_GEMM_BLOCKS");
  long long kc, mc, nc;
  if (blocks && sscanf(blocks, "%lld,%lld,%lld", &kc, &mc, &nc) == 3 &&
      kc > 0 && mc > 0 && nc > 0) {
    theArch.kc = kc;
    mc = mc < MaxSlivers * theArch.mr ? mc : MaxSlivers * theArch.mr;
    theArch.mc = (mc + theArch.mr - 1) / theArch.mr * theArch.mr;
    theArch.nc = (nc + theArch.nr - 1) / theArch.nr * theArch.nr;
  }
}

const GemmArch *onnxcGemmArch(void) {
  pthread_once(&archOnce, initArch);
  return &theArch;
}

/// The kernel for `g`: the wide AVX-512 one where its tiles fit C better
/// (and C's rows are plain, so full tiles are stored directly), else the
/// process's one.
static const GemmArch *archFor(const OnnxcGemm *g) {
  const GemmArch *arch = onnxcGemmArch();
  if (wideArch.kernel && !g->biasColumns &&
      (g->n == 1 || g->cCol[1] - g->cCol[0] == 1) &&
      onnxcGemmPrefersWide(ONNXC_GEMM_ISA_AVX512, g->m, g->n))
    return &wideArch;
  return arch;
}

void onnxcGemm(const OnnxcGemm *g) {
  if (g->m <= 0 || g->n <= 0)
    return;
  if (onnxcGemv(g))
    return;
  const GemmArch *arch = archFor(g);
  onnxcGemmRun(arch, g,
               g->constA && g->k > 0 ? onnxcGemmPackWhole(arch, g, 0) : NULL,
               g->constB && g->k > 0 ? onnxcGemmPackWhole(arch, g, 1) : NULL);
}

/// The kernel that reads B packed with slivers `nr` wide in reduction blocks
/// of `kcBlock` for a reduction of length k: the process's kernel or the
/// wide one, blocked at kcBlock (to the same blocks); NULL if neither.
static int archForPacked(int nr, int64_t kcBlock, int64_t k, GemmArch *out) {
  const GemmArch *arch = onnxcGemmArch();
  if (wideArch.kernel && nr == wideArch.nr)
    arch = &wideArch;
  if (arch->nr != nr || kcBlock <= 0)
    return 0;
  *out = *arch;
  out->kc = kcBlock;
  return blockK(out, k) == kcBlock;
}

void onnxcGemmPacked(const OnnxcGemm *g, const float *packedB, int nr,
                     int64_t kcBlock) {
  if (g->m <= 0 || g->n <= 0 || nr <= 0 || kcBlock <= 0)
    return;
  GemmArch arch;
  // The kernels load the packed slivers 64-byte aligned (as the compiler
  // places them).
  if (g->k > 0 && (uintptr_t)packedB % 64 == 0 &&
      archForPacked(nr, kcBlock, g->k, &arch)) {
    onnxcGemmRun(&arch, g, NULL, packedB);
    return;
  }
  // Another kernel than the one B was packed for (another CPU, or one
  // picked by ONNXC_GEMM_KERNEL): one GEMM per reduction block, each block
  // of B read where it lies through its offset tables.
  int64_t nPad = (g->n + nr - 1) / nr * nr;
  int64_t *t = malloc(sizeof(int64_t) * (size_t)(kcBlock + g->n));
  if (!t)
    return;
  int64_t *bRow = t, *bCol = t + kcBlock;
  for (int64_t pc = 0; pc < g->k || pc == 0; pc += kcBlock) {
    int64_t kc = min64(kcBlock, g->k - pc);
    int first = pc == 0, last = pc + kc >= g->k;
    for (int64_t p = 0; p < kc; ++p)
      bRow[p] = p * nr;
    for (int64_t j = 0; j < g->n; ++j)
      bCol[j] = j / nr * kc * nr + j % nr;
    OnnxcGemm block = *g;
    block.k = kc;
    block.aCol = g->aCol + pc;
    block.b = packedB + pc * nPad;
    block.bRow = bRow;
    block.bCol = bCol;
    block.constB = 0;
    block.strided = 0; // B's tables are the panels', not i * step
    block.bias = first ? g->bias : NULL;
    block.res = last ? g->res : NULL;
    block.clamp = last && g->clamp;
    onnxcGemm(&block);
  }
  free(t);
}

int onnxcGemmPrefersTransposed(int64_t m, int64_t n) {
  const GemmArch *arch = onnxcGemmArch();
  if (!arch->kernelT || m <= 0 || n <= 0)
    return 0;
  int64_t mr = arch->mr, nr = arch->nr;
  double plain =
      (double)((m + mr - 1) / mr * mr) * (double)((n + nr - 1) / nr * nr);
  // (Plain, the wide tile where it would be taken: 16 filters fill it.)
  if (wideArch.kernel && onnxcGemmPrefersWide(ONNXC_GEMM_ISA_AVX512, m, n))
    plain = (double)m * (double)((n + 47) / 48 * 48);
  // Transposed, a last sliver of at most nr / 2 columns costs half of one
  // (kernelT2, on pairs of row slivers: n must make some).
  int64_t tail = m % nr, half = arch->kernelT2 && n >= 2 * mr ? nr / 2 : nr;
  int64_t mPadded = m / nr * nr + (tail == 0 ? 0 : tail <= half ? half : nr);
  double transposed = (double)((n + mr - 1) / mr * mr) * (double)mPadded;
  // The transposed store costs a few percent of a tile.
  return transposed < 0.9 * plain;
}

const char *onnxcGemmKernelName(void) {
  const GemmArch *arch = onnxcGemmArch();
#if defined(__x86_64__)
  if (arch->kernel == onnxcGemmKernelAvx512)
    return "avx512";
  if (arch->kernel == onnxcGemmKernelAvx2)
    return "avx2";
#elif defined(__aarch64__)
  if (arch->kernel == onnxcGemmKernelNeon)
    return "neon";
#endif
  return "generic";
}

/*===- Gemv.c - fp32 products of a few rows: C = A B for m <= 4 ------------===*
 *
 * Batch-1 fully connected layers and the time steps of recurrent ops multiply
 * one row (or a few) by a weight matrix. The GEMM's micro-tile is 14 rows
 * tall, so a row of A would cost 14 rows of work; here each row is
 * broadcast against B streamed once, a block of columns wide, with the sums
 * of every row of A in registers: the product costs one pass over B.
 *
 * A constant B (a model's weight) is packed once into blocks of `width`
 * columns, each k x width row-major and contiguous (the last one zero
 * padded), and kept for the life of the process. Any other B whose columns
 * are consecutive in memory is read in place; other B (a transposed
 * activation) is left to the GEMM. The epilogue is the GEMM's (Kernels.h).
 * With a thread pool, large products are split over the column blocks.
 *
 * This file chooses the kernel and runs the product; the kernels of each ISA
 * are GemvAvx512.c, GemvAvx2.c and GemvGeneric.c.
 *
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L

#include "lib/Kernels/gemv/GemvInternal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const GemvArch archGeneric = {"generic", GenericWidth, onnxcGemvGeneric};
#if defined(__x86_64__)
static const GemvArch archAvx512 = {"avx512", 64, onnxcGemvAvx512};
static const GemvArch archAvx2 = {"avx2", 32, onnxcGemvAvx2};
#endif

/// The kernel named `name` ("" or NULL: the best one) if this CPU has it.
static const GemvArch *findArch(const char *name) {
  int any = !name || !*name;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if ((any || !strcmp(name, "avx512")) && __builtin_cpu_supports("avx512f"))
    return &archAvx512;
  if ((any || !strcmp(name, "avx2")) && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma"))
    return &archAvx2;
#endif
  if (any || !strcmp(name, "generic"))
    return &archGeneric;
  return NULL;
}

static const GemvArch *theArch;
static pthread_once_t archOnce = PTHREAD_ONCE_INIT;
static pthread_mutex_t archMutex = PTHREAD_MUTEX_INITIALIZER;

/// ONNXC_GEMV_KERNEL picks a kernel, or "off" leaves every product to the
/// GEMM (for comparisons); by default the GEMM's choice
/// (ONNXC_GEMM_KERNEL) is followed.
static void initArch(void) {
  const char *name = getenv("ONNXC_GEMV_KERNEL");
  if (name && !strcmp(name, "off"))
    return;
  if (!name || !*name) {
    name = onnxcGemmKernelName();
    if (!strncmp(name, "avx512", 6))
      name = "avx512";
  }
  theArch = findArch(name);
  if (!theArch)
    theArch = findArch(NULL);
}

static const GemvArch *getArch(void) {
  pthread_once(&archOnce, initArch);
  pthread_mutex_lock(&archMutex);
  const GemvArch *arch = theArch;
  pthread_mutex_unlock(&archMutex);
  return arch;
}

int onnxcGemvSelectKernel(const char *name) {
  pthread_once(&archOnce, initArch);
  const GemvArch *arch = name && !strcmp(name, "off") ? NULL : findArch(name);
  if (!arch && !(name && !strcmp(name, "off")))
    return 0;
  pthread_mutex_lock(&archMutex);
  theArch = arch;
  pthread_mutex_unlock(&archMutex);
  return 1;
}

/*===----------------------------------------------------------------------===*
 * Constant B, packed once
 *===----------------------------------------------------------------------===*/

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

typedef struct PackedB {
  struct PackedB *next;
  const float *base;
  int64_t k, n, rowStep, colStep;
  int width;
  float *packed;
} PackedB;

static pthread_mutex_t packedMutex = PTHREAD_MUTEX_INITIALIZER;
static PackedB *packedList;

/// B of `g` packed in blocks of `width` columns (block j0 / width at
/// j0 * k), from the cache or packed now; NULL when its offset tables are
/// not regular or memory runs out.
static const float *packB(const OnnxcGemm *g, int width) {
  int64_t rowStep = g->strided ? (g->k > 1 ? g->bRow[1] : 0)
                               : onnxcRegularStep(g->bRow, g->k);
  int64_t colStep = g->strided ? (g->n > 1 ? g->bCol[1] : 0)
                               : onnxcRegularStep(g->bCol, g->n);
  if (rowStep < 0 || colStep < 0)
    return NULL;
  pthread_mutex_lock(&packedMutex);
  PackedB *e = packedList;
  for (; e; e = e->next)
    if (e->base == g->b && e->k == g->k && e->n == g->n &&
        e->rowStep == rowStep && e->colStep == colStep && e->width == width)
      break;
  if (!e) {
    int64_t nPad = (g->n + width - 1) / width * width;
    size_t bytes = ((size_t)(g->k * nPad) * sizeof(float) + 63) & ~(size_t)63;
    e = malloc(sizeof(*e));
    float *packed = e ? onnxcPersistentAlloc(bytes) : NULL;
    if (!packed) {
      free(e);
      pthread_mutex_unlock(&packedMutex);
      return NULL;
    }
    for (int64_t j0 = 0; j0 < g->n; j0 += width) {
      int64_t cols = min64(width, g->n - j0);
      float *block = packed + j0 * g->k;
      for (int64_t p = 0; p < g->k; ++p) {
        const float *src = g->b + p * rowStep + j0 * colStep;
        float *dst = block + p * width;
        for (int64_t j = 0; j < cols; ++j)
          dst[j] = src[j * colStep];
        for (int64_t j = cols; j < width; ++j)
          dst[j] = 0.0f;
      }
    }
    *e = (PackedB){packedList, g->b,    g->k,  g->n,
                   rowStep,    colStep, width, packed};
    packedList = e;
  }
  pthread_mutex_unlock(&packedMutex);
  return e->packed;
}

/*===----------------------------------------------------------------------===*
 * The product
 *===----------------------------------------------------------------------===*/

typedef struct {
  const GemvArch *arch;
  const OnnxcGemm *g;
  const float *const *a;
  const float *packed;
  int unitC; // C's columns are consecutive
} GemvTask;

/// The epilogue on the sums of rows [0, m) and columns [j0, j0 + cols);
/// C's columns at the offsets of its table, or consecutive with `unitC`.
static void finish(const OnnxcGemm *g, int unitC, const float *sums, int64_t j0,
                   int64_t cols) {
  // (In locals: the stores to C could alias g, and the loops would reload
  // them every element instead of vectorizing.)
  const float lo = g->lo, hi = g->hi;
  for (int64_t i = 0; i < g->m; ++i) {
    const float *s = sums + i * MaxWidth;
    int64_t at = g->cRow[i] + g->cCol[j0];
    float *c = g->c + at;
    const float *res = g->res ? g->res + at : NULL;
    float v[MaxWidth];
    if (!unitC) {
      // Through the table (rare: a transposed or gathered C).
      const int64_t *col = g->cCol + j0;
      for (int64_t j = 0; j < cols; ++j) {
        int64_t d = col[j] - col[0];
        float x = g->bias ? g->bias[g->biasColumns ? j0 + j : i] : c[d];
        x += s[j];
        if (res)
          x += res[d];
        if (g->clamp)
          x = x < lo ? lo : x > hi ? hi : x;
        if (g->hardSwish)
          x = onnxcHardSwish(x);
        c[d] = x;
      }
      continue;
    }
    if (!g->bias)
      for (int64_t j = 0; j < cols; ++j)
        v[j] = c[j] + s[j];
    else if (g->biasColumns)
      for (int64_t j = 0; j < cols; ++j)
        v[j] = g->bias[j0 + j] + s[j];
    else
      for (int64_t j = 0; j < cols; ++j)
        v[j] = g->bias[i] + s[j];
    if (res)
      for (int64_t j = 0; j < cols; ++j)
        v[j] += res[j];
    if (g->clamp)
      for (int64_t j = 0; j < cols; ++j)
        v[j] = v[j] < lo ? lo : v[j] > hi ? hi : v[j];
    if (g->hardSwish)
      for (int64_t j = 0; j < cols; ++j)
        v[j] = onnxcHardSwish(v[j]);
    memcpy(c, v, sizeof(float) * (size_t)cols);
  }
}

/// Column blocks [begin, end) of the product.
static void runBlocks(void *ctx, int64_t begin, int64_t end) {
  const GemvTask *t = ctx;
  const OnnxcGemm *g = t->g;
  int width = t->arch->width;
  GemvB b = {g->b, g->bRow, 0};
  _Alignas(64) float sums[MaxRows * MaxWidth];
  for (int64_t block = begin; block < end; ++block) {
    int64_t j0 = block * width;
    int cols = (int)min64(width, g->n - j0);
    if (t->packed) {
      b.base = t->packed + j0 * g->k;
      b.rows = NULL;
      b.ldb = width;
      t->arch->kernel((int)g->m, g->k, t->a, &b, 0, cols, sums);
    } else {
      b.base = g->b + g->bCol[0];
      t->arch->kernel((int)g->m, g->k, t->a, &b, j0, cols, sums);
    }
    finish(g, t->unitC, sums, j0, cols);
  }
}

int onnxcGemv(const OnnxcGemm *g) {
  if (g->m < 1 || g->m > MaxRows || g->n < 1 || g->k < 1)
    return 0;
  const GemvArch *arch = getArch();
  if (!arch)
    return 0;
  // B: packed once when constant, else read in place along its rows.
  const float *packed = g->constB ? packB(g, arch->width) : NULL;
  if (!packed && !onnxcUnitRunOf(g, g->bCol, 0, g->n))
    return 0;
  // A's rows as contiguous vectors, gathered when strided.
  const float *a[MaxRows];
  float stackRows[StackK * MaxRows];
  float *gathered = NULL;
  int unitA = onnxcUnitRunOf(g, g->aCol, 0, g->k);
  if (!unitA) {
    gathered = g->k <= StackK ? stackRows
                              : malloc(sizeof(float) * (size_t)(g->k * g->m));
    if (!gathered)
      return 0;
  }
  for (int64_t i = 0; i < g->m; ++i) {
    if (unitA) {
      a[i] = g->a + g->aRow[i] + g->aCol[0];
      continue;
    }
    float *row = gathered + i * g->k;
    for (int64_t p = 0; p < g->k; ++p)
      row[p] = g->a[g->aRow[i] + g->aCol[p]];
    a[i] = row;
  }
  int unitC = onnxcUnitRunOf(g, g->cCol, 0, g->n);
  GemvTask t = {arch, g, a, packed, unitC};
  int64_t blocks = (g->n + arch->width - 1) / arch->width;
  onnxc_threadpool *pool = onnxc_current_threadpool();
  // A second thread pays off from about a quarter million multiply-adds
  // (its wake-up costs a few microseconds).
  if (pool && onnxc_threadpool_size(pool) > 1 && blocks > 1 &&
      (double)g->m * (double)g->n * (double)g->k >= 2.5e5)
    onnxc_parallel_for(pool, blocks, runBlocks, &t);
  else
    runBlocks(&t, 0, blocks);
  if (gathered != stackRows)
    free(gathered);
  return 1;
}

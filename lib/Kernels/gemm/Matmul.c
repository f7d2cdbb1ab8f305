/*===- Matmul.c - Entry points of lowered f32 matmuls ----------------------===*
 *
 * The functions that `convert-linalg-to-kernel-calls` calls in place of f32
 * linalg.matmul (B as it lies, or packed by the compiler) and
 * linalg.batch_matmul. Each receives its memrefs as expanded descriptors,
 * builds the strided offset tables of the GEMM (Gemm.c) and runs it over
 * the current session's thread pool.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/EntryPoints.h"

#include <math.h>
#include <stdlib.h>

/// The GEMM of strided matrices (row and column strides), its offset tables
/// in `t` (2 (m + k + n) values); the flags' clamp is max(., 0).
static OnnxcGemm stridedGemm(int64_t *t, int64_t m, int64_t n, int64_t k,
                             const float *a, int64_t aRows, int64_t aCols,
                             const float *b, int64_t bRows, int64_t bCols,
                             float *c, int64_t cRows, int64_t cCols,
                             int64_t flags) {
  int64_t *aRow = t, *aCol = aRow + m, *bRow = aCol + k, *bCol = bRow + k,
          *cRow = bCol + n, *cCol = cRow + m;
  fillStrided(aRow, m, aRows);
  fillStrided(aCol, k, aCols);
  fillStrided(bRow, k, bRows);
  fillStrided(bCol, n, bCols);
  fillStrided(cRow, m, cRows);
  fillStrided(cCol, n, cCols);
  return (OnnxcGemm){.m = m,
                     .n = n,
                     .k = k,
                     .a = a,
                     .aRow = aRow,
                     .aCol = aCol,
                     .b = b,
                     .bRow = bRow,
                     .bCol = bCol,
                     .c = c,
                     .cRow = cRow,
                     .cCol = cCol,
                     .clamp = (flags & FlagRelu) != 0,
                     .lo = 0.0f,
                     .hi = INFINITY,
                     .constA = (flags & FlagConstFirst) != 0,
                     .constB = (flags & FlagConstSecond) != 0,
                     .strided = 1};
}

void onnxc_kernel_matmul_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF2(b),
                             ONNXC_MEMREF2(c), int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)cSize0,
      (void)cSize1;
  int64_t m = aSize0, k = aSize1, n = bSize1;
  // Small products (a recurrent op's steps) keep their tables on the stack.
  int64_t small[2048];
  int64_t count = 2 * m + 2 * k + 2 * n;
  int64_t *t = count <= 2048 ? small : allocOffsets(count);
  if (!t)
    return;
  OnnxcGemm g =
      stridedGemm(t, m, n, k, a + aOff, aStride0, aStride1, b + bOff, bStride0,
                  bStride1, c + cOff, cStride0, cStride1, flags);
  onnxcGemm(&g);
  if (t != small)
    free(t);
}

void onnxc_kernel_matmul_packed_f32(ONNXC_MEMREF2(a), ONNXC_MEMREF1(b),
                                    ONNXC_MEMREF2(c), int64_t n, int64_t nr,
                                    int64_t kcBlock, int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)bStride0,
      (void)cSize0, (void)cSize1;
  int64_t m = aSize0, k = aSize1;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  OnnxcGemm g = stridedGemm(t, m, n, k, a + aOff, aStride0, aStride1, NULL, 0,
                            0, c + cOff, cStride0, cStride1, flags);
  g.constB = 0;
  onnxcGemmPacked(&g, b + bOff, (int)nr, kcBlock);
  free(t);
}

typedef struct {
  OnnxcGemm g;
  int64_t aBatch, bBatch, cBatch;
} BatchGemm;

static void runBatches(void *ctx, int64_t begin, int64_t end) {
  const BatchGemm *batch = ctx;
  for (int64_t i = begin; i < end; ++i) {
    OnnxcGemm g = batch->g;
    g.a += i * batch->aBatch;
    g.b += i * batch->bBatch;
    g.c += i * batch->cBatch;
    onnxcGemm(&g);
  }
}

void onnxc_kernel_batch_matmul_f32(ONNXC_MEMREF3(a), ONNXC_MEMREF3(b),
                                   ONNXC_MEMREF3(c), int64_t flags) {
  (void)aAlloc, (void)bAlloc, (void)cAlloc, (void)bSize0, (void)bSize1,
      (void)cSize0, (void)cSize1, (void)cSize2;
  int64_t batches = aSize0, m = aSize1, k = aSize2, n = bSize2;
  int64_t *t = allocOffsets(2 * m + 2 * k + 2 * n);
  if (!t)
    return;
  // Each batch reads other matrices, so none is kept packed.
  BatchGemm batch = {stridedGemm(t, m, n, k, a + aOff, aStride1, aStride2,
                                 b + bOff, bStride1, bStride2, c + cOff,
                                 cStride1, cStride2, flags & FlagRelu),
                     aStride0, bStride0, cStride0};
  // Small products: one per thread; large ones: each over the whole pool.
  if ((double)m * (double)n * (double)k < 1e6)
    onnxc_parallel_for(onnxc_current_threadpool(), batches, runBatches, &batch);
  else
    runBatches(&batch, 0, batches);
  free(t);
}

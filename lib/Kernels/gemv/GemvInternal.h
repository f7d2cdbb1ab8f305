/*===- GemvInternal.h - What the files of the GEMV share -------------------===*
 *
 * Internal to gemv/: B as the kernels read it, the kernel signature and the
 * kernel set of one ISA, which the dispatch (Gemv.c) and the kernels of each
 * ISA (GemvGeneric.c, GemvAvx2.c, GemvAvx512.c) share; the kernels were
 * static while the GEMV was one file, and are ONNXC_INTERNAL (hidden) now.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_GEMV_GEMVINTERNAL_H
#define ONNXC_KERNELS_GEMV_GEMVINTERNAL_H

#include "lib/Kernels/Kernels.h"

enum {
  MaxRows = ONNXC_GEMV_MAX_ROWS,
  /// The widest column block of any kernel.
  MaxWidth = 64,
  /// A reduction longer than this gathers a strided row of A on the heap.
  StackK = 1024,
};

/// B as the kernels read it: row p of the block at column j0 starts at
/// base + p * ldb, or, unpacked, at base + rows[p] + j0 (`rows` non-NULL).
typedef struct {
  const float *base;
  const int64_t *rows;
  int64_t ldb;
} GemvB;

/// sums[i * MaxWidth + j] = sum_p a[i][p] * B(p, j0 + j) for i < m and j <
/// cols (cols <= width; a packed block may be read up to `width`, an
/// unpacked one only up to `cols`).
typedef void (*GemvKernel)(int m, int64_t k, const float *const *a,
                           const GemvB *b, int64_t j0, int cols, float *sums);

typedef struct {
  const char *name;
  int width;
  GemvKernel kernel;
} GemvArch;

/// The row p of B's block at column j0.
static inline const float *rowOf(const GemvB *b, int64_t p, int64_t j0) {
  return b->rows ? b->base + b->rows[p] + j0 : b->base + p * b->ldb;
}

enum { GenericWidth = 16 };

#if defined(__x86_64__)
#define ONNXC_GEMV_AVX512 __attribute__((target("avx512f,fma")))
#define ONNXC_GEMV_AVX2 __attribute__((target("avx2,fma")))
#endif

/// The kernels of each ISA (GemvKernel).
ONNXC_INTERNAL void onnxcGemvGeneric(int m, int64_t k, const float *const *a,
                                     const GemvB *b, int64_t j0, int cols,
                                     float *sums);
#if defined(__x86_64__)
/// Blocks of 64 columns.
ONNXC_INTERNAL ONNXC_GEMV_AVX512 void
onnxcGemvAvx512(int m, int64_t k, const float *const *a, const GemvB *b,
                int64_t j0, int cols, float *sums);
/// Blocks of 32 columns.
ONNXC_INTERNAL ONNXC_GEMV_AVX2 void onnxcGemvAvx2(int m, int64_t k,
                                                  const float *const *a,
                                                  const GemvB *b, int64_t j0,
                                                  int cols, float *sums);
#endif

#endif /* ONNXC_KERNELS_GEMV_GEMVINTERNAL_H */

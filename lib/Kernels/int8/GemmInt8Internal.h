/*===- GemmInt8Internal.h - What the files of the int8 GEMM share ----------===*
 *
 * Internal to int8/: the micro-kernel and epilogue signatures, the kernel
 * set of one ISA (QArch), the epilogue's parameters, and the kernels and
 * epilogues of each ISA (GemmInt8Generic.c, GemmInt8Avx2.c, GemmInt8Vnni.c,
 * GemmInt8Sdot.c) that the dispatch (GemmInt8.c) picks from. They were
 * static while the int8 GEMM was one file: they are ONNXC_INTERNAL (hidden)
 * now, and prefixed onnxcQGemm.
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_INT8_GEMMINT8INTERNAL_H
#define ONNXC_KERNELS_INT8_GEMMINT8INTERNAL_H

#include "lib/Kernels/Kernels.h"

#include <string.h>

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

/*===----------------------------------------------------------------------===*
 * Micro-kernels
 *===----------------------------------------------------------------------===*/

/// The epilogue of `cols` accumulators of row `i`, from column `j`, element
/// by element (GemmInt8Generic.c; the other epilogues' fallback).
ONNXC_INTERNAL void onnxcQGemmEpilogueGeneric(const QEpilogue *e,
                                              const int32_t *acc, int64_t i,
                                              int64_t j, int64_t cols);

ONNXC_INTERNAL void onnxcQGemmKernelGeneric(int64_t kq, const uint8_t *a,
                                            const uint8_t *b, int32_t *c,
                                            int64_t ldc, int aIsActivation);

#if defined(__x86_64__)

#define ONNXC_VNNI                                                             \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))
#define ONNXC_AVX2 __attribute__((target("avx2")))

static inline int32_t load32(const uint8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

ONNXC_INTERNAL void onnxcQGemmKernelVnni(int64_t kq, const uint8_t *a,
                                         const uint8_t *b, int32_t *c,
                                         int64_t ldc, int aIsActivation);
ONNXC_INTERNAL ONNXC_VNNI void onnxcQGemmEpilogueAvx512(const QEpilogue *e,
                                                        const int32_t *acc,
                                                        int64_t i, int64_t j,
                                                        int64_t cols);
ONNXC_INTERNAL ONNXC_AVX2 void
onnxcQGemmKernelAvx2(int64_t kq, const uint8_t *a, const uint8_t *b, int32_t *c,
                     int64_t ldc, int aIsActivation);
ONNXC_INTERNAL ONNXC_AVX2 void onnxcQGemmEpilogueAvx2(const QEpilogue *e,
                                                      const int32_t *acc,
                                                      int64_t i, int64_t j,
                                                      int64_t cols);

#elif defined(__aarch64__)

#if defined(__clang__)
#define ONNXC_DOTPROD __attribute__((target("dotprod")))
#else
#define ONNXC_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))
#endif

ONNXC_INTERNAL ONNXC_DOTPROD void
onnxcQGemmKernelSdot(int64_t kq, const uint8_t *a, const uint8_t *b, int32_t *c,
                     int64_t ldc, int aIsActivation);

#endif

#endif /* ONNXC_KERNELS_INT8_GEMMINT8INTERNAL_H */

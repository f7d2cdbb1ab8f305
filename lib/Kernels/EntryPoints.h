/*===- EntryPoints.h - What the f32 entry points share ---------------------===*
 *
 * Internal to lib/Kernels: the bits of the flags word that the f32 entry
 * points of lowered linalg ops receive (dialects/Kernel/KernelABI.h
 * documents them for the compiler), their offset tables, and how they
 * spread planes over the session's thread pool. Static inline, for the entry
 * points of every family (gemm/Matmul.c, conv/, copy/Pad.c).
 *
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_KERNELS_ENTRYPOINTS_H
#define ONNXC_KERNELS_ENTRYPOINTS_H

#include "lib/Kernels/Kernels.h"

#include <stdlib.h>

enum {
  FlagRelu = 1, // matmuls: max(., 0); convolutions: clamp to [lo, hi]
  FlagConstFirst = 2,
  FlagConstSecond = 4,
  FlagBias = 8,
  FlagResidual = 16,
  FlagHardSwish = 32
};

/// Offset tables live in one allocation; a failed allocation leaves the
/// result untouched, which the models cannot report (nor can they survive
/// it elsewhere: every lowered op allocates).
static inline int64_t *allocOffsets(int64_t count) {
  return malloc(sizeof(int64_t) * (size_t)(count > 0 ? count : 1));
}

#define ONNXC_FILL_STRIDED(NAME, ATTR)                                         \
  ATTR static inline void NAME(int64_t *table, int64_t n, int64_t stride) {    \
    for (int64_t i = 0; i < n; ++i)                                            \
      table[i] = i * stride;                                                   \
  }
ONNXC_FILL_STRIDED(fillStridedPortable, )
#if defined(__x86_64__)
// In AVX2 vectors: a small matmul (a recurrent step) spends a noticeable
// part of its call filling over a thousand entries.
ONNXC_FILL_STRIDED(fillStridedAvx2, __attribute__((target("avx2"))))
#endif

static inline void fillStrided(int64_t *table, int64_t n, int64_t stride) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx2")) {
    fillStridedAvx2(table, n, stride);
    return;
  }
#endif
  fillStridedPortable(table, n, stride);
}

/// fn over the planes [0, planes) on the session's thread pool, or serially
/// when the `work` (in elements or multiply-adds) is too small to share.
static inline void runPlanes(onnxc_range_fn fn, void *ctx, int64_t planes,
                             double work) {
  if (work < 1e5)
    fn(ctx, 0, planes);
  else
    onnxc_parallel_for(onnxc_current_threadpool(), planes, fn, ctx);
}

#endif /* ONNXC_KERNELS_ENTRYPOINTS_H */

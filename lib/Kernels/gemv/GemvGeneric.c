/*===- GemvGeneric.c - The GEMV's portable C kernel ------------------------===*
 *
 * The portable variant of the few-row product (Gemv.c): blocks of
 * GenericWidth columns, each row's sums in an array the compiler may keep
 * in vectors.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/gemv/GemvInternal.h"

#include <string.h>

void onnxcGemvGeneric(int m, int64_t k, const float *const *a, const GemvB *b,
                      int64_t j0, int cols, float *sums) {
  for (int i = 0; i < m; ++i) {
    float acc[GenericWidth] = {0};
    for (int64_t p = 0; p < k; ++p) {
      const float *row = rowOf(b, p, j0);
      float x = a[i][p];
      for (int j = 0; j < cols; ++j)
        acc[j] += x * row[j];
    }
    memcpy(sums + i * MaxWidth, acc, sizeof(float) * (size_t)cols);
  }
}

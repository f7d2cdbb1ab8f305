/*===- MemRefCopy.c - memrefCopy, called by lowered memref.copy ------------===*
 *
 * MLIR lowers a memref.copy whose operands are not both contiguous to a call
 * of `memrefCopy(elemSize, src, dst)` on unranked descriptors (rank and a
 * pointer to the ranked descriptor laid out as in onnxc_runtime.h). This is
 * onnxc's implementation, so compiled models need no MLIR runtime library.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Runtime/onnxc_runtime.h"

#include <string.h>

typedef struct onnxc_unranked_memref {
  int64_t rank;
  int64_t
      *descriptor; /* allocated, aligned, offset, sizes[rank], strides[rank] */
} onnxc_unranked_memref;

void memrefCopy(int64_t elemSize, onnxc_unranked_memref *src,
                onnxc_unranked_memref *dst);

void memrefCopy(int64_t elemSize, onnxc_unranked_memref *src,
                onnxc_unranked_memref *dst) {
  int64_t rank = src->rank;
  const int64_t *s = src->descriptor, *d = dst->descriptor;
  const char *srcBase = (const char *)(intptr_t)s[1] + s[2] * elemSize;
  char *dstBase = (char *)(intptr_t)d[1] + d[2] * elemSize;
  const int64_t *sizes = s + 3, *srcStrides = s + 3 + rank,
                *dstStrides = d + 3 + rank;
  int64_t index[ONNXC_MAX_RANK] = {0};
  int64_t total = 1;
  for (int64_t i = 0; i < rank; ++i)
    total *= sizes[i];
  if (total == 0)
    return;
  if (rank == 0) {
    memcpy(dstBase, srcBase, (size_t)elemSize);
    return;
  }
  /* Rows along the innermost dim are one memcpy when both sides have unit
   * stride there (a padded or sliced copy, the common case). */
  int64_t inner = rank - 1;
  int64_t rowLength = 1;
  if (srcStrides[inner] == 1 && dstStrides[inner] == 1) {
    rowLength = sizes[inner];
    if (rank == 1) {
      memcpy(dstBase, srcBase, (size_t)(rowLength * elemSize));
      return;
    }
    --inner;
  }
  int64_t srcOff = 0, dstOff = 0;
  for (;;) {
    memcpy(dstBase + dstOff * elemSize, srcBase + srcOff * elemSize,
           (size_t)(rowLength * elemSize));
    /* Advance the multi-index, innermost dim first. */
    int64_t axis = inner;
    while (axis >= 0) {
      ++index[axis];
      srcOff += srcStrides[axis];
      dstOff += dstStrides[axis];
      if (index[axis] < sizes[axis])
        break;
      srcOff -= srcStrides[axis] * index[axis];
      dstOff -= dstStrides[axis] * index[axis];
      index[axis] = 0;
      --axis;
    }
    if (axis < 0)
      return;
  }
}

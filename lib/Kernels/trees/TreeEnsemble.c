/*===- TreeEnsemble.c - Compiled tree ensembles ----------------------------===*
 *
 * The entry point that a lowered fused.tree_ensemble calls. The compiler
 * packs the forest (passes/Conversion/ONNXToLinalg/Trees.cpp) into 16-byte
 * nodes whose test is one comparison: (x ^ sign) <= split, the sign bit
 * flipping x for >= and >, the split moved one float down for < and >, and
 * the successors swapped so that a missing value (NaN, which fails every
 * comparison) takes its side. Leaves are nodes that are their own successor
 * on both sides, so that every walk takes a fixed number of steps: the depth
 * of the deepest tree among those walked together.
 *
 * Walks are independent chains of dependent loads; eight run side by side so
 * that their cache misses overlap: eight rows through one tree when there
 * are rows enough, else eight trees for one row. Rows go in blocks through
 * all the trees, one tree at a time, so a tree's nodes stay in cache while
 * the block's rows cross it; the blocks are spread over the thread pool.
 * EQ, NEQ and set-membership nodes (and a missing value sent the other way
 * than the comparison would) are "special": their test reads a record in a
 * side table, and only forests that have them pay for the check.
 *
 *===----------------------------------------------------------------------===*/
#include "lib/Kernels/Kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { AggregateMask = 3 };

/// The special nodes' modes (TreeEnsemble-5's nodes_modes numbering).
enum { ModeLeq, ModeLt, ModeGte, ModeGt, ModeEq, ModeNeq, ModeMember };

/// Chains walked side by side, and rows per block.
#define ONNXC_TREE_CHAINS 8
#define ONNXC_TREE_BLOCK 64

typedef struct {
  const int32_t *nodes;  // [total][4]: word, split bits, true, false
  const int32_t *trees;  // [trees][2]: root, steps
  const int32_t *leafOf; // [total]: the leaf of a leaf node
  const float *weights;  // [leaves][targets], row stride weightStride
  const float *special;  // records: mode, missing true, split, count, set
  const float *x;
  float *y;
  int64_t numTrees, targets, weightStride, xStride, yStride, rows;
  int aggregate, hasSpecial;
} Forest;

static inline float bitsToFloat(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

static inline uint32_t floatToBits(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  return bits;
}

/// A special node's test on `v` (its record); out of line, so that the walks
/// of forests without special nodes stay small.
__attribute__((noinline)) static int specialTest(const float *record, float v) {
  int mode = (int)record[0];
  if (isnan(v) && record[1] != 0.0f)
    return 1;
  float split = record[2];
  switch (mode) {
  case ModeLeq:
    return v <= split;
  case ModeLt:
    return v < split;
  case ModeGte:
    return v >= split;
  case ModeGt:
    return v > split;
  case ModeEq:
    return v == split;
  case ModeNeq:
    return v != split;
  default: {
    int64_t count = (int64_t)record[3];
    for (int64_t k = 0; k < count; ++k)
      if (record[4 + k] == v)
        return 1;
    return 0;
  }
  }
}

/// One step of a walk at node `idx` over the features of `row`: the
/// successor. `special`: the forest has special nodes (a constant per call
/// site, so the check folds away where it has none).
__attribute__((always_inline)) static inline int32_t
step(const Forest *f, const float *row, int32_t idx, int special) {
  const int32_t *n = f->nodes + 4 * (int64_t)idx;
  uint32_t word = (uint32_t)n[0];
  float v = row[word & ONNXC_TREE_WORD_FEATURE];
  if (special && (word & ONNXC_TREE_WORD_SPECIAL))
    return specialTest(f->special + n[1], v) ? n[2] : n[3];
  float flipped = bitsToFloat(floatToBits(v) ^ (word & ONNXC_TREE_WORD_SIGN));
  return flipped <= bitsToFloat((uint32_t)n[1]) ? n[2] : n[3];
}

/// Walks ONNXC_TREE_CHAINS (eight) chains for `steps` steps: chain j reads
/// `rows[j]` starting at `idx[j]`, which ends at its leaf node. Written out
/// chain by chain so that the eight indices stay in registers.
__attribute__((always_inline)) static inline void
walk(const Forest *f, const float *const *rows, int32_t *idx, int32_t steps,
     int special) {
  const float *r0 = rows[0], *r1 = rows[1], *r2 = rows[2], *r3 = rows[3],
              *r4 = rows[4], *r5 = rows[5], *r6 = rows[6], *r7 = rows[7];
  int32_t i0 = idx[0], i1 = idx[1], i2 = idx[2], i3 = idx[3], i4 = idx[4],
          i5 = idx[5], i6 = idx[6], i7 = idx[7];
  for (int32_t s = 0; s < steps; ++s) {
    i0 = step(f, r0, i0, special);
    i1 = step(f, r1, i1, special);
    i2 = step(f, r2, i2, special);
    i3 = step(f, r3, i3, special);
    i4 = step(f, r4, i4, special);
    i5 = step(f, r5, i5, special);
    i6 = step(f, r6, i6, special);
    i7 = step(f, r7, i7, special);
  }
  idx[0] = i0, idx[1] = i1, idx[2] = i2, idx[3] = i3, idx[4] = i4, idx[5] = i5,
  idx[6] = i6, idx[7] = i7;
}

/// Folds the weights of leaf node `node` into the output row `y`.
static inline void addLeaf(const Forest *f, float *y, int32_t node) {
  const float *w = f->weights + f->leafOf[node] * f->weightStride;
  int64_t targets = f->targets;
  if (targets == 1 && f->aggregate == 1) {
    y[0] += w[0];
    return;
  }
  switch (f->aggregate) {
  case 2:
    for (int64_t t = 0; t < targets; ++t)
      y[t] = w[t] < y[t] ? w[t] : y[t];
    break;
  case 3:
    for (int64_t t = 0; t < targets; ++t)
      y[t] = w[t] > y[t] ? w[t] : y[t];
    break;
  default:
    for (int64_t t = 0; t < targets; ++t)
      y[t] += w[t];
  }
}

/// The deepest of trees [first, first + count).
static inline int32_t stepsOf(const Forest *f, int64_t first, int64_t count) {
  int32_t steps = 0;
  for (int64_t k = 0; k < count; ++k)
    if (f->trees[2 * (first + k) + 1] > steps)
      steps = f->trees[2 * (first + k) + 1];
  return steps;
}

/// Rows [begin, end): eight rows through one tree at a time; a last group of
/// fewer rows repeats its last row in the unused chains.
__attribute__((always_inline)) static inline void
rowsThroughTrees(const Forest *f, int64_t begin, int64_t end, int special) {
  const float *rows[ONNXC_TREE_CHAINS];
  int32_t idx[ONNXC_TREE_CHAINS];
  for (int64_t t = 0; t < f->numTrees; ++t) {
    int32_t root = f->trees[2 * t], steps = f->trees[2 * t + 1];
    for (int64_t r = begin; r < end; r += ONNXC_TREE_CHAINS) {
      int64_t count = end - r < ONNXC_TREE_CHAINS ? end - r : ONNXC_TREE_CHAINS;
      for (int j = 0; j < ONNXC_TREE_CHAINS; ++j) {
        rows[j] = f->x + (r + (j < count ? j : count - 1)) * f->xStride;
        idx[j] = root;
      }
      walk(f, rows, idx, steps, special);
      for (int64_t j = 0; j < count; ++j)
        addLeaf(f, f->y + (r + j) * f->yStride, idx[j]);
    }
  }
}

/// One row through eight trees at a time; a last group of fewer trees
/// repeats its last tree in the unused chains.
__attribute__((always_inline)) static inline void
treesForRow(const Forest *f, int64_t row, int special) {
  const float *rows[ONNXC_TREE_CHAINS];
  int32_t idx[ONNXC_TREE_CHAINS];
  const float *x = f->x + row * f->xStride;
  float *y = f->y + row * f->yStride;
  for (int j = 0; j < ONNXC_TREE_CHAINS; ++j)
    rows[j] = x;
  for (int64_t t = 0; t < f->numTrees; t += ONNXC_TREE_CHAINS) {
    int64_t count = f->numTrees - t < ONNXC_TREE_CHAINS ? f->numTrees - t
                                                        : ONNXC_TREE_CHAINS;
    for (int j = 0; j < ONNXC_TREE_CHAINS; ++j)
      idx[j] = f->trees[2 * (t + (j < count ? j : count - 1))];
    walk(f, rows, idx, stepsOf(f, t, count), special);
    for (int64_t j = 0; j < count; ++j)
      addLeaf(f, y, idx[j]);
  }
}

/// Blocks [begin, end) of ONNXC_TREE_BLOCK rows.
static void runBlocks(void *ctx, int64_t begin, int64_t end) {
  const Forest *f = ctx;
  float init = f->aggregate == 2   ? INFINITY
               : f->aggregate == 3 ? -INFINITY
                                   : 0.0f;
  for (int64_t b = begin; b < end; ++b) {
    int64_t first = b * ONNXC_TREE_BLOCK;
    int64_t last =
        first + ONNXC_TREE_BLOCK < f->rows ? first + ONNXC_TREE_BLOCK : f->rows;
    for (int64_t r = first; r < last; ++r)
      for (int64_t t = 0; t < f->targets; ++t)
        f->y[r * f->yStride + t] = init;
    // Whole groups of eight rows tree by tree; the rest row by row.
    int64_t grouped =
        first + (last - first) / ONNXC_TREE_CHAINS * ONNXC_TREE_CHAINS;
    if (f->hasSpecial)
      rowsThroughTrees(f, first, grouped, 1);
    else
      rowsThroughTrees(f, first, grouped, 0);
    for (int64_t r = grouped; r < last; ++r) {
      if (f->hasSpecial)
        treesForRow(f, r, 1);
      else
        treesForRow(f, r, 0);
    }
  }
}

void onnxc_kernel_tree_ensemble_f32(ONNXC_MEMREF2(x), ONNXC_QMEMREF1(nodes),
                                    ONNXC_QMEMREF1(trees),
                                    ONNXC_QMEMREF1(leafOf), ONNXC_MEMREF2(w),
                                    ONNXC_MEMREF1(special), ONNXC_MEMREF2(y),
                                    int64_t flags) {
  (void)xAlloc, (void)nodesAlloc, (void)nodesSize0, (void)nodesStride0,
      (void)treesAlloc, (void)treesStride0, (void)leafOfAlloc,
      (void)leafOfSize0, (void)leafOfStride0, (void)wAlloc, (void)wSize0,
      (void)wSize1, (void)wStride1, (void)specialAlloc, (void)specialSize0,
      (void)specialStride0, (void)yAlloc, (void)ySize0, (void)yStride1;
  Forest f = {(const int32_t *)nodes + nodesOff,
              (const int32_t *)trees + treesOff,
              (const int32_t *)leafOf + leafOfOff,
              w + wOff,
              special + specialOff,
              x + xOff,
              y + yOff,
              treesSize0 / 2,
              ySize1,
              wStride0,
              xStride0,
              yStride0,
              xSize0,
              (int)(flags & AggregateMask),
              (flags & ONNXC_TREE_FLAG_SPECIAL) != 0};
  if (f.rows <= 0 || f.targets <= 0)
    return;
  /* The walks read a row's features at unit stride: a strided view of X is
   * copied first. */
  float *copy = NULL;
  if (xStride1 != 1 && xSize1 > 1) {
    copy = malloc(sizeof(float) * (size_t)(f.rows * xSize1));
    if (!copy)
      return;
    for (int64_t r = 0; r < f.rows; ++r)
      for (int64_t c = 0; c < xSize1; ++c)
        copy[r * xSize1 + c] = f.x[r * xStride0 + c * xStride1];
    f.x = copy;
    f.xStride = xSize1;
  }
  int64_t blocks = (f.rows + ONNXC_TREE_BLOCK - 1) / ONNXC_TREE_BLOCK;
  /* One block: not worth waking the pool. */
  if (blocks == 1)
    runBlocks(&f, 0, 1);
  else
    onnxc_parallel_for(onnxc_current_threadpool(), blocks, runBlocks, &f);
  free(copy);
}

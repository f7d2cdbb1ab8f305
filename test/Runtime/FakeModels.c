/*===- FakeModels.c - Hand-written models on the onnxc model ABI -----------===*
 *
 * Each entry reads its input memref descriptors word by word (allocated,
 * aligned, offset, sizes, strides) and fills the output descriptors with
 * malloc'd buffers, as compiled models do.
 *
 *===----------------------------------------------------------------------===*/
#include "FakeModels.h"

#include <stdlib.h>
#include <string.h>

/// Element (i, j) of a rank-2 float descriptor.
static float load2(const int64_t *desc, int64_t i, int64_t j) {
  const float *aligned = (const float *)(intptr_t)desc[1];
  return aligned[desc[2] + i * desc[5] + j * desc[6]];
}

/*===----------------------------------------------------------------------===
 * Add.
 *===----------------------------------------------------------------------===*/

onnxc_threadpool *fakeAddLastPool;

typedef struct {
  const int64_t *a;
  const int64_t *b;
  float *out;
  int64_t cols;
} AddCtx;

static void addRows(void *ctx, int64_t begin, int64_t end) {
  AddCtx *c = ctx;
  for (int64_t i = begin; i < end; ++i)
    for (int64_t j = 0; j < c->cols; ++j)
      c->out[i * c->cols + j] = load2(c->a, i, j) + load2(c->b, i, j);
}

static void addEntry(void *const *inputs, void *outputs) {
  const int64_t *a = inputs[0], *b = inputs[1];
  int64_t *out = outputs;
  int64_t rows = a[3], cols = a[4];
  float *buf = malloc((size_t)(rows * cols) * sizeof(float) + 1);
  AddCtx ctx = {a, b, buf, cols};
  fakeAddLastPool = onnxc_current_threadpool();
  onnxc_parallel_for(fakeAddLastPool, rows, addRows, &ctx);
  out[0] = (int64_t)(intptr_t)buf;
  out[1] = (int64_t)(intptr_t)buf;
  out[2] = 0;
  out[3] = rows;
  out[4] = cols;
  out[5] = cols;
  out[6] = 1;
}

static const int64_t addDims[2] = {-1, 3};
static const char *const addParams[2] = {"N", NULL};
static const onnxc_tensor_sig addInputs[2] = {
    {"a", ONNXC_DTYPE_FLOAT, 2, addDims, addParams, ONNXC_KIND_TENSOR, 0, 0},
    {"b", ONNXC_DTYPE_FLOAT, 2, addDims, addParams, ONNXC_KIND_TENSOR, 0, 0}};
static const onnxc_tensor_sig addOutputs[1] = {
    {"sum", ONNXC_DTYPE_FLOAT, 2, addDims, addParams, ONNXC_KIND_TENSOR, 0, 0}};

const onnxc_model_desc fakeAddModel = {
    ONNXC_ABI_VERSION, "fake_add", 2, 1, addInputs, addOutputs, addEntry};

#ifdef ONNXC_FAKE_DEFAULT_MODEL
/// Lets the smoke test link against libonnxc_main.a.
const onnxc_model_desc onnxc_default_model = {
    ONNXC_ABI_VERSION, "fake_add", 2, 1, addInputs, addOutputs, addEntry};
#endif

/*===----------------------------------------------------------------------===
 * Strided.
 *===----------------------------------------------------------------------===*/

static void stridedEntry(void *const *inputs, void *outputs) {
  const int64_t *x = inputs[0];
  int64_t *xt = outputs;
  int64_t *x2 = xt + 3 + 2 * 2;

  // xt: a [3,2] view with strides [1,3] at offset 1 of a 7-float buffer
  // that holds x row-major from element 1.
  float *tBuf = malloc(7 * sizeof(float));
  tBuf[0] = -1.0f;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      tBuf[1 + i * 3 + j] = load2(x, i, j);
  xt[0] = (int64_t)(intptr_t)tBuf;
  xt[1] = (int64_t)(intptr_t)tBuf;
  xt[2] = 1;
  xt[3] = 3;
  xt[4] = 2;
  xt[5] = 1;
  xt[6] = 3;

  // x2: dense, but aligned is 4 floats past allocated and offset is 2.
  float *dBuf = malloc(12 * sizeof(float));
  float *aligned = dBuf + 4;
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      aligned[2 + i * 3 + j] = 2.0f * load2(x, i, j);
  x2[0] = (int64_t)(intptr_t)dBuf;
  x2[1] = (int64_t)(intptr_t)aligned;
  x2[2] = 2;
  x2[3] = 2;
  x2[4] = 3;
  x2[5] = 3;
  x2[6] = 1;
}

static const int64_t stridedInDims[2] = {2, 3};
static const int64_t stridedTDims[2] = {3, 2};
static const onnxc_tensor_sig stridedInputs[1] = {
    {"x", ONNXC_DTYPE_FLOAT, 2, stridedInDims, NULL, ONNXC_KIND_TENSOR, 0, 0}};
static const onnxc_tensor_sig stridedOutputs[2] = {
    {"xt", ONNXC_DTYPE_FLOAT, 2, stridedTDims, NULL, ONNXC_KIND_TENSOR, 0, 0},
    {"x2", ONNXC_DTYPE_FLOAT, 2, stridedInDims, NULL, ONNXC_KIND_TENSOR, 0, 0}};

const onnxc_model_desc fakeStridedModel = {
    ONNXC_ABI_VERSION, "fake_strided", 1,           2,
    stridedInputs,     stridedOutputs, stridedEntry};

/*===----------------------------------------------------------------------===
 * Alias.
 *===----------------------------------------------------------------------===*/

static void setRank1(int64_t *desc, void *allocated, void *aligned,
                     int64_t offset, int64_t size) {
  desc[0] = (int64_t)(intptr_t)allocated;
  desc[1] = (int64_t)(intptr_t)aligned;
  desc[2] = offset;
  desc[3] = size;
  desc[4] = 1;
}

static void aliasEntry(void *const *inputs, void *outputs) {
  const int64_t *x = inputs[0];
  int64_t *out = outputs;
  int64_t n = x[3];
  // same: x's descriptor as is.
  memcpy(out, x, 5 * sizeof(int64_t));
  // twice and twice2: one buffer.
  int64_t *buf = malloc((size_t)n * sizeof(int64_t) + 1);
  const int64_t *xs = (const int64_t *)(intptr_t)x[1] + x[2];
  for (int64_t i = 0; i < n; ++i)
    buf[i] = 2 * xs[i * x[4]];
  setRank1(out + 5, buf, buf, 0, n);
  setRank1(out + 10, buf, buf, 0, n);
}

static const int64_t aliasDims[1] = {-1};
static const onnxc_tensor_sig aliasInputs[1] = {
    {"x", ONNXC_DTYPE_INT64, 1, aliasDims, NULL, ONNXC_KIND_TENSOR, 0, 0}};
static const onnxc_tensor_sig aliasOutputs[3] = {
    {"same", ONNXC_DTYPE_INT64, 1, aliasDims, NULL, ONNXC_KIND_TENSOR, 0, 0},
    {"twice", ONNXC_DTYPE_INT64, 1, aliasDims, NULL, ONNXC_KIND_TENSOR, 0, 0},
    {"twice2", ONNXC_DTYPE_INT64, 1, aliasDims, NULL, ONNXC_KIND_TENSOR, 0, 0}};

const onnxc_model_desc fakeAliasModel = {
    ONNXC_ABI_VERSION, "fake_alias", 1,         3,
    aliasInputs,       aliasOutputs, aliasEntry};

/*===----------------------------------------------------------------------===
 * A model that breaks its signature.
 *===----------------------------------------------------------------------===*/

/// Returns N + 1 elements where the signature names N.
static void wrongDiagEntry(void *const *inputs, void *outputs) {
  const int64_t *m = inputs[0];
  int64_t *out = outputs;
  int64_t n = m[3] + 1;
  float *buf = calloc((size_t)n, sizeof(float));
  out[0] = (int64_t)(intptr_t)buf;
  out[1] = (int64_t)(intptr_t)buf;
  out[2] = 0;
  out[3] = n;
  out[4] = 1;
}

static const int64_t squareDims[2] = {-1, -1};
static const char *const squareParams[2] = {"N", "N"};
static const int64_t diagDims[1] = {-1};
static const char *const diagParams[1] = {"N"};
static const onnxc_tensor_sig squareInputs[1] = {{"m", ONNXC_DTYPE_FLOAT, 2,
                                                  squareDims, squareParams,
                                                  ONNXC_KIND_TENSOR, 0, 0}};
static const onnxc_tensor_sig diagOutputs[1] = {{"diag", ONNXC_DTYPE_FLOAT, 1,
                                                 diagDims, diagParams,
                                                 ONNXC_KIND_TENSOR, 0, 0}};

const onnxc_model_desc fakeWrongDiagModel = {
    ONNXC_ABI_VERSION, "fake_wrong_diag", 1, 1, squareInputs,
    diagOutputs,       wrongDiagEntry};

/*===----------------------------------------------------------------------===
 * Sequences and optionals, as handles in rank-0 memrefs.
 *===----------------------------------------------------------------------===*/

/// The handle in a rank-0 memref descriptor.
static int64_t loadHandle(const int64_t *desc) {
  return ((const int64_t *)(intptr_t)desc[1])[desc[2]];
}

/// Fills a rank-0 descriptor with a malloc'd buffer holding `handle`.
static void storeHandle(int64_t *desc, int64_t handle) {
  int64_t *buf = malloc(sizeof(int64_t));
  *buf = handle;
  desc[0] = desc[1] = (int64_t)(intptr_t)buf;
  desc[2] = 0;
}

static void seqInsertEntry(void *const *inputs, void *outputs) {
  const int64_t *seq = inputs[0];
  int64_t *out = outputs;
  int64_t x = onnxc_value_from_memref(ONNXC_DTYPE_FLOAT, 1, inputs[1]);
  storeHandle(out, onnxc_seq_insert(loadHandle(seq), x, 0, 0));
  // same: the input's own descriptor, whose buffer is the session's.
  memcpy(out + 3, seq, 3 * sizeof(int64_t));
}

static const int64_t seqDims[1] = {-1};
static const onnxc_tensor_sig seqInsertInputs[2] = {
    {"seq", ONNXC_DTYPE_FLOAT, 1, seqDims, NULL, ONNXC_KIND_SEQUENCE,
     ONNXC_KIND_TENSOR, 0},
    {"x", ONNXC_DTYPE_FLOAT, 1, seqDims, NULL, ONNXC_KIND_TENSOR, 0, 0}};
static const onnxc_tensor_sig seqInsertOutputs[2] = {
    {"appended", ONNXC_DTYPE_FLOAT, 1, seqDims, NULL, ONNXC_KIND_SEQUENCE,
     ONNXC_KIND_TENSOR, 0},
    {"same", ONNXC_DTYPE_UNDEFINED, -1, NULL, NULL, ONNXC_KIND_SEQUENCE,
     ONNXC_KIND_TENSOR, 0}};

const onnxc_model_desc fakeSeqInsertModel = {
    ONNXC_ABI_VERSION, "fake_seq_insert", 2, 2, seqInsertInputs,
    seqInsertOutputs,  seqInsertEntry};

static void optionalEntry(void *const *inputs, void *outputs) {
  storeHandle(outputs, loadHandle(inputs[0]));
}

static const onnxc_tensor_sig optionalSigs[1] = {
    {"opt", ONNXC_DTYPE_FLOAT, -1, NULL, NULL, ONNXC_KIND_OPTIONAL,
     ONNXC_KIND_TENSOR, 0}};

const onnxc_model_desc fakeOptionalModel = {
    ONNXC_ABI_VERSION, "fake_optional", 1, 1, optionalSigs,
    optionalSigs,      optionalEntry};

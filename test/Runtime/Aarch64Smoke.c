/*===- Aarch64Smoke.c - Smoke test of the cross-built aarch64 runtime ------===*
 *
 * Run under qemu-aarch64 by run-aarch64.sh. Without arguments: checks tensor
 * I/O, the thread pool and a session on the fake add model, and leaves its
 * inputs in a.pb and b.pb. With `--check FILE`: checks that FILE holds the
 * sum the add model computes from those inputs.
 *
 *===----------------------------------------------------------------------===*/
#include "FakeModels.h"

#include <stdio.h>
#include <string.h>

static int failures;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: check failed: %s (last error: %s)\n", __FILE__,  \
              __LINE__, #cond, onnxc_last_error());                            \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static const int64_t dims[2] = {2, 3};

static onnxc_tensor *makeInput(float base) {
  onnxc_tensor *t = onnxc_tensor_create(ONNXC_DTYPE_FLOAT, 2, dims);
  if (!t)
    return NULL;
  float *data = onnxc_tensor_data(t);
  for (int i = 0; i < 6; ++i)
    data[i] = base + (float)i;
  return t;
}

static int checkSum(const onnxc_tensor *t) {
  if (!t || onnxc_tensor_numel(t) != 6 ||
      onnxc_tensor_dtype(t) != ONNXC_DTYPE_FLOAT)
    return 0;
  const float *data = onnxc_tensor_data(t);
  for (int i = 0; i < 6; ++i)
    if (data[i] != 10.0f + 2.0f * (float)i)
      return 0;
  return 1;
}

static void countRange(void *ctx, int64_t begin, int64_t end) {
  int *hits = ctx;
  for (int64_t i = begin; i < end; ++i)
    __atomic_fetch_add(&hits[i], 1, __ATOMIC_RELAXED);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--check") == 0) {
    onnxc_tensor *out = onnxc_tensor_read(argv[2]);
    EXPECT(checkSum(out));
    EXPECT(out && strcmp(onnxc_tensor_name(out), "sum") == 0);
    onnxc_tensor_free(out);
    return failures ? 1 : 0;
  }

  onnxc_tensor *a = makeInput(0.0f), *b = makeInput(10.0f);
  EXPECT(a && b);
  if (!a || !b)
    return 1;
  EXPECT(onnxc_tensor_write_pb(a, "a.pb", "a") == ONNXC_OK);
  EXPECT(onnxc_tensor_write_pb(b, "b.pb", "b") == ONNXC_OK);
  onnxc_tensor *back = onnxc_tensor_read("a.pb");
  EXPECT(back && onnxc_tensor_nbytes(back) == onnxc_tensor_nbytes(a) &&
         memcmp(onnxc_tensor_data(back), onnxc_tensor_data(a), 24) == 0);
  EXPECT(back && strcmp(onnxc_tensor_name(back), "a") == 0);
  onnxc_tensor_free(back);
  EXPECT(onnxc_tensor_write_npy(b, "b.npy") == ONNXC_OK);
  back = onnxc_tensor_read("b.npy");
  EXPECT(back &&
         memcmp(onnxc_tensor_data(back), onnxc_tensor_data(b), 24) == 0);
  onnxc_tensor_free(back);
  remove("b.npy");

  int hits[1000] = {0};
  onnxc_threadpool *pool = onnxc_threadpool_create(3);
  EXPECT(pool);
  onnxc_parallel_for(pool, 1000, countRange, hits);
  onnxc_threadpool_destroy(pool);
  for (int i = 0; i < 1000; ++i)
    EXPECT(hits[i] == 1);

  onnxc_session *session = onnxc_session_create(&fakeAddModel, 2);
  EXPECT(session);
  onnxc_tensor *inputs[2] = {a, b};
  onnxc_tensor *outputs[1] = {NULL};
  EXPECT(onnxc_session_run(session, inputs, 2, outputs) == ONNXC_OK);
  EXPECT(checkSum(outputs[0]));
  onnxc_tensor_free(outputs[0]);
  onnxc_session_free(session);
  onnxc_tensor_free(a);
  onnxc_tensor_free(b);
  if (!failures)
    printf("aarch64 runtime smoke test passed\n");
  return failures ? 1 : 0;
}

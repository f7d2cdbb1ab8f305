/* pipeline_c_api.c - runs a compiled model library through the C API and
 * prints its outputs as text, reading sequences of maps with the accessors
 * (onnxc_sequence_length/_at, onnxc_map_keys/_values): what check_pipeline.py
 * compares with scikit-learn.
 *
 *   pipeline_c_api INPUT.pb ...   (one file per model input, in order)
 *
 * Build with -DMODEL_HEADER='"libNAME.h"' -DMODEL=NAME_model. Prints, per
 * output, "tensor NAME N" and N values, or "maps NAME N" and one line per
 * map: "KEY VALUE" pairs. */
#include MODEL_HEADER

#include <inttypes.h>
#include <stdio.h>

static int fail(const char *what) {
  fprintf(stderr, "%s: %s\n", what, onnxc_last_error());
  return 1;
}

static void printElement(const onnxc_tensor *t, int64_t i) {
  const void *data = onnxc_tensor_data(t);
  switch (onnxc_tensor_dtype(t)) {
  case ONNXC_DTYPE_FLOAT:
    printf(" %.9g", ((const float *)data)[i]);
    break;
  case ONNXC_DTYPE_INT64:
    printf(" %" PRId64, ((const int64_t *)data)[i]);
    break;
  case ONNXC_DTYPE_STRING:
    printf(" %s", onnxc_tensor_string(t, i, NULL));
    break;
  default:
    printf(" ?");
  }
}

static int printValue(const onnxc_tensor *value, const char *name) {
  if (onnxc_value_kind(value) == ONNXC_KIND_TENSOR) {
    int64_t n = onnxc_tensor_numel(value);
    printf("tensor %s %" PRId64 "\n", name, n);
    for (int64_t i = 0; i < n; ++i)
      printElement(value, i);
    printf("\n");
    return 0;
  }
  if (onnxc_value_kind(value) != ONNXC_KIND_SEQUENCE)
    return fail("not a tensor or a sequence");
  int64_t count = onnxc_sequence_length(value);
  printf("maps %s %" PRId64 "\n", name, count);
  for (int64_t i = 0; i < count; ++i) {
    const onnxc_tensor *map = onnxc_sequence_at(value, i);
    if (onnxc_value_kind(map) != ONNXC_KIND_MAP)
      return fail("a sequence element is not a map");
    const onnxc_tensor *keys = onnxc_map_keys(map);
    const onnxc_tensor *values = onnxc_map_values(map);
    for (int64_t k = 0; k < onnxc_tensor_numel(keys); ++k) {
      printElement(keys, k);
      printElement(values, k);
    }
    printf("\n");
  }
  return 0;
}

int main(int argc, char **argv) {
  const onnxc_model_desc *model = &MODEL;
  if (argc - 1 != model->num_inputs || model->num_inputs > 8 ||
      model->num_outputs > 8) {
    fprintf(stderr, "usage: %s INPUT.pb (x%d)\n", argv[0], model->num_inputs);
    return 2;
  }
  onnxc_tensor *inputs[8] = {0}, *outputs[8] = {0};
  for (int i = 0; i < model->num_inputs; ++i)
    if (!(inputs[i] = onnxc_value_read_pb(argv[1 + i], model->inputs[i].kind)))
      return fail(argv[1 + i]);
  onnxc_session *session = onnxc_session_create(model, 1);
  if (!session)
    return fail("session");
  if (onnxc_session_run(session, inputs, model->num_inputs, outputs) !=
      ONNXC_OK)
    return fail("run");
  int status = 0;
  for (int k = 0; k < model->num_outputs && !status; ++k)
    status = printValue(outputs[k], model->outputs[k].name);
  for (int k = 0; k < model->num_outputs; ++k)
    onnxc_tensor_free(outputs[k]);
  for (int i = 0; i < model->num_inputs; ++i)
    onnxc_tensor_free(inputs[i]);
  onnxc_session_free(session);
  return status;
}

/* main.c - calls a model compiled with `onnx-compile --emit lib` through the
 * onnxc C API: read inputs, run, print each output's shape and first values.
 *
 *   onnx-compile digits.onnx -o out/libdigits --emit lib
 *   cc -I out main.c out/libdigits.a -lm -lpthread
 * -DMODEL_HEADER='"libdigits.h"' \ -DMODEL=digits_model -o classify
 *   ./classify test_images.pb
 */
#include <stdio.h>

#include MODEL_HEADER

int main(int argc, char **argv) {
  const onnxc_model_desc *model = &MODEL;
  if (argc - 1 != model->num_inputs) {
    fprintf(stderr, "usage: %s INPUT... (%d inputs)\n", argv[0],
            model->num_inputs);
    return 2;
  }
  onnxc_tensor *inputs[16] = {0};
  onnxc_tensor *outputs[16] = {0};
  int rc = 1;
  onnxc_session *session = onnxc_session_create(model, 1);
  if (!session)
    goto done;
  for (int i = 0; i < model->num_inputs; ++i)
    if (!(inputs[i] = onnxc_tensor_read(argv[i + 1])))
      goto done;
  if (onnxc_session_run(session, inputs, model->num_inputs, outputs) !=
      ONNXC_OK)
    goto done;
  for (int k = 0; k < model->num_outputs; ++k) {
    const onnxc_tensor *out = outputs[k];
    printf("%s: %s [", onnxc_tensor_name(out),
           onnxc_dtype_name(onnxc_tensor_dtype(out)));
    for (int d = 0; d < onnxc_tensor_rank(out); ++d)
      printf(d ? ",%lld" : "%lld", (long long)onnxc_tensor_dims(out)[d]);
    printf("]");
    if (onnxc_tensor_dtype(out) == ONNXC_DTYPE_FLOAT) {
      const float *v = onnxc_tensor_data(out);
      for (int64_t i = 0; i < onnxc_tensor_numel(out) && i < 4; ++i)
        printf(" %g", v[i]);
    }
    printf("\n");
  }
  rc = 0;
done:
  if (rc)
    fprintf(stderr, "error: %s\n", onnxc_last_error());
  for (int i = 0; i < 16; ++i) {
    onnxc_tensor_free(inputs[i]);
    onnxc_tensor_free(outputs[i]);
  }
  onnxc_session_free(session);
  return rc;
}

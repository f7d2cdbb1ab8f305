/*===- ExeMain.c - main() of a compiled model's standalone executable ----===*/

#include "onnxc_runtime.h"

/// The model descriptor that onnx-compile emits into the model object.
extern const onnxc_model_desc onnxc_default_model;

int main(int argc, char **argv) {
  return onnxc_main(&onnxc_default_model, argc, argv);
}

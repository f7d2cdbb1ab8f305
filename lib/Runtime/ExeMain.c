/*===- ExeMain.c - main() of a compiled model's standalone executable ----===*/

#define _DEFAULT_SOURCE
#include "onnxc_runtime.h"

#include <stdio.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

/// The model descriptor that onnx-compile emits into the model object.
extern const onnxc_model_desc onnxc_default_model;

int main(int argc, char **argv) {
#ifdef __GLIBC__
  // A model allocates and frees the same activation buffers on every run:
  // keep them in the heap rather than mapping (and faulting in) fresh pages
  // each time.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
  // A model path that cannot run (an If branch the compiler found invalid
  // for the shapes) prints its message with puts() and aborts: line
  // buffering gets the message out of a pipe before the abort.
  setvbuf(stdout, NULL, _IOLBF, 0);
  return onnxc_main(&onnxc_default_model, argc, argv);
}

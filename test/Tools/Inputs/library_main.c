/* library_main.c - an executable built on a model library from
 * `onnx-compile --emit lib` (symbol tiny_model); input of
 * onnx-compile-cli.test. */
#include "libtiny.h"

int main(int argc, char **argv) { return onnxc_main(&tiny_model, argc, argv); }

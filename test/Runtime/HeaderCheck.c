/*===- HeaderCheck.c - Checks that onnxc_runtime.h compiles as pedantic C -===*/

#include "onnxc_runtime.h"

/// Referenced by the unit tests so that this file is linked in.
int onnxcHeaderCheck(void) {
  onnxc_tensor_sig sig = {"x", ONNXC_DTYPE_FLOAT, 0, 0,
                          0,   ONNXC_KIND_TENSOR, 0, 0};
  return sig.dtype + ONNXC_ABI_VERSION + ONNXC_MAX_RANK;
}

// RUN: onnx-opt %s -convert-onnx-to-linalg="cpu-kernels=false" | FileCheck %s

// Without CPU kernels (the nvptx target), the LayerNormalization that
// normalization.mlir's @layer_norm_kernel sends to the runtime's row kernel
// is reductions and elementwise generics, which become GPU kernels: a call
// would run on the host.
// CHECK-LABEL: func.func @layer_norm_no_kernel
// CHECK-NOT: call
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: call
// CHECK: return
// CHECK-NOT: onnxc_kernel_layer_norm_f32
func.func @layer_norm_no_kernel(%x: tensor<?x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x3x4xf32> {
  %0:3 = onnx.LayerNormalization %x, %s, %b {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<?x3x4xf32>, tensor<?x3x1xf32>, tensor<?x3x1xf32>)
  return %0#0 : tensor<?x3x4xf32>
}

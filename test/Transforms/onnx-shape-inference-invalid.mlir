// RUN: onnx-opt %s -split-input-file -verify-diagnostics -onnx-shape-inference

// Outside any If, an op that cannot run with the shapes known is the
// model's error (inside one, a run-time failure of that branch: see
// onnx-shape-inference.mlir).
func.func @infeasible_op(%x: tensor<3x2xf32>) -> tensor<*xf32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %y = onnx.Identity %x : (tensor<3x2xf32>) -> tensor<3x?xf32>
  // expected-error @+1 {{cannot squeeze dim 1 of size 2}}
  %s = onnx.Squeeze %y, %axes : (tensor<3x?xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %s : tensor<*xf32>
}

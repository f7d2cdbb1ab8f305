// RUN: onnx-opt %s -split-input-file -onnx-lower-to-llvm | FileCheck %s

// Reshapes that fold several dynamic dims into one and split them again bufferize
// and lower (MLIR 19 crashed in one-shot bufferization on an expand_shape into
// [?, ?], and folded its dims to garbage). An encoder's projection, layer norm,
// head split and attention over a dynamic batch and sequence:
// CHECK-LABEL: llvm.func @attention
// CHECK-NOT: tensor.
// CHECK-NOT: memref.
func.func @attention(%x: tensor<?x?x32xf32>, %w: tensor<32x32xf32>, %s: tensor<32xf32>) -> tensor<?x?x32xf32> {
  %shape = onnx.Constant {value = dense<[0, 0, 4, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %back = onnx.Constant {value = dense<[0, 0, 32]> : tensor<3xi64>} : () -> tensor<3xi64>
  %q = onnx.MatMul %x, %w : (tensor<?x?x32xf32>, tensor<32x32xf32>) -> tensor<?x?x32xf32>
  %n:3 = onnx.LayerNormalization %q, %s, %s {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x?x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<?x?x32xf32>, tensor<?x?x1xf32>, tensor<?x?x1xf32>)
  %r = onnx.Relu %n#0 : (tensor<?x?x32xf32>) -> tensor<?x?x32xf32>
  %h = onnx.Reshape %r, %shape : (tensor<?x?x32xf32>, tensor<4xi64>) -> tensor<?x?x4x8xf32>
  %t = onnx.Transpose %h {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x?x4x8xf32>) -> tensor<?x4x?x8xf32>
  %k = onnx.Transpose %h {perm = array<i64: 0, 2, 3, 1>} : (tensor<?x?x4x8xf32>) -> tensor<?x4x8x?xf32>
  %a = onnx.MatMul %t, %k : (tensor<?x4x?x8xf32>, tensor<?x4x8x?xf32>) -> tensor<?x4x?x?xf32>
  %p = onnx.Softmax %a {axis = -1 : i64} : (tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  %c = onnx.MatMul %p, %t : (tensor<?x4x?x?xf32>, tensor<?x4x?x8xf32>) -> tensor<?x4x?x8xf32>
  %u = onnx.Transpose %c {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x4x?x8xf32>) -> tensor<?x?x4x8xf32>
  %y = onnx.Reshape %u, %back : (tensor<?x?x4x8xf32>, tensor<3xi64>) -> tensor<?x?x32xf32>
  return %y : tensor<?x?x32xf32>
}

// -----

// Flatten, Unsqueeze and Squeeze around a dynamic batch, height and width.
// CHECK-LABEL: llvm.func @flatten_unsqueeze
// CHECK-NOT: tensor.
// CHECK-NOT: memref.
func.func @flatten_unsqueeze(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x1xf32> {
  %axes = onnx.Constant {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %f = onnx.Flatten %x {axis = 2 : i64} : (tensor<?x?x?x?xf32>) -> tensor<?x?xf32>
  %e = onnx.Exp %f : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %u = onnx.Unsqueeze %e, %axes : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?x1xf32>
  return %u : tensor<?x?x1xf32>
}

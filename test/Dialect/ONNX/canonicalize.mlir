// RUN: onnx-opt %s -split-input-file -canonicalize | FileCheck %s

// Chains of folds: the shape subgraphs that exporters (PyTorch) emit collapse
// to constants, leaving a Reshape by a constant shape.

// x.flatten(1) / x.view(x.size(0), -1):
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape.
// CHECK-LABEL: func.func @torch_flatten
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
func.func @torch_flatten(%x: tensor<2x3x4xf32>) -> tensor<?x?xf32> {
  // CHECK: %[[SHAPE:.+]] = onnx.Constant {value = dense<[2, -1]> : tensor<2xi64>}
  // CHECK-NOT: onnx.Shape
  // CHECK-NOT: onnx.Gather
  // CHECK-NOT: onnx.Unsqueeze
  // CHECK-NOT: onnx.Concat
  // CHECK: %[[R:.+]] = onnx.Reshape %[[X]], %[[SHAPE]]
  // CHECK: return %[[R]]
  %s = onnx.Shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %zero = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %n = onnx.Gather %s, %zero {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %axes = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %n1 = onnx.Unsqueeze %n, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %minus1 = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %shape = onnx.Concat %n1, %minus1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = onnx.Reshape %x, %shape : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// x.view(b, c * h * w) with the sizes computed, cast and multiplied.
// CHECK-LABEL: func.func @torch_view_arithmetic
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4x5xf32>)
func.func @torch_view_arithmetic(%x: tensor<2x3x4x5xf32>) -> tensor<?x?xf32> {
  // CHECK: %[[SHAPE:.+]] = onnx.Constant {value = dense<[2, 60]> : tensor<2xi64>}
  // CHECK-NOT: onnx.Mul
  // CHECK-NOT: onnx.Cast
  // CHECK: onnx.Reshape %[[X]], %[[SHAPE]]
  %s = onnx.Shape %x : (tensor<2x3x4x5xf32>) -> tensor<4xi64>
  %sc = onnx.Cast %s {to = 7 : i64} : (tensor<4xi64>) -> tensor<4xi64>
  %i0 = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %i1 = onnx.Constant {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %i2 = onnx.Constant {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %i3 = onnx.Constant {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %b = onnx.Gather %sc, %i0 {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %c = onnx.Gather %sc, %i1 {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %h = onnx.Gather %sc, %i2 {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %w = onnx.Gather %sc, %i3 {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %ch = onnx.Mul %c, %h : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %chw = onnx.Mul %ch, %w : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %axes = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %b1 = onnx.Unsqueeze %b, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %chw1 = onnx.Unsqueeze %chw, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %shape = onnx.Concat %b1, %chw1 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = onnx.Reshape %x, %shape : (tensor<2x3x4x5xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// A constant reshaped by a computed shape becomes one constant.
// CHECK-LABEL: func.func @constant_through_shape_arithmetic
func.func @constant_through_shape_arithmetic(%x: tensor<3x2xf32>) -> tensor<2x3xi64> {
  // CHECK: %[[C:.+]] = onnx.Constant {value = dense<{{\[}}[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi64>}
  // CHECK-NEXT: return %[[C]]
  %data = onnx.Constant {value = dense<[0, 1, 2, 3, 4, 5]> : tensor<6xi64>} : () -> tensor<6xi64>
  %s = onnx.Shape %x : (tensor<3x2xf32>) -> tensor<2xi64>
  %perm = onnx.Constant {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %t = onnx.Gather %s, %perm {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %r = onnx.Reshape %data, %t : (tensor<6xi64>, tensor<2xi64>) -> tensor<2x3xi64>
  return %r : tensor<2x3xi64>
}

// -----

// Identities in a chain disappear.
// CHECK-LABEL: func.func @identity_chain
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
func.func @identity_chain(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK-NEXT: return %[[X]]
  %0 = onnx.Identity %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = onnx.Cast %0 {to = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Transpose %1 {perm = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = onnx.Constant {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %3 = onnx.Reshape %2, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %4 = onnx.Concat %3 {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

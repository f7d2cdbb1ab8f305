// RUN: onnx-opt %s -split-input-file -onnx-widen-float16 | FileCheck %s

// A float16 MatMul computes in float: its inputs cast up, its result cast
// back once.
// CHECK-LABEL: func.func @matmul
// CHECK: %[[A:.+]] = onnx.Cast %arg0 {to = 1 : i64} : (tensor<4x8xf16>) -> tensor<4x8xf32>
// CHECK: %[[B:.+]] = onnx.Cast %arg1 {to = 1 : i64} : (tensor<8x2xf16>) -> tensor<8x2xf32>
// CHECK: %[[Y:.+]] = onnx.MatMul %[[A]], %[[B]] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
// CHECK: %[[R:.+]] = onnx.Cast %[[Y]] {to = 10 : i64} : (tensor<4x2xf32>) -> tensor<4x2xf16>
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>) -> tensor<4x2xf16> {
  %y = onnx.MatMul %a, %b : (tensor<4x8xf16>, tensor<8x2xf16>) -> tensor<4x2xf16>
  return %y : tensor<4x2xf16>
}

// -----

// A bfloat16 depthwise Conv keeps its attributes and its missing bias.
// CHECK-LABEL: func.func @conv
// CHECK: onnx.Conv %{{.+}}, %{{.+}}, %{{.+}} {group = 4 : i64} : (tensor<1x4x8xf32>, tensor<4x1x3xf32>, none) -> tensor<1x4x6xf32>
// CHECK: onnx.Cast %{{.+}} {to = 16 : i64} : (tensor<1x4x6xf32>) -> tensor<1x4x6xbf16>
func.func @conv(%x: tensor<1x4x8xbf16>, %w: tensor<4x1x3xbf16>) -> tensor<1x4x6xbf16> {
  %none = onnx.NoValue : () -> none
  %y = onnx.Conv %x, %w, %none {group = 4 : i64} : (tensor<1x4x8xbf16>, tensor<4x1x3xbf16>, none) -> tensor<1x4x6xbf16>
  return %y : tensor<1x4x6xbf16>
}

// -----

// Float MatMuls stay as they are.
// CHECK-LABEL: func.func @float
// CHECK-NOT: onnx.Cast
func.func @float(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  %y = onnx.MatMul %a, %b : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}

// -----

// Softmax and LogSoftmax of float16 compute in float (the row's exponentials,
// sum and quotient), their result rounded once; the axis stays.
// CHECK-LABEL: func.func @softmax
// CHECK: %[[X:.+]] = onnx.Cast %arg0 {to = 1 : i64} : (tensor<2x18xf16>) -> tensor<2x18xf32>
// CHECK: %[[S:.+]] = onnx.Softmax %[[X]] {axis = 0 : i64} : (tensor<2x18xf32>) -> tensor<2x18xf32>
// CHECK: onnx.Cast %[[S]] {to = 10 : i64} : (tensor<2x18xf32>) -> tensor<2x18xf16>
// CHECK: %[[L:.+]] = onnx.LogSoftmax %{{.+}} : (tensor<2x18xf32>) -> tensor<2x18xf32>
// CHECK: onnx.Cast %[[L]] {to = 10 : i64} : (tensor<2x18xf32>) -> tensor<2x18xf16>
func.func @softmax(%x: tensor<2x18xf16>) -> (tensor<2x18xf16>, tensor<2x18xf16>) {
  %s = onnx.Softmax %x {axis = 0 : i64} : (tensor<2x18xf16>) -> tensor<2x18xf16>
  %l = onnx.LogSoftmax %x : (tensor<2x18xf16>) -> tensor<2x18xf16>
  return %s, %l : tensor<2x18xf16>, tensor<2x18xf16>
}

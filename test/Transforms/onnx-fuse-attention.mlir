// RUN: onnx-opt %s -split-input-file -onnx-fuse-attention | FileCheck %s

// BERT's form: the scores divided by sqrt(D) after Q K^T, K transposed
// straight to [B, H, D, S], a padding mask; the batch is dynamic.
// CHECK-LABEL: func.func @bert
// CHECK-SAME: (%[[Q:.+]]: tensor<?x8x8xf32>, %[[K:.+]]: tensor<?x8x8xf32>, %[[V:.+]]: tensor<?x8x8xf32>, %[[M:.+]]: tensor<?x1x1x8xf32>)
// CHECK: %[[Y:.+]] = fused.attention %[[Q]], %[[K]], %[[V]], %[[M]] {num_heads = 2 : i64, scale = 5.000000e-01 : f32} : (tensor<?x8x8xf32>, tensor<?x8x8xf32>, tensor<?x8x8xf32>, tensor<?x1x1x8xf32>) -> tensor<?x8x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @bert(%q: tensor<?x8x8xf32>, %k: tensor<?x8x8xf32>, %v: tensor<?x8x8xf32>, %mask: tensor<?x1x1x8xf32>) -> tensor<?x8x8xf32> {
  %split = onnx.Constant {value = dense<[-1, 8, 2, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %merge = onnx.Constant {value = dense<[-1, 8, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %two = onnx.Constant {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %q4 = onnx.Reshape %q, %split : (tensor<?x8x8xf32>, tensor<4xi64>) -> tensor<?x8x2x4xf32>
  %qh = onnx.Transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x8x2x4xf32>) -> tensor<?x2x8x4xf32>
  %k4 = onnx.Reshape %k, %split : (tensor<?x8x8xf32>, tensor<4xi64>) -> tensor<?x8x2x4xf32>
  %kt = onnx.Transpose %k4 {perm = array<i64: 0, 2, 3, 1>} : (tensor<?x8x2x4xf32>) -> tensor<?x2x4x8xf32>
  %v4 = onnx.Reshape %v, %split : (tensor<?x8x8xf32>, tensor<4xi64>) -> tensor<?x8x2x4xf32>
  %vh = onnx.Transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x8x2x4xf32>) -> tensor<?x2x8x4xf32>
  %s = onnx.MatMul %qh, %kt : (tensor<?x2x8x4xf32>, tensor<?x2x4x8xf32>) -> tensor<?x2x8x8xf32>
  %scaled = onnx.Div %s, %two : (tensor<?x2x8x8xf32>, tensor<f32>) -> tensor<?x2x8x8xf32>
  %masked = onnx.Add %scaled, %mask : (tensor<?x2x8x8xf32>, tensor<?x1x1x8xf32>) -> tensor<?x2x8x8xf32>
  %p = onnx.Softmax %masked {axis = -1 : i64} : (tensor<?x2x8x8xf32>) -> tensor<?x2x8x8xf32>
  %o = onnx.MatMul %p, %vh : (tensor<?x2x8x8xf32>, tensor<?x2x8x4xf32>) -> tensor<?x2x8x4xf32>
  %ot = onnx.Transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<?x2x8x4xf32>) -> tensor<?x8x2x4xf32>
  %y = onnx.Reshape %ot, %merge : (tensor<?x8x2x4xf32>, tensor<3xi64>) -> tensor<?x8x8xf32>
  return %y : tensor<?x8x8xf32>
}

// -----

// scaled_dot_product_attention's form: Q and K^T each multiplied by a
// square root of the scale before Q K^T, K transposed twice, no mask, and
// keys and values of another length than the queries.
// CHECK-LABEL: func.func @sdpa
// CHECK: %[[NONE:.+]] = onnx.NoValue
// CHECK-NEXT: %[[Y:.+]] = fused.attention %arg0, %arg1, %arg2, %[[NONE]] {num_heads = 2 : i64, scale = 2.500000e-01 : f32} : (tensor<1x8x8xf32>, tensor<1x6x8xf32>, tensor<1x6x8xf32>, none) -> tensor<1x8x8xf32>
// CHECK-NEXT: return %[[Y]]
func.func @sdpa(%q: tensor<1x8x8xf32>, %k: tensor<1x6x8xf32>, %v: tensor<1x6x8xf32>) -> tensor<1x8x8xf32> {
  %split = onnx.Constant {value = dense<[1, 8, 2, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %splitkv = onnx.Constant {value = dense<[1, 6, 2, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %merge = onnx.Constant {value = dense<[1, 8, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %half = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %q4 = onnx.Reshape %q, %split : (tensor<1x8x8xf32>, tensor<4xi64>) -> tensor<1x8x2x4xf32>
  %qh = onnx.Transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32>
  %qs = onnx.Mul %qh, %half : (tensor<1x2x8x4xf32>, tensor<f32>) -> tensor<1x2x8x4xf32>
  %k4 = onnx.Reshape %k, %splitkv : (tensor<1x6x8xf32>, tensor<4xi64>) -> tensor<1x6x2x4xf32>
  %kh = onnx.Transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x2x4xf32>) -> tensor<1x2x6x4xf32>
  %kt = onnx.Transpose %kh {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x6x4xf32>) -> tensor<1x2x4x6xf32>
  %ks = onnx.Mul %half, %kt : (tensor<f32>, tensor<1x2x4x6xf32>) -> tensor<1x2x4x6xf32>
  %v4 = onnx.Reshape %v, %splitkv : (tensor<1x6x8xf32>, tensor<4xi64>) -> tensor<1x6x2x4xf32>
  %vh = onnx.Transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x6x2x4xf32>) -> tensor<1x2x6x4xf32>
  %s = onnx.MatMul %qs, %ks : (tensor<1x2x8x4xf32>, tensor<1x2x4x6xf32>) -> tensor<1x2x8x6xf32>
  %p = onnx.Softmax %s {axis = 3 : i64} : (tensor<1x2x8x6xf32>) -> tensor<1x2x8x6xf32>
  %o = onnx.MatMul %p, %vh : (tensor<1x2x8x6xf32>, tensor<1x2x6x4xf32>) -> tensor<1x2x8x4xf32>
  %ot = onnx.Transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x8x4xf32>) -> tensor<1x8x2x4xf32>
  %y = onnx.Reshape %ot, %merge : (tensor<1x8x2x4xf32>, tensor<3xi64>) -> tensor<1x8x8xf32>
  return %y : tensor<1x8x8xf32>
}

// -----

// The probabilities have a second reader: nothing is fused.
// CHECK-LABEL: func.func @probs_used
// CHECK-NOT: fused.attention
func.func @probs_used(%q: tensor<1x8x8xf32>) -> (tensor<1x8x8xf32>, tensor<1x2x8x8xf32>) {
  %split = onnx.Constant {value = dense<[1, 8, 2, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %merge = onnx.Constant {value = dense<[1, 8, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %q4 = onnx.Reshape %q, %split : (tensor<1x8x8xf32>, tensor<4xi64>) -> tensor<1x8x2x4xf32>
  %qh = onnx.Transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32>
  %k4 = onnx.Reshape %q, %split : (tensor<1x8x8xf32>, tensor<4xi64>) -> tensor<1x8x2x4xf32>
  %kt = onnx.Transpose %k4 {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x4x8xf32>
  %v4 = onnx.Reshape %q, %split : (tensor<1x8x8xf32>, tensor<4xi64>) -> tensor<1x8x2x4xf32>
  %vh = onnx.Transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x4xf32>) -> tensor<1x2x8x4xf32>
  %s = onnx.MatMul %qh, %kt : (tensor<1x2x8x4xf32>, tensor<1x2x4x8xf32>) -> tensor<1x2x8x8xf32>
  %p = onnx.Softmax %s {axis = -1 : i64} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %o = onnx.MatMul %p, %vh : (tensor<1x2x8x8xf32>, tensor<1x2x8x4xf32>) -> tensor<1x2x8x4xf32>
  %ot = onnx.Transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x2x8x4xf32>) -> tensor<1x8x2x4xf32>
  %y = onnx.Reshape %ot, %merge : (tensor<1x8x2x4xf32>, tensor<3xi64>) -> tensor<1x8x8xf32>
  return %y, %p : tensor<1x8x8xf32>, tensor<1x2x8x8xf32>
}

// -----

// K split into heads without the transpose to K^T (Q K, not Q K^T): not
// fused.
// CHECK-LABEL: func.func @no_key_transpose
// CHECK-NOT: fused.attention
func.func @no_key_transpose(%q: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %split = onnx.Constant {value = dense<[1, 4, 1, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  %merge = onnx.Constant {value = dense<[1, 4, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %q4 = onnx.Reshape %q, %split : (tensor<1x4x4xf32>, tensor<4xi64>) -> tensor<1x4x1x4xf32>
  %qh = onnx.Transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x1x4xf32>) -> tensor<1x1x4x4xf32>
  %k4 = onnx.Reshape %q, %split : (tensor<1x4x4xf32>, tensor<4xi64>) -> tensor<1x4x1x4xf32>
  %kh = onnx.Transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x1x4xf32>) -> tensor<1x1x4x4xf32>
  %v4 = onnx.Reshape %q, %split : (tensor<1x4x4xf32>, tensor<4xi64>) -> tensor<1x4x1x4xf32>
  %vh = onnx.Transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x4x1x4xf32>) -> tensor<1x1x4x4xf32>
  %s = onnx.MatMul %qh, %kh : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %p = onnx.Softmax %s {axis = -1 : i64} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %o = onnx.MatMul %p, %vh : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  %ot = onnx.Transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<1x1x4x4xf32>) -> tensor<1x4x1x4xf32>
  %y = onnx.Reshape %ot, %merge : (tensor<1x4x1x4xf32>, tensor<3xi64>) -> tensor<1x4x4xf32>
  return %y : tensor<1x4x4xf32>
}

// RUN: onnx-opt %s -split-input-file -onnx-recognize-patterns | FileCheck %s
// RUN: onnx-opt %s -split-input-file -onnx-recognize-patterns=upgrade-opset | FileCheck %s --check-prefix=UPGRADE

// LayerNormalization over the last axis, with its scale and bias.
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.+]]: tensor<2x8xf32>)
module attributes {onnx.opset_import = {ai.onnx = 17 : i64}} {
func.func @layer_norm(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // CHECK: %[[Y:[[:alnum:]_]+]], %{{.+}} = onnx.LayerNormalization %[[X]], %{{.*}}, %{{.*}} {axis = 1 : i64}
  // CHECK-NOT: onnx.ReduceMean
  // CHECK: return %[[Y]]
  %axes = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = onnx.Constant {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = onnx.Constant {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %g = onnx.Constant {value = dense<2.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %b = onnx.Constant {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %m = onnx.ReduceMean %x, %axes : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = onnx.Sub %x, %m : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %p = onnx.Pow %d, %two : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %v = onnx.ReduceMean %p, %axes : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %e = onnx.Add %v, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = onnx.Sqrt %e : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = onnx.Div %d, %s : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
  %y = onnx.Mul %n, %g : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  %z = onnx.Add %y, %b : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %z : tensor<2x8xf32>
}
}

// -----

// Without a Scale, one of ones would be built as a constant: not for a
// normalized width of 2^40 (a fuzzed model's), which stays as it is.
// CHECK-LABEL: func.func @layer_norm_too_wide
// CHECK-NOT: onnx.LayerNormalization
// CHECK: onnx.Div
module attributes {onnx.opset_import = {ai.onnx = 17 : i64}} {
func.func @layer_norm_too_wide(%x: tensor<2x1099511627776xf32>) -> tensor<2x1099511627776xf32> {
  %axes = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = onnx.Constant {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = onnx.Constant {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %m = onnx.ReduceMean %x, %axes : (tensor<2x1099511627776xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = onnx.Sub %x, %m : (tensor<2x1099511627776xf32>, tensor<2x1xf32>) -> tensor<2x1099511627776xf32>
  %p = onnx.Pow %d, %two : (tensor<2x1099511627776xf32>, tensor<f32>) -> tensor<2x1099511627776xf32>
  %v = onnx.ReduceMean %p, %axes : (tensor<2x1099511627776xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %e = onnx.Add %v, %eps : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = onnx.Sqrt %e : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = onnx.Div %d, %s : (tensor<2x1099511627776xf32>, tensor<2x1xf32>) -> tensor<2x1099511627776xf32>
  return %n : tensor<2x1099511627776xf32>
}
}

// -----

// GELU at opset 17: left alone, unless the opset may be raised to 20.
// CHECK-LABEL: func.func @gelu
// CHECK: onnx.Erf
// UPGRADE: module attributes {onnx.opset_import = {ai.onnx = 20 : i64}}
// UPGRADE-LABEL: func.func @gelu
// UPGRADE-SAME: (%[[X:.+]]: tensor<4xf32>)
// UPGRADE: %[[Y:.+]] = onnx.Gelu %[[X]]
// UPGRADE-NOT: onnx.Erf
// UPGRADE: return %[[Y]]
module attributes {onnx.opset_import = {ai.onnx = 17 : i64}} {
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %sqrt2 = onnx.Constant {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = onnx.Constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = onnx.Div %x, %sqrt2 : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = onnx.Erf %0 : (tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Add %1, %one : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %3 = onnx.Mul %x, %2 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %4 = onnx.Mul %3, %half : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
}

// -----

// Softmax with the max subtracted for stability.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.+]]: tensor<2x5xf32>)
module attributes {onnx.opset_import = {ai.onnx = 13 : i64}} {
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // CHECK: %[[Y:.+]] = onnx.Softmax %[[X]] {axis = 1 : i64}
  // CHECK-NOT: onnx.Exp
  // CHECK: return %[[Y]]
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m = onnx.ReduceMax %x, %axes : (tensor<2x5xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %d = onnx.Sub %x, %m : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  %e = onnx.Exp %d : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %s = onnx.ReduceSum %e, %axes : (tensor<2x5xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %y = onnx.Div %e, %s : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}
}

// -----

// The tanh approximation, at opset 20.
// CHECK-LABEL: func.func @gelu_tanh
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
module attributes {onnx.opset_import = {ai.onnx = 20 : i64}} {
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[Y:.+]] = onnx.Gelu %[[X]] {approximate = "tanh"}
  // CHECK-NOT: onnx.Tanh
  // CHECK: return %[[Y]]
  %three = onnx.Constant {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %k = onnx.Constant {value = dense<0.044715> : tensor<f32>} : () -> tensor<f32>
  %c = onnx.Constant {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = onnx.Constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %0 = onnx.Pow %x, %three : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = onnx.Mul %k, %0 : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = onnx.Add %x, %1 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = onnx.Mul %2, %c : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %4 = onnx.Tanh %3 : (tensor<4xf32>) -> tensor<4xf32>
  %5 = onnx.Add %one, %4 : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %6 = onnx.Mul %half, %x : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %7 = onnx.Mul %6, %5 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %7 : tensor<4xf32>
}
}

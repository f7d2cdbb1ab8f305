// RUN: onnx-opt %s -split-input-file -onnx-quantize-dynamic | FileCheck %s
// RUN: onnx-opt %s -split-input-file -onnx-quantize-dynamic="per-channel=true" | FileCheck %s --check-prefix=CHANNEL

// A 3-D MatMul with a constant weight: int8 weights (absmax 4 over 127),
// the activation quantized at run time, the product rescaled by the
// product of the scales.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[X:.+]]: tensor<2x5x3xf32>)
// CHECK-DAG: %[[W:.+]] = onnx.Constant {value = dense<{{\[\[}}32, -64], [95, 127], [0, -127]]> : tensor<3x2xi8>}
// CHECK-DAG: %[[WZ:.+]] = onnx.Constant {value = dense<0> : tensor<i8>}
// CHECK-DAG: %[[WS:.+]] = onnx.Constant {value = dense<0.0314960629> : tensor<f32>}
// CHECK: %[[Q:.+]], %[[QS:.+]], %[[QZ:.+]] = onnx.DynamicQuantizeLinear %[[X]]
// CHECK: %[[P:.+]] = onnx.MatMulInteger %[[Q]], %[[W]], %[[QZ]], %[[WZ]] : {{.*}} -> tensor<2x5x2xi32>
// CHECK: %[[F:.+]] = onnx.Cast %[[P]] {to = 1 : i64}
// CHECK: %[[S:.+]] = onnx.Mul %[[QS]], %[[WS]]
// CHECK: %[[Y:.+]] = onnx.Mul %[[F]], %[[S]]
// CHECK: return %[[Y]]
// CHECK-NOT: onnx.MatMul
// CHANNEL-LABEL: func.func @matmul
// CHANNEL: onnx.Constant {value = dense<{{\[\[}}42, -64], [127, 127], [0, -127]]> : tensor<3x2xi8>}
// CHANNEL: onnx.Constant {value = dense<0> : tensor<2xi8>}
// CHANNEL: onnx.Constant {value = dense<[0.0236220472, 0.0314960629]> : tensor<2xf32>}
// CHANNEL: onnx.MatMulInteger {{.*}} : (tensor<2x5x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<2xi8>)
module attributes {onnx.opset_import = {ai.onnx = 9 : i64}} {
func.func @matmul(%x: tensor<2x5x3xf32>) -> tensor<2x5x2xf32> {
  %w = onnx.Constant {value = dense<[[1.0, -2.0], [3.0, 4.0], [0.0, -4.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  %y = onnx.MatMul %x, %w : (tensor<2x5x3xf32>, tensor<3x2xf32>) -> tensor<2x5x2xf32>
  return %y : tensor<2x5x2xf32>
}
}

// -----

// Gemm with transB: the weight transposed to [K, N], then Gemm's C added;
// per column the scales differ. A Gemm with alpha != 1 and a MatMul of two
// activations stay float.
// CHECK-LABEL: func.func @gemm
// CHECK: onnx.Constant {value = dense<{{\[\[}}64, 32], [-64, 127]]> : tensor<2x2xi8>}
// CHECK: onnx.MatMulInteger
// CHECK: onnx.Mul %{{.+}}, %{{.+}} : (tensor<f32>, tensor<f32>)
// CHECK: %[[Y:.+]] = onnx.Mul
// CHECK: %[[Z:.+]] = onnx.Add %[[Y]], %{{.+}} : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK: onnx.Gemm %{{.+}} {alpha = 2.000000e+00 : f32}
// CHECK: onnx.MatMul %{{.+}}, %{{.+}} : (tensor<4x2xf32>, tensor<2x4xf32>)
// CHANNEL-LABEL: func.func @gemm
// CHANNEL: onnx.Constant {value = dense<{{\[\[}}127, 32], [-127, 127]]> : tensor<2x2xi8>}
func.func @gemm(%a: tensor<4x2xf32>, %b: tensor<2x4xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>) {
  %w = onnx.Constant {value = dense<[[1.0, -1.0], [0.5, 2.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %c = onnx.Constant {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = onnx.Gemm %a, %w, %c {transB = 1 : i64} : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %z = onnx.Gemm %a, %w, %c {alpha = 2.0 : f32} : (tensor<4x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  %m = onnx.MatMul %a, %b : (tensor<4x2xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %y, %z, %m : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>
}

// RUN: onnx-opt %s -split-input-file -onnx-fuse-qdq | FileCheck %s

// Conv -> Relu -> QuantizeLinear on dequantized operands: QLinearConv with
// the int32 bias (already at scale x_scale * w_scale, so unchanged); the
// Relu dropped as the output zero point is uint8's minimum.
// CHECK-LABEL: func.func @conv_relu
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x4x4xui8>)
// CHECK-DAG: %[[B:.+]] = onnx.Constant {value = dense<[10, -20]> : tensor<2xi32>}
// CHECK: %[[Y:.+]] = onnx.QLinearConv %[[X]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[B]] {pads = array<i64: 1, 1, 1, 1>} : {{.*}} -> tensor<1x2x4x4xui8>
// CHECK-NOT: onnx.Relu
// CHECK-NOT: onnx.Max
// CHECK: return %[[Y]]
func.func @conv_relu(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = onnx.Constant {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %w = onnx.Constant {value = dense<1> : tensor<2x2x3x3xi8>} : () -> tensor<2x2x3x3xi8>
  %ws = onnx.Constant {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %wz = onnx.Constant {value = dense<0> : tensor<2xi8>} : () -> tensor<2xi8>
  %b = onnx.Constant {value = dense<[10, -20]> : tensor<2xi32>} : () -> tensor<2xi32>
  %bs = onnx.Constant {value = dense<[0.125, 0.0625]> : tensor<2xf32>} : () -> tensor<2xf32>
  %none = onnx.NoValue : () -> none
  %ys = onnx.Constant {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %yz = onnx.Constant {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %xd = onnx.DequantizeLinear %x, %xs, %xz : (tensor<1x2x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %wz {axis = 0 : i64} : (tensor<2x2x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x2x3x3xf32>
  %bd = onnx.DequantizeLinear %b, %bs, %none {axis = 0 : i64} : (tensor<2xi32>, tensor<2xf32>, none) -> tensor<2xf32>
  %c = onnx.Conv %xd, %wd, %bd {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = onnx.Relu %c : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = onnx.QuantizeLinear %r, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// MatMul -> Relu -> QuantizeLinear with per-column weight scales:
// QLinearMatMul, then Max with the (non-minimal) output zero point.
// CHECK-LABEL: func.func @matmul_relu
// CHECK: %[[Y:.+]] = onnx.QLinearMatMul %{{.+}} -> tensor<3x2xui8>
// CHECK: %[[R:.+]] = onnx.Max %[[Y]], %{{.+}} : (tensor<3x2xui8>, tensor<ui8>)
// CHECK: return %[[R]]
func.func @matmul_relu(%a: tensor<3x4xui8>) -> tensor<3x2xui8> {
  %s = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = onnx.Constant {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %w = onnx.Constant {value = dense<1> : tensor<4x2xi8>} : () -> tensor<4x2xi8>
  %ws = onnx.Constant {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ad = onnx.DequantizeLinear %a, %s, %z : (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x4xf32>
  %none = onnx.NoValue : () -> none
  %wd = onnx.DequantizeLinear %w, %ws, %none {axis = 1 : i64} : (tensor<4x2xi8>, tensor<2xf32>, none) -> tensor<4x2xf32>
  %m = onnx.MatMul %ad, %wd : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %r = onnx.Relu %m : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %y = onnx.QuantizeLinear %r, %s, %z : (tensor<3x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x2xui8>
  return %y : tensor<3x2xui8>
}

// -----

// Gemm with transB and a float bias whose output stays float: the weights
// transposed to [K, N], MatMulInteger, Cast, Mul by x_scale * w_scale, Add.
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: %[[S:.+]] = onnx.Constant {value = dense<[1.250000e-01, 6.250000e-02]> : tensor<2xf32>}
// CHECK-DAG: %[[W:.+]] = onnx.Constant {value = dense<{{\[\[}}1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>}
// CHECK: %[[P:.+]] = onnx.MatMulInteger %{{.+}}, %[[W]], %{{.+}}, %{{.+}} : {{.*}} -> tensor<1x2xi32>
// CHECK: %[[F:.+]] = onnx.Cast %[[P]] {to = 1 : i64}
// CHECK: %[[M:.+]] = onnx.Mul %[[F]], %[[S]]
// CHECK: %[[Y:.+]] = onnx.Add %[[M]], %{{.+}}
// CHECK: return %[[Y]]
func.func @gemm(%a: tensor<1x3xui8>) -> tensor<1x2xf32> {
  %s = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = onnx.Constant {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %w = onnx.Constant {value = dense<[[1, 3, 5], [2, 4, 6]]> : tensor<2x3xi8>} : () -> tensor<2x3xi8>
  %ws = onnx.Constant {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = onnx.Constant {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ad = onnx.DequantizeLinear %a, %s, %z : (tensor<1x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3xf32>
  %none = onnx.NoValue : () -> none
  %wd = onnx.DequantizeLinear %w, %ws, %none {axis = 0 : i64} : (tensor<2x3xi8>, tensor<2xf32>, none) -> tensor<2x3xf32>
  %y = onnx.Gemm %ad, %wd, %c {transB = 1 : i64} : (tensor<1x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

// Activations dequantized per channel stay float.
// CHECK-LABEL: func.func @per_channel_activation
// CHECK: onnx.Conv
// CHECK-NOT: onnx.QLinearConv
func.func @per_channel_activation(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = onnx.Constant {value = dense<[0.5, 0.25]> : tensor<2xf32>} : () -> tensor<2xf32>
  %xz = onnx.Constant {value = dense<128> : tensor<2xui8>} : () -> tensor<2xui8>
  %w = onnx.Constant {value = dense<1> : tensor<2x2x1x1xi8>} : () -> tensor<2x2x1x1xi8>
  %ws = onnx.Constant {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %ys = onnx.Constant {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %yz = onnx.Constant {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %none = onnx.NoValue : () -> none
  %xd = onnx.DequantizeLinear %x, %xs, %xz {axis = 1 : i64} : (tensor<1x2x4x4xui8>, tensor<2xf32>, tensor<2xui8>) -> tensor<1x2x4x4xf32>
  %wd = onnx.DequantizeLinear %w, %ws, %none : (tensor<2x2x1x1xi8>, tensor<f32>, none) -> tensor<2x2x1x1xf32>
  %c = onnx.Conv %xd, %wd, %none : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>, none) -> tensor<1x2x4x4xf32>
  %y = onnx.QuantizeLinear %c, %ys, %yz : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

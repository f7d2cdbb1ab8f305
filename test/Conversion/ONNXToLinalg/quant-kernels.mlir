// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// With int8 kernels (Quant.cpp): the integer ops become fused.qconv and
// fused.qmatmul; a following quantized Relu (Max with the output zero point)
// and dynamic quantization's rescale (Cast, Mul, Add) fold into them.

// QLinearConv: the input padded with its zero point, the multiplier
// x_scale * w_scale / y_scale per filter, the Max folded as Relu.
// CHECK-LABEL: func.func @qlinear_conv_relu
// CHECK: arith.mulf
// CHECK-NEXT: arith.divf
// CHECK: %[[P:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 1, 1]
// CHECK: %[[Y:.+]] = fused.qconv %[[P]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} outs(%{{.+}}) {dilations = array<i64: 1, 1>, relu, strides = array<i64: 1, 1>, w_signed} : tensor<1x3x10x10xi8>, tensor<4x3x3x3xi8>, tensor<1xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<1xi32>, tensor<1x4x8x8xi8> -> tensor<1x4x8x8xi8>
// CHECK-NOT: onnx.Max
// CHECK: return %[[Y]]
func.func @qlinear_conv_relu(%x: tensor<1x3x8x8xui8>) -> tensor<1x4x8x8xui8> {
  %xs = onnx.Constant {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %xz = onnx.Constant {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %w = onnx.Constant {value = dense<3> : tensor<4x3x3x3xi8>} : () -> tensor<4x3x3x3xi8>
  %ws = onnx.Constant {value = dense<[0.01, 0.02, 0.03, 0.04]> : tensor<4xf32>} : () -> tensor<4xf32>
  %wz = onnx.Constant {value = dense<0> : tensor<4xi8>} : () -> tensor<4xi8>
  %ys = onnx.Constant {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = onnx.Constant {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %b = onnx.Constant {value = dense<[1, 2, 3, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %y = onnx.QLinearConv %x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %b {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x8x8xui8>
  %r = onnx.Max %y, %yz : (tensor<1x4x8x8xui8>, tensor<ui8>) -> tensor<1x4x8x8xui8>
  return %r : tensor<1x4x8x8xui8>
}

// -----

// DynamicQuantizeLinear -> MatMulInteger -> Cast -> Mul -> Add: one qmatmul
// with an f32 result over the batch dims folded into M, the scale and the
// bias as its parameters.
// CHECK-LABEL: func.func @dynamic_matmul
// CHECK: arith.fptoui
// CHECK: %[[C:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2]] : tensor<2x5x3xi8> into tensor<10x3xi8>
// CHECK: %[[Y:.+]] = fused.qmatmul %[[C]], {{.*}} {w_signed} : tensor<10x3xi8>, tensor<3x2xi8>, tensor<1xi32>, tensor<1xi32>, tensor<2xf32>, tensor<1xf32>, tensor<0xi32>, tensor<10x2xf32> -> tensor<10x2xf32>
// CHECK: %[[E:.+]] = tensor.expand_shape %[[Y]] {{\[\[}}0, 1], [2]] output_shape [2, 5, 2]
// CHECK-NOT: arith.sitofp
// CHECK: return %[[E]]
func.func @dynamic_matmul(%x: tensor<2x5x3xf32>) -> tensor<2x5x2xf32> {
  %w = onnx.Constant {value = dense<[[32, -64], [95, 127], [0, -127]]> : tensor<3x2xi8>} : () -> tensor<3x2xi8>
  %wz = onnx.Constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = onnx.Constant {value = dense<0.0314960629> : tensor<f32>} : () -> tensor<f32>
  %q, %qs, %qz = onnx.DynamicQuantizeLinear %x : (tensor<2x5x3xf32>) -> (tensor<2x5x3xui8>, tensor<f32>, tensor<ui8>)
  %p = onnx.MatMulInteger %q, %w, %qz, %wz : (tensor<2x5x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<2x5x2xi32>
  %f = onnx.Cast %p {to = 1 : i64} : (tensor<2x5x2xi32>) -> tensor<2x5x2xf32>
  %s = onnx.Mul %qs, %ws : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %y = onnx.Mul %f, %s : (tensor<2x5x2xf32>, tensor<f32>) -> tensor<2x5x2xf32>
  %bias = onnx.Constant {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %z = onnx.Add %y, %bias : (tensor<2x5x2xf32>, tensor<2xf32>) -> tensor<2x5x2xf32>
  return %z : tensor<2x5x2xf32>
}

// -----

// The same over a dynamic batch and sequence: the rows are reshaped back to
// both sizes (an expand_shape into [?, ?] does not bufferize in MLIR 19).
// CHECK-LABEL: func.func @dynamic_matmul_dynamic_rows
// CHECK: %[[Y:.+]] = fused.qmatmul
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %{{.+}}, %{{.+}}, %{{.+}} : tensor<3xindex>
// CHECK: tensor.reshape %[[Y]](%[[SHAPE]]) : (tensor<?x2xf32>, tensor<3xindex>) -> tensor<?x?x2xf32>
// CHECK-NOT: tensor.expand_shape
func.func @dynamic_matmul_dynamic_rows(%x: tensor<?x?x3xf32>) -> tensor<?x?x2xf32> {
  %w = onnx.Constant {value = dense<[[32, -64], [95, 127], [0, -127]]> : tensor<3x2xi8>} : () -> tensor<3x2xi8>
  %wz = onnx.Constant {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = onnx.Constant {value = dense<0.0314960629> : tensor<f32>} : () -> tensor<f32>
  %q, %qs, %qz = onnx.DynamicQuantizeLinear %x : (tensor<?x?x3xf32>) -> (tensor<?x?x3xui8>, tensor<f32>, tensor<ui8>)
  %p = onnx.MatMulInteger %q, %w, %qz, %wz : (tensor<?x?x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<?x?x2xi32>
  %f = onnx.Cast %p {to = 1 : i64} : (tensor<?x?x2xi32>) -> tensor<?x?x2xf32>
  %s = onnx.Mul %qs, %ws : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %y = onnx.Mul %f, %s : (tensor<?x?x2xf32>, tensor<f32>) -> tensor<?x?x2xf32>
  %bias = onnx.Constant {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %z = onnx.Add %y, %bias : (tensor<?x?x2xf32>, tensor<2xf32>) -> tensor<?x?x2xf32>
  return %z : tensor<?x?x2xf32>
}

// -----

// QLinearMatMul of int8 activations with per-column scales; a grouped
// ConvInteger keeps the linalg.generic contraction.
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK: fused.qmatmul {{.*}} {w_signed, x_signed, y_signed} : tensor<2x4xi8>, tensor<4x3xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<3xf32>, tensor<1xi32>, tensor<2x3xi8> -> tensor<2x3xi8>
// CHECK: linalg.generic
// CHECK-SAME: "reduction", "reduction", "reduction"
// CHECK-NOT: fused.qconv
func.func @qlinear_matmul(%a: tensor<2x4xi8>, %bs: tensor<3xf32>, %x: tensor<1x4x5x5xi8>, %w: tensor<4x2x3x3xi8>) -> (tensor<2x3xi8>, tensor<1x4x3x3xi32>) {
  %s = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = onnx.Constant {value = dense<1> : tensor<i8>} : () -> tensor<i8>
  %b = onnx.Constant {value = dense<2> : tensor<4x3xi8>} : () -> tensor<4x3xi8>
  %y = onnx.QLinearMatMul %a, %s, %z, %b, %bs, %z, %s, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i8>, tensor<4x3xi8>, tensor<3xf32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %none = onnx.NoValue : () -> none
  %c = onnx.ConvInteger %x, %w, %none, %none {group = 2 : i64} : (tensor<1x4x5x5xi8>, tensor<4x2x3x3xi8>, none, none) -> tensor<1x4x3x3xi32>
  return %y, %c : tensor<2x3xi8>, tensor<1x4x3x3xi32>
}

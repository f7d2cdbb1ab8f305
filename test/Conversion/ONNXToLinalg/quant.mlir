// RUN: onnx-opt %s -convert-onnx-to-linalg="int8-kernels=false" -split-input-file | FileCheck %s

// Quantization (passes/Conversion/ONNXToLinalg/Quant.cpp): rounding half to
// even and saturation, per-axis parameters read through an indexing map, and
// integer contractions that extend 8-bit operands to i32 accumulators.

// A per-axis scale and zero point are broadcast to 1-D tensors along axis 1
// and read through a map of that loop; the result saturates to int8.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[AXIS:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @quantize_per_axis
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[AXIS]], #[[AXIS]], #[[ID]]]
// CHECK: %[[Q:.+]] = arith.divf
// CHECK: %[[R:.+]] = math.roundeven %[[Q]]
// CHECK: %[[Z:.+]] = arith.addf %[[R]]
// CHECK: %[[LO:.+]] = arith.maximumf %[[Z]]
// CHECK: %[[HI:.+]] = arith.minimumf %[[LO]]
// CHECK: arith.fptosi %[[HI]] : f32 to i8
func.func @quantize_per_axis(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %z: tensor<3xi8>) -> tensor<2x3x4xi8> {
  %0 = onnx.QuantizeLinear %x, %s, %z : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3x4xi8>
  return %0 : tensor<2x3x4xi8>
}

// -----

// uint8 zero-extends; (x - zero point) is exact in i32 before the scale.
// CHECK-LABEL: func.func @dequantize
// CHECK: %[[ZP:.+]] = arith.extui %{{.+}} : i8 to i32
// CHECK: linalg.generic
// CHECK: %[[X:.+]] = arith.extui %{{.+}} : i8 to i32
// CHECK: %[[D:.+]] = arith.subi %[[X]], %[[ZP]] : i32
// CHECK: %[[F:.+]] = arith.sitofp %[[D]] : i32 to f32
// CHECK: arith.mulf %[[F]]
func.func @dequantize(%x: tensor<?xui8>, %s: tensor<f32>, %z: tensor<ui8>) -> tensor<?xf32> {
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<?xui8>, tensor<f32>, tensor<ui8>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// One contraction: uint8 A zero-extended, int8 B sign-extended, a scalar A
// zero point and a per-column B zero point (read along n), i32 accumulation.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_integer
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : i32) outs(%{{.+}} : tensor<4x2xi32>)
// CHECK: %[[ZA:.+]] = arith.extui %{{.+}} : i8 to i32
// CHECK: %[[ZB:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<2xi32>)
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[COL]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%{{.+}}, %{{.+}}, %[[ZB]] : tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32>) outs(%[[INIT]] : tensor<4x2xi32>)
// CHECK: ^bb0(%[[IA:.+]]: i8, %[[IB:.+]]: i8, %[[IZ:.+]]: i32, %[[ACC:.+]]: i32):
// CHECK: %[[EA:.+]] = arith.extui %[[IA]] : i8 to i32
// CHECK: %[[EB:.+]] = arith.extsi %[[IB]] : i8 to i32
// CHECK: %[[SA:.+]] = arith.subi %[[EA]], %[[ZA]]
// CHECK: %[[SB:.+]] = arith.subi %[[EB]], %[[IZ]]
// CHECK: %[[P:.+]] = arith.muli %[[SA]], %[[SB]] : i32
// CHECK: arith.addi %[[ACC]], %[[P]] : i32
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %za: tensor<ui8>, %zb: tensor<2xi8>) -> tensor<4x2xi32> {
  %0 = onnx.MatMulInteger %a, %b, %za, %zb : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// The padding holds the x zero point; the convolution is one integer
// generic over n, m, oh, ow and the reductions c, kh, kw.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 + d5, d3 + d6)>
// CHECK-LABEL: func.func @conv_integer
// CHECK: %[[ZX:.+]] = tensor.extract %{{.+}}[] : tensor<i8>
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[ZX]] : i8) outs(%{{.+}} : tensor<1x1x5x5xi8>)
// CHECK: %[[PAD:.+]] = tensor.insert_slice %{{.+}} into %[[FILL]][0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[IN]], {{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[PAD]], %{{.+}} : tensor<1x1x5x5xi8>, tensor<1x1x2x2xi8>) outs(%{{.+}} : tensor<1x1x4x4xi32>)
// CHECK: arith.extui
// CHECK: arith.muli
// CHECK: arith.addi
func.func @conv_integer(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>, %z: tensor<ui8>) -> tensor<1x1x4x4xi32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvInteger %x, %w, %z, %none {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>, tensor<ui8>, none) -> tensor<1x1x4x4xi32>
  return %0 : tensor<1x1x4x4xi32>
}

// -----

// Groups split the channel dims into [group, size / group], here at run time,
// with a per-output-channel w zero point split alike.
// CHECK-LABEL: func.func @conv_integer_grouped
// CHECK: %[[CG:.+]] = arith.divui %{{.+}}, %[[TWO:.+]] : index
// CHECK: tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, %[[CG]], 7, 7] : tensor<1x?x7x7xi8> into tensor<1x2x?x7x7xi8>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x?x5x5xi32> into tensor<1x?x5x5xi32>
func.func @conv_integer_grouped(%x: tensor<1x?x7x7xi8>, %w: tensor<?x2x3x3xi8>, %zw: tensor<?xi8>) -> tensor<1x?x5x5xi32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvInteger %x, %w, %none, %zw {group = 2 : i64} : (tensor<1x?x7x7xi8>, tensor<?x2x3x3xi8>, none, tensor<?xi8>) -> tensor<1x?x5x5xi32>
  return %0 : tensor<1x?x5x5xi32>
}

// -----

// The i32 contraction, then requantization: acc * (a_scale * b_scale /
// y_scale), rounded half to even, plus the output zero point, saturated.
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK: %[[ACC:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<2x3xi32>)
// CHECK: linalg.generic {{.*}} ins(%[[ACC]] : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3xi8>)
// CHECK: arith.sitofp %{{.+}} : i32 to f32
// CHECK: math.roundeven
// CHECK: arith.fptoui %{{.+}} : f32 to i8
func.func @qlinear_matmul(%a: tensor<2x4xui8>, %as: tensor<f32>, %az: tensor<ui8>, %b: tensor<4x3xui8>, %bs: tensor<f32>, %bz: tensor<ui8>, %ys: tensor<f32>, %yz: tensor<ui8>) -> tensor<2x3xui8> {
  %0 = onnx.QLinearMatMul %a, %as, %az, %b, %bs, %bz, %ys, %yz : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// The range (min and max reductions from 0) gives the scale and zero point,
// returned as 0-D tensors.
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: %[[SCALE:.+]] = arith.divf
// CHECK: %[[ZP:.+]] = arith.fptoui %{{.+}} : f32 to i8
// CHECK: %[[Y:.+]] = linalg.generic
// CHECK: %[[S:.+]] = tensor.from_elements %[[SCALE]] : tensor<f32>
// CHECK: %[[Z:.+]] = tensor.from_elements %[[ZP]] : tensor<i8>
// CHECK: return %[[Y]], %[[S]], %[[Z]]
func.func @dynamic_quantize(%x: tensor<?x4xf32>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %z = onnx.DynamicQuantizeLinear %x : (tensor<?x4xf32>) -> (tensor<?x4xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<?x4xui8>, tensor<f32>, tensor<ui8>
}

// -----

// Blocked parameters (block_size 2 along axis 1): each element reads its
// scale and zero point with tensor.extract at its column divided by 2.
// CHECK-LABEL: func.func @blocked
// CHECK: linalg.generic
// CHECK: %[[I:.+]] = linalg.index 1
// CHECK: %[[B:.+]] = arith.divui %[[I]], %c2
// CHECK: tensor.extract %{{.+}}[%{{.+}}, %[[B]]] : tensor<3x2xf32>
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: } -> tensor<3x4xi8>
// CHECK: linalg.generic
// CHECK: arith.divui
// CHECK: tensor.extract %{{.+}} : tensor<3x2xf32>
// CHECK: arith.divui
// CHECK: tensor.extract %{{.+}} : tensor<3x2xi8>
// CHECK: arith.subi
// CHECK: arith.mulf
// CHECK: } -> tensor<3x4xf32>
func.func @blocked(%x: tensor<3x4xf32>, %s: tensor<3x2xf32>, %z: tensor<3x2xi8>) -> tensor<3x4xf32> {
  %q = onnx.QuantizeLinear %x, %s, %z {block_size = 2 : i64} : (tensor<3x4xf32>, tensor<3x2xf32>, tensor<3x2xi8>) -> tensor<3x4xi8>
  %d = onnx.DequantizeLinear %q, %s, %z {block_size = 2 : i64} : (tensor<3x4xi8>, tensor<3x2xf32>, tensor<3x2xi8>) -> tensor<3x4xf32>
  return %d : tensor<3x4xf32>
}

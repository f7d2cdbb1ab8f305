// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// ConvTranspose whose windows tile the output
// (passes/Conversion/ONNXToLinalg/ConvTranspose.cpp): a 1x1 convolution
// with the weights W[c, m, r, s] as filter (m, r, s), then one generic that
// moves each filter's channel to its place in the output blocks and adds
// the bias.

// CHECK-DAG: #[[SPREAD:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d3, d5, d2, d4)>
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1)>
// CHECK-LABEL: func.func @tiled
// CHECK-SAME: (%[[X:.+]]: tensor<?x2x3x5xf32>)
// CHECK-DAG: %[[B:.+]] = arith.constant dense<[5.000000e-01, -1.000000e+00]> : tensor<2xf32>
// CHECK-DAG: %[[F:.+]] = arith.constant dense<{{\[}}{{\[}}{{\[}}[1.000000e+00]], {{\[}}[9.000000e+00]]], {{\[}}{{\[}}[2.000000e+00]], {{\[}}[1.000000e+01]]], {{\[}}{{\[}}[3.000000e+00]], {{\[}}[1.100000e+01]]], {{\[}}{{\[}}[4.000000e+00]], {{\[}}[1.200000e+01]]], {{\[}}{{\[}}[5.000000e+00]], {{\[}}[1.300000e+01]]], {{.+}}]> : tensor<8x2x1x1xf32>
// CHECK: %[[INIT:.+]] = linalg.fill
// CHECK: %[[CONV:.+]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[X]], %[[F]] : tensor<?x2x3x5xf32>, tensor<8x2x1x1xf32>) outs(%[[INIT]] : tensor<?x8x3x5xf32>)
// CHECK: %[[SPLIT:.+]] = tensor.expand_shape %[[CONV]] {{\[}}[0], [1, 2, 3], [4], [5]] output_shape [%{{.+}}, 2, 2, 2, 3, 5] : tensor<?x8x3x5xf32> into tensor<?x2x2x2x3x5xf32>
// CHECK: %[[BLOCKS:.+]] = linalg.generic {indexing_maps = [#[[SPREAD]], #[[BIAS]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[SPLIT]], %[[B]] : tensor<?x2x2x2x3x5xf32>, tensor<2xf32>) outs(%{{.+}} : tensor<?x2x3x2x5x2xf32>)
// CHECK: arith.addf
// CHECK: tensor.collapse_shape %[[BLOCKS]] {{\[}}[0], [1], [2, 3], [4, 5]] : tensor<?x2x3x2x5x2xf32> into tensor<?x2x6x10xf32>
func.func @tiled(%x: tensor<?x2x3x5xf32>) -> tensor<?x2x6x10xf32> {
  %w = onnx.Constant {value = dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], [[[9.0, 10.0], [11.0, 12.0]], [[13.0, 14.0], [15.0, 16.0]]]]> : tensor<2x2x2x2xf32>} : () -> tensor<2x2x2x2xf32>
  %b = onnx.Constant {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = onnx.ConvTranspose %x, %w, %b {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x2x3x5xf32>, tensor<2x2x2x2xf32>, tensor<2xf32>) -> tensor<?x2x6x10xf32>
  return %0 : tensor<?x2x6x10xf32>
}

// -----

// Without a bias the generic only moves; a 3x1 window with strides 3x1.
// CHECK-LABEL: func.func @tiled_no_bias
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: tensor<1x3x4x4xf32>
// CHECK: linalg.generic
// CHECK-NOT: arith.addf
// CHECK: tensor.collapse_shape {{.+}} : tensor<1x1x4x3x4x1xf32> into tensor<1x1x12x4xf32>
func.func @tiled_no_bias(%x: tensor<1x3x4x4xf32>) -> tensor<1x1x12x4xf32> {
  %w = onnx.Constant {value = dense<1.0> : tensor<3x1x3x1xf32>} : () -> tensor<3x1x3x1xf32>
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 3, 1>} : (tensor<1x3x4x4xf32>, tensor<3x1x3x1xf32>, none) -> tensor<1x1x12x4xf32>
  return %0 : tensor<1x1x12x4xf32>
}

// -----

// Overlapping windows, pads, weights that are not constant and groups keep
// the general lowering (the input spread out with zeros).
// CHECK-LABEL: func.func @not_tiled
// CHECK-NOT: x1x1xf32>
// CHECK-COUNT-4: tensor.insert_slice %{{.+}} [1, 2, 3, 3] [1, 1, 2, 2]
// CHECK-NOT: x1x1xf32>
func.func @not_tiled(%x: tensor<1x2x3x3xf32>, %wv: tensor<2x2x2x2xf32>) -> (tensor<1x2x7x7xf32>, tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %w = onnx.Constant {value = dense<1.0> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %w2 = onnx.Constant {value = dense<1.0> : tensor<2x2x2x2xf32>} : () -> tensor<2x2x2x2xf32>
  %wg = onnx.Constant {value = dense<1.0> : tensor<2x1x2x2xf32>} : () -> tensor<2x1x2x2xf32>
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x2x3x3xf32>, none) -> tensor<1x2x7x7xf32>
  %1 = onnx.ConvTranspose %x, %w2, %none {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>, none) -> tensor<1x2x4x4xf32>
  %2 = onnx.ConvTranspose %x, %wv, %none {strides = array<i64: 2, 2>} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>, none) -> tensor<1x2x6x6xf32>
  %3 = onnx.ConvTranspose %x, %wg, %none {strides = array<i64: 2, 2>, group = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<2x1x2x2xf32>, none) -> tensor<1x2x6x6xf32>
  return %0, %1, %2, %3 : tensor<1x2x7x7xf32>, tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}

// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// BatchNormalization, Softmax, LayerNormalization and InstanceNormalization
// (passes/Conversion/ONNXToLinalg/Normalization.cpp).

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CHANNEL:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x8x8xf32>, %[[S:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>, %[[M:.+]]: tensor<4xf32>, %[[V:.+]]: tensor<4xf32>)
// CHECK: %[[EPS:.+]] = arith.constant 1.000000e-03 : f32
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[ID]]]
// CHECK-SAME: ins(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]] :
// CHECK: ^bb0(%[[XE:.+]]: f32, %[[SE:.+]]: f32, %[[BE:.+]]: f32, %[[ME:.+]]: f32, %[[VE:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[VAR:.+]] = arith.addf %[[VE]], %[[EPS]]
// CHECK: %[[STD:.+]] = math.sqrt %[[VAR]]
// CHECK: %[[FACTOR:.+]] = arith.divf %[[SE]], %[[STD]]
// CHECK: %[[CENTERED:.+]] = arith.subf %[[XE]], %[[ME]]
// CHECK: %[[SCALED:.+]] = arith.mulf %[[CENTERED]], %[[FACTOR]]
// CHECK: arith.addf %[[SCALED]], %[[BE]]
func.func @batch_norm(%x: tensor<?x4x8x8xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<?x4x8x8xf32> {
  %0 = onnx.BatchNormalization %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<?x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// -----

// max, exp(x - max), sum, divide.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %[[MAX]] :
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] :
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
// CHECK: arith.divf
func.func @softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = onnx.Softmax %x {axis = 1 : i64} : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// -----

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OTHER:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_axis_1
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[OTHER]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @softmax_axis_1(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.Softmax %x {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Mean and variance over the trailing dims, then one normalizing generic
// with Scale and B broadcast over those dims.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUTER:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[INNER:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm
// CHECK: %[[COUNT:.+]] = arith.constant 4.000000e+00 : f32
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[OUTER]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] :
// CHECK: arith.divf %{{.+}}, %[[COUNT]]
// CHECK: %[[SQUARES:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[OUTER]], #[[OUTER]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %[[MEAN]] :
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[OUTER]], #[[OUTER]], #[[INNER]], #[[INNER]], #[[ID]]]{{.*}} ins(%{{.+}}, %[[MEAN]], %[[SQUARES]], %{{.+}}, %{{.+}} :
// CHECK: math.sqrt
func.func @layer_norm(%x: tensor<?x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x3x4xf32> {
  %0 = onnx.LayerNormalization %x, %s, %b {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm_no_bias
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x3x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x4xf32>)
func.func @layer_norm_no_bias(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.LayerNormalization %x, %s, %none {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>, none) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Statistics per (batch, channel) over the spatial dims; scale and B per
// channel.
// CHECK-DAG: #[[ID4:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @instance_norm
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID4]], #[[NC]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2x3xf32>)
// CHECK: %[[SQUARES:.+]] = linalg.generic {indexing_maps = [#[[ID4]], #[[NC]], #[[NC]]]
// CHECK: linalg.generic {indexing_maps = [#[[ID4]], #[[NC]], #[[NC]], #[[C]], #[[C]], #[[ID4]]]{{.*}} ins(%{{.+}}, %[[MEAN]], %[[SQUARES]], %{{.+}}, %{{.+}} :
// CHECK: math.sqrt
func.func @instance_norm(%x: tensor<2x3x?x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x?x5xf32> {
  %0 = onnx.InstanceNormalization %x, %s, %b : (tensor<2x3x?x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x?x5xf32>
  return %0 : tensor<2x3x?x5xf32>
}

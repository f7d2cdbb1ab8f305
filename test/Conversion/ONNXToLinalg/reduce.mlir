// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Reductions (passes/Conversion/ONNXToLinalg/Reduce.cpp).

// keepdims expands the reduced result back.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[KEPT:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @reduce_max_int
// CHECK: %[[MIN:.+]] = arith.constant -2147483648 : i32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[MIN]] : i32) outs(%{{.+}} : tensor<?x4xi32>)
// CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[KEPT]]], iterator_types = ["parallel", "reduction", "parallel"]}{{.*}} outs(%[[INIT]] : tensor<?x4xi32>)
// CHECK: arith.maxsi
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1], [2]] output_shape [%{{.+}}, 1, 4] : tensor<?x4xi32> into tensor<?x1x4xi32>
func.func @reduce_max_int(%x: tensor<?x3x4xi32>) -> tensor<?x1x4xi32> {
  %axes = onnx.Constant {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMax %x, %axes : (tensor<?x3x4xi32>, tensor<1xi64>) -> tensor<?x1x4xi32>
  return %0 : tensor<?x1x4xi32>
}

// -----

// CHECK-LABEL: func.func @reduce_max_float
// CHECK: arith.constant 0xFF800000 : f32
// CHECK: arith.maximumf
func.func @reduce_max_float(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %axes = onnx.Constant {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMax %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// No axes: every dim, into a rank-0 tensor; the mean divides by the count.
// CHECK-LABEL: func.func @reduce_mean_all
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} outs(%{{.+}} : tensor<f32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]]
// CHECK: %[[COUNT:.+]] = arith.muli %[[N]], %{{.+}} : index
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<f32>)
// CHECK: arith.divf
func.func @reduce_mean_all(%x: tensor<?x3xf32>) -> tensor<f32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ReduceMean %x, %none {keepdims = 0 : i64} : (tensor<?x3xf32>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @reduce_sum_keepdims_all
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK: arith.addf
// CHECK: tensor.expand_shape %[[SUM]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reduce_sum_keepdims_all(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ReduceSum %x, %none : (tensor<2x3xf32>, none) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_noop
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reduce_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ReduceSum %x, %none {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>, none) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

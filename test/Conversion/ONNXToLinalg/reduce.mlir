// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Reductions, ArgMax/ArgMin, CumSum/CumProd and TopK (passes/Conversion/ONNXToLinalg/Reduce.cpp).

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

// -----

// Min starts from the largest value of the type.
// CHECK-LABEL: func.func @reduce_min_int
// CHECK: %[[MAX:.+]] = arith.constant 2147483647 : i32
// CHECK: linalg.fill ins(%[[MAX]] : i32)
// CHECK: arith.minsi
func.func @reduce_min_int(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMin %x, %axes {keepdims = 0 : i64} : (tensor<2x3xi32>, tensor<1xi64>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

// On bools Max is an or from false, Min an and from true.
// CHECK-LABEL: func.func @reduce_bool
// CHECK-DAG: %[[FALSE:.+]] = arith.constant false
// CHECK-DAG: %[[TRUE:.+]] = arith.constant true
// CHECK: linalg.fill ins(%[[FALSE]] : i1)
// CHECK: arith.ori
// CHECK: linalg.fill ins(%[[TRUE]] : i1)
// CHECK: arith.andi
func.func @reduce_bool(%x: tensor<4x2xi1>) -> (tensor<4x1xi1>, tensor<4x1xi1>) {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceMax %x, %axes : (tensor<4x2xi1>, tensor<1xi64>) -> tensor<4x1xi1>
  %1 = onnx.ReduceMin %x, %axes : (tensor<4x2xi1>, tensor<1xi64>) -> tensor<4x1xi1>
  return %0, %1 : tensor<4x1xi1>, tensor<4x1xi1>
}

// -----

// L2 sums squares, then takes the root elementwise.
// CHECK-LABEL: func.func @reduce_l2
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.mulf %[[IN:.+]], %[[IN]] : f32
// CHECK: %[[ROOT:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2xf32>)
// CHECK: math.sqrt
// CHECK: tensor.expand_shape %[[ROOT]] {{\[}}[0, 1]] output_shape [2, 1]
func.func @reduce_l2(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceL2 %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// LogSumExp subtracts the (finite) maximum before exp and adds it back.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @reduce_log_sum_exp
// CHECK: %[[MAX:.+]] = linalg.generic
// CHECK: arith.maximumf
// CHECK: %[[SHIFT:.+]] = linalg.generic {{.*}} ins(%[[MAX]] : tensor<2xf64>)
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%{{.+}}, %[[SHIFT]] :
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: linalg.generic {{.*}} ins(%[[SUM]], %[[SHIFT]] :
// CHECK: math.log
// CHECK: arith.addf
func.func @reduce_log_sum_exp(%x: tensor<2x3xf64>) -> tensor<2xf64> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.ReduceLogSumExp %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf64>, tensor<1xi64>) -> tensor<2xf64>
  return %0 : tensor<2xf64>
}

// -----

// Axes known at run time: a mask over the dims, and a parallel generic over
// the keepdims shape whose body loops over each dim (its size where masked,
// once elsewhere).
// CHECK-LABEL: func.func @reduce_runtime_keepdims
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[AXES:.+]]: tensor<1xi64>)
// CHECK: %[[AXIS:.+]] = tensor.extract %[[AXES]]
// CHECK: %[[IS0:.+]] = arith.cmpi eq, %{{.+}}, %c0
// CHECK: %[[IS1:.+]] = arith.cmpi eq, %{{.+}}, %c1
// CHECK: %[[UB0:.+]] = arith.select %[[IS0]], %c2, %c1
// CHECK: %[[UB1:.+]] = arith.select %[[IS1]], %c3, %c1
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} outs(%{{.+}} : tensor<?x?xf32>)
// CHECK: %[[I0:.+]] = linalg.index 0
// CHECK: scf.for %[[K0:.+]] = %c0 to %[[UB0]]
// CHECK: arith.select %[[IS0]], %[[K0]], %[[I0]]
// CHECK: scf.for %{{.+}} = %c0 to %[[UB1]]
// CHECK: tensor.extract %[[X]]
// CHECK: arith.addf
func.func @reduce_runtime_keepdims(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<?x?xf32> {
  %0 = onnx.ReduceSum %x, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Without keepdims, the reduced dims are dropped by a reshape to sizes
// selected at run time.
// CHECK-LABEL: func.func @reduce_runtime_drop
// CHECK: %[[R:.+]] = linalg.generic
// CHECK: arith.mulf
// CHECK: tensor.collapse_shape %[[R]] {{\[}}[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
func.func @reduce_runtime_drop(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<?xf32> {
  %0 = onnx.ReduceProd %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Axes of unknown count are read in a loop; an empty list is a no-op with
// noop_with_empty_axes.
// CHECK-LABEL: func.func @reduce_runtime_noop
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[AXES:.+]]: tensor<?xi64>)
// CHECK: scf.for {{.*}} -> (i1, i1)
// CHECK: %[[LEN:.+]] = tensor.dim %[[AXES]]
// CHECK: %[[EMPTY:.+]] = arith.cmpi eq, %[[LEN]], %c0 : index
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK: scf.if %[[EMPTY]] -> (tensor<?x?xf32>)
// CHECK: tensor.cast %[[X]]
// CHECK: } else {
// CHECK: scf.yield %[[SUM]]
func.func @reduce_runtime_noop(%x: tensor<2x3xf32>, %axes: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.ReduceSum %x, %axes {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Axes of a static count past max(rank, 8) (a fuzzed model declared
// 2^63 - 1 of them) are read in a loop too, not unrolled.
// CHECK-LABEL: func.func @reduce_runtime_huge_axes
// CHECK: scf.for {{.*}} -> (i1, i1)
// CHECK: linalg.generic
func.func @reduce_runtime_huge_axes(%x: tensor<2x3xf32>, %axes: tensor<9223372036854775807xi64>) -> tensor<?x?xf32> {
  %0 = onnx.ReduceSum %x, %axes : (tensor<2x3xf32>, tensor<9223372036854775807xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// ArgMax keeps the best value and its index; select_last_index takes ties.
// CHECK-LABEL: func.func @argmax
// CHECK: %[[R:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]{{.*}} outs(%{{.+}}, %{{.+}} : tensor<2xf32>, tensor<2xi64>)
// CHECK: arith.cmpf oge
// CHECK: linalg.index 1
// CHECK: tensor.expand_shape %[[R]]#1 {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xi64> into tensor<2x1xi64>
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<2x1xi64> {
  %0 = onnx.ArgMax %x {axis = 1 : i64, select_last_index = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xi64>
  return %0 : tensor<2x1xi64>
}

// -----

// CumSum over an axis known at run time: each element sums a window of the
// axis, [0, i) when exclusive.
// CHECK-LABEL: func.func @cumsum
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf64>, %[[AXIS:.+]]: tensor<i32>)
// CHECK: tensor.extract %[[AXIS]][] : tensor<i32>
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} outs(
// CHECK: %[[I:.+]] = arith.select %{{.+}}, %{{.+}}, %{{.+}} : index
// CHECK: scf.for %{{.+}} = %c0 to %[[I]] step %c1 iter_args
// CHECK: tensor.extract %[[X]]
// CHECK: arith.addf
func.func @cumsum(%x: tensor<2x3xf64>, %axis: tensor<i32>) -> tensor<2x3xf64> {
  %0 = onnx.CumSum %x, %axis {exclusive = 1 : i64} : (tensor<2x3xf64>, tensor<i32>) -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// -----

// CumProd multiplies from 1 over the window, here [i, n) in reverse.
// CHECK-LABEL: func.func @cumprod
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK: linalg.generic
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %[[ONE]]) -> (i32)
// CHECK: %[[E:.+]] = tensor.extract
// CHECK: arith.muli %[[ACC]], %[[E]] : i32
func.func @cumprod(%x: tensor<4xi32>) -> tensor<4xi32> {
  %axis = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.CumProd %x, %axis {reverse = 1 : i64} : (tensor<4xi32>, tensor<i64>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// TopK ranks each element along the axis, then inserts those of rank < K.
// CHECK-LABEL: func.func @topk
// CHECK: %[[RANKS:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<3x4xindex>)
// CHECK: arith.cmpf olt
// CHECK: %[[OUT:.+]]:2 = scf.for
// CHECK: scf.for
// CHECK: %[[R:.+]] = tensor.extract %[[RANKS]]
// CHECK: scf.if
// CHECK: tensor.insert %{{.+}} into %{{.+}}[%{{.+}}, %[[R]]] : tensor<3x?xf32>
// CHECK: tensor.insert %{{.+}} into %{{.+}}[%{{.+}}, %[[R]]] : tensor<3x?xi64>
// CHECK: return %[[OUT]]#0, %[[OUT]]#1
func.func @topk(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>) {
  %0, %1 = onnx.TopK %x, %k {axis = 1 : i64, largest = 0 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  return %0, %1 : tensor<3x?xf32>, tensor<3x?xi64>
}

// -----

// Unsigned elements compare as unsigned, on their signless twins.
// CHECK-LABEL: func.func @topk_unsigned
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<3x4xindex>)
// CHECK: arith.cmpi ugt, %{{.+}}, %{{.+}} : i64
func.func @topk_unsigned(%x: tensor<3x4xui64>, %k: tensor<1xi64>) -> (tensor<3x?xui64>, tensor<3x?xi64>) {
  %0, %1 = onnx.TopK %x, %k {axis = 1 : i64} : (tensor<3x4xui64>, tensor<1xi64>) -> (tensor<3x?xui64>, tensor<3x?xi64>)
  return %0, %1 : tensor<3x?xui64>, tensor<3x?xi64>
}

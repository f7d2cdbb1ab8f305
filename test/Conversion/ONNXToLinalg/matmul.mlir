// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// MatMul, Gemm and Einsum (passes/Conversion/ONNXToLinalg/MatMul.cpp).

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.+]]: tensor<?x4xf32>, %[[B:.+]]: tensor<4x5xf32>)
// CHECK: %[[M:.+]] = tensor.dim %[[A]]
// CHECK: %[[INIT:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x5xf32>)
// CHECK: linalg.matmul ins(%[[A]], %[[B]] : tensor<?x4xf32>, tensor<4x5xf32>) outs(%[[INIT]] : tensor<?x5xf32>)
func.func @matmul_2d(%a: tensor<?x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_batch
// CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<?x3x4xf32>, tensor<?x4x5xf32>)
func.func @matmul_batch(%a: tensor<?x3x4xf32>, %b: tensor<?x4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x3x4xf32>, tensor<?x4x5xf32>) -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// -----

// Batch dims that are `?` on both sides may broadcast at run time (one of
// them 1): the batch size is the larger, and unless the two are equal the
// operands are broadcast to it before the product.
// CHECK-LABEL: func.func @matmul_batch_runtime_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<?x3x4xf32>, %[[B:.+]]: tensor<?x4x5xf32>)
// CHECK: %[[DA:.+]] = tensor.dim %[[A]], %{{.+}}
// CHECK: %[[DB:.+]] = tensor.dim %[[B]], %{{.+}}
// CHECK: %[[N:.+]] = arith.maxui %[[DA]], %[[DB]]
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[DA]], %[[DB]]
// CHECK: scf.if %[[EQ]] -> (tensor<?x3x5xf32>)
// CHECK: linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<?x3x4xf32>, tensor<?x4x5xf32>)
// CHECK: } else {
// CHECK: tensor.empty(%[[N]]) : tensor<?x3x4xf32>
// CHECK: tensor.empty(%[[N]]) : tensor<?x4x5xf32>
// CHECK: linalg.batch_matmul
func.func @matmul_batch_runtime_broadcast(%a: tensor<?x3x4xf32>, %b: tensor<?x4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x3x4xf32>, tensor<?x4x5xf32>) -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// -----

// A `?` batch dim against a static one that is not 1: the static size, and
// a broadcast where the `?` is 1 at run time.
// CHECK-LABEL: func.func @matmul_batch_static_broadcast
// CHECK: %[[EQ:.+]] = arith.cmpi eq
// CHECK: scf.if %[[EQ]] -> (tensor<2x3x5xf32>)
func.func @matmul_batch_static_broadcast(%a: tensor<?x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// A shared 2-D B: A's batch dims join its rows in one matmul.
// CHECK-LABEL: func.func @matmul_shared_b
// CHECK: %[[A:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : tensor<?x3x4xf32> into tensor<?x4xf32>
// CHECK: %[[P:.+]] = linalg.matmul ins(%[[A]], %{{.+}} : tensor<?x4xf32>, tensor<4x5xf32>)
// CHECK: tensor.expand_shape %[[P]] {{\[}}[0, 1], [2]] output_shape [%{{.+}}, 3, 5] : tensor<?x5xf32> into tensor<?x3x5xf32>
func.func @matmul_shared_b(%a: tensor<?x3x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x3x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x3x4xf32>, tensor<4x5xf32>) -> tensor<?x3x5xf32>
  return %0 : tensor<?x3x5xf32>
}

// -----

// Batch and sequence both dynamic: the rows are expanded back by a reshape to
// their sizes, as MLIR 19 cannot bufferize an expand_shape into [?, ?].
// CHECK-LABEL: func.func @matmul_shared_b_dynamic_rows
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x4xf32>
// CHECK-DAG: %[[N:.+]] = tensor.dim %[[X]], %c0
// CHECK-DAG: %[[S:.+]] = tensor.dim %[[X]], %c1
// CHECK: %[[A:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<?x?x4xf32> into tensor<?x4xf32>
// CHECK: %[[P:.+]] = linalg.matmul ins(%[[A]], %{{.+}} : tensor<?x4xf32>, tensor<4x5xf32>)
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %[[N]], %[[S]], %c5 : tensor<3xindex>
// CHECK: tensor.reshape %[[P]](%[[SHAPE]]) : (tensor<?x5xf32>, tensor<3xindex>) -> tensor<?x?x5xf32>
// CHECK-NOT: tensor.expand_shape
func.func @matmul_shared_b_dynamic_rows(%a: tensor<?x?x4xf32>, %b: tensor<4x5xf32>) -> tensor<?x?x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x?x4xf32>, tensor<4x5xf32>) -> tensor<?x?x5xf32>
  return %0 : tensor<?x?x5xf32>
}

// -----

// Equal static batch dims fold into the one of batch_matmul.
// CHECK-LABEL: func.func @matmul_4d
// CHECK: %[[P:.+]] = linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<6x3x4xf32>, tensor<6x4x5xf32>)
// CHECK: tensor.expand_shape %[[P]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 3, 5] : tensor<6x3x5xf32> into tensor<2x3x3x5xf32>
func.func @matmul_4d(%a: tensor<2x3x3x4xf32>, %b: tensor<2x3x4x5xf32>) -> tensor<2x3x3x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<2x3x3x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x3x5xf32>
  return %0 : tensor<2x3x3x5xf32>
}

// -----

// A dynamic batch on both sides (attention's [N, heads, S, D] products):
// where the two are equal at run time, and after both are broadcast, the
// batch dims fold into batch_matmul's as when static.
// CHECK-LABEL: func.func @matmul_4d_dynamic_batch
// CHECK: scf.if %{{.+}} -> (tensor<?x12x7x7xf32>)
// CHECK: %[[A:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2], [3]] : tensor<?x12x7x8xf32> into tensor<?x7x8xf32>
// CHECK: %[[B:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2], [3]] : tensor<?x12x8x7xf32> into tensor<?x8x7xf32>
// CHECK: linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<?x7x8xf32>, tensor<?x8x7xf32>)
// CHECK: } else {
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.generic {{.*}}"reduction"
func.func @matmul_4d_dynamic_batch(%a: tensor<?x12x7x8xf32>, %b: tensor<?x12x8x7xf32>) -> tensor<?x12x7x7xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<?x12x7x8xf32>, tensor<?x12x8x7xf32>) -> tensor<?x12x7x7xf32>
  return %0 : tensor<?x12x7x7xf32>
}

// -----

// Broadcast batch dims and a 1-D operand: one generic, then the unit dim that
// the vector gained is collapsed away.
// CHECK-DAG: #[[A_MAP:.+]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #[[B_MAP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG: #[[OUT_MAP:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_vector_batch
// CHECK: %[[A:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
// CHECK: %[[P:.+]] = linalg.generic {indexing_maps = [#[[A_MAP]], #[[B_MAP]], #[[OUT_MAP]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[A]], %{{.+}} : tensor<1x4xf32>, tensor<2x4x5xf32>)
// CHECK: tensor.collapse_shape %[[P]] {{\[}}[0, 1], [2]] : tensor<2x1x5xf32> into tensor<2x5xf32>
func.func @matmul_vector_batch(%a: tensor<4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x5xf32> {
  %0 = onnx.MatMul %a, %b : (tensor<4xf32>, tensor<2x4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_int
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x3xi32>, tensor<3x4xi32>)
func.func @matmul_int(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  %0 = onnx.MatMul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// The init holds C broadcast to [M, N]; transB maps to matmul_transpose_b.
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @gemm_linear
// CHECK-SAME: (%[[A:.+]]: tensor<?x64xf32>, %[[B:.+]]: tensor<10x64xf32>, %[[C:.+]]: tensor<10xf32>)
// CHECK: %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[ROW]], #{{.+}}]{{.*}} ins(%[[C]] : tensor<10xf32>)
// CHECK: linalg.matmul_transpose_b ins(%[[A]], %[[B]] : tensor<?x64xf32>, tensor<10x64xf32>) outs(%[[INIT]] : tensor<?x10xf32>)
func.func @gemm_linear(%a: tensor<?x64xf32>, %b: tensor<10x64xf32>, %c: tensor<10xf32>) -> tensor<?x10xf32> {
  %0 = onnx.Gemm %a, %b, %c {transB = 1 : i64} : (tensor<?x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// -----

// transA and alpha go into a generic; beta scales C in the init.
// CHECK-DAG: #[[A_T:.+]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[B_T:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C_COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @gemm_trans
// CHECK-DAG: %[[ALPHA:.+]] = arith.constant 2.000000e+00 : f32
// CHECK-DAG: %[[BETA:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: linalg.generic {indexing_maps = [#[[C_COL]], #{{.+}}]
// CHECK: arith.mulf %{{.+}}, %[[BETA]]
// CHECK: linalg.generic {indexing_maps = [#[[A_T]], #[[B_T]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.mulf %{{.+}}, %[[ALPHA]]
func.func @gemm_trans(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<3x1xf32>) -> tensor<3x5xf32> {
  %0 = onnx.Gemm %a, %b, %c {transA = 1 : i64, transB = 1 : i64, alpha = 2.0 : f32, beta = 0.5 : f32} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<3x1xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @gemm_no_c
// CHECK: %[[ZERO:.+]] = linalg.fill
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[ZERO]] : tensor<2x4xf32>)
func.func @gemm_no_c(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Gemm %a, %b, %none : (tensor<2x3xf32>, tensor<3x4xf32>, none) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Einsum: one generic over the letters, the summed ones as reductions.
// CHECK-DAG: #[[A:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[B:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-LABEL: func.func @einsum
// CHECK: %[[INIT:.+]] = linalg.fill
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[OUT]]], iterator_types = ["parallel", "parallel", "reduction", "parallel"]}{{.*}} outs(%[[INIT]] :
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @einsum(%a: tensor<5x2x3xf64>, %b: tensor<5x3x4xf64>) -> tensor<5x2x4xf64> {
  %0 = onnx.Einsum %a, %b {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf64>, tensor<5x3x4xf64>) -> tensor<5x2x4xf64>
  return %0 : tensor<5x2x4xf64>
}

// -----

// A letter repeated in one input reads its diagonal; `...` is a leading dim.
// CHECK-DAG: #[[DIAG:.+]] = affine_map<(d0, d1) -> (d1, d0, d0)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @einsum_diagonal
// CHECK: linalg.generic {indexing_maps = [#[[DIAG]], #[[OUT]]], iterator_types = ["parallel", "parallel"]}
func.func @einsum_diagonal(%a: tensor<3x5x5xf64>) -> tensor<3x5xf64> {
  %0 = onnx.Einsum %a {equation = "...ii->...i"} : (tensor<3x5x5xf64>) -> tensor<3x5xf64>
  return %0 : tensor<3x5xf64>
}

// -----

// A `?` dim of `...` may be a broadcast 1 at run time: that input is first
// broadcast to the largest size.
// CHECK-LABEL: func.func @einsum_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<?x3xf32>, %[[B:.+]]: tensor<4x3xf32>)
// CHECK: %[[SIZE:.+]] = arith.maxui %{{.+}}, %c4 : index
// CHECK: %[[WIDE:.+]] = scf.if
// CHECK: linalg.generic {{.*}} ins(%[[WIDE]], %[[B]] : tensor<?x3xf32>, tensor<4x3xf32>)
func.func @einsum_broadcast(%a: tensor<?x3xf32>, %b: tensor<4x3xf32>) -> tensor<4xf32> {
  %0 = onnx.Einsum %a, %b {equation = "...j,...j->..."} : (tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

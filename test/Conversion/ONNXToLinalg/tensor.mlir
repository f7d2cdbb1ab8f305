// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Constants, shape and data-movement ops (passes/Conversion/ONNXToLinalg/Tensor.cpp).

// CHECK-LABEL: func.func @constants
// CHECK-DAG: arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-DAG: arith.constant dense_resource<blob> : tensor<2xf32>
// CHECK-NOT: onnx.
func.func @constants() -> (tensor<2xi64>, tensor<2xf32>) {
  %0 = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = onnx.Constant {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0, %1 : tensor<2xi64>, tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @identity_dropout
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf32>)
// CHECK-NOT: onnx.
// CHECK: return %[[X]] : tensor<?x4xf32>
func.func @identity_dropout(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %none = onnx.NoValue : () -> none
  %false = onnx.Constant {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %0 = onnx.Identity %x : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1, %mask = onnx.Dropout %0, %none, %false : (tensor<?x4xf32>, none, tensor<i1>) -> (tensor<?x4xf32>, tensor<?x4xi1>)
  return %1 : tensor<?x4xf32>
}

// -----

// CHECK-LABEL: func.func @dropout_mask
// CHECK: %[[TRUE:.+]] = arith.constant true
// CHECK: linalg.fill ins(%[[TRUE]] : i1) outs(%{{.+}} : tensor<4xi1>)
func.func @dropout_mask(%x: tensor<4xf32>) -> tensor<4xi1> {
  %none = onnx.NoValue : () -> none
  %0, %mask = onnx.Dropout %x, %none, %none : (tensor<4xf32>, none, none) -> (tensor<4xf32>, tensor<4xi1>)
  return %mask : tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @shape
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x5xf32>)
// CHECK-DAG: %[[THREE:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[DIM:.+]] = tensor.dim %[[X]], %{{.+}}
// CHECK: %[[N:.+]] = arith.index_cast %[[DIM]] : index to i64
// CHECK: tensor.from_elements %[[N]], %[[THREE]] : tensor<2xi64>
func.func @shape(%x: tensor<?x3x5xf32>) -> tensor<2xi64> {
  %0 = onnx.Shape %x {end = -1 : i64} : (tensor<?x3x5xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

// A constant shape: 0 copies the dynamic dim, -1 is inferred.
// CHECK-LABEL: func.func @reshape_constant
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x4xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]]
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2]] : tensor<?x3x4xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1, 2]] output_shape [%[[N]], 2, 6] : tensor<?xf32> into tensor<?x2x6xf32>
func.func @reshape_constant(%x: tensor<?x3x4xf32>) -> tensor<?x2x6xf32> {
  %shape = onnx.Constant {value = dense<[0, 2, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = onnx.Reshape %x, %shape : (tensor<?x3x4xf32>, tensor<3xi64>) -> tensor<?x2x6xf32>
  return %0 : tensor<?x2x6xf32>
}

// -----

// A runtime shape: the dims are computed from its elements.
// CHECK-LABEL: func.func @reshape_runtime
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x4xf32>, %[[S:.+]]: tensor<2xi64>)
// CHECK: tensor.extract %[[S]]
// CHECK: arith.divsi
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xindex>
// CHECK: tensor.reshape %[[X]](%[[SHAPE]]) : (tensor<?x3x4xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @reshape_runtime(%x: tensor<?x3x4xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Reshape %x, %s : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @flatten
// CHECK: tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : tensor<?x16x2x2xf32> into tensor<?x64xf32>
func.func @flatten(%x: tensor<?x16x2x2xf32>) -> tensor<?x64xf32> {
  %0 = onnx.Flatten %x {axis = 1 : i64} : (tensor<?x16x2x2xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// CHECK-LABEL: func.func @flatten_axis_0
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1]] : tensor<?x3xf32> into tensor<?xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [1, %{{.+}}] : tensor<?xf32> into tensor<1x?xf32>
func.func @flatten_axis_0(%x: tensor<?x3xf32>) -> tensor<1x?xf32> {
  %0 = onnx.Flatten %x {axis = 0 : i64} : (tensor<?x3xf32>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x4xf32>)
// CHECK: %[[INIT:.+]] = tensor.empty(%{{.+}}) : tensor<4x?x3xf32>
// CHECK: linalg.transpose ins(%[[X]] : tensor<?x3x4xf32>) outs(%[[INIT]] : tensor<4x?x3xf32>) permutation = [2, 0, 1]
func.func @transpose(%x: tensor<?x3x4xf32>) -> tensor<4x?x3xf32> {
  %0 = onnx.Transpose %x {perm = array<i64: 2, 0, 1>} : (tensor<?x3x4xf32>) -> tensor<4x?x3xf32>
  return %0 : tensor<4x?x3xf32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.+]]: tensor<?x3xf32>, %[[B:.+]]: tensor<2x?xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[B]]
// CHECK: %[[SIZE:.+]] = arith.addi %[[N]], %{{.+}} : index
// CHECK: %[[INIT:.+]] = tensor.empty(%[[SIZE]]) : tensor<2x?xf32>
// CHECK: %[[A2:.+]] = tensor.cast %[[A]] : tensor<?x3xf32> to tensor<2x3xf32>
// CHECK: %[[R:.+]] = tensor.insert_slice %[[A2]] into %[[INIT]][0, 0] [2, 3] [1, 1]
// CHECK: tensor.insert_slice %[[B]] into %[[R]][0, 3] [2, %{{.+}}] [1, 1]
func.func @concat(%a: tensor<?x3xf32>, %b: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = onnx.Concat %a, %b {axis = 1 : i64} : (tensor<?x3xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// -----

// Starts and ends are clamped at runtime against the dynamic dim.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.+]]: tensor<?x6xf32>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]]
// CHECK: %[[START:.+]] = arith.minsi %[[N]], %{{.+}} : index
// CHECK: tensor.extract_slice %[[X]][%[[START]], 2] [%{{.+}}, 3] [1, 1] : tensor<?x6xf32> to tensor<?x3xf32>
func.func @slice(%x: tensor<?x6xf32>) -> tensor<?x3xf32> {
  %starts = onnx.Constant {value = dense<[1, -4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = onnx.Constant {value = dense<[100, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %none = onnx.NoValue : () -> none
  %0 = onnx.Slice %x, %starts, %ends, %none, %none : (tensor<?x6xf32>, tensor<2xi64>, tensor<2xi64>, none, none) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice_strided
// CHECK: tensor.extract_slice %{{.+}}[0, 1] [5, 2] [1, 2] : tensor<5x6xf32> to tensor<5x2xf32>
func.func @slice_strided(%x: tensor<5x6xf32>) -> tensor<5x2xf32> {
  %starts = onnx.Constant {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = onnx.Constant {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = onnx.Constant {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %steps = onnx.Constant {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.Slice %x, %starts, %ends, %axes, %steps : (tensor<5x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

// A negative step reads x[start + i * step].
// CHECK-LABEL: func.func @slice_reverse
// CHECK-SAME: (%[[X:.+]]: tensor<5x6xf32>)
// CHECK: linalg.generic
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: %[[NEG:.+]] = arith.muli %[[J]], %{{.+}}
// CHECK: %[[COL:.+]] = arith.addi %[[NEG]], %{{.+}}
// CHECK: tensor.extract %[[X]][%[[I]], %[[COL]]]
func.func @slice_reverse(%x: tensor<5x6xf32>) -> tensor<5x6xf32> {
  %starts = onnx.Constant {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = onnx.Constant {value = dense<[-100]> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = onnx.Constant {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %steps = onnx.Constant {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = onnx.Slice %x, %starts, %ends, %axes, %steps : (tensor<5x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x6xf32>
  return %0 : tensor<5x6xf32>
}

// -----

// Negative indices wrap around.
// CHECK-DAG: #[[IDX:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.+]]: tensor<5x4xf32>, %[[I:.+]]: tensor<3xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.+}}]{{.*}} ins(%[[I]] : tensor<3xi64>)
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK: %[[K:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[K]]
// CHECK: %[[WRAP:.+]] = arith.addi %[[K]], %{{.+}}
// CHECK: %[[ROW:.+]] = arith.select %[[NEG]], %[[WRAP]], %[[K]]
// CHECK: %[[COL:.+]] = linalg.index 1
// CHECK: tensor.extract %[[X]][%[[ROW]], %[[COL]]]
func.func @gather(%x: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  %0 = onnx.Gather %x, %i {axis = 0 : i64} : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @squeeze_unsqueeze
// CHECK: %[[S:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2], [3]] : tensor<1x?x1x2xf32> into tensor<?x2xf32>
// CHECK: tensor.expand_shape %[[S]] {{\[}}[0, 1], [2, 3]] output_shape [%{{.+}}, 1, 2, 1] : tensor<?x2xf32> into tensor<?x1x2x1xf32>
func.func @squeeze_unsqueeze(%x: tensor<1x?x1x2xf32>) -> tensor<?x1x2x1xf32> {
  %axes = onnx.Constant {value = dense<[0, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Squeeze %x, %axes : (tensor<1x?x1x2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
  %axes2 = onnx.Constant {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = onnx.Unsqueeze %0, %axes2 : (tensor<?x2xf32>, tensor<2xi64>) -> tensor<?x1x2x1xf32>
  return %1 : tensor<?x1x2x1xf32>
}

// -----

// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-LABEL: func.func @expand
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.+}}]{{.*}} ins(%{{.+}} : tensor<3x1xf32>) outs(%{{.+}} : tensor<2x3x4xf32>)
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %shape = onnx.Constant {value = dense<[2, 1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = onnx.Expand %x, %shape : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @constant_of_shape
// CHECK-SAME: (%[[S:.+]]: tensor<2xi64>)
// CHECK: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: %[[D0:.+]] = tensor.extract %[[S]]
// CHECK: %[[D1:.+]] = tensor.extract %[[S]]
// CHECK: %[[E:.+]] = tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?xi64>
// CHECK: linalg.fill ins(%[[ONE]] : i64) outs(%[[E]] : tensor<?x?xi64>)
func.func @constant_of_shape(%s: tensor<2xi64>) -> tensor<?x?xi64> {
  %0 = onnx.ConstantOfShape %s {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

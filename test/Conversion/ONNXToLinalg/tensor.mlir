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

// Shape builds its result type: a declared unranked one is cast to.
// CHECK-LABEL: func.func @shape_unranked_result
// CHECK: %[[S:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xi64>
// CHECK: tensor.cast %[[S]] : tensor<2xi64> to tensor<*xi64>
func.func @shape_unranked_result(%x: tensor<?x3xf32>) -> tensor<*xi64> {
  %0 = onnx.Shape %x : (tensor<?x3xf32>) -> tensor<*xi64>
  return %0 : tensor<*xi64>
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

// -----

// CHECK-LABEL: func.func @size
// CHECK: %[[N:.+]] = arith.muli %{{.+}}, %c3 : index
// CHECK: %[[I:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK: tensor.from_elements %[[I]] : tensor<i64>
func.func @size(%x: tensor<?x3xf32>) -> tensor<i64> {
  %0 = onnx.Size %x : (tensor<?x3xf32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

// Equal parts of ceil(7 / 2), the last one smaller.
// CHECK-LABEL: func.func @split_equal
// CHECK: tensor.extract_slice %{{.+}}[0, 0] [2, 4] [1, 1] : tensor<2x7xf32> to tensor<2x4xf32>
// CHECK: tensor.extract_slice %{{.+}}[0, 4] [2, 3] [1, 1] : tensor<2x7xf32> to tensor<2x3xf32>
func.func @split_equal(%x: tensor<2x7xf32>) -> (tensor<2x4xf32>, tensor<2x3xf32>) {
  %none = onnx.NoValue : () -> none
  %0, %1 = onnx.Split %x, %none {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<2x7xf32>, none) -> (tensor<2x4xf32>, tensor<2x3xf32>)
  return %0, %1 : tensor<2x4xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @split_runtime
// CHECK-SAME: (%[[X:.+]]: tensor<?x6xf32>, %[[S:.+]]: tensor<2xi64>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %c0
// CHECK: %[[A:.+]] = arith.index_cast
// CHECK: %[[B:.+]] = arith.index_cast
// CHECK: tensor.extract_slice %[[X]][0, 0] [%[[N]], %[[A]]] [1, 1]
// CHECK: tensor.extract_slice %[[X]][0, %[[A]]] [%[[N]], %[[B]]] [1, 1]
func.func @split_runtime(%x: tensor<?x6xf32>, %s: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %0, %1 = onnx.Split %x, %s {axis = 1 : i64} : (tensor<?x6xf32>, tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// -----

// Tile reads the input at each output index modulo the input dim.
// CHECK-LABEL: func.func @tile
// CHECK: %[[ROWS:.+]] = arith.muli %{{.+}}, %c2 : index
// CHECK: %[[COLS:.+]] = arith.muli %{{.+}}, %c3 : index
// CHECK: tensor.empty(%[[ROWS]], %[[COLS]]) : tensor<?x?xf32>
// CHECK: arith.remui %{{.+}}, %c2 : index
// CHECK: arith.remui %{{.+}}, %c3 : index
// CHECK: tensor.extract
func.func @tile(%x: tensor<2x3xf32>, %r: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Constant non-negative pads in constant mode: fill and insert.
// CHECK-LABEL: func.func @pad_constant
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[V:.+]]: tensor<f32>)
// CHECK: %[[VALUE:.+]] = tensor.extract %[[V]][] : tensor<f32>
// CHECK: %[[FILLED:.+]] = linalg.fill ins(%[[VALUE]] : f32) outs(%{{.+}} : tensor<3x6xf32>)
// CHECK: tensor.insert_slice %[[X]] into %[[FILLED]][0, 1] [2, 3] [1, 1]
func.func @pad_constant(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<3x6xf32> {
  %pads = onnx.Constant {value = dense<[0, 1, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %none = onnx.NoValue : () -> none
  %0 = onnx.Pad %x, %pads, %v, %none : (tensor<2x3xf32>, tensor<4xi64>, tensor<f32>, none) -> tensor<3x6xf32>
  return %0 : tensor<3x6xf32>
}

// -----

// Other modes and pads known at run time: each element maps its position
// back into the input (reflect: modulo 2 * (dim - 1), mirrored).
// CHECK-LABEL: func.func @pad_reflect
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]} outs(%{{.+}} : tensor<?x?xf32>)
// CHECK: arith.remsi %{{.+}}, %c2 : index
// CHECK: arith.remsi %{{.+}}, %c4 : index
// CHECK: tensor.extract
func.func @pad_reflect(%x: tensor<2x3xf32>, %p: tensor<4xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Pad %x, %p, %none, %none {mode = "reflect"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// wrap: the position modulo the dim, made non-negative.
// CHECK-LABEL: func.func @pad_wrap
// CHECK: linalg.generic
// CHECK: %[[M:.+]] = arith.remsi %{{.+}}, %c3 : index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[M]], %c0 : index
// CHECK: %[[UP:.+]] = arith.addi %[[M]], %c3 : index
// CHECK: arith.select %[[NEG]], %[[UP]], %[[M]] : index
func.func @pad_wrap(%x: tensor<2x3xf32>, %p: tensor<4xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Pad %x, %p, %none, %none {mode = "wrap"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// DCR: the block offset of the output position picks the input channel.
// CHECK-LABEL: func.func @depth_to_space
// CHECK: %[[N:.+]] = linalg.index 0
// CHECK: %[[C:.+]] = linalg.index 1
// CHECK: %[[H:.+]] = linalg.index 2
// CHECK: %[[W:.+]] = linalg.index 3
// CHECK: %[[BH:.+]] = arith.remui %[[H]], %c2
// CHECK: %[[BW:.+]] = arith.remui %[[W]], %c2
// CHECK: %[[IC:.+]] = arith.addi %{{.+}}, %[[C]]
// CHECK: %[[IH:.+]] = arith.divui %[[H]], %c2
// CHECK: %[[IW:.+]] = arith.divui %[[W]], %c2
// CHECK: tensor.extract %{{.+}}[%[[N]], %[[IC]], %[[IH]], %[[IW]]] : tensor<1x8x2x3xf32>
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @trilu
// CHECK: %[[K:.+]] = arith.index_cast %{{.+}} : i64 to index
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: %[[D:.+]] = arith.subi %[[J]], %[[I]]
// CHECK: %[[KEEP:.+]] = arith.cmpi sle, %[[D]], %[[K]]
// CHECK: arith.select %[[KEEP]]
func.func @trilu(%x: tensor<3x4xi64>, %k: tensor<i64>) -> tensor<3x4xi64> {
  %0 = onnx.Trilu %x, %k {upper = 0 : i64} : (tensor<3x4xi64>, tensor<i64>) -> tensor<3x4xi64>
  return %0 : tensor<3x4xi64>
}

// -----

// CHECK-LABEL: func.func @eye_like
// CHECK: %[[D:.+]] = arith.subi
// CHECK: %[[ON:.+]] = arith.cmpi eq, %[[D]], %c1
// CHECK: arith.select %[[ON]], %cst{{.*}}, %cst{{.*}} : f32
func.func @eye_like(%x: tensor<3x4xi32>) -> tensor<3x4xf32> {
  %0 = onnx.EyeLike %x {dtype = 1 : i64, k = 1 : i64} : (tensor<3x4xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Integer Range: ceil((limit - start) / delta) elements without ceildivsi.
// CHECK-LABEL: func.func @range
// CHECK: %[[Q:.+]] = arith.divsi
// CHECK: %[[R:.+]] = arith.remsi
// CHECK: %[[N:.+]] = arith.maxsi %{{.+}}, %c0 : index
// CHECK: tensor.empty(%[[N]]) : tensor<?xi32>
// CHECK: linalg.index 0
// CHECK: arith.muli
// CHECK: arith.addi
func.func @range(%s: tensor<i32>, %l: tensor<i32>, %d: tensor<i32>) -> tensor<?xi32> {
  %0 = onnx.Range %s, %l, %d : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
  return %0 : tensor<?xi32>
}

// -----

// Slice axes known at run time: each dim selects the offset and size of the
// entry naming it; the result is gathered.
// CHECK-LABEL: func.func @slice_runtime_axes
// CHECK-SAME: (%[[X:.+]]: tensor<4x5xf32>
// CHECK: %[[IS0:.+]] = arith.cmpi eq, %{{.+}}, %c0 : index
// CHECK: %[[OFF0:.+]] = arith.select %[[IS0]], %{{.+}}, %c0 : index
// CHECK: %[[SIZE0:.+]] = arith.select %[[IS0]], %{{.+}}, %c4 : index
// CHECK: %[[IS1:.+]] = arith.cmpi eq, %{{.+}}, %c1 : index
// CHECK: %[[OFF1:.+]] = arith.select %[[IS1]], %{{.+}}, %c0 : index
// CHECK: %[[SIZE1:.+]] = arith.select %[[IS1]], %{{.+}}, %c5 : index
// CHECK: tensor.empty(%[[SIZE0]], %[[SIZE1]]) : tensor<?x?xf32>
// CHECK: arith.addi %[[OFF0]]
// CHECK: arith.addi %[[OFF1]]
// CHECK: tensor.extract %[[X]]
func.func @slice_runtime_axes(%x: tensor<4x5xf32>, %s: tensor<1xi64>, %e: tensor<1xi64>, %a: tensor<1xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Slice %x, %s, %e, %a, %none : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Entries of unknown count are walked in an scf.for that carries the
// offsets, sizes and strides of every dim.
// CHECK-LABEL: func.func @slice_unknown_count
// CHECK: %[[S:.+]]:6 = scf.for {{.*}} iter_args({{.*}}) -> (index, index, index, index, index, index)
// CHECK: tensor.empty(%[[S]]#2, %[[S]]#3) : tensor<?x?xf32>
// CHECK: arith.muli %{{.+}}, %[[S]]#4
// CHECK: arith.addi %[[S]]#0
func.func @slice_unknown_count(%x: tensor<4x5xf32>, %s: tensor<?xi64>, %e: tensor<?xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Slice %x, %s, %e, %none, %none : (tensor<4x5xf32>, tensor<?xi64>, tensor<?xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// Squeeze of axes known at run time: a reshape to the sizes of the kept dims.
// CHECK-LABEL: func.func @squeeze_runtime
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x1xf32>
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xindex>
// CHECK: tensor.reshape %[[X]](%[[SHAPE]]) : (tensor<1x3x1xf32>, tensor<2xindex>) -> tensor<?x?xf32>
func.func @squeeze_runtime(%x: tensor<1x3x1xf32>, %a: tensor<1xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Squeeze %x, %a : (tensor<1x3x1xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @unsqueeze_runtime
// CHECK-SAME: (%[[X:.+]]: tensor<3xf32>
// CHECK: %[[IS0:.+]] = arith.cmpi eq, %{{.+}}, %c0 : index
// CHECK: %[[D0:.+]] = arith.select %[[IS0]], %c1, %c3 : index
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %[[D0]], %{{.+}} : tensor<2xindex>
// CHECK: tensor.reshape %[[X]](%[[SHAPE]])
func.func @unsqueeze_runtime(%x: tensor<3xf32>, %a: tensor<1xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Unsqueeze %x, %a : (tensor<3xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A 'shape' of unknown length aligns with the result's trailing dims.
// CHECK-LABEL: func.func @expand_unknown_length
// CHECK-SAME: (%[[X:.+]]: tensor<3x1xf32>, %[[S:.+]]: tensor<?xi64>)
// CHECK: %[[LEN:.+]] = tensor.dim %[[S]], %c0
// CHECK: %[[AT:.+]] = arith.subi %[[LEN]], %c2
// CHECK: %[[IN:.+]] = arith.cmpi sge, %[[AT]], %c0
// CHECK: scf.if %[[IN]] -> (index)
// CHECK: tensor.extract %[[S]][%[[AT]]]
// CHECK: } else {
// CHECK: scf.yield %c1
// CHECK: linalg.generic
func.func @expand_unknown_length(%x: tensor<3x1xf32>, %s: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.Expand %x, %s : (tensor<3x1xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A reshape to a shape with a static 0 dim has no elements: a tensor.empty
// of the result's sizes, not an expand_shape (whose bufferization in MLIR 19
// crashes on a group whose static sizes multiply to 0; a fuzzer's mutant of
// a Softmax model over a zero-size axis).
// CHECK-LABEL: func.func @reshape_to_zero_dim
// CHECK-NOT: tensor.expand_shape
// CHECK: %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x3x4x0xf32>
// CHECK: return %[[E]]
func.func @reshape_to_zero_dim(%x: tensor<?x0xf32>, %shape: tensor<4xi64>) -> tensor<?x3x4x0xf32> {
  %0 = onnx.Reshape %x, %shape : (tensor<?x0xf32>, tensor<4xi64>) -> tensor<?x3x4x0xf32>
  return %0 : tensor<?x3x4x0xf32>
}

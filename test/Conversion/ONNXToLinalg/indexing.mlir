// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Gathers, scatters and OneHot (passes/Conversion/ONNXToLinalg/Indexing.cpp).

// A generic over the indices reads data with the axis coordinate replaced
// (negative indices count from the back).
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[X:.+]]: tensor<3x4xf32>, %[[I:.+]]: tensor<3x2xi64>)
// CHECK: linalg.generic {{.*}} ins(%[[I]] : tensor<3x2xi64>) outs(%{{.+}} : tensor<3x2xf32>)
// CHECK: ^bb0(%[[IN:.+]]: i64, %{{.+}}: f32):
// CHECK: %[[ROW:.+]] = linalg.index 0
// CHECK: %[[IDX:.+]] = arith.index_cast %[[IN]] : i64 to index
// CHECK: %[[NEG:.+]] = arith.cmpi slt, %[[IDX]], %c0
// CHECK: %[[WRAPPED:.+]] = arith.addi %[[IDX]], %c4
// CHECK: %[[COL:.+]] = arith.select %[[NEG]], %[[WRAPPED]], %[[IDX]]
// CHECK: tensor.extract %[[X]][%[[ROW]], %[[COL]]]
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  %0 = onnx.GatherElements %x, %i {axis = 1 : i64} : (tensor<3x4xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// Scatters copy data, then update it element by element in order.
// CHECK-LABEL: func.func @scatter_elements_add
// CHECK-SAME: (%[[X:.+]]: tensor<1x5xf32>, %[[I:.+]]: tensor<1x2xi64>, %[[U:.+]]: tensor<1x2xf32>)
// CHECK: %[[COPY:.+]] = linalg.copy ins(%[[X]] : tensor<1x5xf32>)
// CHECK: %[[R:.+]] = scf.for {{.*}} iter_args(%{{.+}} = %[[COPY]])
// CHECK: scf.for %[[J:.+]] = {{.*}} iter_args(%[[OUT:.+]] = %{{.+}})
// CHECK: tensor.extract %[[I]]
// CHECK: %[[UPD:.+]] = tensor.extract %[[U]]
// CHECK: %[[CUR:.+]] = tensor.extract %[[OUT]]
// CHECK: %[[SUM:.+]] = arith.addf %[[CUR]], %[[UPD]]
// CHECK: tensor.insert %[[SUM]] into %[[OUT]]
// CHECK: return %[[R]]
func.func @scatter_elements_add(%x: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> tensor<1x5xf32> {
  %0 = onnx.ScatterElements %x, %i, %u {axis = 1 : i64, reduction = "add"} : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  return %0 : tensor<1x5xf32>
}

// -----

// GatherND with a batch dim: data[b, indices[b, 0], :].
// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>, %[[I:.+]]: tensor<2x1xi64>)
// CHECK: %[[B:.+]] = linalg.index 0
// CHECK: %[[K:.+]] = linalg.index 1
// CHECK: tensor.extract %[[I]][%[[B]], %c0] : tensor<2x1xi64>
// CHECK: %[[ROW:.+]] = arith.select
// CHECK: tensor.extract %[[X]][%[[B]], %[[ROW]], %[[K]]] : tensor<2x3x4xf32>
func.func @gather_nd(%x: tensor<2x3x4xf32>, %i: tensor<2x1xi64>) -> tensor<2x4xf32> {
  %0 = onnx.GatherND %x, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_nd
// CHECK-SAME: (%[[X:.+]]: tensor<4x4xf32>, %[[I:.+]]: tensor<2x1xi64>, %[[U:.+]]: tensor<2x4xf32>)
// CHECK: %[[COPY:.+]] = linalg.copy ins(%[[X]] : tensor<4x4xf32>)
// CHECK: scf.for %[[N:.+]] = {{.*}} iter_args(%{{.+}} = %[[COPY]])
// CHECK: scf.for %[[J:.+]] = {{.*}} iter_args(%[[OUT:.+]] = %{{.+}})
// CHECK: tensor.extract %[[I]][%[[N]], %c0]
// CHECK: %[[ROW:.+]] = arith.select
// CHECK: %[[UPD:.+]] = tensor.extract %[[U]][%[[N]], %[[J]]]
// CHECK: tensor.insert %[[UPD]] into %[[OUT]][%[[ROW]], %[[J]]]
func.func @scatter_nd(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %0 = onnx.ScatterND %x, %i, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// OneHot with float indices and depth: truncated; the new dim is axis 0.
// CHECK-DAG: #[[IDX:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @one_hot
// CHECK-SAME: (%[[I:.+]]: tensor<3xf32>, %[[D:.+]]: tensor<f32>, %[[V:.+]]: tensor<2xi32>)
// CHECK: %[[DEPTH:.+]] = arith.fptosi %{{.+}} : f32 to i64
// CHECK: %[[OFF:.+]] = tensor.extract %[[V]][%c0]
// CHECK: %[[ON:.+]] = tensor.extract %[[V]][%c1]
// CHECK: linalg.generic {indexing_maps = [#[[IDX]], #{{.+}}]{{.*}} ins(%[[I]] : tensor<3xf32>) outs(%{{.+}} : tensor<?x3xi32>)
// CHECK: %[[HIT:.+]] = arith.cmpi eq
// CHECK: arith.select %[[HIT]], %[[ON]], %[[OFF]] : i32
func.func @one_hot(%i: tensor<3xf32>, %d: tensor<f32>, %v: tensor<2xi32>) -> tensor<?x3xi32> {
  %0 = onnx.OneHot %i, %d, %v {axis = 0 : i64} : (tensor<3xf32>, tensor<f32>, tensor<2xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// -----

// TensorScatter (circular) gathers: each cache element reads the update at
// its position minus the batch entry's write index, modulo the axis size,
// where that falls within the update, else keeps the cache's value.
// CHECK-LABEL: func.func @tensor_scatter_circular
// CHECK-SAME: (%[[C:.+]]: tensor<2x1x4x5xf32>, %[[U:.+]]: tensor<2x1x2x5xf32>, %[[I:.+]]: tensor<2xi64>)
// CHECK: linalg.generic {{.*}} ins(%[[C]] : tensor<2x1x4x5xf32>)
// CHECK-NEXT: ^bb0(%[[OLD:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[B:.+]] = linalg.index 0
// CHECK: %[[P:.+]] = linalg.index 2
// CHECK: tensor.extract %[[I]][%[[B]]]
// CHECK: arith.subi %[[P]]
// CHECK: arith.remsi %{{.+}}, %c4
// CHECK: arith.cmpi slt, %{{.+}}, %c2
// CHECK: scf.if
// CHECK: tensor.extract %[[U]]
// CHECK: scf.yield %[[OLD]]
func.func @tensor_scatter_circular(%c: tensor<2x1x4x5xf32>, %u: tensor<2x1x2x5xf32>, %i: tensor<2xi64>) -> tensor<2x1x4x5xf32> {
  %0 = onnx.TensorScatter %c, %u, %i {mode = "circular"} : (tensor<2x1x4x5xf32>, tensor<2x1x2x5xf32>, tensor<2xi64>) -> tensor<2x1x4x5xf32>
  return %0 : tensor<2x1x4x5xf32>
}

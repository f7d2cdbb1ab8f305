// RUN: onnx-opt %s -split-input-file -onnx-shape-inference | FileCheck %s

// Result types are re-inferred from the operands; the signature follows.
// CHECK-LABEL: func.func @refine(%arg0: tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK: onnx.Transpose %arg0 {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
func.func @refine(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %0 = onnx.Transpose %x {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A Scan's body arguments follow its operands: the scan input's slice is
// [2, 4] (the input without axis 0), the state [2, 4] once the body yields
// that shape too; the body's ops and the Scan's results are refined from
// them.
// CHECK-LABEL: func.func @scan
// CHECK: onnx.Scan %arg0, %arg1 {num_scan_inputs = 1 : i64} : (tensor<2x4xf32>, tensor<5x2x4xf32>) -> (tensor<2x4xf32>, tensor<5x2x4xf32>)
// CHECK: ^bb0(%{{.+}}: tensor<2x4xf32>, %{{.+}}: tensor<2x4xf32>):
// CHECK: onnx.Add %{{.+}}, %{{.+}} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
func.func @scan(%s: tensor<2x4xf32>, %x: tensor<5x2x4xf32>) -> (tensor<?x?xf32>, tensor<?x?x?xf32>) {
  %0:2 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2x4xf32>, tensor<5x2x4xf32>) -> (tensor<?x?xf32>, tensor<?x?x?xf32>) {
  ^bb0(%state: tensor<?x?xf32>, %xi: tensor<?x?xf32>):
    %1 = onnx.Add %state, %xi : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    onnx.Yield %1, %1 : tensor<?x?xf32>, tensor<?x?xf32>
  }
  return %0#0, %0#1 : tensor<?x?xf32>, tensor<?x?x?xf32>
}

// -----

// A state whose shape the body changes keeps the shape both have in common:
// the body doubles its first dim, so only the second stays static.
// CHECK-LABEL: func.func @scan_growing_state
// CHECK: ^bb0(%{{.+}}: tensor<?x4xf32>, %{{.+}}: tensor<2x4xf32>):
func.func @scan_growing_state(%s: tensor<2x4xf32>, %x: tensor<5x2x4xf32>) -> tensor<?x?xf32> {
  %0 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2x4xf32>, tensor<5x2x4xf32>) -> tensor<?x?xf32> {
  ^bb0(%state: tensor<?x?xf32>, %xi: tensor<?x?xf32>):
    %1 = onnx.Concat %state, %xi {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    onnx.Yield %1 : tensor<?x?xf32>
  }
  return %0 : tensor<?x?xf32>
}

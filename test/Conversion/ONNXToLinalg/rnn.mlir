// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// LSTM, GRU and RNN (passes/Conversion/ONNXToLinalg/RNN.cpp): the input
// projection of all steps as one matmul, then an scf.for over the steps
// carrying the states, Y and the projection.

// The projection [seq * batch, input] x W' starts from the W and R biases
// summed; each step multiplies H by R' onto its own rows of the projection
// (in place: they are inserted back) and computes the gates, peepholes
// included, in one generic that yields the new H and C.
// CHECK-LABEL: func.func @lstm
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x3xf32>, %[[W:.+]]: tensor<1x16x3xf32>, %[[R:.+]]: tensor<1x16x4xf32>, %[[B:.+]]: tensor<1x32xf32>
// CHECK-DAG: %[[WD:.+]] = tensor.extract_slice %[[W]][0, 0, 0] [1, 16, 3] [1, 1, 1] : tensor<1x16x3xf32> to tensor<16x3xf32>
// CHECK-DAG: %[[RD:.+]] = tensor.extract_slice %[[R]][0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<1x16x4xf32> to tensor<16x4xf32>
// CHECK-DAG: %[[WB:.+]] = tensor.extract_slice %[[B]][0, 0] [1, 16] [1, 1] : tensor<1x32xf32> to tensor<16xf32>
// CHECK-DAG: %[[RB:.+]] = tensor.extract_slice %[[B]][0, 16] [1, 16] [1, 1] : tensor<1x32xf32> to tensor<16xf32>
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<?x?x3xf32> into tensor<?x3xf32>
// CHECK: %[[BIAS:.+]] = linalg.generic {{.*}} ins(%[[WB]], %[[RB]] : tensor<16xf32>, tensor<16xf32>)
// CHECK: arith.addf
// CHECK: %[[ROWS:.+]] = linalg.generic {{.*}} ins(%[[BIAS]] : tensor<16xf32>) outs(%{{.+}} : tensor<?x16xf32>)
// CHECK: %[[PROJ:.+]] = linalg.matmul_transpose_b ins(%[[FLAT]], %[[WD]] : tensor<?x3xf32>, tensor<16x3xf32>) outs(%[[ROWS]] : tensor<?x16xf32>)
// CHECK: %[[XW:.+]] = tensor.reshape %[[PROJ]]
// CHECK: %[[LOOP:.+]]:4 = scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[H:.+]] = %{{.+}}, %[[C:.+]] = %{{.+}}, %[[Y:.+]] = %{{.+}}, %[[XWI:.+]] = %[[XW]])
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[XWI]][%[[T]], 0, 0]
// CHECK: %[[HR:.+]] = linalg.matmul_transpose_b ins(%[[H]], %[[RD]] : tensor<?x4xf32>, tensor<16x4xf32>) outs(%[[XT]] : tensor<?x16xf32>)
// CHECK: %[[CELL:.+]]:2 = linalg.generic
// CHECK-SAME: ins(%[[H]], %[[C]],
// CHECK: math.tanh
// CHECK: %[[YT:.+]] = tensor.insert_slice %[[CELL]]#0 into %[[Y]][%[[T]], 0, 0]
// CHECK: %[[XWT:.+]] = tensor.insert_slice %[[HR]] into %[[XWI]][%[[T]], 0, 0]
// CHECK: scf.yield %[[CELL]]#0, %[[CELL]]#1, %[[YT]], %[[XWT]]
// CHECK: tensor.insert_slice %[[LOOP]]#2 into %{{.+}}[0, 0, 0, 0]
func.func @lstm(%x: tensor<?x?x3xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x32xf32>, %p: tensor<1x12xf32>) -> (tensor<?x1x?x4xf32>, tensor<1x?x4xf32>) {
  %none = onnx.NoValue : () -> none
  %y, %h, %c = onnx.LSTM %x, %w, %r, %b, %none, %none, %none, %p {hidden_size = 4 : i64} : (tensor<?x?x3xf32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x32xf32>, none, none, none, tensor<1x12xf32>) -> (tensor<?x1x?x4xf32>, tensor<1x?x4xf32>, tensor<1x?x4xf32>)
  return %y, %c : tensor<?x1x?x4xf32>, tensor<1x?x4xf32>
}

// -----

// GRU with linear_before_reset: one product H x R' of the three gates onto
// the R bias (zeros here), apart from the projection, which the step only
// reads; one generic computes the gates (r scales the h gate's product).
// Y is unused, so the loop carries H only (and the unchanged projection).
// CHECK-LABEL: func.func @gru
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[H:.+]] = %{{.+}}, %[[XW:.+]] = %{{.+}}) -> (tensor<3x5xf32>, tensor<2x3x15xf32>)
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[XW]][%[[T]], 0, 0]
// CHECK: %[[HR:.+]] = linalg.matmul_transpose_b ins(%[[H]], %{{.+}} : tensor<3x5xf32>, tensor<15x5xf32>)
// CHECK-NOT: linalg.matmul_transpose_b
// CHECK: %[[NEXT:.+]] = linalg.generic {{.*}} ins(%[[H]],
// CHECK: scf.yield %[[NEXT]], %[[XW]] : tensor<3x5xf32>, tensor<2x3x15xf32>
func.func @gru(%x: tensor<2x3x2xf32>, %w: tensor<1x15x2xf32>, %r: tensor<1x15x5xf32>) -> tensor<1x3x5xf32> {
  %none = onnx.NoValue : () -> none
  %y, %h = onnx.GRU %x, %w, %r, %none, %none, %none {hidden_size = 5 : i64, linear_before_reset = 1 : i64} : (tensor<2x3x2xf32>, tensor<1x15x2xf32>, tensor<1x15x5xf32>, none, none, none) -> (tensor<2x1x3x5xf32>, tensor<1x3x5xf32>)
  return %h : tensor<1x3x5xf32>
}

// -----

// GRU without linear_before_reset: H x R[z, r]' onto the z and r gates'
// columns of the step's projection, then (r * H) x Rh' onto the h gate's,
// both inserted back; the biases start the projection.
// CHECK-LABEL: func.func @gru_reset_before
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[H:.+]] = %{{.+}}, %[[XW:.+]] = %{{.+}})
// CHECK: %[[XT:.+]] = tensor.extract_slice %[[XW]][%[[T]], 0, 0]
// CHECK: %[[XZR:.+]] = tensor.extract_slice %[[XT]][0, 0] [3, 10] [1, 1]
// CHECK: %[[ZR:.+]] = linalg.matmul_transpose_b ins(%[[H]], %{{.+}} : tensor<3x5xf32>, tensor<10x5xf32>) outs(%[[XZR]] : tensor<3x10xf32>)
// CHECK: %[[GATES:.+]]:2 = linalg.generic
// CHECK: %[[XH:.+]] = tensor.extract_slice %[[XT]][0, 10] [3, 5] [1, 1]
// CHECK: %[[HH:.+]] = linalg.matmul_transpose_b ins(%[[GATES]]#1, %{{.+}} : tensor<3x5xf32>, tensor<5x5xf32>) outs(%[[XH]] : tensor<3x5xf32>)
// CHECK: %[[NEXT:.+]] = linalg.generic {{.*}} ins(%[[H]], %[[HH]], %[[GATES]]#0 :
// CHECK: %[[P1:.+]] = tensor.insert_slice %[[ZR]] into %[[XT]][0, 0] [3, 10] [1, 1]
// CHECK: %[[P2:.+]] = tensor.insert_slice %[[HH]] into %[[P1]][0, 10] [3, 5] [1, 1]
// CHECK: %[[XWT:.+]] = tensor.insert_slice %[[P2]] into %[[XW]][%[[T]], 0, 0]
// CHECK: scf.yield %[[NEXT]], %[[XWT]]
func.func @gru_reset_before(%x: tensor<2x3x2xf32>, %w: tensor<1x15x2xf32>, %r: tensor<1x15x5xf32>, %b: tensor<1x30xf32>) -> tensor<1x3x5xf32> {
  %none = onnx.NoValue : () -> none
  %y, %h = onnx.GRU %x, %w, %r, %b, %none, %none {hidden_size = 5 : i64} : (tensor<2x3x2xf32>, tensor<1x15x2xf32>, tensor<1x15x5xf32>, tensor<1x30xf32>, none, none) -> (tensor<2x1x3x5xf32>, tensor<1x3x5xf32>)
  return %h : tensor<1x3x5xf32>
}

// -----

// A reverse direction with sequence_lens reverses each entry within its own
// length (a gather) before the projection and Y after the loop; a step past
// an entry's length keeps H and writes zeros.
// CHECK-LABEL: func.func @rnn_reverse_lens
// CHECK-SAME: (%[[X:.+]]: tensor<4x2x3xf32>, %{{.+}}: tensor<1x4x3xf32>, %{{.+}}: tensor<1x4x4xf32>, %[[LENS:.+]]: tensor<2xi32>)
// CHECK: %[[LEN:.+]] = tensor.extract %[[LENS]]
// CHECK: tensor.extract %[[X]]
// CHECK: %[[LOOP:.+]]:3 = scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step
// CHECK: linalg.generic {{.*}} ins(%[[LENS]], %{{.+}}
// CHECK: %[[VALID:.+]] = arith.cmpi slt, %[[T]], %{{.+}} : index
// CHECK: arith.select %[[VALID]]
// CHECK: tensor.extract %[[LOOP]]#1
func.func @rnn_reverse_lens(%x: tensor<4x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %lens: tensor<2xi32>) -> tensor<4x1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  %y, %h = onnx.RNN %x, %w, %r, %none, %lens, %none {hidden_size = 4 : i64, direction = "reverse"} : (tensor<4x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, tensor<2xi32>, none) -> (tensor<4x1x2x4xf32>, tensor<1x2x4xf32>)
  return %y : tensor<4x1x2x4xf32>
}

// -----

// Bidirectional, batch first: X is transposed to [seq, batch, input], the
// second direction walks the steps backwards, and Y is transposed back.
// CHECK-LABEL: func.func @rnn_bidirectional_batch_first
// CHECK: %[[XT:.+]] = linalg.transpose ins(%{{.+}} : tensor<2x4x3xf32>) outs(%{{.+}} : tensor<4x2x3xf32>) permutation = [1, 0, 2]
// CHECK: scf.for
// CHECK: %[[Y0:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [4, 1, 2, 4]
// CHECK: scf.for %[[T:.+]] = %{{.+}} to %{{.+}} step
// CHECK: %[[BACK:.+]] = arith.subi %{{.+}}, %[[T]] : index
// CHECK: tensor.extract_slice %{{.+}}[%[[BACK]], 0, 0]
// CHECK: %[[Y1:.+]] = tensor.insert_slice %{{.+}} into %[[Y0]][0, 1, 0, 0] [4, 1, 2, 4]
// CHECK: linalg.transpose ins(%[[Y1]] : tensor<4x2x2x4xf32>) outs(%{{.+}} : tensor<2x4x2x4xf32>) permutation = [2, 0, 1, 3]
func.func @rnn_bidirectional_batch_first(%x: tensor<2x4x3xf32>, %w: tensor<2x4x3xf32>, %r: tensor<2x4x4xf32>) -> tensor<2x4x2x4xf32> {
  %none = onnx.NoValue : () -> none
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64, direction = "bidirectional", layout = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>, none, none, none) -> (tensor<2x4x2x4xf32>, tensor<2x2x4xf32>)
  return %y : tensor<2x4x2x4xf32>
}

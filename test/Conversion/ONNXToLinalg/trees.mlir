// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// fused.tree_ensemble (passes/Conversion/ONNXToLinalg/Trees.cpp): a call of
// the runtime's tree kernel on tables packed at compile time. The tree
// below: node 0 (x1 <= 0.5) goes to node 1 or leaf 2; node 1 (x0 > -1, a
// missing value the true way) goes to leaf 0 or leaf 1. Breadth-first, the
// packed order is node 0, node 1, leaf 2, leaf 0, leaf 1. Node 1's test is
// written as its complement x0 <= -1 (0xBF800000) with the successors
// swapped, so that NaN, failing it, reaches leaf 0; each leaf is its own
// successor. The tree needs 2 steps; flags 1: SUM, no special node.

// CHECK-LABEL: func.func private @onnxc_kernel_tree_ensemble_f32
// CHECK-SAME: (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?xi32, strided<[?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i64)
// CHECK-LABEL: func.func @forest
// CHECK-SAME: (%[[X:.+]]: tensor<?x2xf32>)
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[SPECIAL:.+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-DAG: %[[WEIGHTS:.+]] = arith.constant dense<{{\[\[}}1.000000e+00], [2.000000e+00], [3.000000e+00]]> : tensor<3x1xf32>
// CHECK-DAG: %[[LEAFOF:.+]] = arith.constant dense<[0, 0, 2, 0, 1]> : tensor<5xi32>
// CHECK-DAG: %[[TREES:.+]] = arith.constant dense<[0, 2]> : tensor<2xi32>
// CHECK-DAG: %[[NODES:.+]] = arith.constant dense<[1, 1056964608, 1, 2, 0, -1082130432, 4, 3, 0, 0, 2, 2, 0, 0, 3, 3, 0, 0, 4, 4]> : tensor<20xi32>
// CHECK: bufferization.to_memref %[[X]] read_only
// CHECK: bufferization.to_memref %[[NODES]] read_only
// CHECK: bufferization.to_memref %[[TREES]] read_only
// CHECK: bufferization.to_memref %[[LEAFOF]] read_only
// CHECK: bufferization.to_memref %[[WEIGHTS]] read_only
// CHECK: bufferization.to_memref %[[SPECIAL]] read_only
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x2xf32>
// CHECK: %[[Y:.+]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x1xf32>
// CHECK: call @onnxc_kernel_tree_ensemble_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
// CHECK: %[[T:.+]] = bufferization.to_tensor %[[Y]] restrict writable : memref<?x1xf32>
// CHECK: return %[[T]]
func.func @forest(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1: false, true>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

// Special nodes: an EQ test (record at 0: mode 4, missing false, split 2,
// no set) and a MEMBER test (record at 4: mode 6, missing true, split 0, a
// set of two), marked by bit 30 of the word; flags 19: MAX (3) and special
// nodes (16). GTE and LT compare -x with -split and move the split one
// float down: -x <= -0.5 (sign bit, 0xBF000000) for x >= 0.5, and
// x <= 0.49999997 (0x3EFFFFFF) for x < 0.5. Two trees share leaf 0 (packed
// once, 3rd); the third tree is one leaf, at no step.

// CHECK-LABEL: func.func @special
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 19 : i64
// CHECK-DAG: arith.constant dense<[4.000000e+00, 0.000000e+00, 2.000000e+00, 0.000000e+00, 6.000000e+00, 1.000000e+00, 0.000000e+00, 2.000000e+00, 7.000000e+00, 9.000000e+00]> : tensor<10xf32>
// CHECK-DAG: arith.constant dense<[0, 0, 2, 0, 1, 0, 0, 3]> : tensor<8xi32>
// CHECK-DAG: arith.constant dense<[0, 2, 5, 2, 7, 0]> : tensor<6xi32>
// CHECK-DAG: arith.constant dense<[1073741824, 0, 1, 2, 1073741825, 4, 3, 4, 0, 0, 2, 2, 0, 0, 3, 3, 0, 0, 4, 4, -2147483648, -1090519040, 6, 3, 2, 1056964607, 3, 2, 0, 0, 7, 7]> : tensor<32xi32>
// CHECK: call @onnxc_kernel_tree_ensemble_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
func.func @special(%x: tensor<4x3xf32>) -> tensor<4x1xf32> {
  %y = fused.tree_ensemble %x {aggregate_function = 3 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0, 4.0>, membership_values = array<f32: 7.0, 9.0, 0x7FC00000>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 6, 5, 4, 6>, nodes_featureids = array<i64: 0, 1, 0, 2>, nodes_missing_value_tracks_true = array<i1: false, true, false, false>, nodes_modes = array<i64: 4, 6, 2, 1>, nodes_splits = array<f32: 2.0, 0.0, 0.5, 0.5>, nodes_truenodeids = array<i64: 1, 4, 3, 4>, tree_roots = array<i64: 0, 2, 7>} : (tensor<4x3xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

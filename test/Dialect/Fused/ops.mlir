// RUN: onnx-opt %s -split-input-file | onnx-opt | FileCheck %s

// Round trip of the fused ops, with and without activation parameters.
// CHECK-LABEL: func.func @fused
func.func @fused(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                 %a: tensor<2x64xf32>, %m: tensor<10x64xf32>) -> (tensor<1x4x6x6xf32>, tensor<2x10xf32>) {
  // CHECK: fused.conv %{{.*}}, %{{.*}}, %{{.*}} {activation = "Clip", activation_params = array<f32: 0.000000e+00, 6.000000e+00>}
  // CHECK: fused.gemm %{{.*}}, %{{.*}}, %{{.*}} {activation = "Relu", activation_params = array<f32>, transB = 1 : i64}
  %none = onnx.NoValue : () -> none
  %y = fused.conv %x, %w, %b {activation = "Clip", activation_params = array<f32: 0.0, 6.0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %z = fused.gemm %a, %m, %none {activation = "Relu", activation_params = array<f32>, transB = 1 : i64} : (tensor<2x64xf32>, tensor<10x64xf32>, none) -> tensor<2x10xf32>
  return %y, %z : tensor<1x4x6x6xf32>, tensor<2x10xf32>
}

// -----

// Attention with a padding mask and a dynamic batch, and without a mask.
// CHECK-LABEL: func.func @attention
func.func @attention(%q: tensor<?x8x16xf32>, %kv: tensor<?x6x16xf32>, %m: tensor<?x1x1x6xf32>) -> (tensor<?x8x16xf32>, tensor<?x8x16xf32>) {
  // CHECK: fused.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {num_heads = 2 : i64, scale = 2.500000e-01 : f32}
  // CHECK: fused.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {num_heads = 4 : i64, scale = 5.000000e-01 : f32} : (tensor<?x8x16xf32>, tensor<?x6x16xf32>, tensor<?x6x16xf32>, none)
  %none = onnx.NoValue : () -> none
  %y = fused.attention %q, %kv, %kv, %m {num_heads = 2 : i64, scale = 0.25 : f32} : (tensor<?x8x16xf32>, tensor<?x6x16xf32>, tensor<?x6x16xf32>, tensor<?x1x1x6xf32>) -> tensor<?x8x16xf32>
  %z = fused.attention %q, %kv, %kv, %none {num_heads = 4 : i64, scale = 0.5 : f32} : (tensor<?x8x16xf32>, tensor<?x6x16xf32>, tensor<?x6x16xf32>, none) -> tensor<?x8x16xf32>
  return %y, %z : tensor<?x8x16xf32>, tensor<?x8x16xf32>
}

// -----

// Grouped-query attention: 4 query heads over 2 key and value heads; the
// result has the query's heads (of the value's head size).
// CHECK-LABEL: func.func @attention_gqa
// CHECK: fused.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {kv_num_heads = 2 : i64, num_heads = 4 : i64, scale = 5.000000e-01 : f32} : (tensor<?x8x16xf32>, tensor<?x6x8xf32>, tensor<?x6x6xf32>, none) -> tensor<?x8x12xf32>
func.func @attention_gqa(%q: tensor<?x8x16xf32>, %k: tensor<?x6x8xf32>, %v: tensor<?x6x6xf32>) -> tensor<?x8x12xf32> {
  %none = onnx.NoValue : () -> none
  %y = fused.attention %q, %k, %v, %none {num_heads = 4 : i64, kv_num_heads = 2 : i64, scale = 0.5 : f32} : (tensor<?x8x16xf32>, tensor<?x6x8xf32>, tensor<?x6x6xf32>, none) -> tensor<?x8x12xf32>
  return %y : tensor<?x8x12xf32>
}

// -----

// The int8 kernel ops on tensors (with a result) and on memrefs (without).
// CHECK-LABEL: func.func @qkernels
// CHECK: fused.qmatmul %{{.*}} outs(%{{.*}}) {relu, w_signed} : {{.*}} -> tensor<4x16xi8>
// CHECK: fused.qconv %{{.*}} outs(%{{.*}}) {dilations = array<i64: 1, 1>, strides = array<i64: 2, 2>, w_signed} : {{.*}}, memref<1x4x3x3xi32>{{$}}
func.func @qkernels(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %z: tensor<1xi32>, %wz: tensor<16xi32>,
                    %b: tensor<0xi32>, %s: tensor<16xf32>, %init: tensor<4x16xi8>,
                    %cx: memref<1x3x8x8xi8>, %cw: memref<4x3x3x3xi8>, %mz: memref<1xi32>,
                    %mb: memref<0xi32>, %ms: memref<0xf32>, %out: memref<1x4x3x3xi32>) -> tensor<4x16xi8> {
  %y = fused.qmatmul %x, %w, %z, %wz, %b, %s, %z outs(%init) {w_signed, relu} : tensor<4x64xi8>, tensor<64x16xi8>, tensor<1xi32>, tensor<16xi32>, tensor<0xi32>, tensor<16xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
  fused.qconv %cx, %cw, %mz, %mz, %mb, %ms, %mz outs(%out) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, w_signed} : memref<1x3x8x8xi8>, memref<4x3x3x3xi8>, memref<1xi32>, memref<1xi32>, memref<0xi32>, memref<0xf32>, memref<1xi32>, memref<1x4x3x3xi32>
  return %y : tensor<4x16xi8>
}

// -----

// A tree ensemble: two nodes, three leaves (ids 2..4), a missing value at
// node 1 going the true way.
// CHECK-LABEL: func.func @tree_ensemble
// CHECK: fused.tree_ensemble %arg0 {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.000000e+00, 2.000000e+00, 3.000000e+00>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1: false, true>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 5.000000e-01, -1.000000e+00>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
func.func @tree_ensemble(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1: false, true>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

// 4-bit weights [8, 64] in two blocks of 32 per row; with packed zero
// points and a bias, and without either (zero point 8).
// CHECK-LABEL: func.func @matmul_nbits
// CHECK: fused.matmul_nbits %arg0, %arg1, %arg2 zero_points(%arg3) bias(%arg4) {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>, tensor<8xui8>, tensor<8xf32>) -> tensor<?x8xf32>
// CHECK: fused.matmul_nbits %arg0, %arg1, %arg2 {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>) -> tensor<?x8xf32>
func.func @matmul_nbits(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>, %z: tensor<8xui8>, %c: tensor<8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %y = fused.matmul_nbits %a, %b, %s zero_points(%z) bias(%c) {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>, tensor<8xui8>, tensor<8xf32>) -> tensor<?x8xf32>
  %w = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>) -> tensor<?x8xf32>
  return %y, %w : tensor<?x8xf32>, tensor<?x8xf32>
}

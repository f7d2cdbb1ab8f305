// RUN: onnx-opt %s -split-input-file -verify-diagnostics

func.func @fused_c1(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{has an unknown activation 'Swish'}}
  %y = fused.conv %x, %w, %b {activation = "Swish", activation_params = array<f32>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// -----

func.func @fused_c2(%a: tensor<2x64xf32>, %m: tensor<64x10xf32>) -> tensor<2x10xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects 1 activation_params for LeakyRelu (got 0)}}
  %z = fused.gemm %a, %m, %none {activation = "LeakyRelu", activation_params = array<f32>} : (tensor<2x64xf32>, tensor<64x10xf32>, none) -> tensor<2x10xf32>
  return %z : tensor<2x10xf32>
}

// -----

func.func @attention_c1(%q: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects a positive num_heads (got 0)}}
  %y = fused.attention %q, %q, %q, %none {num_heads = 0 : i64, scale = 0.5 : f32} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>, none) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

func.func @attention_c2(%q: tensor<1x8x2x8xf32>, %k: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects a 3-D query (got rank 4)}}
  %y = fused.attention %q, %k, %k, %none {num_heads = 2 : i64, scale = 0.5 : f32} : (tensor<1x8x2x8xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>, none) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

func.func @attention_c3(%q: tensor<1x8x12xf32>) -> tensor<1x8x12xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects widths divisible by num_heads 5 (got 12)}}
  %y = fused.attention %q, %q, %q, %none {num_heads = 5 : i64, scale = 0.5 : f32} : (tensor<1x8x12xf32>, tensor<1x8x12xf32>, tensor<1x8x12xf32>, none) -> tensor<1x8x12xf32>
  return %y : tensor<1x8x12xf32>
}

// -----

func.func @attention_c3_kv_heads(%q: tensor<1x8x12xf32>, %k: tensor<1x8x6xf32>) -> tensor<1x8x12xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects a kv_num_heads that divides num_heads 6 (got 4)}}
  %y = fused.attention %q, %k, %k, %none {num_heads = 6 : i64, kv_num_heads = 4 : i64, scale = 0.5 : f32} : (tensor<1x8x12xf32>, tensor<1x8x6xf32>, tensor<1x8x6xf32>, none) -> tensor<1x8x12xf32>
  return %y : tensor<1x8x12xf32>
}

// -----

func.func @attention_c3_kv_width(%q: tensor<1x8x12xf32>, %k: tensor<1x8x5xf32>) -> tensor<1x8x12xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects key and value widths divisible by kv_num_heads 2 (got 5)}}
  %y = fused.attention %q, %k, %k, %none {num_heads = 6 : i64, kv_num_heads = 2 : i64, scale = 0.5 : f32} : (tensor<1x8x12xf32>, tensor<1x8x5xf32>, tensor<1x8x5xf32>, none) -> tensor<1x8x12xf32>
  return %y : tensor<1x8x12xf32>
}

// -----

func.func @attention_c3_head_size(%q: tensor<1x8x12xf32>, %k: tensor<1x8x8xf32>) -> tensor<1x8x12xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects query and key heads of the same size (got 2 and 4)}}
  %y = fused.attention %q, %k, %k, %none {num_heads = 6 : i64, kv_num_heads = 2 : i64, scale = 0.5 : f32} : (tensor<1x8x12xf32>, tensor<1x8x8xf32>, tensor<1x8x8xf32>, none) -> tensor<1x8x12xf32>
  return %y : tensor<1x8x12xf32>
}

// -----

func.func @attention_c4(%q: tensor<1x8x16xf32>, %k: tensor<1x6x16xf32>, %v: tensor<1x5x16xf32>) -> tensor<1x8x16xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+1 {{expects as many keys as values (got 6 and 5)}}
  %y = fused.attention %q, %k, %v, %none {num_heads = 2 : i64, scale = 0.5 : f32} : (tensor<1x8x16xf32>, tensor<1x6x16xf32>, tensor<1x5x16xf32>, none) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

func.func @attention_c5(%q: tensor<1x8x16xf32>, %m: tensor<1x1x1x7xf32>) -> tensor<1x8x16xf32> {
  // expected-error @+1 {{expects a mask that broadcasts to the scores [B, num_heads, S, T] (dim 3 is 7, not 1 or 8)}}
  %y = fused.attention %q, %q, %q, %m {num_heads = 2 : i64, scale = 0.5 : f32} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x1x1x7xf32>) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

// -----

func.func @fused_q_c1(%x: tensor<4x64xi16>, %w: tensor<64x16xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<1xf32>, %init: tensor<4x16xi8>) -> tensor<4x16xi8> {
  // expected-error @+1 {{expects 8-bit integer x and w (got 'i16' and 'i8')}}
  %y = fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%init) : tensor<4x64xi16>, tensor<64x16xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<1xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
  return %y : tensor<4x16xi8>
}

// -----

func.func @fused_q_c2(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<1xf32>, %init: tensor<4x16xi8>) -> tensor<4x16xi8> {
  // expected-error @+1 {{expects x, w and init of rank 4}}
  %y = fused.qconv %x, %w, %z, %z, %b, %s, %z outs(%init) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : tensor<4x64xi8>, tensor<64x16xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<1xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
  return %y : tensor<4x16xi8>
}

// -----

func.func @fused_q_c3(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<1xf32>, %init: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{expects an i8, i32 or f32 init (got 'f16')}}
  %y = fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%init) : tensor<4x64xi8>, tensor<64x16xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<1xf32>, tensor<1xi32>, tensor<4x16xf16> -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}

// -----

func.func @fused_q_c4(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<8xf32>, %init: tensor<4x16xi8>) -> tensor<4x16xi8> {
  // expected-error @+1 {{expects scale of 1 or output channels elements (got 8)}}
  %y = fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%init) : tensor<4x64xi8>, tensor<64x16xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<8xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
  return %y : tensor<4x16xi8>
}

// -----

func.func @fused_q_c5(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %z: tensor<1xi32>, %b: tensor<16xf32>, %s: tensor<1xf32>, %init: tensor<4x16xi8>) -> tensor<4x16xi8> {
  // expected-error @+1 {{expects an f32 bias only with an f32 result}}
  %y = fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%init) : tensor<4x64xi8>, tensor<64x16xi8>, tensor<1xi32>, tensor<1xi32>, tensor<16xf32>, tensor<1xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
  return %y : tensor<4x16xi8>
}

// -----

func.func @fused_qmatmul_c1(%x: tensor<4x64xi8>, %w: tensor<32x16xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<1xf32>, %init: tensor<4x16xi8>) -> tensor<4x16xi8> {
  // expected-error @+1 {{expects x [M, K], w [K, N] and init [M, N]}}
  %y = fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%init) : tensor<4x64xi8>, tensor<32x16xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<1xf32>, tensor<1xi32>, tensor<4x16xi8> -> tensor<4x16xi8>
  return %y : tensor<4x16xi8>
}

// -----

func.func @fused_qconv_c1(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<1xf32>, %init: tensor<1x4x6x6xi8>) -> tensor<1x4x6x6xi8> {
  // expected-error @+1 {{expects 2 positive strides and dilations}}
  %y = fused.qconv %x, %w, %z, %z, %b, %s, %z outs(%init) {strides = array<i64: 0, 1>, dilations = array<i64: 1, 1>} : tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<1xf32>, tensor<1xi32>, tensor<1x4x6x6xi8> -> tensor<1x4x6x6xi8>
  return %y : tensor<1x4x6x6xi8>
}

// -----

func.func @fused_qconv_c2(%x: tensor<1x2x8x8xi8>, %w: tensor<4x3x3x3xi8>, %z: tensor<1xi32>, %b: tensor<0xi32>, %s: tensor<1xf32>, %init: tensor<1x4x6x6xi8>) -> tensor<1x4x6x6xi8> {
  // expected-error @+1 {{expects as many channels in x as in w (got 2 and 3)}}
  %y = fused.qconv %x, %w, %z, %z, %b, %s, %z outs(%init) {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : tensor<1x2x8x8xi8>, tensor<4x3x3x3xi8>, tensor<1xi32>, tensor<1xi32>, tensor<0xi32>, tensor<1xf32>, tensor<1xi32>, tensor<1x4x6x6xi8> -> tensor<1x4x6x6xi8>
  return %y : tensor<1x4x6x6xi8>
}

// -----

func.func @tree_c1(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{expects a positive n_targets that divides the 3 leaf_weights (got 2)}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 2 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c2(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{expects 2 nodes_splits, one per node (got 1)}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c2_tracks(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{expects no nodes_missing_value_tracks_true or 2 (got 1)}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1: true>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c3(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{expects successors and roots in [0, 5), the nodes then the leaves}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 5>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c3_roots(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{expects a tree}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c4(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{has node 1 reading feature 2 of 2}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 2>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c5(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{has node 1 of unknown mode 7}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 7>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c5_sets(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{expects 1 NaN-ended sets in membership_values, one per MEMBER node (got 0)}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 6>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c6(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+1 {{has unknown aggregate_function 0 (1 SUM, 2 MIN, 3 MAX)}}
  %y = fused.tree_ensemble %x {aggregate_function = 0 : i64, leaf_weights = array<f32: 1.0, 2.0, 3.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 4, 3>, nodes_featureids = array<i64: 1, 0>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 3>, nodes_splits = array<f32: 0.5, -1.0>, nodes_truenodeids = array<i64: 1, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}

// -----

func.func @tree_c4_rank(%x: tensor<2x2x2xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{expects X of rank 2 (got 3)}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64>, nodes_featureids = array<i64>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64>, nodes_splits = array<f32>, nodes_truenodeids = array<i64>, tree_roots = array<i64: 0>} : (tensor<2x2x2xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}

// -----

func.func @nbits_c1(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{supports bits 4 only (got 8)}}
  %y = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 8 : i64, bits = 8 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c2(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects positive K and N (got 64 and 0)}}
  %y = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 0 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c2_block(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects a block_size that is a power of 2 from 16 to 256 (got 48)}}
  %y = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 48 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c3(%a: tensor<?x64xf32>, %b: tensor<8x4x8xui8>, %s: tensor<16xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects B of shape [8, 2, 16] (got 'tensor<8x4x8xui8>')}}
  %y = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x4x8xui8>, tensor<16xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c4(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects 16 scales, one per block (got 8)}}
  %y = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c5(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>, %z: tensor<16xui8>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects 8 bytes of packed zero points (got 16)}}
  %y = fused.matmul_nbits %a, %b, %s zero_points(%z) {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>, tensor<16xui8>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c6(%a: tensor<?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>, %c: tensor<4xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects a bias of 8 values (got 4)}}
  %y = fused.matmul_nbits %a, %b, %s bias(%c) {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>, tensor<4xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// -----

func.func @nbits_c7(%a: tensor<?x32xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{expects A of last dim K = 64 (got 'tensor<?x32xf32>')}}
  %y = fused.matmul_nbits %a, %b, %s {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<?x32xf32>, tensor<8x2x16xui8>, tensor<16xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

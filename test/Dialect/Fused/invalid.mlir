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

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

// RUN: onnx-opt %s -split-input-file -verify-diagnostics

// One case per verifier check id (`// <op>_cN` in dialects/ONNX/IR/Shape*.cpp),
// named after the id. A failed check also makes the op's result type
// inference fail, hence the second error on each op.

//===----------------------------------------------------------------------===//
// Elementwise (ShapeMath.cpp)
//===----------------------------------------------------------------------===//

func.func @broadcast_c1(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.Add' op operands are not broadcast compatible ('tensor<2x3xf32>' and 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @binary_c1(%a: tensor<3xf32>, %b: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+2 {{'onnx.Sub' op expects operands of one element type (got 'f32' and 'i64')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Sub %a, %b : (tensor<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @compare_c1(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+2 {{'onnx.Equal' op expects operands of one element type (got 'f32' and 'i32')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Equal %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @where_c1(%c: tensor<3xi1>, %x: tensor<3xf32>, %y: tensor<3xf16>) -> tensor<3xf32> {
  // expected-error @+2 {{'onnx.Where' op expects X and Y of one element type (got 'f32' and 'f16')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Where %c, %x, %y : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @clip_c1(%x: tensor<4xf32>, %lo: tensor<i64>) -> tensor<4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Clip' op expects min and max of the input's element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Clip %x, %lo, %none : (tensor<4xf32>, tensor<i64>, none) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @clip_c2(%x: tensor<4xf32>, %hi: tensor<2xf32>) -> tensor<4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Clip' op expects min and max to be scalars (got 'tensor<2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Clip %x, %none, %hi : (tensor<4xf32>, none, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @variadic_c1() -> tensor<f32> {
  // expected-error @+2 {{'onnx.Max' op expects at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Max : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @variadic_c2(%a: tensor<3xf32>, %b: tensor<3xf64>) -> tensor<3xf32> {
  // expected-error @+2 {{'onnx.Sum' op expects inputs of one element type (got 'f32' and 'f64')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Sum %a, %a, %b : (tensor<3xf32>, tensor<3xf32>, tensor<3xf64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @mod_c1(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+2 {{'onnx.Mod' op expects 'fmod' to be 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Mod %a, %a {fmod = 2 : i64} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @mod_c2(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'onnx.Mod' op expects 'fmod' = 1 for floating-point inputs (got 'f32')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Mod %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @bitshift_c1(%a: tensor<3xui8>) -> tensor<3xui8> {
  // expected-error @+2 {{'onnx.BitShift' op expects 'direction' to be "LEFT" or "RIGHT" (got "left")}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BitShift %a, %a {direction = "left"} : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0 : tensor<3xui8>
}

// -----

func.func @prelu_c1(%x: tensor<2x3xf32>, %slope: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.PRelu' op expects X and slope of one element type (got 'f32' and 'f16')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.PRelu %x, %slope : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @prelu_c2(%x: tensor<2x3xf32>, %slope: tensor<2x1x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.PRelu' op expects slope to broadcast to X (got 'tensor<2x1x3xf32>' and 'tensor<2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.PRelu %x, %slope : (tensor<2x3xf32>, tensor<2x1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gelu_c1(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.Gelu' op expects 'approximate' to be "none" or "tanh" (got "erf")}}
  %0 = onnx.Gelu %x {approximate = "erf"} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

//===----------------------------------------------------------------------===//
// Neural network (ShapeNN.cpp)
//===----------------------------------------------------------------------===//

// -----

func.func @matmul_c1(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'onnx.MatMul' op expects operands of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMul %a, %b : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_c2(%a: tensor<f32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'onnx.MatMul' op expects operands of rank 1 or more}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMul %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @matmul_c3(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'onnx.MatMul' op expects matching contraction dims (got 'tensor<2x3xf32>' and 'tensor<4x5xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// The batch-dims check has no id yet.
func.func @matmul_batch(%a: tensor<2x4x3xf32>, %b: tensor<3x3x5xf32>) -> tensor<?x4x5xf32> {
  // expected-error @+2 {{'onnx.MatMul' op expects broadcastable batch dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMul %a, %b : (tensor<2x4x3xf32>, tensor<3x3x5xf32>) -> tensor<?x4x5xf32>
  return %0 : tensor<?x4x5xf32>
}

// -----

func.func @gemm_c1(%a: tensor<2x3xf32>, %b: tensor<3x4xf64>) -> tensor<2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Gemm' op expects A and B of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Gemm %a, %b, %none : (tensor<2x3xf32>, tensor<3x4xf64>, none) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gemm_c2(%a: tensor<1x2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Gemm' op expects A of rank 2 (got 'tensor<1x2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Gemm %a, %b, %none : (tensor<1x2x3xf32>, tensor<3x4xf32>, none) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gemm_c3(%a: tensor<2x3xf32>, %b: tensor<5x4xf32>) -> tensor<2x5xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Gemm' op expects matching contraction dims (got 3 and 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Gemm %a, %b, %none {transB = 1 : i64} : (tensor<2x3xf32>, tensor<5x4xf32>, none) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gemm_c4(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<3xf32>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'onnx.Gemm' op expects C to broadcast to [M, N] (got 'tensor<3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Gemm %a, %b, %c : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @conv_c1(%x: tensor<3x8xf32>, %w: tensor<4x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Conv' op expects X and W of one rank, at least 3 (got 'tensor<3x8xf32>' and 'tensor<4x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %none : (tensor<3x8xf32>, tensor<4x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv_c2(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Conv' op expects 'group' to divide input channels and filters (got 2, 3 and 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %none {group = 2 : i64} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_c3(%x: tensor<1x4x8x8xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x6x6xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Conv' op expects W dim 1 to be channels / group (got 3, expected 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %none : (tensor<1x4x8x8xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x2x6x6xf32>
  return %0 : tensor<1x2x6x6xf32>
}

// -----

func.func @conv_c4(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Conv' op expects 'kernel_shape' to match W's spatial dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %none {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_c6(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+2 {{'onnx.Conv' op expects B of shape [4] (got 'tensor<5xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @window_c1(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Conv' op expects 'strides' to have 2 values (got 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %none {strides = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @window_c2(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'onnx.MaxPool' op expects 'kernel_shape' to have 2 values (got 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @window_c3(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'onnx.AveragePool' op expects positive kernel_shape, strides and dilations}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @window_c4(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'onnx.MaxPool' op expects non-negative pads}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, -1, 0>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @window_c5(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Conv' op has unknown auto_pad 'SAME'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Conv %x, %w, %none {auto_pad = "SAME"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @window_c6(%x: tensor<1x3x3x3xf32>) -> tensor<1x3x1x1xf32> {
  // expected-error @+2 {{'onnx.MaxPool' op has a window larger than the padded input (5 > 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 5, 5>, pads = array<i64: 1, 0, 0, 1>} : (tensor<1x3x3x3xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x3x1x1xi64>)
  return %0 : tensor<1x3x1x1xf32>
}

// -----

func.func @pool_c1(%x: tensor<3x8xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.AveragePool' op expects X of rank 3 or more (got 'tensor<3x8xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 2>} : (tensor<3x8xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @maxpool_c1(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+2 {{'onnx.MaxPool' op expects 'storage_order' 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, storage_order = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @globalpool_c1(%x: tensor<3x8xf32>) -> tensor<3x8xf32> {
  // expected-error @+2 {{'onnx.GlobalAveragePool' op expects X of rank 3 or more (got 'tensor<3x8xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GlobalAveragePool %x : (tensor<3x8xf32>) -> tensor<3x8xf32>
  return %0 : tensor<3x8xf32>
}

// -----

func.func @batchnorm_c1(%x: tensor<1x4x8x8xf32>, %p: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+2 {{'onnx.BatchNormalization' op expects 'training_mode' 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BatchNormalization %x, %p, %p, %p, %p {training_mode = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @batchnorm_c2(%x: tensor<4xf32>, %p: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.BatchNormalization' op expects X of rank 2 or more}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BatchNormalization %x, %p, %p, %p, %p : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @batchnorm_c3(%x: tensor<1x4x8x8xf32>, %p: tensor<4xf32>, %v: tensor<3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+2 {{'onnx.BatchNormalization' op expects 1-D parameters of size C (got 'tensor<3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BatchNormalization %x, %p, %p, %p, %v : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @softmax_c1(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  // expected-error @+2 {{'onnx.Softmax' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Softmax %x {axis = 2 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

func.func @layernorm_c1(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> tensor<2x8xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.LayerNormalization' op expects 'axis' in [-2, 2) (got -3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = onnx.LayerNormalization %x, %s, %none {axis = -3 : i64} : (tensor<2x8xf32>, tensor<8xf32>, none) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x8xf32>
}

// -----

func.func @layernorm_c2(%x: tensor<2x8xf32>, %s: tensor<8xf32>) -> tensor<2x8xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.LayerNormalization' op expects a float 'stash_type' (got 7)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = onnx.LayerNormalization %x, %s, %none {stash_type = 7 : i64} : (tensor<2x8xf32>, tensor<8xf32>, none) -> (tensor<2x8xf32>, tensor<2x1xf32>, tensor<2x1xf32>)
  return %0#0 : tensor<2x8xf32>
}

// -----

func.func @logsoftmax_c1(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  // expected-error @+2 {{'onnx.LogSoftmax' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.LogSoftmax %x {axis = 2 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

func.func @hardmax_c1(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  // expected-error @+2 {{'onnx.Hardmax' op expects 'axis' in [-2, 2) (got -3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Hardmax %x {axis = -3 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %0 : tensor<2x10xf32>
}

// -----

func.func @lpnorm_c1(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.LpNormalization' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.LpNormalization %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @lpnorm_c2(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.LpNormalization' op expects 'p' to be 1 or 2 (got 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.LpNormalization %x {p = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @mvn_c1(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.MeanVarianceNormalization' op has invalid 'axes' for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MeanVarianceNormalization %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @loss_c1(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> tensor<f32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NegativeLogLikelihoodLoss' op has unknown reduction 'max'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none {reduction = "max"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @loss_c2(%x: tensor<3x5xf32>, %t: tensor<3x5xi64>) -> tensor<f32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.SoftmaxCrossEntropyLoss' op expects an input [N, C, d1, ..., dk] and a target [N, d1, ..., dk] (got 'tensor<3x5xf32>' and 'tensor<3x5xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.SoftmaxCrossEntropyLoss %x, %t, %none : (tensor<3x5xf32>, tensor<3x5xi64>, none) -> (tensor<f32>, tensor<3x5xf32>)
  return %0#0 : tensor<f32>
}

// -----

func.func @loss_c3(%x: tensor<3x5x2xf32>, %t: tensor<3x4xi64>) -> tensor<f32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NegativeLogLikelihoodLoss' op expects the target's dims to match the input's (got 'tensor<3x5x2xf32>' and 'tensor<3x4xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %none : (tensor<3x5x2xf32>, tensor<3x4xi64>, none) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @loss_c4(%x: tensor<3x5xf32>, %t: tensor<3xi64>, %w: tensor<4xf32>) -> tensor<f32> {
  // expected-error @+2 {{'onnx.NegativeLogLikelihoodLoss' op expects a 1-D weight of size C (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %w : (tensor<3x5xf32>, tensor<3xi64>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @einsum_c1() -> tensor<f32> {
  // expected-error @+2 {{'onnx.Einsum' op expects at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Einsum {equation = ""} : () -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @einsum_c2(%a: tensor<2x3xf32>, %b: tensor<3x4xf64>) -> tensor<2x4xf32> {
  // expected-error @+2 {{'onnx.Einsum' op expects inputs of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<3x4xf64>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @einsum_c3(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.Einsum' op has an equation 'ijk->i' that has a term 'ijk' for an input of rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Einsum %a {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @einsum_c4(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'onnx.Einsum' op has inputs that disagree on the size of one letter (3 and 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @instancenorm_c1(%x: tensor<2x3xf32>, %p: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.InstanceNormalization' op expects an input of rank 3 or more (got 'tensor<2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.InstanceNormalization %x, %p, %p : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @instancenorm_c2(%x: tensor<2x3x4xf32>, %p: tensor<3xf32>, %q: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{'onnx.InstanceNormalization' op expects scale and B of shape [C] (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.InstanceNormalization %x, %p, %q : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @instancenorm_c3(%x: tensor<2x3x4xf32>, %p: tensor<3xf16>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{'onnx.InstanceNormalization' op expects scale and B of the input's element type (got 'f16')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.InstanceNormalization %x, %p, %p : (tensor<2x3x4xf32>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

//===----------------------------------------------------------------------===//
// Tensors and shapes (ShapeTensor.cpp)
//===----------------------------------------------------------------------===//

// -----

// constant_c1 cannot fire from the textual form: the ODS verifier's
// "requires attribute 'value'" comes first.
func.func @constant_c1() -> tensor<2xi64> {
  // expected-error @+1 {{'onnx.Constant' op requires attribute 'value'}}
  %0 = onnx.Constant : () -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @cast_c1(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.Cast' op has unsupported target data type 14}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Cast %x {to = 14 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cast_c2(%x: tensor<4xf32>) -> tensor<4x!onnx.f8E8M0> {
  // expected-error @+2 {{'onnx.Cast' op expects 'round_mode' up, down or nearest (got 'even')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Cast %x {to = 24 : i64, round_mode = "even"} : (tensor<4xf32>) -> tensor<4x!onnx.f8E8M0>
  return %0 : tensor<4x!onnx.f8E8M0>
}

// -----

func.func @castlike_c1(%x: tensor<4xf32>, %like: tensor<1x!onnx.f8E8M0>) -> tensor<4x!onnx.f8E8M0> {
  // expected-error @+2 {{'onnx.CastLike' op expects 'round_mode' up, down or nearest (got 'zero')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.CastLike %x, %like {round_mode = "zero"} : (tensor<4xf32>, tensor<1x!onnx.f8E8M0>) -> tensor<4x!onnx.f8E8M0>
  return %0 : tensor<4x!onnx.f8E8M0>
}

// -----

// QuantizeLinear produces no FLOAT8E8M0 (ONNX's type constraint).
func.func @quantize_e8m0(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<!onnx.f8E8M0>) -> tensor<4x!onnx.f8E8M0> {
  // expected-error @+1 {{'onnx.QuantizeLinear' op operand #2 must be}}
  %0 = onnx.QuantizeLinear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<!onnx.f8E8M0>) -> tensor<4x!onnx.f8E8M0>
  return %0 : tensor<4x!onnx.f8E8M0>
}

// -----

func.func @reshape_c1(%x: tensor<2x6xf32>) -> tensor<?x?xf32> {
  %s = onnx.Constant {value = dense<[-1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Reshape' op expects at most one -1 in 'shape'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_c2(%x: tensor<2x6xf32>) -> tensor<2x6x1xf32> {
  %s = onnx.Constant {value = dense<[0, 0, 0]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error @+2 {{'onnx.Reshape' op copies dim 2 (a 0 in 'shape') that the input of rank 2 lacks}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<3xi64>) -> tensor<2x6x1xf32>
  return %0 : tensor<2x6x1xf32>
}

// -----

func.func @reshape_c3(%x: tensor<2x6xf32>) -> tensor<?x3xf32> {
  %s = onnx.Constant {value = dense<[-2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Reshape' op has an invalid size -2 in 'shape'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @reshape_c4(%x: tensor<2x5xf32>) -> tensor<?x3xf32> {
  %s = onnx.Constant {value = dense<[-1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Reshape' op cannot reshape 'tensor<2x5xf32>' to 'shape' [-1, 3]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Reshape %x, %s : (tensor<2x5xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

func.func @reshape_c5(%x: tensor<2x6xf32>) -> tensor<5x2xf32> {
  %s = onnx.Constant {value = dense<[5, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Reshape' op cannot reshape 'tensor<2x6xf32>' (12 elements) to 10 elements}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Reshape %x, %s : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

func.func @flatten_c1(%x: tensor<2x6xf32>) -> tensor<12x1xf32> {
  // expected-error @+2 {{'onnx.Flatten' op expects 'axis' in [-2, 2] (got 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Flatten %x {axis = 3 : i64} : (tensor<2x6xf32>) -> tensor<12x1xf32>
  return %0 : tensor<12x1xf32>
}

// -----

func.func @transpose_c1(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'onnx.Transpose' op expects 'perm' to be a permutation of [0, 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Transpose %x {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @concat_c1() -> tensor<0xf32> {
  // expected-error @+2 {{'onnx.Concat' op expects at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Concat {axis = 0 : i64} : () -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @concat_c2(%a: tensor<2xf32>, %b: tensor<2xi64>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.Concat' op expects inputs of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @concat_c3(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'onnx.Concat' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_c4(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'onnx.Concat' op expects inputs of one rank}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_c5(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<2x6xf32> {
  // expected-error @+2 {{'onnx.Concat' op expects inputs to agree on dim 0 (got 2 and 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @gather_c1(%x: tensor<5x4xf32>, %i: tensor<3xi64>) -> tensor<5x3xf32> {
  // expected-error @+2 {{'onnx.Gather' op expects 'axis' in [-2, 2) (got -3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Gather %x, %i {axis = -3 : i64} : (tensor<5x4xf32>, tensor<3xi64>) -> tensor<5x3xf32>
  return %0 : tensor<5x3xf32>
}

// -----

func.func @squeeze_c1(%x: tensor<1x3xf32>) -> tensor<3xf32> {
  %axes = onnx.Constant {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+2 {{'onnx.Squeeze' op has invalid 'axes' for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Squeeze %x, %axes : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @squeeze_c2(%x: tensor<1x3xf32>) -> tensor<1xf32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+2 {{'onnx.Squeeze' op cannot squeeze dim 1 of size 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Squeeze %x, %axes : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @unsqueeze_c1(%x: tensor<3xf32>) -> tensor<3x1xf32> {
  %axes = onnx.Constant {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Unsqueeze' op has invalid 'axes' for output rank 3}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Unsqueeze %x, %axes : (tensor<3xf32>, tensor<2xi64>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// -----

func.func @expand_c1(%x: tensor<3x2xf32>) -> tensor<3x4xf32> {
  %s = onnx.Constant {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+2 {{'onnx.Expand' op cannot broadcast 'tensor<3x2xf32>' to shape [4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Expand %x, %s : (tensor<3x2xf32>, tensor<1xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @constantofshape_c1(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error @+2 {{'onnx.ConstantOfShape' op expects a one-element 'value'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConstantOfShape %s {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @constantofshape_c2() -> tensor<?x2xf32> {
  %s = onnx.Constant {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.ConstantOfShape' op expects non-negative dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConstantOfShape %s : (tensor<2xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @reduce_c1(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %axes = onnx.Constant {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.ReduceMean' op has invalid 'axes' for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ReduceMean %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_c2(%x: tensor<2x3xf32>, %axes: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.ReduceL1' op has more 'axes' (3) than its input has dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ReduceL1 %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @argreduce_c1(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  // expected-error @+2 {{'onnx.ArgMax' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ArgMax %x {axis = 2 : i64, keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @gatherelements_c1(%x: tensor<2x3xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.GatherElements' op expects data and indices of one rank (got 'tensor<2x3xf32>' and 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GatherElements %x, %i : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gatherelements_c2(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  // expected-error @+2 {{'onnx.GatherElements' op expects 'axis' in [-2, 2) (got -3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GatherElements %x, %i {axis = -3 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @scatterelements_c1(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.ScatterElements' op has unknown reduction 'sub'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterElements %x, %i, %u {reduction = "sub"} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @scatterelements_c2(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf64>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.ScatterElements' op expects data and updates of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterElements %x, %i, %u : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @scatterelements_c3(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.ScatterElements' op expects indices and updates of one shape and of data's rank (got 'tensor<2x3xf32>', 'tensor<2x2xi64>' and 'tensor<2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterElements %x, %i, %u : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @scatterelements_c4(%x: tensor<2x3xf32>, %i: tensor<2x2xi64>, %u: tensor<2x2xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{'onnx.ScatterElements' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterElements %x, %i, %u {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>, tensor<2x2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gathernd_c1(%x: tensor<2x3xf32>, %i: tensor<2x1xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GatherND' op expects batch_dims < rank(indices) and rank(data) (got 2 for 'tensor<2x3xf32>' and 'tensor<2x1xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GatherND %x, %i {batch_dims = 2 : i64} : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gathernd_c2(%x: tensor<2x3xf32>, %i: tensor<4x3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GatherND' op expects batch_dims + indices.shape[-1] <= rank(data) (got 0 and 3 for 'tensor<2x3xf32>' and 'tensor<4x3xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GatherND %x, %i : (tensor<2x3xf32>, tensor<4x3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gathernd_c3(%x: tensor<2x3x4xf32>, %i: tensor<3x1xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GatherND' op expects data and indices to agree on the batch dims (got 'tensor<2x3x4xf32>' and 'tensor<3x1xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GatherND %x, %i {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @scatternd_c1(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'onnx.ScatterND' op has unknown reduction 'sum'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterND %x, %i, %u {reduction = "sum"} : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatternd_c2(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xi32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'onnx.ScatterND' op expects data and updates of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterND %x, %i, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xi32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatternd_c3(%x: tensor<4x4xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'onnx.ScatterND' op expects indices with a last dim of at most rank(data) (got 'tensor<2x3xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterND %x, %i, %u : (tensor<4x4xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatternd_c4(%x: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x5xf32>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'onnx.ScatterND' op expects updates of shape indices.shape[:-1] + data.shape[indices.shape[-1]:] (got 'tensor<2x5xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ScatterND %x, %i, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x5xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @trilu_c1(%x: tensor<4xf32>) -> tensor<4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Trilu' op expects an input of rank 2 or more (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Trilu %x, %none : (tensor<4xf32>, none) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @trilu_c2(%x: tensor<4x4xf32>, %k: tensor<2xi64>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'onnx.Trilu' op expects a scalar 'k' (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Trilu %x, %k : (tensor<4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @range_c1(%s: tensor<f32>, %l: tensor<f64>) -> tensor<?xf32> {
  // expected-error @+2 {{'onnx.Range' op expects start, limit and delta to be scalars of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Range %s, %l, %s : (tensor<f32>, tensor<f64>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @range_c2() -> tensor<?xi64> {
  %c = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+2 {{'onnx.Range' op has a zero delta}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Range %c, %c, %c : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @cumulative_c1(%x: tensor<4xf32>, %a: tensor<2xi64>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.CumProd' op expects a scalar 'axis' (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.CumProd %x, %a : (tensor<4xf32>, tensor<2xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cumulative_c2(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = onnx.Constant {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+2 {{'onnx.CumSum' op expects 'axis' in [-1, 1) (got 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.CumSum %x, %a : (tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tensorscatter_c1(%c: tensor<2x4x5xf32>, %u: tensor<2x1x5xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.TensorScatter' op expects 'mode' to be "linear" or "circular" (got "ring")}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TensorScatter %c, %u, %none {mode = "ring"} : (tensor<2x4x5xf32>, tensor<2x1x5xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensorscatter_c2(%c: tensor<2x4x5xf32>, %u: tensor<2x1x5xf16>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.TensorScatter' op expects past_cache and update of one element type (got 'f32' and 'f16')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TensorScatter %c, %u, %none : (tensor<2x4x5xf32>, tensor<2x1x5xf16>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensorscatter_c3(%c: tensor<2x4x5xf32>, %u: tensor<2x1x5xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.TensorScatter' op expects 'axis' in [-2, 0) or [1, 3) (got 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TensorScatter %c, %u, %none {axis = 0 : i64} : (tensor<2x4x5xf32>, tensor<2x1x5xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensorscatter_c4(%c: tensor<2x4x5xf32>, %u: tensor<1x5xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.TensorScatter' op expects update of the rank of past_cache (got 'tensor<1x5xf32>' and 'tensor<2x4x5xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TensorScatter %c, %u, %none : (tensor<2x4x5xf32>, tensor<1x5xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensorscatter_c5(%c: tensor<2x4x5xf32>, %u: tensor<2x5x5xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.TensorScatter' op expects update 'tensor<2x5x5xf32>' to fit past_cache 'tensor<2x4x5xf32>' at dim 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TensorScatter %c, %u, %none : (tensor<2x4x5xf32>, tensor<2x5x5xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @tensorscatter_c6(%c: tensor<2x4x5xf32>, %u: tensor<2x1x5xf32>, %i: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.TensorScatter' op expects write_indices of one index per batch entry (got 'tensor<3xi64>' for 'tensor<2x4x5xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TensorScatter %c, %u, %i : (tensor<2x4x5xf32>, tensor<2x1x5xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @bitcast_c1(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.BitCast' op has unsupported target data type 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BitCast %x {to = 8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bitcast_c2(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+2 {{'onnx.BitCast' op expects types of one bit width (got 'f32' and 'i64')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BitCast %x {to = 7 : i64} : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @split_c1(%x: tensor<6xf32>) -> tensor<6xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Split' op expects either 'split' or 'num_outputs'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Split %x, %none : (tensor<6xf32>, none) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @split_c2(%x: tensor<6xf32>, %s: tensor<?xi64>) -> tensor<6xf32> {
  // expected-error @+2 {{'onnx.Split' op needs a 'split' of static length or a positive 'num_outputs' to know its outputs}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Split %x, %s : (tensor<6xf32>, tensor<?xi64>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @split_c5(%x: tensor<6xf32>, %none: none) -> tensor<6xf32> {
  // expected-error @+2 {{'onnx.Split' op has 1099511627776 outputs, more than onnxc supports (65536)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Split %x, %none {num_outputs = 1099511627776 : i64} : (tensor<6xf32>, none) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @split_c3(%x: tensor<6xf32>) -> tensor<3xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Split' op expects 'axis' in [-1, 1) (got 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.Split %x, %none {axis = 1 : i64, num_outputs = 2 : i64} : (tensor<6xf32>, none) -> (tensor<3xf32>, tensor<3xf32>)
  return %0#0 : tensor<3xf32>
}

// -----

func.func @split_c4(%x: tensor<6xf32>) -> tensor<4xf32> {
  %s = onnx.Constant {value = dense<[4, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Split' op expects non-negative 'split' sizes that add up to 6 (got 8)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.Split %x, %s : (tensor<6xf32>, tensor<2xi64>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

func.func @tile_c1(%x: tensor<2x3xf32>, %r: tensor<3xi64>) -> tensor<?x?xf32> {
  // expected-error @+2 {{'onnx.Tile' op expects one repeat per dim (got 3 for rank 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Tile %x, %r : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @tile_c2(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %r = onnx.Constant {value = dense<[1, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Tile' op expects non-negative repeats}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Tile %x, %r : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @pad_c1(%x: tensor<2x3xf32>, %p: tensor<4xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Pad' op has unsupported mode 'mirror'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Pad %x, %p, %none, %none {mode = "mirror"} : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @pad_c2(%x: tensor<2x3xf32>, %p: tensor<4xi64>, %v: tensor<i32>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Pad' op expects a one-element 'constant_value' of the data's element type (got 'tensor<i32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Pad %x, %p, %v, %none : (tensor<2x3xf32>, tensor<4xi64>, tensor<i32>, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @pad_c3(%x: tensor<2x3xf32>, %p: tensor<2xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %axes = onnx.Constant {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+2 {{'onnx.Pad' op has an axis out of range for rank 2}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Pad %x, %p, %none, %axes : (tensor<2x3xf32>, tensor<2xi64>, none, tensor<1xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @pad_c4(%x: tensor<2x3xf32>, %p: tensor<2xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Pad' op expects 2 pads per padded axis (got 2 for 2 axes)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Pad %x, %p, %none, %none : (tensor<2x3xf32>, tensor<2xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @pad_c5(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %p = onnx.Constant {value = dense<[0, -2, 0, -2]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+2 {{'onnx.Pad' op crops dim 1 below zero}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Pad %x, %p, %none, %none : (tensor<2x3xf32>, tensor<4xi64>, none, none) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @onehot_c1(%i: tensor<3xi64>, %d: tensor<f32>, %v: tensor<3xf32>) -> tensor<3x?xf32> {
  // expected-error @+2 {{'onnx.OneHot' op expects a one-element 'depth' and two 'values'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.OneHot %i, %d, %v : (tensor<3xi64>, tensor<f32>, tensor<3xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

func.func @onehot_c2(%i: tensor<3xi64>, %d: tensor<f32>, %v: tensor<2xf32>) -> tensor<3x?xf32> {
  // expected-error @+2 {{'onnx.OneHot' op expects 'axis' in [-2, 1] (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.OneHot %i, %d, %v {axis = 2 : i64} : (tensor<3xi64>, tensor<f32>, tensor<2xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

func.func @onehot_c3(%i: tensor<3xi64>, %v: tensor<2xf32>) -> tensor<3x?xf32> {
  %d = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+2 {{'onnx.OneHot' op expects a positive 'depth' (got 0}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.OneHot %i, %d, %v : (tensor<3xi64>, tensor<i64>, tensor<2xf32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// -----

func.func @eyelike_c1(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+2 {{'onnx.EyeLike' op expects a 2-D input (got 'tensor<3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.EyeLike %x : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @eyelike_c2(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'onnx.EyeLike' op has unsupported 'dtype' 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.EyeLike %x {dtype = 8 : i64} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @topk_c1(%x: tensor<3x4xf32>, %k: tensor<2xi64>) -> tensor<3x?xf32> {
  // expected-error @+2 {{'onnx.TopK' op expects a one-element 'K' (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.TopK %x, %k : (tensor<3x4xf32>, tensor<2xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  return %0#0 : tensor<3x?xf32>
}

// -----

func.func @topk_c2(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> tensor<3x?xf32> {
  // expected-error @+2 {{'onnx.TopK' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.TopK %x, %k {axis = 2 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  return %0#0 : tensor<3x?xf32>
}

// -----

func.func @topk_c3(%x: tensor<3x4xf32>) -> tensor<3x?xf32> {
  %k = onnx.Constant {value = dense<5> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error @+2 {{'onnx.TopK' op expects 'K' in [0, 4] (got 5)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.TopK %x, %k : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  return %0#0 : tensor<3x?xf32>
}

// -----

func.func @blocks_c1(%x: tensor<1x8x2x3xf32>) -> tensor<1x8x2x3xf32> {
  // expected-error @+2 {{'onnx.SpaceToDepth' op expects a positive 'blocksize' (got 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SpaceToDepth %x {blocksize = 0 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x8x2x3xf32>
  return %0 : tensor<1x8x2x3xf32>
}

// -----

func.func @blocks_c2(%x: tensor<8x2x3xf32>) -> tensor<2x4x6xf32> {
  // expected-error @+2 {{'onnx.DepthToSpace' op expects a 4-D input (got 'tensor<8x2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64} : (tensor<8x2x3xf32>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// -----

func.func @blocks_c3(%x: tensor<1x6x2x3xf32>) -> tensor<1x1x4x6xf32> {
  // expected-error @+2 {{'onnx.DepthToSpace' op expects channels divisible by blocksize^2 (got 6 and 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64} : (tensor<1x6x2x3xf32>) -> tensor<1x1x4x6xf32>
  return %0 : tensor<1x1x4x6xf32>
}

// -----

func.func @blocks_c4(%x: tensor<1x2x4x5xf32>) -> tensor<1x8x2x2xf32> {
  // expected-error @+2 {{'onnx.SpaceToDepth' op expects height and width divisible by blocksize (got 4, 5 and 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SpaceToDepth %x {blocksize = 2 : i64} : (tensor<1x2x4x5xf32>) -> tensor<1x8x2x2xf32>
  return %0 : tensor<1x8x2x2xf32>
}

// -----

func.func @depthtospace_c1(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  // expected-error @+2 {{'onnx.DepthToSpace' op has unknown mode 'RCD'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DepthToSpace %x {blocksize = 2 : i64, mode = "RCD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

//===----------------------------------------------------------------------===//
// Declared result types that disagree with the inferred ones
//===----------------------------------------------------------------------===//

// -----

func.func @incompatible_result(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'onnx.Relu' op requires the same type for all operands and results}}
  %0 = onnx.Relu %a : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @incompatible_inferred(%a: tensor<2x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{'onnx.Add' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Add %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @incompatible_element(%a: tensor<?x3xi64>) -> tensor<?x3xi64> {
  // expected-error @+2 {{'onnx.Cast' op inferred type(s) 'tensor<?x3xf32>' are incompatible with return type(s) of operation 'tensor<?x3xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Cast %a {to = 1 : i64} : (tensor<?x3xi64>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @rnn_c1(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op has unknown direction 'sideways' (expected forward, reverse or bidirectional)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64, direction = "sideways"} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c2(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects 'layout' 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64, layout = 2 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c3(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects 1 activations (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64, activations = ["Tanh", "Tanh"]} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c4(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op has unknown activation 'Swish'}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64, activations = ["Swish"]} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c5(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf16>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects X, W and R of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf16>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c6(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects a positive 'hidden_size' (got 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 0 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c7(%x: tensor<5x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects X of rank 3 (got 'tensor<5x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c8(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x5xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects R dim 2 to be hidden_size (got 5 and 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x5xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c9(%x: tensor<5x2x3xf32>, %w: tensor<2x4x3xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects W of shape [1, 1 * hidden_size, ...] (got 'tensor<2x4x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<2x4x3xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c10(%x: tensor<5x2x3xf32>, %w: tensor<1x4x6xf32>, %r: tensor<1x4x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects W dim 2 to be the input size (got 6 and 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x6xf32>, tensor<1x4x4xf32>, none, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c11(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects B of shape [1, 2 * 1 * hidden_size] (got 'tensor<1x4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %b, %none, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>, none, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @rnn_c12(%x: tensor<5x2x3xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %l: tensor<2xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.RNN' op expects integer sequence_lens of rank 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %l, %none {hidden_size = 4 : i64} : (tensor<5x2x3xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, none, tensor<2xf32>, none) -> (tensor<5x1x2x4xf32>, tensor<1x2x4xf32>)
  return %h : tensor<1x2x4xf32>
}

// -----

func.func @lstm_c1(%x: tensor<1x2x4xf32>, %w: tensor<1x12x4xf32>, %r: tensor<1x12x3xf32>, %p: tensor<1x4xf32>) -> tensor<1x2x3xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.LSTM' op expects P of shape [num_directions, 3 * hidden_size] (got 'tensor<1x4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %h, %c = onnx.LSTM %x, %w, %r, %none, %none, %none, %none, %p {hidden_size = 3 : i64} : (tensor<1x2x4xf32>, tensor<1x12x4xf32>, tensor<1x12x3xf32>, none, none, none, none, tensor<1x4xf32>) -> (tensor<1x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>)
  return %h : tensor<1x2x3xf32>
}

// -----

func.func @quant_c1(%x: tensor<2x3xf32>, %s: tensor<1x3xf32>) -> tensor<2x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects y's scale to be a scalar or 1-D (got 'tensor<1x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %none : (tensor<2x3xf32>, tensor<1x3xf32>, none) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @quant_c2(%x: tensor<2x3xf32>, %s: tensor<3xf32>) -> tensor<2x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %none {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>, none) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @quant_c3(%x: tensor<2x3xf32>, %s: tensor<4xf32>) -> tensor<2x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects a per-axis scale of 3 elements (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %none : (tensor<2x3xf32>, tensor<4xf32>, none) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @quant_c4(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<3xi8>) -> tensor<2x3xi8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects y's zero point of its scale's shape (got 'tensor<3xi8>' and 'tensor<f32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<3xi8>) -> tensor<2x3xi8>
  return %0 : tensor<2x3xi8>
}

// -----

func.func @quant_c5(%x: tensor<2x4xf32>, %s: tensor<2x2xf32>) -> tensor<2x4xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects a non-negative 'block_size' (got -2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %none {block_size = -2 : i64} : (tensor<2x4xf32>, tensor<2x2xf32>, none) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @quant_c6(%x: tensor<2x5xi8>, %s: tensor<2x2xf32>, %z: tensor<2x2xi8>) -> tensor<2x5xf32> {
  // expected-error @+2 {{'onnx.DequantizeLinear' op expects x's blocked scale and zero point of shape [2, 3] for block_size 2 (got 'tensor<2x2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DequantizeLinear %x, %s, %z {block_size = 2 : i64} : (tensor<2x5xi8>, tensor<2x2xf32>, tensor<2x2xi8>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @quant_c6_zero_point(%x: tensor<2x5xf32>, %s: tensor<2x3xf32>, %z: tensor<i8>) -> tensor<2x5xi8> {
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects y's blocked scale and zero point of shape [2, 3] for block_size 2 (got 'tensor<i8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %z {block_size = 2 : i64} : (tensor<2x5xf32>, tensor<2x3xf32>, tensor<i8>) -> tensor<2x5xi8>
  return %0 : tensor<2x5xi8>
}

// -----

func.func @quant_c2_blocked(%x: tensor<2x4xf32>, %s: tensor<2x2xf32>) -> tensor<2x4xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QuantizeLinear' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QuantizeLinear %x, %s, %none {axis = 2 : i64, block_size = 2 : i64} : (tensor<2x4xf32>, tensor<2x2xf32>, none) -> tensor<2x4xui8>
  return %0 : tensor<2x4xui8>
}

// -----

func.func @dequant_c1(%x: tensor<4xui8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DequantizeLinear' op expects x and x_zero_point of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @qmatmul_c1(%a: tensor<3xi8>, %b: tensor<3x2xi8>) -> tensor<2xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MatMulInteger' op expects operands of rank 2 or more (got 'tensor<3xi8>' and 'tensor<3x2xi8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMulInteger %a, %b, %none, %none : (tensor<3xi8>, tensor<3x2xi8>, none, none) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @qmatmul_c2(%a: tensor<4x3xi8>, %b: tensor<5x2xi8>) -> tensor<4x2xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MatMulInteger' op expects matching contraction dims (got 'tensor<4x3xi8>' and 'tensor<5x2xi8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMulInteger %a, %b, %none, %none : (tensor<4x3xi8>, tensor<5x2xi8>, none, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @qmatmul_c3(%a: tensor<2x4x3xi8>, %b: tensor<3x3x2xi8>) -> tensor<3x4x2xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MatMulInteger' op expects broadcastable batch dims (got 'tensor<2x4x3xi8>' and 'tensor<3x3x2xi8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMulInteger %a, %b, %none, %none : (tensor<2x4x3xi8>, tensor<3x3x2xi8>, none, none) -> tensor<3x4x2xi32>
  return %0 : tensor<3x4x2xi32>
}

// -----

func.func @qmatmul_c4(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %za: tensor<i8>) -> tensor<4x2xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MatMulInteger' op expects a_zero_point of its operand's element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMulInteger %a, %b, %za, %none : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<i8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @qmatmul_c5(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %za: tensor<3xui8>) -> tensor<4x2xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MatMulInteger' op expects a_zero_point to be a scalar or 1-D of 4 elements (got 'tensor<3xui8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MatMulInteger %a, %b, %za, %none : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<3xui8>, none) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

func.func @qlinearmatmul_c1(%a: tensor<2x4xui8>, %s: tensor<1x1xf32>, %z: tensor<ui8>, %b: tensor<4x3xui8>) -> tensor<2x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QLinearMatMul' op expects scales of rank 0 or 1 (got 'tensor<1x1xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QLinearMatMul %a, %s, %z, %b, %s, %z, %s, %z : (tensor<2x4xui8>, tensor<1x1xf32>, tensor<ui8>, tensor<4x3xui8>, tensor<1x1xf32>, tensor<ui8>, tensor<1x1xf32>, tensor<ui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

func.func @qconv_c1(%x: tensor<1x4x5xui8>, %w: tensor<2x4x3xui8>) -> tensor<1x2x3xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects X and W of rank 4 (got 'tensor<1x4x5xui8>' and 'tensor<2x4x3xui8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %none, %none  : (tensor<1x4x5xui8>, tensor<2x4x3xui8>, none, none) -> tensor<1x2x3xi32>
  return %0 : tensor<1x2x3xi32>
}

// -----

func.func @qconv_c2(%x: tensor<1x4x5x5xui8>, %w: tensor<2x4x3x3xui8>) -> tensor<1x2x3x3xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects 'group' to divide input channels and filters into W's dim 1 (got 3, 'tensor<1x4x5x5xui8>' and 'tensor<2x4x3x3xui8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %none, %none {group = 3 : i64} : (tensor<1x4x5x5xui8>, tensor<2x4x3x3xui8>, none, none) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @qconv_c3(%x: tensor<1x4x5x5xui8>, %w: tensor<2x4x3x3xui8>) -> tensor<1x2x3x3xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects 'kernel_shape' to match W's spatial dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %none, %none {kernel_shape = array<i64: 2, 2>} : (tensor<1x4x5x5xui8>, tensor<2x4x3x3xui8>, none, none) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @qconv_c4(%x: tensor<1x4x5x5xui8>, %w: tensor<2x4x?x?xui8>) -> tensor<1x2x5x5xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects static kernel dims with auto_pad SAME_UPPER}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %none, %none {auto_pad = "SAME_UPPER"} : (tensor<1x4x5x5xui8>, tensor<2x4x?x?xui8>, none, none) -> tensor<1x2x5x5xi32>
  return %0 : tensor<1x2x5x5xi32>
}

// -----

func.func @qconv_c5(%x: tensor<1x4x5x5xui8>, %w: tensor<2x4x3x3xui8>, %zw: tensor<2x1xui8>) -> tensor<1x2x3x3xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects w_zero_point to be a scalar or 1-D (got 'tensor<2x1xui8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %none, %zw  : (tensor<1x4x5x5xui8>, tensor<2x4x3x3xui8>, none, tensor<2x1xui8>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @qconv_c6(%x: tensor<1x4x5x5xui8>, %w: tensor<2x4x3x3xui8>, %zw: tensor<3xui8>) -> tensor<1x2x3x3xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects a per-channel w_zero_point of 2 elements (got 'tensor<3xui8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %none, %zw  : (tensor<1x4x5x5xui8>, tensor<2x4x3x3xui8>, none, tensor<3xui8>) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @convinteger_c1(%x: tensor<1x4x5x5xui8>, %w: tensor<2x4x3x3xui8>, %zx: tensor<2xui8>) -> tensor<1x2x3x3xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvInteger' op expects a scalar x_zero_point (got 'tensor<2xui8>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvInteger %x, %w, %zx, %none  : (tensor<1x4x5x5xui8>, tensor<2x4x3x3xui8>, tensor<2xui8>, none) -> tensor<1x2x3x3xi32>
  return %0 : tensor<1x2x3x3xi32>
}

// -----

func.func @qlinearconv_c1(%x: tensor<1x4x5x5xui8>, %xs: tensor<2xf32>, %z: tensor<ui8>, %w: tensor<2x4x3x3xi8>, %ws: tensor<f32>, %zw: tensor<i8>) -> tensor<1x2x3x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QLinearConv' op expects scalar x and y scales and zero points (got 'tensor<2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QLinearConv %x, %xs, %z, %w, %ws, %zw, %xs, %z, %none : (tensor<1x4x5x5xui8>, tensor<2xf32>, tensor<ui8>, tensor<2x4x3x3xi8>, tensor<f32>, tensor<i8>, tensor<2xf32>, tensor<ui8>, none) -> tensor<1x2x3x3xui8>
  return %0 : tensor<1x2x3x3xui8>
}

// -----

func.func @qlinearconv_c2(%x: tensor<1x4x5x5xui8>, %xs: tensor<f32>, %z: tensor<ui8>, %w: tensor<2x4x3x3xi8>, %ws: tensor<3xf32>, %zw: tensor<i8>) -> tensor<1x2x3x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QLinearConv' op expects w_scale to be a scalar or per output channel (got 'tensor<3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QLinearConv %x, %xs, %z, %w, %ws, %zw, %xs, %z, %none : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<2x4x3x3xi8>, tensor<3xf32>, tensor<i8>, tensor<f32>, tensor<ui8>, none) -> tensor<1x2x3x3xui8>
  return %0 : tensor<1x2x3x3xui8>
}

// -----

func.func @qlinearconv_c3(%x: tensor<1x4x5x5xui8>, %xs: tensor<f32>, %z: tensor<ui8>, %w: tensor<2x4x3x3xi8>, %ws: tensor<f32>, %zw: tensor<i8>, %b: tensor<3xi32>) -> tensor<1x2x3x3xui8> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.QLinearConv' op expects B of shape [M] (got 'tensor<3xi32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.QLinearConv %x, %xs, %z, %w, %ws, %zw, %xs, %z, %b : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<2x4x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x2x3x3xui8>
  return %0 : tensor<1x2x3x3xui8>
}

// -----

func.func @resize_c1(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op has unknown mode 'area'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none {mode = "area"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c2(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op has unknown coordinate_transformation_mode 'center'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none {coordinate_transformation_mode = "center"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c3(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op has unknown nearest_mode 'round'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none {nearest_mode = "round"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c4(%x: tensor<1x1x2x2xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects scales or sizes}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %none, %none : (tensor<1x1x2x2xf32>, none, none, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c5(%x: tensor<1x1x2x2xf32>, %s: tensor<4xi64>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects floating-point scales}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none : (tensor<1x1x2x2xf32>, none, tensor<4xi64>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c6(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects a floating-point roi with tf_crop_and_resize}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c7(%x: tensor<1x1x2x2xf32>, %s: tensor<3xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects scales to hold 4 values (got 'tensor<3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none : (tensor<1x1x2x2xf32>, none, tensor<3xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// With both, each holds a value per dim.
func.func @resize_c7_both(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>, %z: tensor<2xi64>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects sizes to hold 4 values (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %z : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, tensor<2xi64>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c8(%x: tensor<1x1x2x2xf32>, %roi: tensor<4xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects roi to hold 8 values (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %roi, %s, %none {coordinate_transformation_mode = "tf_crop_and_resize"} : (tensor<1x1x2x2xf32>, tensor<4xf32>, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c9(%x: tensor<1x1x2x2xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %z = onnx.Constant {value = dense<[1, 1, -2, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+2 {{'onnx.Resize' op expects non-negative sizes}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %none, %z : (tensor<1x1x2x2xf32>, none, none, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c10(%x: tensor<1x1x2x2xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %s = onnx.Constant {value = dense<[1.0, 1.0, 0.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error @+2 {{'onnx.Resize' op expects positive scales}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c11(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects antialias 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none {antialias = 2 : i64, mode = "linear"} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @resize_c12(%x: tensor<1x1x2x2xf32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.Resize' op expects antialias only with mode 'linear' or 'cubic'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Resize %x, %none, %s, %none {antialias = 1 : i64} : (tensor<1x1x2x2xf32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @convtranspose_c1(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects 'strides' to have 2 values (got 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {strides = array<i64: 2>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c2(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects positive kernel_shape, strides and dilations}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {dilations = array<i64: 0, 1>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c3(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects non-negative pads and output_padding, and a positive output_shape}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {output_padding = array<i64: -1, 0>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c4(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op has unknown auto_pad 'SAME'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {auto_pad = "SAME"} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c5(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op has pads that leave no output (8 pads for 6 elements)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {pads = array<i64: 4, 4, 4, 4>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c6(%x: tensor<1x2x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects X and W of one rank, at least 3 (got 'tensor<1x2x4xf32>' and 'tensor<2x3x3x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {} : (tensor<1x2x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c7(%x: tensor<1x2x4x4xf32>, %w: tensor<3x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects W dim 0 to be the input channels and 'group' to divide them (got 3, 2 and group 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {} : (tensor<1x2x4x4xf32>, tensor<3x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c8(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects 'kernel_shape' to match W's spatial dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %none {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @convtranspose_c9(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.ConvTranspose' op expects B of shape [3] (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConvTranspose %x, %w, %b {} : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>, tensor<4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c1(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op has unknown mode 'linear'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g {mode = "linear"} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c2(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op has unknown padding_mode 'edge'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g {padding_mode = "edge"} : (tensor<1x1x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c3(%x: tensor<1x1x4x4xf32>, %g: tensor<1x2x2x3xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op expects X [N, C, H, W] and grid [N, H_out, W_out, 2], or X [N, C, D, H, W] and grid [N, D_out, H_out, W_out, 3] (got 'tensor<1x1x4x4xf32>' and 'tensor<1x2x2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g : (tensor<1x1x4x4xf32>, tensor<1x2x2x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c4(%x: tensor<2x1x4x4xf32>, %g: tensor<3x2x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op expects X and grid of one batch size (got 2 and 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g : (tensor<2x1x4x4xf32>, tensor<3x2x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c3_volumetric(%x: tensor<1x1x2x4x4xf32>, %g: tensor<1x2x2x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op expects X [N, C, H, W] and grid [N, H_out, W_out, 2], or X [N, C, D, H, W] and grid [N, D_out, H_out, W_out, 3] (got 'tensor<1x1x2x4x4xf32>' and 'tensor<1x2x2x2x2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g : (tensor<1x1x2x4x4xf32>, tensor<1x2x2x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c3_rank(%x: tensor<1x1x2x2x4x4xf32>, %g: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op expects X [N, C, H, W] and grid [N, H_out, W_out, 2], or X [N, C, D, H, W] and grid [N, D_out, H_out, W_out, 3] (got 'tensor<1x1x2x2x4x4xf32>' and 'tensor<*xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g : (tensor<1x1x2x2x4x4xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gridsample_c5(%x: tensor<1x1x2x4x4xf32>, %g: tensor<1x2x2x2xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.GridSample' op expects X and grid of one rank (got 5 and 4)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.GridSample %x, %g : (tensor<1x1x2x4x4xf32>, tensor<1x2x2x2xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_c1(%x: tensor<5x15xf32>, %s: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.Col2Im' op expects input [N, C * prod(block_shape), L] (got 'tensor<5x15xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Col2Im %x, %s, %s : (tensor<5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_c2(%x: tensor<1x5x15xf32>, %s: tensor<2xi64>, %b: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.Col2Im' op expects image_shape and block_shape 1-D of one length (got 'tensor<2xi64>' and 'tensor<3xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Col2Im %x, %s, %b : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_c3(%x: tensor<1x5x15xf32>, %s: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.Col2Im' op expects positive 'dilations' and 'strides' of one value per spatial dim and non-negative 'pads' of two (2 spatial dims)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Col2Im %x, %s, %s {pads = array<i64: 1, 1>} : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_c4(%x: tensor<1x5x15xf32>, %s: tensor<2xi64>) -> tensor<*xf32> {
  %b = onnx.Constant {value = dense<[0, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Col2Im' op expects positive image_shape and block_shape}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Col2Im %x, %s, %b : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_c5(%x: tensor<1x6x15xf32>, %s: tensor<2xi64>) -> tensor<*xf32> {
  %b = onnx.Constant {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Col2Im' op expects input dim 1 (6) to be a multiple of the block size 5}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Col2Im %x, %s, %b : (tensor<1x6x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @col2im_c6(%x: tensor<1x5x16xf32>) -> tensor<*xf32> {
  %s = onnx.Constant {value = dense<5> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = onnx.Constant {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error @+2 {{'onnx.Col2Im' op expects input dim 2 (16) to be the number of sliding blocks, 5}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Col2Im %x, %s, %b : (tensor<1x5x16xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c1(%x: tensor<1x1x3xf32>, %w: tensor<1x1x2xf32>, %o: tensor<1x4x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects X and W of rank 4 (got 'tensor<1x1x3xf32>' and 'tensor<1x1x2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %none : (tensor<1x1x3xf32>, tensor<1x1x2xf32>, tensor<1x4x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c2(%x: tensor<1x3x3x3xf32>, %w: tensor<1x3x2x2xf32>, %o: tensor<1x16x2x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects 'group' to divide input channels and filters and 'offset_group' to divide input channels (got 1, 2, 3 and 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %none {offset_group = 2 : i64} : (tensor<1x3x3x3xf32>, tensor<1x3x2x2xf32>, tensor<1x16x2x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c3(%x: tensor<1x2x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects W dim 1 to be channels / group (got 1, expected 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %none : (tensor<1x2x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c4(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects 'kernel_shape' to match W's spatial dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %none {kernel_shape = array<i64: 3, 3>} : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c5(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x?x2xf32>, %o: tensor<1x8x2x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects static kernel dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %none : (tensor<1x1x3x3xf32>, tensor<1x1x?x2xf32>, tensor<1x8x2x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c6(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x8x2x2xf32>, %b: tensor<2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects B of shape [1] (got 'tensor<2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %b, %none : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>, tensor<2xf32>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c7(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x4x2x2xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects offset [1, 8, 2, 2] (got 'tensor<1x4x2x2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %none : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x4x2x2xf32>, none, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @deformconv_c8(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %o: tensor<1x8x2x2xf32>, %m: tensor<1x4x3x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DeformConv' op expects mask [1, 4, 2, 2] (got 'tensor<1x4x3x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DeformConv %x, %w, %o, %none, %m : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>, none, tensor<1x4x3x3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @imagedecoder_c1(%x: tensor<100xui8>) -> tensor<*xui8> {
  // expected-error @+2 {{'onnx.ImageDecoder' op expects a 'pixel_format' of RGB, BGR or Grayscale (got 'RGBA')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ImageDecoder %x {pixel_format = "RGBA"} : (tensor<100xui8>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @imagedecoder_c2(%x: tensor<10x10xui8>) -> tensor<*xui8> {
  // expected-error @+2 {{'onnx.ImageDecoder' op expects a 1-D encoded_stream (got rank 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ImageDecoder %x : (tensor<10x10xui8>) -> tensor<*xui8>
  return %0 : tensor<*xui8>
}

// -----

func.func @affinegrid_c1(%t: tensor<2x2x3xf32>, %s: tensor<4xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.AffineGrid' op expects 'align_corners' to be 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.AffineGrid %t, %s {align_corners = 2 : i64} : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @affinegrid_c2(%t: tensor<2x2x4xf32>, %s: tensor<4xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.AffineGrid' op expects theta [N, 2, 3] or [N, 3, 4] (got 'tensor<2x2x4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.AffineGrid %t, %s : (tensor<2x2x4xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @affinegrid_c3(%t: tensor<2x2x3xf32>, %s: tensor<5xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.AffineGrid' op expects size [N, C, H, W] with theta [N, 2, 3] or [N, C, D, H, W] with theta [N, 3, 4] (got 'tensor<5xi64>' and 'tensor<2x2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.AffineGrid %t, %s : (tensor<2x2x3xf32>, tensor<5xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @affinegrid_c4(%t: tensor<2x2x3xf32>) -> tensor<*xf32> {
  %s = onnx.Constant {value = dense<[3, 1, 4, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+2 {{'onnx.AffineGrid' op expects positive sizes and theta's batch size (got size of N = 3 and theta 'tensor<2x2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.AffineGrid %t, %s : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Data-dependent sizes, windows, random generators, misc (ShapeMisc.cpp)
//===----------------------------------------------------------------------===//

func.func @compress_c1(%x: tensor<3x2xf32>, %c: tensor<3x1xi1>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'onnx.Compress' op expects a 1-D 'condition' (got 'tensor<3x1xi1>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Compress %x, %c {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3x1xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @compress_c2(%x: tensor<3x2xf32>, %c: tensor<3xi1>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'onnx.Compress' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Compress %x, %c {axis = 2 : i64} : (tensor<3x2xf32>, tensor<3xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @compress_c3(%x: tensor<3x2xf32>, %c: tensor<4xi1>) -> tensor<?x2xf32> {
  // expected-error @+2 {{'onnx.Compress' op has a 'condition' longer than dim 0 of the input (4 > 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Compress %x, %c {axis = 0 : i64} : (tensor<3x2xf32>, tensor<4xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

func.func @nonmaxsuppression_c1(%b: tensor<1x6x5xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x3xi64> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NonMaxSuppression' op expects 'boxes' [batch, boxes, 4] and 'scores' [batch, classes, boxes]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %none, %none : (tensor<1x6x5xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nonmaxsuppression_c2(%b: tensor<1x6x4xf32>, %s: tensor<1x1x5xf32>) -> tensor<?x3xi64> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NonMaxSuppression' op has 'boxes' 'tensor<1x6x4xf32>' that do not match 'scores' 'tensor<1x1x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %none, %none : (tensor<1x6x4xf32>, tensor<1x1x5xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nonmaxsuppression_c3(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %t: tensor<2xf32>) -> tensor<?x3xi64> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NonMaxSuppression' op expects one-element thresholds and box count (got 'tensor<2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %t, %none : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, none, tensor<2xf32>, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nonmaxsuppression_c4(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %m: tensor<1xi32>) -> tensor<?x3xi64> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NonMaxSuppression' op expects an int64 'max_output_boxes_per_class'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NonMaxSuppression %b, %s, %m, %none, %none : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, tensor<1xi32>, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @nonmaxsuppression_c5(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>) -> tensor<?x3xi64> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.NonMaxSuppression' op expects 'center_point_box' 0 or 1 (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.NonMaxSuppression %b, %s, %none, %none, %none {center_point_box = 2 : i64} : (tensor<1x6x4xf32>, tensor<1x1x6xf32>, none, none, none) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// -----

func.func @window_c1(%n: tensor<2xi64>) -> tensor<?xf32> {
  // expected-error @+2 {{'onnx.HannWindow' op expects a scalar 'size' (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.HannWindow %n : (tensor<2xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @window_c2(%n: tensor<i64>) -> tensor<?xf32> {
  // expected-error @+2 {{'onnx.BlackmanWindow' op has unsupported 'output_datatype' 9}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.BlackmanWindow %n {output_datatype = 9 : i64} : (tensor<i64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @random_c1() -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.RandomUniform' op expects a float 'dtype' (got 6)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RandomUniform {dtype = 6 : i64, shape = array<i64: 2>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @random_c2() -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.RandomNormal' op expects a non-negative 'shape'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RandomNormal {shape = array<i64: -2>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @random_c3(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.Bernoulli' op has unsupported 'dtype' 8}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Bernoulli %x {dtype = 8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @lrn_c1(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.LRN' op expects an input of rank 2 or more (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.LRN %x {size = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @lrn_c2(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error @+2 {{'onnx.LRN' op expects a positive 'size' (got 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.LRN %x {size = 0 : i64} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @det_c1(%x: tensor<2x3xf32>) -> tensor<f32> {
  // expected-error @+2 {{'onnx.Det' op expects square matrices in the last two dims (got 'tensor<2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Det %x : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reversesequence_c1(%x: tensor<4x4xf32>, %l: tensor<4xi64>) -> tensor<4x4xf32> {
  // expected-error @+2 {{'onnx.ReverseSequence' op expects 'batch_axis' and 'time_axis' 0 and 1 in either order (got 1 and 1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ReverseSequence %x, %l {batch_axis = 1 : i64, time_axis = 1 : i64} : (tensor<4x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @reversesequence_c2(%x: tensor<4xf32>, %l: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+2 {{'onnx.ReverseSequence' op expects an input of rank 2 or more (got 'tensor<4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ReverseSequence %x, %l : (tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @reversesequence_c3(%x: tensor<4x3xf32>, %l: tensor<4xi64>) -> tensor<4x3xf32> {
  // expected-error @+2 {{'onnx.ReverseSequence' op expects 'sequence_lens' of the batch size (got 'tensor<4xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ReverseSequence %x, %l : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @tfidfvectorizer_c1(%x: tensor<1x2x3xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op expects a 1-D or 2-D input (got 'tensor<1x2x3xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6>} : (tensor<1x2x3xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c2(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op expects 1 <= 'min_gram_length' <= 'max_gram_length' and a non-negative 'max_skip_count'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c3(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op has 'ngram_counts' that do not split the pool into n-grams (the 2-grams at [0, 3) of 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0, 0>, ngram_indexes = array<i64: 0>, pool_int64s = array<i64: 5, 6, 7>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c4(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op has 1 'ngram_indexes' for 2 n-grams}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0>, pool_int64s = array<i64: 5, 6>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c5(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op has a negative n-gram index -1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, -1>, pool_int64s = array<i64: 5, 6>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c6(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op expects 'mode' TF, IDF or TFIDF (got 'BM25')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "BM25", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c7(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op needs 'pool_int64s'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @tfidfvectorizer_c8(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{'onnx.TfIdfVectorizer' op has 1 'weights' for 2 n-grams}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.TfIdfVectorizer %x {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TFIDF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 5, 6>, weights = array<f32: 2.0>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unique_c1(%x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+2 {{'onnx.Unique' op expects 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %y, %i, %inv, %c = onnx.Unique %x {axis = 2 : i64} : (tensor<2x3xf32>) -> (tensor<?x3xf32>, tensor<?xi64>, tensor<2xi64>, tensor<?xi64>)
  return %y : tensor<?x3xf32>
}

// -----

func.func @dft_c1(%x: tensor<1x8x1xf32>, %n: tensor<2xi64>) -> tensor<1x8x2xf32> {
  // expected-error @+2 {{'onnx.DFT' op expects a scalar integer 'dft_length' (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DFT %x, %n : (tensor<1x8x1xf32>, tensor<2xi64>) -> tensor<1x8x2xf32>
  return %0 : tensor<1x8x2xf32>
}

// -----

func.func @dft_c2(%x: tensor<1x8x3xf32>) -> tensor<1x8x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DFT' op expects an input whose last dim is 1 (real) or 2 (complex) (got 'tensor<1x8x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DFT %x, %none : (tensor<1x8x3xf32>, none) -> tensor<1x8x2xf32>
  return %0 : tensor<1x8x2xf32>
}

// -----

func.func @dft_c3(%x: tensor<1x8x1xf32>) -> tensor<1x8x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.DFT' op expects 'axis' to name a signal dim (got 2 for rank 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DFT %x, %none {axis = 2 : i64} : (tensor<1x8x1xf32>, none) -> tensor<1x8x2xf32>
  return %0 : tensor<1x8x2xf32>
}

// -----

func.func @dft_c5(%x: tensor<1x8x1xf32>) -> tensor<1x8x2xf32> {
  %n = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  // expected-error @+2 {{'onnx.DFT' op expects a positive 'dft_length' (got 0)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DFT %x, %n : (tensor<1x8x1xf32>, tensor<i64>) -> tensor<1x8x2xf32>
  return %0 : tensor<1x8x2xf32>
}

// -----

func.func @stft_c1(%x: tensor<128x1xf32>, %s: tensor<i64>, %w: tensor<16xf32>) -> tensor<1x?x9x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.STFT' op expects a signal [batch, length, 1 or 2] (got 'tensor<128x1xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.STFT %x, %s, %w, %none : (tensor<128x1xf32>, tensor<i64>, tensor<16xf32>, none) -> tensor<1x?x9x2xf32>
  return %0 : tensor<1x?x9x2xf32>
}

// -----

func.func @stft_c2(%x: tensor<1x128x1xf32>, %s: tensor<2xi64>, %w: tensor<16xf32>) -> tensor<1x?x9x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.STFT' op expects scalar 'frame_step' and 'frame_length'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.STFT %x, %s, %w, %none : (tensor<1x128x1xf32>, tensor<2xi64>, tensor<16xf32>, none) -> tensor<1x?x9x2xf32>
  return %0 : tensor<1x?x9x2xf32>
}

// -----

func.func @stft_c3(%x: tensor<1x128x1xf32>, %s: tensor<i64>, %w: tensor<4x4xf32>) -> tensor<1x?x?x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.STFT' op expects a 1-D 'window' (got 'tensor<4x4xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.STFT %x, %s, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<4x4xf32>, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @stft_c4(%x: tensor<1x128x1xf32>, %s: tensor<i64>) -> tensor<1x?x?x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.STFT' op needs a 'window' or a 'frame_length'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.STFT %x, %s, %none, %none : (tensor<1x128x1xf32>, tensor<i64>, none, none) -> tensor<1x?x?x2xf32>
  return %0 : tensor<1x?x?x2xf32>
}

// -----

func.func @optimizer_c1(%r: tensor<1xf32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %h: tensor<2xf32>) {
  // expected-error @+2 {{'onnx.Adagrad' op expects a scalar 'R' (got 'tensor<1xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.Adagrad %r, %t, %x, %g, %h : (tensor<1xf32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @optimizer_c2(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) {
  // expected-error @+2 {{'onnx.Adam' op expects a positive multiple of 4 tensors after 'R' and 'T' (got 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:3 = onnx.Adam %r, %t, %x, %g, %v : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @optimizer_c3(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<3xf32>, %h: tensor<2xf32>) {
  // expected-error @+2 {{'onnx.Adagrad' op expects input 3 to match input 2 (got 'tensor<3xf32>' and 'tensor<2xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.Adagrad %r, %t, %x, %g, %h : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<3xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @momentum_c1(%r: tensor<f32>, %t: tensor<i64>, %x: tensor<2xf32>, %g: tensor<2xf32>, %v: tensor<2xf32>) {
  // expected-error @+2 {{'onnx.Momentum' op expects 'mode' to be standard or nesterov (got 'heavy')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.Momentum %r, %t, %x, %g, %v {alpha = 0.9 : f32, beta = 0.1 : f32, mode = "heavy", norm_coefficient = 0.0 : f32} : (tensor<f32>, tensor<i64>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

//===----------------------------------------------------------------------===//
// Control flow (ShapeControlFlow.cpp)
//===----------------------------------------------------------------------===//

func.func @if_c1(%c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.If' op then_branch yields 0 values but 1 are expected}}
  %0 = onnx.If %c : (tensor<i1>) -> tensor<2xf32> {
    onnx.Yield
  }, {
    onnx.Yield %a : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @if_c2(%c: tensor<i1>, %a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.If' op else_branch output 0 has type 'tensor<3xf32>', incompatible with 'tensor<2xf32>'}}
  %0 = onnx.If %c : (tensor<i1>) -> tensor<2xf32> {
    onnx.Yield %a : tensor<2xf32>
  }, {
    onnx.Yield %b : tensor<3xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_c1(%m: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) {
  // expected-error @+1 {{'onnx.Loop' op has 0 results but carries 1 values}}
  onnx.Loop %m, %c, %a : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> () {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %ai: tensor<2xf32>):
    onnx.Yield %ci, %ai : tensor<i1>, tensor<2xf32>
  }
  return
}

// -----

func.func @loop_c2(%m: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Loop' op body takes 2 arguments but 3 are expected}}
  %0 = onnx.Loop %m, %c, %a : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    onnx.Yield %ci, %a : tensor<i1>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @loop_c3(%m: tensor<i64>, %c: tensor<i1>, %a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'onnx.Loop' op expects scan output results of rank 1 or more}}
  %0 = onnx.Loop %m, %c : (tensor<i64>, tensor<i1>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>):
    onnx.Yield %ci, %a : tensor<i1>, tensor<f32>
  }
  return %0 : tensor<f32>
}

// -----

func.func @loop_c4(%m: tensor<i64>, %c: tensor<i1>, %a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Loop' op body output 1 has type 'tensor<3xf32>', incompatible with 'tensor<2xf32>'}}
  %0 = onnx.Loop %m, %c, %a : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%i: tensor<i64>, %ci: tensor<i1>, %ai: tensor<2xf32>):
    onnx.Yield %ci, %b : tensor<i1>, tensor<3xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_c1(%s: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op expects 'num_scan_inputs' in [1, 1] (got 2)}}
  %0 = onnx.Scan %s {num_scan_inputs = 2 : i64} : (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%si: tensor<2xf32>):
    onnx.Yield %si : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_c2(%s: tensor<2xf32>, %x: tensor<3x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op has 0 results but carries 1 states}}
  onnx.Scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> () {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
    onnx.Yield
  }
  return
}

// -----

func.func @scan_c3(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op expects 0 or 1 in 'scan_input_directions' (got 2)}}
  %0 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64, scan_input_directions = array<i64: 2>} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32> {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
    onnx.Yield %si : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_c4(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op scan input 0 of rank 2 has no axis 2}}
  %0 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64, scan_input_axes = array<i64: 2>} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32> {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
    onnx.Yield %si : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_c5(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op body argument 1 has type 'tensor<3xf32>', incompatible with 'tensor<2xf32>'}}
  %0 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32> {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<3xf32>):
    onnx.Yield %si : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @scan_c6(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  // expected-error @+1 {{'onnx.Scan' op scan output 0 of rank 2 has no axis 5}}
  %0:2 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64, scan_output_axes = array<i64: 5>} : (tensor<2xf32>, tensor<3x2xf32>) -> (tensor<2xf32>, tensor<3x2xf32>) {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
    onnx.Yield %si, %xi : tensor<2xf32>, tensor<2xf32>
  }
  return %0#0, %0#1 : tensor<2xf32>, tensor<3x2xf32>
}

// -----

func.func @scan_c7(%s: tensor<2xf32>, %x: tensor<3x2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.Scan' op body yields 2 values but 1 are expected}}
  %0 = onnx.Scan %s, %x {num_scan_inputs = 1 : i64} : (tensor<2xf32>, tensor<3x2xf32>) -> tensor<2xf32> {
  ^bb0(%si: tensor<2xf32>, %xi: tensor<2xf32>):
    onnx.Yield %si, %xi : tensor<2xf32>, tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @maxunpool_c1(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x3xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MaxUnpool' op expects I of X's shape}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MaxUnpool %x, %i, %none {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x3xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @maxunpool_c2(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MaxUnpool' op expects X of rank 3 for 1 kernel dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MaxUnpool %x, %i, %none {kernel_shape = array<i64: 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @maxunpool_c3(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.MaxUnpool' op expects 2 strides and 4 pads for 2 kernel dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MaxUnpool %x, %i, %none {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, none) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @maxunpool_c4(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>, %s: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.MaxUnpool' op expects an output_shape of 4 dims}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MaxUnpool %x, %i, %s {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @melweightmatrix_c1(%n: tensor<i64>, %l: tensor<i64>, %r: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.MelWeightMatrix' op expects a float 'output_datatype' (got 7)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MelWeightMatrix %n, %l, %r, %lo, %hi {output_datatype = 7 : i64} : (tensor<i64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @melweightmatrix_c2(%n: tensor<2xi64>, %l: tensor<i64>, %r: tensor<i64>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.MelWeightMatrix' op expects scalar inputs}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.MelWeightMatrix %n, %l, %r, %lo, %hi : (tensor<2xi64>, tensor<i64>, tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roialign_c1(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.RoiAlign' op expects 'mode' avg or max (got 'min')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RoiAlign %x, %r, %b {mode = "min"} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roialign_c2(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.RoiAlign' op expects 'coordinate_transformation_mode' half_pixel or output_half_pixel (got 'asymmetric')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RoiAlign %x, %r, %b {coordinate_transformation_mode = "asymmetric"} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roialign_c3(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.RoiAlign' op expects positive output sizes and a non-negative sampling_ratio}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RoiAlign %x, %r, %b {output_height = 0 : i64} : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roialign_c4(%x: tensor<1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.RoiAlign' op expects X of rank 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RoiAlign %x, %r, %b : (tensor<1x4x4xf32>, tensor<2x4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roialign_c5(%x: tensor<1x1x4x4xf32>, %r: tensor<2x5xf32>, %b: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.RoiAlign' op expects rois of shape [num_rois, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RoiAlign %x, %r, %b : (tensor<1x1x4x4xf32>, tensor<2x5xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @roialign_c6(%x: tensor<1x1x4x4xf32>, %r: tensor<2x4xf32>, %b: tensor<3xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.RoiAlign' op expects batch_indices of shape [num_rois]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RoiAlign %x, %r, %b : (tensor<1x1x4x4xf32>, tensor<2x4xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @stringsplit_c1(%x: tensor<2x!onnx.string>) -> (tensor<*x!onnx.string>, tensor<*xi64>) {
  // expected-error @+2 {{'onnx.StringSplit' op expects a 'maxsplit' of 0 or more (got -1)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0:2 = onnx.StringSplit %x {maxsplit = -1 : i64} : (tensor<2x!onnx.string>) -> (tensor<*x!onnx.string>, tensor<*xi64>)
  return %0#0, %0#1 : tensor<*x!onnx.string>, tensor<*xi64>
}

// -----

func.func @regexfullmatch_c1(%x: tensor<2x!onnx.string>) -> tensor<*xi1> {
  // expected-error @+2 {{'onnx.RegexFullMatch' op expects a 'pattern' in RE2 syntax ('(ab': missing ): (ab)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.RegexFullMatch %x {pattern = "(ab"} : (tensor<2x!onnx.string>) -> tensor<*xi1>
  return %0 : tensor<*xi1>
}

// -----

func.func @stringnormalizer_c1(%x: tensor<2x!onnx.string>) -> tensor<*x!onnx.string> {
  // expected-error @+2 {{'onnx.StringNormalizer' op expects a 'case_change_action' of UPPER, LOWER or NONE (got 'TITLE')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.StringNormalizer %x {case_change_action = "TITLE"} : (tensor<2x!onnx.string>) -> tensor<*x!onnx.string>
  return %0 : tensor<*x!onnx.string>
}

// -----

func.func @stringnormalizer_c2(%x: tensor<2x3x!onnx.string>) -> tensor<*x!onnx.string> {
  // expected-error @+2 {{'onnx.StringNormalizer' op expects X of shape [C] or [1, C] (got 'tensor<2x3x!onnx.string>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.StringNormalizer %x : (tensor<2x3x!onnx.string>) -> tensor<*x!onnx.string>
  return %0 : tensor<*x!onnx.string>
}

// -----

// Arithmetic does not take strings.
func.func @add_strings(%x: tensor<2x!onnx.string>) -> tensor<2x!onnx.string> {
  // expected-error @+1 {{'onnx.Add' op operand #0 must be tensor of}}
  %0 = onnx.Add %x, %x : (tensor<2x!onnx.string>, tensor<2x!onnx.string>) -> tensor<2x!onnx.string>
  return %0 : tensor<2x!onnx.string>
}

// -----

// expected-error @+1 {{sequence elements must be tensors or maps, not 'i64'}}
func.func @seq_element(%s: !onnx.seq<i64>) {
  return
}

// -----

// expected-error @+1 {{map keys must be integers or strings, not 'f32'}}
func.func @map_key(%s: !onnx.map<f32, f32>) {
  return
}

// -----

// expected-error @+1 {{map values must be scalars, not 'tensor<2xf32>'}}
func.func @map_value(%s: !onnx.map<i64, tensor<2xf32>>) {
  return
}

// -----

// expected-error @+1 {{optional elements must be tensors or sequences, not 'f32'}}
func.func @opt_element(%s: !onnx.opt<f32>) {
  return
}

// -----

func.func @sequenceempty_c1() -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+1 {{'onnx.SequenceEmpty' op has 'dtype' 7 but its result is a '!onnx.seq<tensor<*xf32>>'}}
  %0 = onnx.SequenceEmpty {dtype = 7 : i64} : () -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

func.func @sequenceconstruct_c1() -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+2 {{'onnx.SequenceConstruct' op expects at least one input}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SequenceConstruct : () -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

func.func @sequenceconstruct_c2(%a: tensor<2xf32>, %b: tensor<2xi64>) -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+2 {{'onnx.SequenceConstruct' op expects inputs of one element type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SequenceConstruct %a, %b : (tensor<2xf32>, tensor<2xi64>) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

func.func @sequenceinsert_c1(%s: !onnx.seq<tensor<?xf32>>, %t: tensor<2xi64>) -> !onnx.seq<tensor<?xf32>> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.SequenceInsert' op expects a tensor of 'tensor<?xf32>''s element type (got 'tensor<2xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SequenceInsert %s, %t, %none : (!onnx.seq<tensor<?xf32>>, tensor<2xi64>, none) -> !onnx.seq<tensor<?xf32>>
  return %0 : !onnx.seq<tensor<?xf32>>
}

// -----

func.func @sequenceat_c1(%s: !onnx.seq<!onnx.map<i64, f32>>, %i: tensor<i64>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.SequenceAt' op expects a sequence of tensors}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SequenceAt %s, %i : (!onnx.seq<!onnx.map<i64, f32>>, tensor<i64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @splittosequence_c1(%x: tensor<3x6xf32>) -> !onnx.seq<tensor<*xf32>> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{'onnx.SplitToSequence' op expects an 'axis' in [-2, 2) (got 2)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SplitToSequence %x, %none {axis = 2 : i64} : (tensor<3x6xf32>, none) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

func.func @splittosequence_c2(%x: tensor<3x6xf32>, %n: tensor<1x1xi64>) -> !onnx.seq<tensor<*xf32>> {
  // expected-error @+2 {{'onnx.SplitToSequence' op expects a scalar or 1-D 'split' (got 'tensor<1x1xi64>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.SplitToSequence %x, %n : (tensor<3x6xf32>, tensor<1x1xi64>) -> !onnx.seq<tensor<*xf32>>
  return %0 : !onnx.seq<tensor<*xf32>>
}

// -----

func.func @concatfromsequence_c1(%s: !onnx.seq<!onnx.map<i64, f32>>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.ConcatFromSequence' op expects a sequence of tensors}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConcatFromSequence %s {axis = 0 : i64} : (!onnx.seq<!onnx.map<i64, f32>>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @concatfromsequence_c2(%s: !onnx.seq<tensor<?x4xf32>>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.ConcatFromSequence' op expects an 'axis' in [-3, 3) (got 3)}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ConcatFromSequence %s {axis = 3 : i64, new_axis = 1 : i64} : (!onnx.seq<tensor<?x4xf32>>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @optional_c1(%t: tensor<4xf32>) -> !onnx.opt<tensor<4xi64>> {
  // expected-error @+1 {{'onnx.Optional' op holds a 'tensor<4xf32>' in a '!onnx.opt<tensor<4xi64>>'}}
  %0 = onnx.Optional %t : (tensor<4xf32>) -> !onnx.opt<tensor<4xi64>>
  return %0 : !onnx.opt<tensor<4xi64>>
}

// -----

func.func @zipmap_c1(%x: tensor<2x2xf32>) -> !onnx.seq<!onnx.map<i64, f32>> {
  // expected-error @+2 {{'onnx.ZipMap' op expects exactly one of 'classlabels_int64s' and 'classlabels_strings'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ZipMap %x : (tensor<2x2xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
  return %0 : !onnx.seq<!onnx.map<i64, f32>>
}

// -----

func.func @zipmap_c2(%x: tensor<2x3xf32>) -> !onnx.seq<!onnx.map<i64, f32>> {
  // expected-error @+2 {{'onnx.ZipMap' op expects X of shape [N, 2] or [2] (got 'tensor<2x3xf32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.ZipMap %x {classlabels_int64s = array<i64: 0, 1>} : (tensor<2x3xf32>) -> !onnx.seq<!onnx.map<i64, f32>>
  return %0 : !onnx.seq<!onnx.map<i64, f32>>
}

// -----

func.func @dictvectorizer_c1(%m: !onnx.map<!onnx.string, f32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.DictVectorizer' op expects exactly one of 'int64_vocabulary' and 'string_vocabulary'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DictVectorizer %m : (!onnx.map<!onnx.string, f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @dictvectorizer_c2(%m: !onnx.map<i64, f32>) -> tensor<*xf32> {
  // expected-error @+2 {{'onnx.DictVectorizer' op expects a map with string keys, or a sequence of them (got '!onnx.map<i64, f32>')}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.DictVectorizer %m {string_vocabulary = ["a"]} : (!onnx.map<i64, f32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @cast_c3(%x: tensor<2x!onnx.string>) -> tensor<*xi1> {
  // expected-error @+2 {{'onnx.Cast' op converts strings only to and from integers (8 bits and more), f32 and f64, not '!onnx.string' to 'i1'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.Cast %x {to = 9 : i64} : (tensor<2x!onnx.string>) -> tensor<*xi1>
  return %0 : tensor<*xi1>
}

// -----

func.func @castlike_c2(%x: tensor<2xf16>, %like: tensor<1x!onnx.string>) -> tensor<*x!onnx.string> {
  // expected-error @+2 {{'onnx.CastLike' op converts strings only to and from integers (8 bits and more), f32 and f64, not 'f16' to '!onnx.string'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = onnx.CastLike %x, %like : (tensor<2xf16>, tensor<1x!onnx.string>) -> tensor<*x!onnx.string>
  return %0 : tensor<*x!onnx.string>
}

// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file -verify-diagnostics

// What the onnx -> linalg lowering rejects, and the diagnostics it gives.

func.func @conv_4d(%x: tensor<1x3x4x4x4x4xf32>, %w: tensor<4x3x3x3x3x3xf32>) -> tensor<1x4x2x2x2x2xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{supports 1-D to 3-D convolutions}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Conv'}}
  %0 = onnx.Conv %x, %w, %none : (tensor<1x3x4x4x4x4xf32>, tensor<4x3x3x3x3x3xf32>, none) -> tensor<1x4x2x2x2x2xf32>
  return %0 : tensor<1x4x2x2x2x2xf32>
}

// -----

func.func @dropout_training_integer(%x: tensor<4xi32>, %t: tensor<i1>) -> tensor<4xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{supports training mode on float data only (got 'i32')}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Dropout'}}
  %0, %m = onnx.Dropout %x, %none, %t : (tensor<4xi32>, none, tensor<i1>) -> (tensor<4xi32>, tensor<4xi1>)
  return %0 : tensor<4xi32>
}

// -----

// Elementwise ops compute on unsigned integers; MatMul does not yet.
func.func @matmul_unsigned(%a: tensor<2x4xui8>, %b: tensor<4x3xui8>) -> tensor<2x3xui8> {
  // expected-error @+2 {{has unsupported element type 'ui8'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.MatMul'}}
  %0 = onnx.MatMul %a, %b : (tensor<2x4xui8>, tensor<4x3xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// Axes known at run time need a result of known rank.
func.func @reduce_runtime_axes_unranked(%x: tensor<2x3xf32>, %axes: tensor<?xi64>) -> tensor<*xf32> {
  // expected-error @+2 {{needs a ranked result type to be lowered (got 'tensor<*xf32>')}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ReduceSum'}}
  %0 = onnx.ReduceSum %x, %axes {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @reduce_log_sum_int(%x: tensor<2x3xi32>) -> tensor<1x1xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{has unsupported element type 'i32'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.ReduceLogSum'}}
  %0 = onnx.ReduceLogSum %x, %none : (tensor<2x3xi32>, none) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// -----

func.func @pad_runtime_axes_count(%x: tensor<2x3xf32>, %p: tensor<?xi64>, %a: tensor<?xi64>) -> tensor<?x?xf32> {
  %none = onnx.NoValue : () -> none
  %c = onnx.Constant {value = dense<[0, 1, 0]> : tensor<3xi64>} : () -> tensor<3xi64>
  // expected-error @+2 {{needs 2 pads per padded axis}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Pad'}}
  %0 = onnx.Pad %x, %c, %none, %a : (tensor<2x3xf32>, tensor<3xi64>, none, tensor<?xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+2 {{needs ranked operands to be lowered (got 'tensor<*xf32>')}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Relu'}}
  %0 = onnx.Relu %x : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// An op of several results needs each of them ranked.
func.func @topk_unranked_indices(%x: tensor<3x4xf32>, %k: tensor<1xi64>) -> tensor<*xi64> {
  // expected-error @+2 {{needs a ranked result type to be lowered (got 'tensor<*xi64>')}}
  // expected-error @+1 {{failed to legalize operation 'onnx.TopK'}}
  %0, %1 = onnx.TopK %x, %k {axis = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<*xi64>)
  return %1 : tensor<*xi64>
}

// -----

func.func @rnn_dynamic_hidden(%x: tensor<2x3x2xf32>, %w: tensor<1x?x2xf32>, %r: tensor<1x?x?xf32>) -> tensor<1x3x?xf32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{needs a static hidden size (the 'hidden_size' attribute) to be lowered}}
  // expected-error @+1 {{failed to legalize operation 'onnx.RNN'}}
  %y, %h = onnx.RNN %x, %w, %r, %none, %none, %none : (tensor<2x3x2xf32>, tensor<1x?x2xf32>, tensor<1x?x?xf32>, none, none, none) -> (tensor<2x1x3x?xf32>, tensor<1x3x?xf32>)
  return %h : tensor<1x3x?xf32>
}

// -----

func.func @resize_linear_integer(%x: tensor<1x1x2x2xi32>, %s: tensor<4xf32>) -> tensor<?x?x?x?xi32> {
  %none = onnx.NoValue : () -> none
  // expected-error @+2 {{with mode 'linear' needs a floating-point input (got 'i32')}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Resize'}}
  %0 = onnx.Resize %x, %none, %s, %none {mode = "linear"} : (tensor<1x1x2x2xi32>, none, tensor<4xf32>, none) -> tensor<?x?x?x?xi32>
  return %0 : tensor<?x?x?x?xi32>
}

// -----

// The 2- and 4-bit integers are only converted (Cast, QuantizeLinear,
// DequantizeLinear), never computed on.
func.func @less_int4(%a: tensor<4xi4>, %b: tensor<4xi4>) -> tensor<4xi1> {
  // expected-error @+2 {{'onnx.Less' op has unsupported element type 'i4'}}
  // expected-error @+1 {{failed to legalize operation 'onnx.Less'}}
  %0 = onnx.Less %a, %b : (tensor<4xi4>, tensor<4xi4>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @tree_cycle(%x: tensor<?x2xf32>) -> tensor<?x1xf32> {
  // expected-error @+2 {{has a tree with a cycle}}
  // expected-error @+1 {{failed to legalize operation 'fused.tree_ensemble'}}
  %y = fused.tree_ensemble %x {aggregate_function = 1 : i64, leaf_weights = array<f32: 1.0>, membership_values = array<f32>, n_targets = 1 : i64, nodes_falsenodeids = array<i64: 1, 0>, nodes_featureids = array<i64: 0, 1>, nodes_missing_value_tracks_true = array<i1>, nodes_modes = array<i64: 0, 0>, nodes_splits = array<f32: 0.5, 0.5>, nodes_truenodeids = array<i64: 2, 2>, tree_roots = array<i64: 0>} : (tensor<?x2xf32>) -> tensor<?x1xf32>
  return %y : tensor<?x1xf32>
}


// -----

// Statistics of another type than X's (opset 15's T2): not lowered, said so
// (a fuzzed model: it used to reach a tensor.cast between element types).
func.func @batchnorm_mixed_types(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %m: tensor<3xbf16>) -> tensor<2x3x4xf32> {
  // expected-error @+2 {{supports scale, B, input_mean and input_var of X's element type only (got 'bf16' with 'f32')}}
  // expected-error @+1 {{failed to legalize operation 'onnx.BatchNormalization'}}
  %y = onnx.BatchNormalization %x, %s, %s, %m, %m : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xbf16>, tensor<3xbf16>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

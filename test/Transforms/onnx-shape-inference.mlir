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

// -----

// A branch that cannot run with the shapes known (it squeezes a dim of size
// 2) is a run-time failure when taken, as in ONNX Runtime, not a compile
// error; it yields empty tensors of the other branch's types.
// CHECK-LABEL: func.func @infeasible_branch
// CHECK-SAME: -> tensor<3x2xf32>
// CHECK: onnx.If %arg1 : (tensor<i1>) -> tensor<3x2xf32> {
// CHECK: %[[F:.+]] = arith.constant false
// CHECK: cf.assert %[[F]], "onnxc: the model fails here: node 'squeeze': 'onnx.Squeeze' op cannot squeeze dim 1 of size 2"
// CHECK: %[[E:.+]] = tensor.empty() : tensor<3x2xf32>
// CHECK: onnx.Yield %[[E]] : tensor<3x2xf32>
// CHECK: }, {
// CHECK: onnx.Yield %{{.+}} : tensor<3x2xf32>
func.func @infeasible_branch(%x: tensor<3x2xf32>, %c: tensor<i1>) -> tensor<*xf32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  // Its dim 1 is known to be 2 only once inference has run.
  %y = onnx.Identity %x : (tensor<3x2xf32>) -> tensor<3x?xf32>
  %r = onnx.If %c : (tensor<i1>) -> tensor<*xf32> {
    %s = onnx.Squeeze %y, %axes : (tensor<3x?xf32>, tensor<1xi64>) -> tensor<*xf32> loc("squeeze")
    %n = onnx.Neg %s : (tensor<*xf32>) -> tensor<*xf32>
    onnx.Yield %n : tensor<*xf32>
  }, {
    onnx.Yield %y : tensor<3x?xf32>
  }
  return %r : tensor<*xf32>
}

// -----

// A reduction over axes of a count known only at run time has a result of
// unknown rank; the elementwise readers after it pass up the shape of the
// last one's result (here a graph output's declared rank).
// CHECK-LABEL: func.func @rank_from_readers
// CHECK: onnx.ReduceSum %{{.+}}, %{{.+}} {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<?x?xf32>
// CHECK: onnx.Sqrt %{{.+}} : (tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK: onnx.CastLike %{{.+}}, %{{.+}} : (tensor<?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?xf32>
func.func @rank_from_readers(%x: tensor<?x?x?xf32>, %axes: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = onnx.ReduceSum %x, %axes {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<*xf32>
  %1 = onnx.Sqrt %0 : (tensor<*xf32>) -> tensor<*xf32>
  %2 = onnx.CastLike %1, %x : (tensor<*xf32>, tensor<?x?x?xf32>) -> tensor<?x?xf32>
  return %2 : tensor<?x?xf32>
}

// -----

// A binary reader broadcasts: it says nothing of its operands' ranks.
// CHECK-LABEL: func.func @no_rank_from_broadcast
// CHECK: onnx.ReduceSum {{.+}} -> tensor<*xf32>
func.func @no_rank_from_broadcast(%x: tensor<?x?x?xf32>, %axes: tensor<?xi64>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = onnx.ReduceSum %x, %axes {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<*xf32>
  %1 = onnx.Add %0, %y : (tensor<*xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// A Conv whose kernel dims are `?` (a weight that is a graph input): the
// output spatial dims are `?` with explicit pads, and ceil(in / stride)
// with auto_pad SAME_*.
// CHECK-LABEL: func.func @conv_dynamic_kernel
// CHECK: onnx.Conv %arg0, %arg1, %{{.+}} {group = 4 : i64, pads = array<i64: 1, 1>} : (tensor<2x4x8xf32>, tensor<4x1x?xf32>, none) -> tensor<2x4x?xf32>
// CHECK: onnx.Conv %arg0, %arg1, %{{.+}} {auto_pad = "SAME_UPPER", group = 4 : i64, strides = array<i64: 3>} : (tensor<2x4x8xf32>, tensor<4x1x?xf32>, none) -> tensor<2x4x3xf32>
func.func @conv_dynamic_kernel(%x: tensor<2x4x8xf32>, %w: tensor<4x1x?xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {group = 4 : i64, pads = array<i64: 1, 1>} : (tensor<2x4x8xf32>, tensor<4x1x?xf32>, none) -> tensor<*xf32>
  %1 = onnx.Conv %x, %w, %none {auto_pad = "SAME_UPPER", group = 4 : i64, strides = array<i64: 3>} : (tensor<2x4x8xf32>, tensor<4x1x?xf32>, none) -> tensor<*xf32>
  return %0, %1 : tensor<*xf32>, tensor<*xf32>
}

// -----

// A Reshape whose -1 stands beside 0s copying every dynamic dim: the copies
// cancel, so the -1 is static ([B, S, 24] to [0, 0, 6, -1] is [B, S, 6, 4]);
// not so where a dynamic dim is not copied.
// CHECK-LABEL: func.func @reshape_minus_one_beside_copies
// CHECK: onnx.Reshape %{{.+}}, %{{.+}} : (tensor<?x?x24xf32>, tensor<4xi64>) -> tensor<?x?x6x4xf32>
// CHECK: onnx.Reshape %{{.+}}, %{{.+}} : (tensor<?x?x24xf32>, tensor<3xi64>) -> tensor<?x6x?xf32>
func.func @reshape_minus_one_beside_copies(%x: tensor<?x?x24xf32>) -> (tensor<*xf32>, tensor<*xf32>) {
  %heads = onnx.Constant {value = dense<[0, 0, 6, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = onnx.Reshape %x, %heads : (tensor<?x?x24xf32>, tensor<4xi64>) -> tensor<*xf32>
  %partly = onnx.Constant {value = dense<[0, 6, -1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %p = onnx.Reshape %x, %partly : (tensor<?x?x24xf32>, tensor<3xi64>) -> tensor<*xf32>
  return %r, %p : tensor<*xf32>, tensor<*xf32>
}

// -----

// A shape operand built from constants and a tensor's dims is known in part
// (ONNX's data propagation): [N, 2, 3] with N from a Split of an input, and
// [N, 3, 4] with N a dim of the data, give static dims where they are known.
// CHECK-LABEL: func.func @partial_shape_values
// CHECK: onnx.Expand %{{.+}}, %{{.+}} : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<?x2x3xi64>
// CHECK: onnx.Reshape %{{.+}}, %{{.+}} : (tensor<?x12xf32>, tensor<3xi64>) -> tensor<?x3x4xf32>
// CHECK: onnx.ConstantOfShape %{{.+}} : (tensor<2xi64>) -> tensor<?x5xf32>
func.func @partial_shape_values(%size: tensor<4xi64>, %idx: tensor<2x3xi64>, %x: tensor<?x12xf32>) -> (tensor<*xi64>, tensor<*xf32>, tensor<*xf32>) {
  %none = onnx.NoValue : () -> none
  %parts:4 = onnx.Split %size, %none {num_outputs = 4 : i64} : (tensor<4xi64>, none) -> (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>)
  %c23 = onnx.Constant {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = onnx.Concat %parts#0, %c23 {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %e = onnx.Expand %idx, %s : (tensor<2x3xi64>, tensor<3xi64>) -> tensor<*xi64>
  %n = onnx.Shape %x {end = 1 : i64} : (tensor<?x12xf32>) -> tensor<1xi64>
  %c34 = onnx.Constant {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %rs = onnx.Concat %n, %c34 {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %r = onnx.Reshape %x, %rs : (tensor<?x12xf32>, tensor<3xi64>) -> tensor<*xf32>
  %c5 = onnx.Constant {value = dense<5> : tensor<1xi64>} : () -> tensor<1xi64>
  %cs = onnx.Concat %parts#1, %c5 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %z = onnx.ConstantOfShape %cs : (tensor<2xi64>) -> tensor<*xf32>
  return %e, %r, %z : tensor<*xi64>, tensor<*xf32>, tensor<*xf32>
}

// RUN: onnx-opt %s -split-input-file -onnx-specialize-if-ranks | FileCheck %s

// Silero VAD's shape test: squeeze dim 1 if it is 1, then unsqueeze if the
// rank is 1. The readers of the first If move into both branches; folding
// decides the rank test in each, and the If yields the function's result,
// of rank 2 on both sides.
// CHECK-LABEL: func.func @squeeze_then_unsqueeze
// CHECK-SAME: -> tensor<4x?xf32>
// CHECK: %[[R:.+]] = onnx.If %arg1 : (tensor<i1>) -> tensor<4x?xf32> {
// CHECK: onnx.Squeeze
// CHECK: onnx.Unsqueeze
// CHECK: onnx.Relu %{{.+}} : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK: }, {
// CHECK-NOT: onnx.Unsqueeze
// CHECK: onnx.Relu %arg0 : (tensor<4x?xf32>) -> tensor<4x?xf32>
// CHECK: }
// CHECK-NOT: onnx.Size
// CHECK: return %[[R]] : tensor<4x?xf32>
func.func @squeeze_then_unsqueeze(%x: tensor<4x?xf32>, %c: tensor<i1>) -> tensor<*xf32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = onnx.Constant {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %r = onnx.If %c : (tensor<i1>) -> tensor<*xf32> {
    %s = onnx.Squeeze %x, %axes : (tensor<4x?xf32>, tensor<1xi64>) -> tensor<4xf32>
    onnx.Yield %s : tensor<4xf32>
  }, {
    onnx.Yield %x : tensor<4x?xf32>
  }
  %shape = onnx.Shape %r : (tensor<*xf32>) -> tensor<?xi64>
  %rank = onnx.Size %shape : (tensor<?xi64>) -> tensor<i64>
  %eq = onnx.Equal %rank, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %u = onnx.If %eq : (tensor<i1>) -> tensor<*xf32> {
    %v = onnx.Unsqueeze %r, %axes : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
    onnx.Yield %v : tensor<*xf32>
  }, {
    onnx.Yield %r : tensor<*xf32>
  }
  %y = onnx.Relu %u : (tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Ops that do not read the If stay outside it, moved before it; the If
// yields the results that depend on it.
// CHECK-LABEL: func.func @independent
// CHECK-SAME: -> (tensor<3xf32>, tensor<3xf32>)
// CHECK: %[[N:.+]] = onnx.Neg %arg2
// CHECK: %[[R:.+]] = onnx.If %arg1 : (tensor<i1>) -> tensor<3xf32>
// CHECK: return %[[R]], %[[N]]
func.func @independent(%x: tensor<3x1xf32>, %c: tensor<i1>, %z: tensor<3xf32>) -> (tensor<*xf32>, tensor<3xf32>) {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = onnx.If %c : (tensor<i1>) -> tensor<*xf32> {
    %s = onnx.Squeeze %x, %axes : (tensor<3x1xf32>, tensor<1xi64>) -> tensor<3xf32>
    onnx.Yield %s : tensor<3xf32>
  }, {
    onnx.Yield %x : tensor<3x1xf32>
  }
  %shape3 = onnx.Constant {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = onnx.Neg %z : (tensor<3xf32>) -> tensor<3xf32>
  %f = onnx.Flatten %r {axis = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  %g = onnx.Reshape %f, %shape3 : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %g, %n : tensor<*xf32>, tensor<3xf32>
}

// -----

// An If whose differing ranks only reach the function's result has no
// reader to specialize: it stays.
// CHECK-LABEL: func.func @result_only
// CHECK: onnx.If %arg1 : (tensor<i1>) -> tensor<*xf32>
func.func @result_only(%x: tensor<3x1xf32>, %c: tensor<i1>) -> tensor<*xf32> {
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = onnx.If %c : (tensor<i1>) -> tensor<*xf32> {
    %s = onnx.Squeeze %x, %axes : (tensor<3x1xf32>, tensor<1xi64>) -> tensor<3xf32>
    onnx.Yield %s : tensor<3xf32>
  }, {
    onnx.Yield %x : tensor<3x1xf32>
  }
  return %r : tensor<*xf32>
}

// -----

// A Squeeze without axes of [N, 1, 3] has no rank while N is `?`: it becomes
// the Squeeze of dim 1 and an If on N == 1 that squeezes N too, whose readers
// are specialized. With N = 1 the Split on axis 1 cannot run (ONNX's
// AffineGrid function body, N a value of its input `size`): that branch
// fails at run time; the other has rank 2 throughout.
// CHECK-LABEL: func.func @squeeze_without_axes
// CHECK-SAME: -> tensor<?x2xf32>
// CHECK: %[[SQ:.+]] = onnx.Squeeze %arg0, %{{.+}} : (tensor<?x1x3xf32>, tensor<1xi64>) -> tensor<?x3xf32>
// CHECK: %[[N:.+]] = onnx.Shape %[[SQ]] {end = 1 : i64} : (tensor<?x3xf32>) -> tensor<1xi64>
// CHECK: %[[IS_ONE:.+]] = onnx.Equal %[[N]], %{{.+}} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
// CHECK: %[[R:.+]] = onnx.If %[[IS_ONE]] : (tensor<1xi1>) -> tensor<?x2xf32> {
// CHECK: cf.assert %{{.+}}, "onnxc: the model fails here: 'onnx.Split' op expects 'axis' in [-1, 1) (got 1)"
// CHECK: }, {
// CHECK: onnx.Split %[[SQ]], %{{.+}} {axis = 1 : i64} : (tensor<?x3xf32>, tensor<2xi64>) -> (tensor<?x1xf32>, tensor<?x2xf32>)
// CHECK: onnx.Add %{{.+}}, %{{.+}} : (tensor<?x1xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
// CHECK: }
// CHECK: return %[[R]] : tensor<?x2xf32>
func.func @squeeze_without_axes(%x: tensor<?x1x3xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  %sizes = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = onnx.Squeeze %x, %none : (tensor<?x1x3xf32>, none) -> tensor<*xf32>
  %p:2 = onnx.Split %s, %sizes {axis = 1 : i64} : (tensor<*xf32>, tensor<2xi64>) -> (tensor<*xf32>, tensor<*xf32>)
  %y = onnx.Add %p#0, %p#1 : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

// -----

// Where both ranks can run, both copies stay: flattened, they agree again
// (the Reshape of the rank-1 copy is a no-op that folding removes).
// CHECK-LABEL: func.func @squeeze_without_axes_both_ranks
// CHECK-SAME: -> tensor<?xf32>
// CHECK: %[[R:.+]] = onnx.If %{{.+}} : (tensor<1xi1>) -> tensor<?xf32> {
// CHECK: %[[ALL:.+]] = onnx.Squeeze %{{.+}}, %{{.+}} : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<4xf32>
// CHECK: onnx.Yield %[[ALL]] : tensor<4xf32>
// CHECK: }, {
// CHECK: onnx.Reshape %{{.+}}, %{{.+}} : (tensor<?x4xf32>, tensor<1xi64>) -> tensor<?xf32>
// CHECK: }
// CHECK: return %[[R]] : tensor<?xf32>
func.func @squeeze_without_axes_both_ranks(%x: tensor<?x1x4xf32>) -> tensor<*xf32> {
  %none = onnx.NoValue : () -> none
  %flat = onnx.Constant {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = onnx.Squeeze %x, %none : (tensor<?x1x4xf32>, none) -> tensor<*xf32>
  %y = onnx.Reshape %s, %flat : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  return %y : tensor<*xf32>
}

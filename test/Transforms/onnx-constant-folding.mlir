// RUN: onnx-opt %s -split-input-file -onnx-constant-folding | FileCheck %s

// PyTorch's shape subgraph with a dynamic batch dim: the static dims fold,
// leaving only the read of the batch dim.
// CHECK-LABEL: func.func @torch_shape_subgraph
func.func @torch_shape_subgraph(%x: tensor<?x3x4xf32>) -> tensor<?x?xf32> {
  // CHECK-DAG: %[[SHAPE:.+]] = onnx.Shape %{{.*}} : (tensor<?x3x4xf32>) -> tensor<3xi64>
  // CHECK-DAG: %[[N:.+]] = onnx.Gather %[[SHAPE]]
  // CHECK-DAG: %[[K:.+]] = onnx.Constant {value = dense<12> : tensor<1xi64>}
  // CHECK: %[[DIMS:.+]] = onnx.Concat %{{.*}}, %[[K]]
  // CHECK: onnx.Reshape %{{.*}}, %[[DIMS]]
  // CHECK-NOT: onnx.Mul
  %c0 = onnx.Constant {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %c1 = onnx.Constant {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %c2 = onnx.Constant {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %axes = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = onnx.Shape %x : (tensor<?x3x4xf32>) -> tensor<3xi64>
  %n = onnx.Gather %s, %c0 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %d1 = onnx.Gather %s, %c1 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %d2 = onnx.Gather %s, %c2 : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %k = onnx.Mul %d1, %d2 : (tensor<i64>, tensor<i64>) -> tensor<i64>
  %un = onnx.Unsqueeze %n, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %uk = onnx.Unsqueeze %k, %axes : (tensor<i64>, tensor<1xi64>) -> tensor<1xi64>
  %dims = onnx.Concat %un, %uk {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %y = onnx.Reshape %x, %dims : (tensor<?x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// Float math on constants, with broadcasting; the inputs die with it.
// CHECK-LABEL: func.func @float_math
func.func @float_math() -> tensor<2x2xf32> {
  // CHECK: %[[C:.+]] = onnx.Constant {value = dense<{{\[\[}}2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00]]> : tensor<2x2xf32>}
  // CHECK-NEXT: return %[[C]]
  %a = onnx.Constant {value = dense<[[1.0, 4.0], [9.0, 16.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %b = onnx.Constant {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %s = onnx.Sqrt %a : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = onnx.Add %s, %b : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %y : tensor<2x2xf32>
}

// -----

// Transpose, Concat along a non-leading axis, Slice and Cast.
// CHECK-LABEL: func.func @data_movement
func.func @data_movement() -> (tensor<3x2xf32>, tensor<2x3xi64>, tensor<1xi32>) {
  // CHECK-DAG: onnx.Constant {value = dense<{{\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>}
  // CHECK-DAG: onnx.Constant {value = dense<{{\[\[}}1, 2, 7], [3, 4, 8]]> : tensor<2x3xi64>}
  // CHECK-DAG: onnx.Constant {value = dense<2> : tensor<1xi32>}
  // CHECK-NOT: onnx.Transpose
  // CHECK-NOT: onnx.Concat
  // CHECK-NOT: onnx.Slice
  %a = onnx.Constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %t = onnx.Transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %p = onnx.Constant {value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %q = onnx.Constant {value = dense<[[7], [8]]> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
  %c = onnx.Concat %p, %q {axis = 1 : i64} : (tensor<2x2xi64>, tensor<2x1xi64>) -> tensor<2x3xi64>
  %starts = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = onnx.Constant {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %v = onnx.Constant {value = dense<[1.5, 2.5, 3.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %none = onnx.NoValue : () -> none
  %s = onnx.Slice %v, %starts, %ends, %none, %none : (tensor<3xf32>, tensor<1xi64>, tensor<1xi64>, none, none) -> tensor<1xf32>
  %i = onnx.Cast %s {to = 6 : i64} : (tensor<1xf32>) -> tensor<1xi32>
  return %t, %c, %i : tensor<3x2xf32>, tensor<2x3xi64>, tensor<1xi32>
}

// -----

// The cap: an Expand of a scalar to many elements is not folded, a small one is.
// CHECK-LABEL: func.func @size_cap
func.func @size_cap() -> (tensor<64x64xf32>, tensor<4xf32>) {
  // CHECK-DAG: onnx.Expand
  // CHECK-DAG: onnx.Constant {value = dense<5.000000e-01> : tensor<4xf32>}
  %v = onnx.Constant {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %big = onnx.Constant {value = dense<[64, 64]> : tensor<2xi64>} : () -> tensor<2xi64>
  %small = onnx.Constant {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = onnx.Expand %v, %big : (tensor<f32>, tensor<2xi64>) -> tensor<64x64xf32>
  %f = onnx.Expand %v, %small : (tensor<f32>, tensor<1xi64>) -> tensor<4xf32>
  return %e, %f : tensor<64x64xf32>, tensor<4xf32>
}

// -----

// Reductions and comparisons.
// CHECK-LABEL: func.func @reduce_compare
func.func @reduce_compare() -> (tensor<2x1xf32>, tensor<2xi1>) {
  // CHECK-DAG: onnx.Constant {value = dense<{{\[\[}}6.000000e+00], [1.500000e+01]]> : tensor<2x1xf32>}
  // CHECK-DAG: onnx.Constant {value = dense<[false, true]> : tensor<2xi1>}
  %a = onnx.Constant {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %axes = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = onnx.ReduceSum %a, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  %l = onnx.Constant {value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %m = onnx.Constant {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %c = onnx.Less %l, %m : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  return %r, %c : tensor<2x1xf32>, tensor<2xi1>
}

// -----

// Above 1024 elements a fold must free what it reads: a weight read twice
// is not transposed into a second copy; two folds to the same contents
// leave one constant.
// CHECK-LABEL: func.func @no_growth
func.func @no_growth() -> (tensor<600x2xf32>, tensor<600x2xf32>, tensor<600x2xf32>, tensor<600x2xf32>) {
  // CHECK-DAG: %[[SHARED:.+]] = onnx.Constant {value = dense<1.500000e+00> : tensor<2x600xf32>}
  // CHECK-DAG: %[[T1:.+]] = onnx.Transpose %[[SHARED]]
  // CHECK-DAG: %[[T2:.+]] = onnx.Transpose %[[SHARED]]
  // CHECK-DAG: %[[FOLDED:.+]] = onnx.Constant {value = dense_resource<{{.+}}> : tensor<600x2xf32>}
  // CHECK-NOT: onnx.Constant {{.*}} tensor<600x2xf32>
  // CHECK: return %[[T1]], %[[T2]], %[[FOLDED]], %[[FOLDED]]
  %w = onnx.Constant {value = dense<1.5> : tensor<2x600xf32>} : () -> tensor<2x600xf32>
  %0 = onnx.Transpose %w {perm = array<i64: 1, 0>} : (tensor<2x600xf32>) -> tensor<600x2xf32>
  %1 = onnx.Transpose %w {perm = array<i64: 1, 0>} : (tensor<2x600xf32>) -> tensor<600x2xf32>
  %a = onnx.Constant {value = dense<2.5> : tensor<2x600xf32>} : () -> tensor<2x600xf32>
  %b = onnx.Constant {value = dense<2.5> : tensor<1200xf32>} : () -> tensor<1200xf32>
  %shape = onnx.Constant {value = dense<[600, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %2 = onnx.Transpose %a {perm = array<i64: 1, 0>} : (tensor<2x600xf32>) -> tensor<600x2xf32>
  %3 = onnx.Reshape %b, %shape : (tensor<1200xf32>, tensor<2xi64>) -> tensor<600x2xf32>
  return %0, %1, %2, %3 : tensor<600x2xf32>, tensor<600x2xf32>, tensor<600x2xf32>, tensor<600x2xf32>
}

// -----

// torchvision's NMS: "squeeze dim 1 if it is 1", an If whose branches yield
// ranks 1 and 2 (so its result is unranked). The condition folds, the If
// becomes its then branch: onnx readers take the rank-1 value, the return a
// cast of it, which shape inference drops as it refines the signature; the
// outer If, whose branches now both yield rank 1, is refined.
// CHECK-LABEL: func.func @if_constant_condition
// CHECK-SAME: -> (tensor<?xi64>, tensor<?xi64>)
// CHECK-NOT: tensor.cast
// CHECK: %[[SQ:.+]] = onnx.Squeeze %{{.+}}, %{{.+}} : (tensor<?x1xi64>, tensor<1xi64>) -> tensor<?xi64>
// CHECK: %[[OUTER:.+]] = onnx.If %{{.+}} : (tensor<i1>) -> tensor<?xi64>
// CHECK: onnx.Yield %[[SQ]] : tensor<?xi64>
// CHECK: %[[ABS:.+]] = onnx.Abs %[[OUTER]] : (tensor<?xi64>) -> tensor<?xi64>
// CHECK: return %[[ABS]], %[[SQ]]
func.func @if_constant_condition(%x: tensor<?x1xi64>, %c: tensor<i1>) -> (tensor<*xi64>, tensor<*xi64>) {
  %s = onnx.Shape %x : (tensor<?x1xi64>) -> tensor<2xi64>
  %i = onnx.Constant {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %d = onnx.Gather %s, %i : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %eq = onnx.Equal %d, %i : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
  %inner = onnx.If %eq : (tensor<1xi1>) -> tensor<*xi64> {
    %sq = onnx.Squeeze %x, %i : (tensor<?x1xi64>, tensor<1xi64>) -> tensor<?xi64>
    onnx.Yield %sq : tensor<?xi64>
  }, {
    onnx.Yield %x : tensor<?x1xi64>
  }
  %empty = onnx.Constant {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %outer = onnx.If %c : (tensor<i1>) -> tensor<*xi64> {
    onnx.Yield %empty : tensor<0xi64>
  }, {
    onnx.Yield %inner : tensor<*xi64>
  }
  %abs = onnx.Abs %outer : (tensor<*xi64>) -> tensor<*xi64>
  return %abs, %inner : tensor<*xi64>, tensor<*xi64>
}

// RUN: onnx-opt %s -split-input-file -canonicalize | FileCheck %s

// Folders of single onnx ops (dialects/ONNX/IR/ONNXFolds.cpp).

// CHECK-LABEL: func.func @shape_static
func.func @shape_static(%x: tensor<2x3x4xf32>) -> (tensor<3xi64>, tensor<1xi64>, tensor<1xi64>) {
  // CHECK-DAG: %[[ALL:.+]] = onnx.Constant {value = dense<[2, 3, 4]> : tensor<3xi64>}
  // CHECK-DAG: %[[MID:.+]] = onnx.Constant {value = dense<3> : tensor<1xi64>}
  // CHECK-DAG: %[[LAST:.+]] = onnx.Constant {value = dense<4> : tensor<1xi64>}
  // CHECK-NOT: onnx.Shape
  // CHECK: return %[[ALL]], %[[MID]], %[[LAST]]
  %0 = onnx.Shape %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %1 = onnx.Shape %x {start = 1 : i64, end = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  %2 = onnx.Shape %x {start = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  return %0, %1, %2 : tensor<3xi64>, tensor<1xi64>, tensor<1xi64>
}

// -----

// Only the requested dims need to be static.
// CHECK-LABEL: func.func @shape_dynamic
func.func @shape_dynamic(%x: tensor<?x3x4xf32>) -> (tensor<3xi64>, tensor<2xi64>) {
  // CHECK-DAG: %[[TAIL:.+]] = onnx.Constant {value = dense<[3, 4]> : tensor<2xi64>}
  // CHECK-DAG: %[[ALL:.+]] = onnx.Shape %{{.*}} : (tensor<?x3x4xf32>) -> tensor<3xi64>
  // CHECK: return %[[ALL]], %[[TAIL]]
  %0 = onnx.Shape %x : (tensor<?x3x4xf32>) -> tensor<3xi64>
  %1 = onnx.Shape %x {start = 1 : i64} : (tensor<?x3x4xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<3xi64>, tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @reshape_constant
func.func @reshape_constant() -> tensor<2x3xi64> {
  // CHECK: %[[C:.+]] = onnx.Constant {value = dense<{{\[}}[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>}
  // CHECK-NOT: onnx.Reshape
  // CHECK: return %[[C]]
  %c = onnx.Constant {value = dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>} : () -> tensor<6xi64>
  %s = onnx.Constant {value = dense<[2, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Reshape %c, %s : (tensor<6xi64>, tensor<2xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// A Reshape to the same static type is the identity; a dynamic one is kept.
// CHECK-LABEL: func.func @reshape_identity
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[D:.+]]: tensor<?x3xf32>
func.func @reshape_identity(%x: tensor<2x3xf32>, %d: tensor<?x3xf32>) -> (tensor<2x3xf32>, tensor<?x3xf32>) {
  // CHECK: %[[R:.+]] = onnx.Reshape %[[D]]
  // CHECK: return %[[X]], %[[R]]
  %s = onnx.Constant {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %t = onnx.Constant {value = dense<[-1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %1 = onnx.Reshape %d, %t : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @flatten_squeeze_unsqueeze_constant
func.func @flatten_squeeze_unsqueeze_constant() -> (tensor<2x4xf32>, tensor<3xi64>, tensor<1x3xi64>) {
  // CHECK-DAG: %[[F:.+]] = onnx.Constant {value = dense<1.000000e+00> : tensor<2x4xf32>}
  // CHECK-DAG: %[[S:.+]] = onnx.Constant {value = dense<[7, 8, 9]> : tensor<3xi64>}
  // CHECK-DAG: %[[U:.+]] = onnx.Constant {value = dense<{{\[}}[7, 8, 9]]> : tensor<1x3xi64>}
  // CHECK-NOT: onnx.Flatten
  // CHECK-NOT: onnx.Squeeze
  // CHECK-NOT: onnx.Unsqueeze
  // CHECK: return %[[F]], %[[S]], %[[U]]
  %c = onnx.Constant {value = dense<1.0> : tensor<2x2x2xf32>} : () -> tensor<2x2x2xf32>
  %0 = onnx.Flatten %c {axis = 1 : i64} : (tensor<2x2x2xf32>) -> tensor<2x4xf32>
  %v = onnx.Constant {value = dense<[[7], [8], [9]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
  %none = onnx.NoValue : () -> none
  %1 = onnx.Squeeze %v, %none : (tensor<3x1xi64>, none) -> tensor<3xi64>
  %axes = onnx.Constant {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %2 = onnx.Unsqueeze %1, %axes : (tensor<3xi64>, tensor<1xi64>) -> tensor<1x3xi64>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<3xi64>, tensor<1x3xi64>
}

// -----

// CHECK-LABEL: func.func @identity
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
func.func @identity(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // CHECK-NOT: onnx.Identity
  // CHECK: return %[[X]]
  %0 = onnx.Identity %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %1 = onnx.Identity %0 : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xf32>)
func.func @cast(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<3xi64>, tensor<2xi32>, tensor<2xi64>) {
  // CHECK-DAG: %[[WIDE:.+]] = onnx.Constant {value = dense<[-1, 2, 3]> : tensor<3xi64>}
  // CHECK-DAG: %[[NARROW:.+]] = onnx.Constant {value = dense<[1, -1]> : tensor<2xi32>}
  // CHECK-DAG: %[[F:.+]] = onnx.Constant {value = dense<[1.500000e+00, -2.500000e+00]> : tensor<2xf32>}
  // Float to integer is left to the lowering.
  // CHECK-DAG: %[[FI:.+]] = onnx.Cast %[[F]] {to = 7 : i64}
  // CHECK: return %[[X]], %[[WIDE]], %[[NARROW]], %[[FI]]
  %0 = onnx.Cast %x {to = 1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %i = onnx.Constant {value = dense<[-1, 2, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %1 = onnx.Cast %i {to = 7 : i64} : (tensor<3xi32>) -> tensor<3xi64>
  %l = onnx.Constant {value = dense<[1, 4294967295]> : tensor<2xi64>} : () -> tensor<2xi64>
  %2 = onnx.Cast %l {to = 6 : i64} : (tensor<2xi64>) -> tensor<2xi32>
  %f = onnx.Constant {value = dense<[1.5, -2.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %3 = onnx.Cast %f {to = 7 : i64} : (tensor<2xf32>) -> tensor<2xi64>
  return %0, %1, %2, %3 : tensor<?x3xf32>, tensor<3xi64>, tensor<2xi32>, tensor<2xi64>
}

// -----

// Unsigned sources zero-extend; a cast to bool is "not zero".
// CHECK-LABEL: func.func @cast_unsigned_and_bool
func.func @cast_unsigned_and_bool() -> (tensor<2xi64>, tensor<3xi1>) {
  // CHECK-DAG: %[[U:.+]] = onnx.Constant {value = dense<[255, 1]> : tensor<2xi64>}
  // CHECK-DAG: %[[B:.+]] = onnx.Constant {value = dense<[true, false, true]> : tensor<3xi1>}
  // CHECK: return %[[U]], %[[B]]
  %u = onnx.Constant {value = dense<[255, 1]> : tensor<2xui8>} : () -> tensor<2xui8>
  %0 = onnx.Cast %u {to = 7 : i64} : (tensor<2xui8>) -> tensor<2xi64>
  %i = onnx.Constant {value = dense<[2, 0, -4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %1 = onnx.Cast %i {to = 9 : i64} : (tensor<3xi64>) -> tensor<3xi1>
  return %0, %1 : tensor<2xi64>, tensor<3xi1>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.+]]: tensor<2x?x4xf32>)
func.func @transpose(%x: tensor<2x?x4xf32>) -> (tensor<2x?x4xf32>, tensor<4x?x2xf32>, tensor<?x2x4xf32>) {
  // CHECK-DAG: %[[REV:.+]] = onnx.Transpose %[[X]] : (tensor<2x?x4xf32>) -> tensor<4x?x2xf32>
  // CHECK-DAG: %[[SWAP:.+]] = onnx.Transpose %[[X]] {perm = array<i64: 1, 0, 2>}
  // CHECK: return %[[X]], %[[REV]], %[[SWAP]]
  %0 = onnx.Transpose %x {perm = array<i64: 0, 1, 2>} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
  %1 = onnx.Transpose %x : (tensor<2x?x4xf32>) -> tensor<4x?x2xf32>
  %2 = onnx.Transpose %x {perm = array<i64: 1, 0, 2>} : (tensor<2x?x4xf32>) -> tensor<?x2x4xf32>
  return %0, %1, %2 : tensor<2x?x4xf32>, tensor<4x?x2xf32>, tensor<?x2x4xf32>
}

// -----

// CHECK-LABEL: func.func @integer_arithmetic
func.func @integer_arithmetic() -> (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi32>) {
  // CHECK-DAG: %[[ADD:.+]] = onnx.Constant {value = dense<[8, 2, 10]> : tensor<3xi64>}
  // CHECK-DAG: %[[SUB:.+]] = onnx.Constant {value = dense<[6, -2, 6]> : tensor<3xi64>}
  // CHECK-DAG: %[[MUL:.+]] = onnx.Constant {value = dense<[7, 0, 16]> : tensor<3xi64>}
  // Integer Div truncates toward zero.
  // CHECK-DAG: %[[DIV:.+]] = onnx.Constant {value = dense<[7, 0, -4]> : tensor<3xi64>}
  // CHECK-DAG: %[[NEG:.+]] = onnx.Constant {value = dense<[-1, 0, 5]> : tensor<3xi32>}
  // CHECK-NOT: onnx.Add
  // CHECK-NOT: onnx.Sub
  // CHECK-NOT: onnx.Mul
  // CHECK-NOT: onnx.Div
  // CHECK-NOT: onnx.Neg
  // CHECK: return %[[ADD]], %[[SUB]], %[[MUL]], %[[DIV]], %[[NEG]]
  %a = onnx.Constant {value = dense<[7, 0, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %b = onnx.Constant {value = dense<[1, 2, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %one = onnx.Constant {value = dense<1> : tensor<3xi64>} : () -> tensor<3xi64>
  %m2 = onnx.Constant {value = dense<[1, 2, -2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = onnx.Add %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %1 = onnx.Sub %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %2 = onnx.Mul %a, %b : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %3 = onnx.Div %a, %m2 : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %n = onnx.Constant {value = dense<[1, 0, -5]> : tensor<3xi32>} : () -> tensor<3xi32>
  %4 = onnx.Neg %n : (tensor<3xi32>) -> tensor<3xi32>
  %5 = onnx.Mul %0, %one : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  return %5, %1, %2, %3, %4 : tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi32>
}

// -----

// Unsigned Div divides unsigned.
// CHECK-LABEL: func.func @unsigned_div
func.func @unsigned_div() -> tensor<2xui8> {
  // CHECK: %[[C:.+]] = onnx.Constant {value = dense<[100, 127]> : tensor<2xui8>}
  // CHECK: return %[[C]]
  %a = onnx.Constant {value = dense<[200, 255]> : tensor<2xui8>} : () -> tensor<2xui8>
  %b = onnx.Constant {value = dense<2> : tensor<2xui8>} : () -> tensor<2xui8>
  %0 = onnx.Div %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  return %0 : tensor<2xui8>
}

// -----

// A scalar operand broadcasts; a non-splat of another shape does not fold.
// CHECK-LABEL: func.func @integer_broadcast
func.func @integer_broadcast() -> (tensor<3xi64>, tensor<2x3xi64>) {
  // CHECK-DAG: %[[S:.+]] = onnx.Constant {value = dense<[2, 3, 4]> : tensor<3xi64>}
  // CHECK-DAG: %[[B:.+]] = onnx.Add %{{.*}}, %{{.*}} : (tensor<2x1xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  // CHECK: return %[[S]], %[[B]]
  %a = onnx.Constant {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %one = onnx.Constant {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.Add %a, %one : (tensor<3xi64>, tensor<i64>) -> tensor<3xi64>
  %c = onnx.Constant {value = dense<[[10], [20]]> : tensor<2x1xi64>} : () -> tensor<2x1xi64>
  %1 = onnx.Add %c, %a : (tensor<2x1xi64>, tensor<3xi64>) -> tensor<2x3xi64>
  return %0, %1 : tensor<3xi64>, tensor<2x3xi64>
}

// -----

// No fold: division by zero, floats, and non-constants.
// CHECK-LABEL: func.func @arithmetic_not_folded
func.func @arithmetic_not_folded(%x: tensor<2xi64>) -> (tensor<2xi64>, tensor<2xf32>, tensor<2xi64>) {
  // CHECK: onnx.Div
  // CHECK: onnx.Add %{{.*}}, %{{.*}} : (tensor<2xf32>, tensor<2xf32>)
  // CHECK: onnx.Mul
  %a = onnx.Constant {value = dense<[4, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  %z = onnx.Constant {value = dense<[2, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Div %a, %z : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %f = onnx.Constant {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = onnx.Add %f, %f : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = onnx.Mul %x, %a : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0, %1, %2 : tensor<2xi64>, tensor<2xf32>, tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @neg_float
func.func @neg_float() -> tensor<2xf32> {
  // CHECK: %[[C:.+]] = onnx.Constant {value = dense<[-1.500000e+00, 0.000000e+00]> : tensor<2xf32>}
  // CHECK: return %[[C]]
  %f = onnx.Constant {value = dense<[1.5, -0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = onnx.Neg %f : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[X:.+]]: tensor<2x3xf32>, %[[D:.+]]: tensor<?xi64>)
func.func @concat(%x: tensor<2x3xf32>, %d: tensor<?xi64>) -> (tensor<5xi64>, tensor<2x3xf32>, tensor<?xi64>) {
  // CHECK-DAG: %[[C:.+]] = onnx.Constant {value = dense<[1, 2, 3, -1, 0]> : tensor<5xi64>}
  // CHECK-DAG: %[[DYN:.+]] = onnx.Concat %{{.*}}, %[[D]]
  // CHECK: return %[[C]], %[[X]], %[[DYN]]
  %a = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = onnx.Constant {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %c = onnx.Constant {value = dense<[-1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Concat %a, %b, %c {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<5xi64>
  %1 = onnx.Concat %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = onnx.Concat %a, %d {axis = 0 : i64} : (tensor<2xi64>, tensor<?xi64>) -> tensor<?xi64>
  return %0, %1, %2 : tensor<5xi64>, tensor<2x3xf32>, tensor<?xi64>
}

// -----

// CHECK-LABEL: func.func @gather
func.func @gather() -> (tensor<i64>, tensor<2xi64>, tensor<2xi64>) {
  // CHECK-DAG: %[[S:.+]] = onnx.Constant {value = dense<40> : tensor<i64>}
  // CHECK-DAG: %[[V:.+]] = onnx.Constant {value = dense<[40, 10]> : tensor<2xi64>}
  // Out of range: not folded.
  // CHECK-DAG: %[[OOB:.+]] = onnx.Gather
  // CHECK: return %[[S]], %[[V]], %[[OOB]]
  %data = onnx.Constant {value = dense<[10, 20, 30, 40]> : tensor<4xi64>} : () -> tensor<4xi64>
  %i = onnx.Constant {value = dense<3> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.Gather %data, %i {axis = 0 : i64} : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
  %j = onnx.Constant {value = dense<[-1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %1 = onnx.Gather %data, %j {axis = 0 : i64} : (tensor<4xi64>, tensor<2xi32>) -> tensor<2xi64>
  %k = onnx.Constant {value = dense<[0, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %2 = onnx.Gather %data, %k {axis = 0 : i64} : (tensor<4xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0, %1, %2 : tensor<i64>, tensor<2xi64>, tensor<2xi64>
}

// -----

// CHECK-LABEL: func.func @constant_of_shape
func.func @constant_of_shape() -> (tensor<2x3xf32>, tensor<4xi64>, tensor<2048xf32>) {
  // CHECK-DAG: %[[Z:.+]] = onnx.Constant {value = dense<0.000000e+00> : tensor<2x3xf32>}
  // CHECK-DAG: %[[I:.+]] = onnx.Constant {value = dense<7> : tensor<4xi64>}
  // Over the fold size limit: kept.
  // CHECK-DAG: %[[BIG:.+]] = onnx.ConstantOfShape
  // CHECK: return %[[Z]], %[[I]], %[[BIG]]
  %s = onnx.Constant {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.ConstantOfShape %s : (tensor<2xi64>) -> tensor<2x3xf32>
  %t = onnx.Constant {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = onnx.ConstantOfShape %t {value = dense<7> : tensor<1xi64>} : (tensor<1xi64>) -> tensor<4xi64>
  %b = onnx.Constant {value = dense<2048> : tensor<1xi64>} : () -> tensor<1xi64>
  %2 = onnx.ConstantOfShape %b : (tensor<1xi64>) -> tensor<2048xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<4xi64>, tensor<2048xf32>
}

// -----

// Size folds for static shapes only.
// CHECK-LABEL: func.func @size
func.func @size(%x: tensor<2x3x4xf32>, %y: tensor<?x3xf32>) -> (tensor<i64>, tensor<i64>) {
  // CHECK-DAG: %[[N:.+]] = onnx.Constant {value = dense<24> : tensor<i64>}
  // CHECK-DAG: %[[DYN:.+]] = onnx.Size %{{.*}} : (tensor<?x3xf32>) -> tensor<i64>
  // CHECK: return %[[N]], %[[DYN]]
  %0 = onnx.Size %x : (tensor<2x3x4xf32>) -> tensor<i64>
  %1 = onnx.Size %y : (tensor<?x3xf32>) -> tensor<i64>
  return %0, %1 : tensor<i64>, tensor<i64>
}

// -----

// Equal constants are uniqued by the canonicalizer.
// CHECK-LABEL: func.func @constant_dedup
func.func @constant_dedup() -> (tensor<2xi64>, tensor<2xi64>) {
  // CHECK: %[[C:.+]] = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>}
  // CHECK-NOT: onnx.Constant
  // CHECK: return %[[C]], %[[C]]
  %a = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = onnx.Constant {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  return %a, %b : tensor<2xi64>, tensor<2xi64>
}

// -----

// A string constant reshapes like any other.
// CHECK-LABEL: func.func @reshape_strings
// CHECK: %[[C:.+]] = onnx.Constant {value = dense<{{\[}}["a", "b"], ["c", "d"]]> : tensor<2x2x!onnx.string>}
// CHECK: return %[[C]]
func.func @reshape_strings() -> tensor<2x2x!onnx.string> {
  %c = onnx.Constant {value = dense<["a", "b", "c", "d"]> : tensor<4x!onnx.string>} : () -> tensor<4x!onnx.string>
  %s = onnx.Constant {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = onnx.Reshape %c, %s : (tensor<4x!onnx.string>, tensor<2xi64>) -> tensor<2x2x!onnx.string>
  return %0 : tensor<2x2x!onnx.string>
}

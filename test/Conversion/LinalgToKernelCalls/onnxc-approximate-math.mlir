// RUN: onnx-opt %s -split-input-file -onnxc-approximate-math | FileCheck %s

// f32 erf becomes arithmetic (no libm call left for it); f64 erf stays.
// CHECK-LABEL: func.func @erf
// CHECK-NOT: math.erf %{{.+}} : f32
// CHECK: arith.cmpf olt, %arg0
// CHECK: math.erf %{{.+}} : f64
func.func @erf(%x: f32, %y: f64) -> (f32, f64) {
  %a = math.erf %x : f32
  %b = math.erf %y : f64
  return %a, %b : f32, f64
}

// -----

// f32 exp: n = floor(x log2(e) + 1/2), a polynomial in the remainder, times
// 2^n built from the exponent bits; overflow, underflow and NaN selected last.
// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NOT: math.exp
// CHECK: %[[N:.+]] = math.floor
// CHECK: arith.fptosi %[[N]] : f32 to i32
// CHECK: arith.shli
// CHECK: arith.bitcast %{{.+}} : i32 to f32
// CHECK: arith.cmpf ogt, %[[X]]
// CHECK: arith.cmpf olt, %[[X]]
// CHECK: %[[NAN:.+]] = arith.cmpf uno, %[[X]], %[[X]]
// CHECK: %[[R:.+]] = arith.select %[[NAN]], %[[X]]
// CHECK: return %[[R]]
func.func @exp(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// -----

// f32 tanh (a vector too): the odd polynomial below 0.625 in magnitude, else
// 1 - 2 / (e^2|x| + 1) with the sign of x, through the same exp expansion.
// CHECK-LABEL: func.func @tanh
// CHECK-SAME: (%[[X:.+]]: vector<4xf32>)
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK: %[[ABS:.+]] = math.absf %[[X]] : vector<4xf32>
// CHECK: math.floor %{{.+}} : vector<4xf32>
// CHECK: %[[LARGE:.+]] = math.copysign %{{.+}}, %[[X]] : vector<4xf32>
// CHECK: %[[SMALL:.+]] = arith.cmpf olt, %[[ABS]]
// CHECK: arith.select %[[SMALL]], %{{.+}}, %[[LARGE]] : vector<4xi1>, vector<4xf32>
func.func @tanh(%x: vector<4xf32>) -> vector<4xf32> {
  %y = math.tanh %x : vector<4xf32>
  return %y : vector<4xf32>
}

// -----

// Other element types keep their math ops (libm's f64 functions).
// CHECK-LABEL: func.func @f64
// CHECK: math.exp %{{.+}} : f64
// CHECK: math.tanh %{{.+}} : f64
// CHECK: math.exp %{{.+}} : f16
func.func @f64(%x: f64, %h: f16) -> (f64, f64, f16) {
  %a = math.exp %x : f64
  %b = math.tanh %x : f64
  %c = math.exp %h : f16
  return %a, %b, %c : f64, f64, f16
}

// RUN: onnx-opt %s -onnxc-approximate-math | FileCheck %s

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

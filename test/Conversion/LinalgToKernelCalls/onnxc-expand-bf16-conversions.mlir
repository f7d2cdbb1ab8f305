// RUN: onnx-opt %s -split-input-file -onnxc-expand-bf16-conversions | FileCheck %s

// f32 -> bf16 becomes integer rounding on the bits (no truncf left for LLVM
// to turn into a __truncsfbf2 call); f32 -> f16 stays a truncf.
// CHECK-LABEL: func.func @trunc
// CHECK-NOT: arith.truncf %arg0 : f32 to bf16
// CHECK: arith.bitcast %arg0 : f32 to i32
// CHECK: arith.shrui
// CHECK: arith.bitcast %{{.+}} : i16 to bf16
// CHECK: arith.truncf %arg0 : f32 to f16
func.func @trunc(%x: f32) -> (bf16, f16) {
  %a = arith.truncf %x : f32 to bf16
  %b = arith.truncf %x : f32 to f16
  return %a, %b : bf16, f16
}

// -----

// Vectors too, as LLVM would see them after vectorizing a loop.
// CHECK-LABEL: func.func @trunc_vector
// CHECK-NOT: arith.truncf
// CHECK: arith.bitcast %arg0 : vector<8xf32> to vector<8xi32>
func.func @trunc_vector(%x: vector<8xf32>) -> vector<8xbf16> {
  %a = arith.truncf %x : vector<8xf32> to vector<8xbf16>
  return %a : vector<8xbf16>
}

// -----

// bf16 -> f32 is a shift of the bits.
// CHECK-LABEL: func.func @ext
// CHECK-NOT: arith.extf
// CHECK: arith.bitcast %arg0 : bf16 to i16
// CHECK: arith.shli
func.func @ext(%x: bf16) -> f32 {
  %a = arith.extf %x : bf16 to f32
  return %a : f32
}

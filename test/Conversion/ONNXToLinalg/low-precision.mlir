// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// The float8, float4 and 2- and 4-bit integer types
// (passes/Conversion/ONNXToLinalg/LowPrecision.cpp): held as one byte (the
// signatures become i8), converted by integer operations on the bits.

// To float8: the f32 bits rounded in i32, the code truncated to its byte.
// CHECK-LABEL: func.func @cast_to_float8
// CHECK-SAME: -> tensor<4xi8>
// CHECK: linalg.generic
// CHECK: %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// CHECK: arith.shrui
// CHECK: %[[CODE:.+]] = arith.trunci %{{.+}} : i32 to i8
// CHECK: linalg.yield %[[CODE]] : i8
func.func @cast_to_float8(%x: tensor<4xf32>) -> tensor<4xf8E4M3FN> {
  %0 = onnx.Cast %x {to = 17 : i64, saturate = 0 : i64} : (tensor<4xf32>) -> tensor<4xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

// From float8: significand times a power of two, exactly, then to f16.
// CHECK-LABEL: func.func @cast_from_float8
// CHECK-SAME: (%{{.+}}: tensor<4xi8>) -> tensor<4xf16>
// CHECK: linalg.generic
// CHECK: arith.extui %{{.+}} : i8 to i32
// CHECK: arith.uitofp %{{.+}} : i32 to f32
// CHECK: arith.mulf
// CHECK: arith.truncf %{{.+}} : f32 to f16
func.func @cast_from_float8(%x: tensor<4xf8E5M2>) -> tensor<4xf16> {
  %0 = onnx.Cast %x {to = 10 : i64} : (tensor<4xf8E5M2>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// To int4: the low four bits of the i64 value, sign-extended in the byte.
// CHECK-LABEL: func.func @cast_to_int4
// CHECK-SAME: -> tensor<5xi8>
// CHECK: linalg.generic
// CHECK: %[[I:.+]] = arith.fptosi %{{.+}} : f32 to i64
// CHECK: %[[B:.+]] = arith.trunci %[[I]] : i64 to i8
// CHECK: %[[H:.+]] = arith.shli %[[B]], %[[C4:.+]] : i8
// CHECK: arith.shrsi %[[H]], %[[C4]] : i8
func.func @cast_to_int4(%x: tensor<5xf32>) -> tensor<5xi4> {
  %0 = onnx.Cast %x {to = 22 : i64} : (tensor<5xf32>) -> tensor<5xi4>
  return %0 : tensor<5xi4>
}

// -----

// A uint2 is its zero-extended byte: to uint8 it is kept as is.
// CHECK-LABEL: func.func @cast_uint2_to_uint8
// CHECK-SAME: (%[[X:.+]]: tensor<7xi8>) -> tensor<7xi8>
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0(%[[IN:.+]]: i8, %{{.+}}: i8):
// CHECK-NEXT: linalg.yield %[[IN]] : i8
func.func @cast_uint2_to_uint8(%x: tensor<7xui2>) -> tensor<7xui8> {
  %0 = onnx.Cast %x {to = 2 : i64} : (tensor<7xui2>) -> tensor<7xui8>
  return %0 : tensor<7xui8>
}

// -----

// FLOAT8E8M0 rounds up its exponent field when the fraction is not zero.
// CHECK-LABEL: func.func @cast_to_e8m0
// CHECK: linalg.generic
// CHECK: arith.andi %{{.+}}, %c8388607_i32 : i32
// CHECK: arith.trunci %{{.+}} : i32 to i8
func.func @cast_to_e8m0(%x: tensor<4xf32>) -> tensor<4x!onnx.f8E8M0> {
  %0 = onnx.Cast %x {to = 24 : i64} : (tensor<4xf32>) -> tensor<4x!onnx.f8E8M0>
  return %0 : tensor<4x!onnx.f8E8M0>
}

// -----

// To int4, QuantizeLinear saturates to [-8, 7]; the zero point is its byte.
// CHECK-LABEL: func.func @quantize_int4
// CHECK-SAME: (%{{.+}}: tensor<4xf32>, %{{.+}}: tensor<f32>, %{{.+}}: tensor<i8>) -> tensor<4xi8>
// CHECK: linalg.generic
// CHECK: math.roundeven
// CHECK: arith.maximumf %{{.+}}, %{{.+}} : f32
// CHECK: arith.minimumf %{{.+}}, %{{.+}} : f32
// CHECK: arith.fptosi %{{.+}} : f32 to i8
func.func @quantize_int4(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i4>) -> tensor<4xi4> {
  %0 = onnx.QuantizeLinear %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i4>) -> tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

// From float8, DequantizeLinear subtracts the zero point in f32.
// CHECK-LABEL: func.func @dequantize_float8
// CHECK: linalg.generic
// CHECK: %[[D:.+]] = arith.subf %{{.+}}, %{{.+}} : f32
// CHECK: arith.mulf %[[D]], %{{.+}} : f32
func.func @dequantize_float8(%x: tensor<4xf8E4M3FN>, %s: tensor<f32>, %z: tensor<f8E4M3FN>) -> tensor<4xf32> {
  %0 = onnx.DequantizeLinear %x, %s, %z : (tensor<4xf8E4M3FN>, tensor<f32>, tensor<f8E4M3FN>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

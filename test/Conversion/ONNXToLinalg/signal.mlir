// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Window functions (passes/Conversion/ONNXToLinalg/Signal.cpp).

// A symmetric window divides by size - 1; the series is computed in f64.
// CHECK-LABEL: func.func @hann_symmetric
// CHECK: %[[SIZE:.+]] = arith.maxsi
// CHECK: %[[N:.+]] = arith.sitofp
// CHECK: %[[NM1:.+]] = arith.subf %[[N]], %cst
// CHECK: tensor.empty(%[[SIZE]]) : tensor<?xf32>
// CHECK: linalg.generic
// CHECK: arith.divf %{{.+}}, %[[NM1]] : f64
// CHECK: math.cos
// CHECK: arith.truncf %{{.+}} : f64 to f32
func.func @hann_symmetric(%n: tensor<i32>) -> tensor<?xf32> {
  %0 = onnx.HannWindow %n {periodic = 0 : i64} : (tensor<i32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Blackman adds a second cosine term; a constant size gives a static result.
// CHECK-LABEL: func.func @blackman
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<10xf64>)
// CHECK-COUNT-2: math.cos
func.func @blackman() -> tensor<10xf64> {
  %n = onnx.Constant {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %0 = onnx.BlackmanWindow %n {output_datatype = 11 : i64} : (tensor<i64>) -> tensor<10xf64>
  return %0 : tensor<10xf64>
}

// -----

// DFT sums the signal along the axis for each frequency, the angle taken
// from k * n mod N; a real signal has no imaginary part to read.
// CHECK-LABEL: func.func @dft
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x10x2xf32>)
// CHECK: %[[K:.+]] = linalg.index 1
// CHECK: scf.for %[[N:.+]] = %c0 to %c10
// CHECK: %[[KN:.+]] = arith.muli %[[K]], %[[N]]
// CHECK: arith.remui %[[KN]], %c10
// CHECK: math.cos
// CHECK: math.sin
// CHECK: arith.negf
// CHECK: arith.select
func.func @dft(%x: tensor<1x10x1xf32>) -> tensor<1x10x2xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.DFT %x, %none : (tensor<1x10x1xf32>, none) -> tensor<1x10x2xf32>
  return %0 : tensor<1x10x2xf32>
}

// -----

// The inverse of a onesided DFT: 6 frequencies of a 10-point Hermitian
// spectrum; those past 10 / 2 are the conjugates of 10 - k; the result is
// the real part.
// CHECK-LABEL: func.func @dft_inverse_onesided
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x10x1xf32>)
// CHECK: scf.for %{{.+}} = %c0 to %c10
// CHECK: %[[MIRRORED:.+]] = arith.cmpi ugt, %{{.+}}, %c5
// CHECK: arith.subi %c10
// CHECK: arith.negf
// CHECK: arith.select %[[MIRRORED]]
// CHECK: arith.divf
// CHECK-NOT: arith.select
// CHECK: linalg.yield
func.func @dft_inverse_onesided(%x: tensor<1x6x2xf32>) -> tensor<1x10x1xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.DFT %x, %none {inverse = 1 : i64, onesided = 1 : i64} : (tensor<1x6x2xf32>, none) -> tensor<1x10x1xf32>
  return %0 : tensor<1x10x1xf32>
}

// -----

// STFT transforms each windowed frame; frames and bins come from run-time
// scalars.
// CHECK-LABEL: func.func @stft
// CHECK: %[[STEP:.+]] = arith.index_cast
// CHECK: arith.divsi %{{.+}}, %[[STEP]]
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x?x9x2xf32>)
// CHECK: %[[F:.+]] = linalg.index 1
// CHECK: arith.muli %[[F]], %[[STEP]]
// CHECK: scf.for
// CHECK: tensor.extract %{{.+}}[%{{.+}}] : tensor<16xf32>
// CHECK: arith.mulf
func.func @stft(%x: tensor<1x128x1xf32>, %s: tensor<i64>, %w: tensor<16xf32>) -> tensor<1x?x9x2xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.STFT %x, %s, %w, %none : (tensor<1x128x1xf32>, tensor<i64>, tensor<16xf32>, none) -> tensor<1x?x9x2xf32>
  return %0 : tensor<1x?x9x2xf32>
}

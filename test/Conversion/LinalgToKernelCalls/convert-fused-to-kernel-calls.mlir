// RUN: onnx-opt %s -split-input-file -convert-fused-to-kernel-calls -cse | FileCheck %s

// A qmatmul with a constant weight, u8 output and Relu: flags = relu (1) +
// constant w (4) + signed w (16) + u8 output (2 << 5) = 85; the symbol names
// the output and bias element types.
// CHECK-LABEL: func.func @qmatmul
// CHECK: %[[W:.+]] = memref.get_global @w
// CHECK: %[[CW:.+]] = memref.cast %[[W]] : memref<64x16xi8> to memref<?x?xi8, strided<[?, ?], offset: ?>>
// CHECK: %[[FLAGS:.+]] = arith.constant 85 : i64
// CHECK: call @onnxc_kernel_qmatmul_i8_i32(%{{.+}}, %[[CW]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
// CHECK-NOT: fused.qmatmul
memref.global "private" constant @w : memref<64x16xi8> = dense<1>
func.func @qmatmul(%x: memref<4x64xi8>, %z: memref<1xi32>, %b: memref<16xi32>, %s: memref<16xf32>, %y: memref<4x16xi8>) {
  %w = memref.get_global @w : memref<64x16xi8>
  fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%y) {w_signed, relu} : memref<4x64xi8>, memref<64x16xi8>, memref<1xi32>, memref<1xi32>, memref<16xi32>, memref<16xf32>, memref<1xi32>, memref<4x16xi8>
  return
}

// -----

// A qconv to i32 of signed x: strides and dilations, then flags = signed x
// (8) + i32 output (0).
// CHECK-LABEL: func.func @qconv
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 8 : i64
// CHECK: call @onnxc_kernel_qconv2d_i32_i32({{.*}}, %[[TWO]], %[[TWO]], %[[ONE]], %[[ONE]], %[[FLAGS]])
func.func @qconv(%x: memref<1x3x8x8xi8>, %w: memref<4x3x3x3xi8>, %z: memref<1xi32>, %b: memref<0xi32>, %s: memref<0xf32>, %y: memref<1x4x3x3xi32>) {
  fused.qconv %x, %w, %z, %z, %b, %s, %z outs(%y) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, x_signed} : memref<1x3x8x8xi8>, memref<4x3x3x3xi8>, memref<1xi32>, memref<1xi32>, memref<0xi32>, memref<0xf32>, memref<1xi32>, memref<1x4x3x3xi32>
  return
}

// -----

// f32 output with an f32 bias: flags = f32 output (1 << 5) + f32 bias (128).
// CHECK-LABEL: func.func @qmatmul_f32
// CHECK: %[[FLAGS:.+]] = arith.constant 160 : i64
// CHECK: call @onnxc_kernel_qmatmul_f32_f32({{.*}}, %[[FLAGS]])
func.func @qmatmul_f32(%x: memref<4x64xi8>, %w: memref<64x16xi8>, %z: memref<1xi32>, %b: memref<16xf32>, %s: memref<1xf32>, %y: memref<4x16xf32>) {
  fused.qmatmul %x, %w, %z, %z, %b, %s, %z outs(%y) : memref<4x64xi8>, memref<64x16xi8>, memref<1xi32>, memref<1xi32>, memref<16xf32>, memref<1xf32>, memref<1xi32>, memref<4x16xf32>
  return
}

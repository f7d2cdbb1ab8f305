// RUN: onnx-opt %s -split-input-file -onnxc-flatten-memref-globals | FileCheck %s
// RUN: onnx-opt %s -split-input-file "-onnxc-flatten-memref-globals=min-byte-size=16" | FileCheck %s --check-prefix=CHECK-BYTES

// CHECK: memref.global "private" constant @w : memref<6xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]>
// CHECK: memref.global "private" constant @v : memref<3xf32>
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" constant @v : memref<3xf32> = dense<1.0>

// CHECK-LABEL: func.func @use
// CHECK: %[[FLAT:.+]] = memref.get_global @w : memref<6xf32>
// CHECK: %[[W:.+]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK: return %[[W]]
func.func @use() -> memref<2x3xf32> {
  %0 = memref.get_global @w : memref<2x3xf32>
  return %0 : memref<2x3xf32>
}

// -----

// Constant globals of min-byte-size bytes or more become 64-byte aligned i8
// arrays read through a view; splats and mutable globals stay as they are.
// CHECK-BYTES: memref.global "private" constant @w : memref<24xi8> = dense<[0, 0, -128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, -128, 64, 0, 0, -96, 64, 0, 0, -64, 64]> {alignment = 64 : i64}
// CHECK-BYTES: memref.global "private" constant @s : memref<8xf32> = dense<1.000000e+00>
// CHECK-BYTES: memref.global "private" @m : memref<8xf32>
memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
memref.global "private" constant @s : memref<8xf32> = dense<1.0>
memref.global "private" @m : memref<8xf32> = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>

// CHECK-BYTES-LABEL: func.func @use_bytes
// CHECK-BYTES: %[[RAW:.+]] = memref.get_global @w : memref<24xi8>
// CHECK-BYTES: %[[FLAT:.+]] = memref.view %[[RAW]][%{{.+}}][] : memref<24xi8> to memref<6xf32>
// CHECK-BYTES: %[[W:.+]] = memref.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK-BYTES: return %[[W]]
func.func @use_bytes() -> memref<2x3xf32> {
  %0 = memref.get_global @w : memref<2x3xf32>
  return %0 : memref<2x3xf32>
}

// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// fused.matmul_nbits (passes/Conversion/ONNXToLinalg/NBits.cpp): a call of
// the runtime's 4-bit kernel on A's rows ([2, ?, 64] collapsed to [?, 64]),
// the packed bytes and the zero points flattened to 1-D bytes (signless,
// as the pass makes the function's unsigned arguments), the result
// allocated in its own shape and passed collapsed the same way; then K,
// block_size and the flags (3: zero points and a bias).

// CHECK-LABEL: func.func private @onnxc_kernel_matmul_nbits_f32
// CHECK-SAME: (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xi8, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>, memref<?xi8, strided<[?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, i64, i64, i64)
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[A:.+]]: tensor<2x?x64xf32>, %[[B:.+]]: tensor<8x2x16xi8>, %{{.+}}: tensor<16xf32>, %[[Z:.+]]: tensor<8xi8>, %{{.+}}: tensor<8xf32>)
// CHECK-DAG: %[[K:.+]] = arith.constant 64 : i64
// CHECK-DAG: %[[BLOCK:.+]] = arith.constant 32 : i64
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 3 : i64
// CHECK: tensor.collapse_shape %[[A]] {{\[\[}}0, 1], [2]] : tensor<2x?x64xf32> into tensor<?x64xf32>
// CHECK: tensor.collapse_shape %[[B]] {{\[\[}}0, 1, 2]] : tensor<8x2x16xi8> into tensor<256xi8>
// CHECK: bufferization.to_memref %[[Z]] read_only
// CHECK: %[[Y:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<2x?x8xf32>
// CHECK: memref.collapse_shape %[[Y]] {{\[\[}}0, 1], [2]] : memref<2x?x8xf32> into memref<?x8xf32>
// CHECK: call @onnxc_kernel_matmul_nbits_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[K]], %[[BLOCK]], %[[FLAGS]])
// CHECK: %[[T:.+]] = bufferization.to_tensor %[[Y]] restrict writable : memref<2x?x8xf32>
// CHECK: return %[[T]]
func.func @rows(%a: tensor<2x?x64xf32>, %b: tensor<8x2x16xui8>, %s: tensor<16xf32>, %z: tensor<8xui8>, %c: tensor<8xf32>) -> tensor<2x?x8xf32> {
  %y = fused.matmul_nbits %a, %b, %s zero_points(%z) bias(%c) {K = 64 : i64, N = 8 : i64, bits = 4 : i64, block_size = 32 : i64} : (tensor<2x?x64xf32>, tensor<8x2x16xui8>, tensor<16xf32>, tensor<8xui8>, tensor<8xf32>) -> tensor<2x?x8xf32>
  return %y : tensor<2x?x8xf32>
}

// -----

// One row of A ([40], K not a multiple of the 16-value blocks), no zero
// points or bias: one-element placeholders, flags 0; A and Y gain a unit
// row.

// CHECK-LABEL: func.func @vector
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0> : tensor<1xi8>
// CHECK-DAG: %[[NOBIAS:.+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [1, 40] : tensor<40xf32> into tensor<1x40xf32>
// CHECK: bufferization.to_memref %[[ZERO]] read_only
// CHECK: bufferization.to_memref %[[NOBIAS]] read_only
// CHECK: %[[Y:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK: memref.expand_shape %[[Y]] {{\[\[}}0, 1]] output_shape [1, 4] : memref<4xf32> into memref<1x4xf32>
// CHECK: call @onnxc_kernel_matmul_nbits_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
func.func @vector(%a: tensor<40xf32>, %b: tensor<4x3x8xui8>, %s: tensor<12xf32>) -> tensor<4xf32> {
  %y = fused.matmul_nbits %a, %b, %s {K = 40 : i64, N = 4 : i64, bits = 4 : i64, block_size = 16 : i64} : (tensor<40xf32>, tensor<4x3x8xui8>, tensor<12xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

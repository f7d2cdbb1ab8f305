// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// fused.attention (passes/Conversion/ONNXToLinalg/Attention.cpp): a call of
// the runtime kernel on read-only buffers of the operands, the mask with
// leading unit dims up to rank 4 ([S, T] here), and a new result buffer.

// CHECK-LABEL: func.func private @onnxc_kernel_attention_f32
// CHECK-SAME: (memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>, i64, f32, i64)
// CHECK-LABEL: func.func @attention_mask
// CHECK-SAME: (%[[Q:.+]]: tensor<?x8x16xf32>, %[[K:.+]]: tensor<?x6x16xf32>, %[[V:.+]]: tensor<?x6x8xf32>, %[[M:.+]]: tensor<8x6xf32>)
// CHECK-DAG: %[[HEADS:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[SCALE:.+]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 1 : i64
// CHECK: %[[M4:.+]] = tensor.expand_shape %[[M]] {{\[}}[0, 1, 2], [3]] output_shape [1, 1, 8, 6] : tensor<8x6xf32> into tensor<1x1x8x6xf32>
// CHECK: bufferization.to_memref %[[Q]] read_only
// CHECK: bufferization.to_memref %[[K]] read_only
// CHECK: bufferization.to_memref %[[V]] read_only
// CHECK: bufferization.to_memref %[[M4]] read_only
// CHECK: %[[B:.+]] = tensor.dim %[[Q]], %{{.+}} : tensor<?x8x16xf32>
// CHECK: %[[Y:.+]] = memref.alloc(%[[B]]) {alignment = 64 : i64} : memref<?x8x8xf32>
// CHECK: call @onnxc_kernel_attention_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[HEADS]], %[[SCALE]], %[[FLAGS]])
// CHECK: %[[T:.+]] = bufferization.to_tensor %[[Y]] restrict writable : memref<?x8x8xf32>
// CHECK: return %[[T]]
func.func @attention_mask(%q: tensor<?x8x16xf32>, %k: tensor<?x6x16xf32>, %v: tensor<?x6x8xf32>, %m: tensor<8x6xf32>) -> tensor<?x8x8xf32> {
  %y = fused.attention %q, %k, %v, %m {num_heads = 2 : i64, scale = 0.25 : f32} : (tensor<?x8x16xf32>, tensor<?x6x16xf32>, tensor<?x6x8xf32>, tensor<8x6xf32>) -> tensor<?x8x8xf32>
  return %y : tensor<?x8x8xf32>
}

// -----

// Without a mask: a placeholder buffer that the kernel does not read
// (flags 0).
// CHECK-LABEL: func.func @attention_no_mask
// CHECK: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: memref.alloca() : memref<1x1x1x1xf32>
// CHECK: call @onnxc_kernel_attention_f32({{.+}}, %[[FLAGS]])
func.func @attention_no_mask(%q: tensor<1x8x16xf32>) -> tensor<1x8x16xf32> {
  %none = onnx.NoValue : () -> none
  %y = fused.attention %q, %q, %q, %none {num_heads = 4 : i64, scale = 0.5 : f32} : (tensor<1x8x16xf32>, tensor<1x8x16xf32>, tensor<1x8x16xf32>, none) -> tensor<1x8x16xf32>
  return %y : tensor<1x8x16xf32>
}

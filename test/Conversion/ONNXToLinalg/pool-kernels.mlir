// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// 2-D f32 pooling as calls of the runtime's kernel (Pool.cpp): no padded
// copy, no fill; kh, kw, sh, sw, dh, dw, top, left, bottom, right, flags.

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[X:.+]]: tensor<?x8x8x8xf32>)
// CHECK-NOT: linalg.fill
// CHECK: %[[Y:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x8x4x4xf32>
// CHECK: bufferization.to_memref %[[X]] read_only
// CHECK: %[[YD:.+]] = memref.cast %[[Y]] : memref<?x8x4x4xf32> to memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: call @onnxc_kernel_pool2d_f32(%{{.+}}, %[[YD]], %c3_i64, %c3_i64, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64)
// CHECK: bufferization.to_tensor %[[Y]] restrict writable
func.func @max_pool(%x: tensor<?x8x8x8xf32>) -> tensor<?x8x4x4xf32> {
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x8x8x8xf32>) -> (tensor<?x8x4x4xf32>, tensor<?x8x4x4xi64>)
  return %0 : tensor<?x8x4x4xf32>
}

// -----

// count_include_pad: flags 3 (average, padding counts); the ceil_mode
// overhang is not a pad the kernel is told about.
// CHECK-LABEL: func.func @average_pool_include_pad_ceil
// CHECK-NOT: linalg.pooling_nchw_sum
// CHECK: call @onnxc_kernel_pool2d_f32(%{{.+}}, %{{.+}}, %c3_i64, %c3_i64, %c3_i64, %c3_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c3_i64)
func.func @average_pool_include_pad_ceil(%x: tensor<1x1x1x6xf32>) -> tensor<1x1x1x3xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 3, 3>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x1x1x6xf32>) -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// -----

// Padding not counted: flags 1; pads 0 2 1 0 (top, left, bottom, right).
// CHECK-LABEL: func.func @average_pool_exclude_pad
// CHECK: call @onnxc_kernel_pool2d_f32(%{{.+}}, %{{.+}}, %c1_i64, %c3_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %c0_i64, %c2_i64, %c1_i64, %c0_i64, %c1_i64)
func.func @average_pool_exclude_pad(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x6x5xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 1, 3>, pads = array<i64: 0, 2, 1, 0>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x6x5xf32>
  return %0 : tensor<1x1x6x5xf32>
}

// -----

// SAME over `?` dims: the pads computed at run time are passed along.
// CHECK-LABEL: func.func @averagepool_same_dynamic
// CHECK: %[[TOTAL:.+]] = arith.maxsi
// CHECK: %[[HALF:.+]] = arith.divsi %[[TOTAL]], %c2
// CHECK: %[[BEGIN:.+]] = arith.subi %[[TOTAL]], %[[HALF]]
// CHECK: %[[TOP:.+]] = arith.index_cast %[[BEGIN]] : index to i64
// CHECK: call @onnxc_kernel_pool2d_f32(%{{.+}}, %{{.+}}, %c2_i64, %c2_i64, %c1_i64, %c1_i64, %c1_i64, %c1_i64, %[[TOP]], %{{.+}}, %{{.+}}, %{{.+}}, %c1_i64)
func.func @averagepool_same_dynamic(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32> {
  %0 = onnx.AveragePool %x {auto_pad = "SAME_LOWER", kernel_shape = array<i64: 2, 2>} : (tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}

// -----

// A used Indices, an unsigned element type and 1-D windows keep the linalg
// lowering.
// CHECK-LABEL: func.func @not_kernels
// CHECK-NOT: call @onnxc_kernel_pool2d_f32
// CHECK: linalg.generic
// CHECK: arith.maxui
// CHECK: linalg.pooling_ncw_max
// CHECK: linalg.generic
// CHECK: arith.cmpf ogt
// CHECK-NOT: call @onnxc_kernel_pool2d_f32
func.func @not_kernels(%u: tensor<1x2x8x8xui8>, %x: tensor<1x3x8xf32>, %z: tensor<1x2x5x5xf32>) -> (tensor<1x2x4x4xui8>, tensor<1x3x4xf32>, tensor<1x2x3x3xi64>) {
  %0, %i0 = onnx.MaxPool %u {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xui8>) -> (tensor<1x2x4x4xui8>, tensor<1x2x4x4xi64>)
  %1, %i1 = onnx.MaxPool %x {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x3x8xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xi64>)
  %2, %i2 = onnx.MaxPool %z {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  return %0, %1, %i2 : tensor<1x2x4x4xui8>, tensor<1x3x4xf32>, tensor<1x2x3x3xi64>
}

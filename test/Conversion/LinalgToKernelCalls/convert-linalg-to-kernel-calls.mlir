// RUN: onnx-opt %s -split-input-file -convert-linalg-to-kernel-calls -cse | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: memref<4x8xf32>, %[[B:.+]]: memref<8x16xf32>, %[[C:.+]]: memref<4x16xf32>)
// CHECK-DAG: %[[CA:.+]] = memref.cast %[[A]] : memref<4x8xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-DAG: %[[CB:.+]] = memref.cast %[[B]]
// CHECK-DAG: %[[CC:.+]] = memref.cast %[[C]]
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_matmul_f32(%[[CA]], %[[CB]], %[[CC]], %[[FLAGS]])
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// The transposed operand is a strided view.
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK: %[[T:.+]] = memref.transpose %{{.+}} (d0, d1) -> (d1, d0)
// CHECK: %[[CB:.+]] = memref.cast %[[T]]
// CHECK: call @onnxc_kernel_matmul_f32(%{{.+}}, %[[CB]], %{{.+}}, %{{.+}})
func.func @matmul_transpose_b(%a: memref<4x8xf32>, %b: memref<16x8xf32>, %c: memref<4x16xf32>) {
  linalg.matmul_transpose_b ins(%a, %b : memref<4x8xf32>, memref<16x8xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @batch_matmul
// CHECK: call @onnxc_kernel_batch_matmul_f32
func.func @batch_matmul(%a: memref<2x4x8xf32>, %b: memref<2x8x16xf32>, %c: memref<2x4x16xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf32>, memref<2x8x16xf32>) outs(%c : memref<2x4x16xf32>)
  return
}

// -----

// Strides, then dilations, then the flags.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32(%{{.+}}, %{{.+}}, %{{.+}}, %[[TWO]], %[[TWO]], %[[ONE]], %[[ONE]], %{{.+}})
func.func @conv(%x: memref<1x3x9x9xf32>, %w: memref<8x3x3x3xf32>, %y: memref<1x8x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  return
}

// -----

// CHECK-LABEL: func.func @depthwise
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32
func.func @depthwise(%x: memref<1x8x6x6xf32>, %w: memref<8x3x3xf32>, %y: memref<1x8x4x4xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  return
}

// -----

// A grouped convolution on its split dims, with the [G, M/G] bias broadcast
// before it (passed collapsed to one vector: flags 8 | 1) and Relu after.
#bias = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped_bias_relu
// CHECK-SAME: (%[[X:.+]]: memref<1x4x2x6x6xf32>, %[[W:.+]]: memref<4x3x2x3x3xf32>, %[[B:.+]]: memref<4x3xf32>, %[[Y:.+]]: memref<1x4x3x4x4xf32>)
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[CX:.+]] = memref.cast %[[X]] : memref<1x4x2x6x6xf32> to memref<?x?x?x?x?xf32, strided<[?, ?, ?, ?, ?], offset: ?>>
// CHECK-DAG: %[[FLAT:.+]] = memref.collapse_shape %[[B]] {{\[}}[0, 1]] : memref<4x3xf32> into memref<12xf32>
// CHECK-DAG: %[[CB:.+]] = memref.cast %[[FLAT]] : memref<12xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-DAG: %[[CY:.+]] = memref.cast %[[Y]]
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 9 : i64
// CHECK: call @onnxc_kernel_conv2d_ngchw_gfchw_f32(%[[CX]], %{{.+}}, %[[CY]], %[[CB]], %[[CY]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]], %{{.+}}, %{{.+}})
// CHECK-NOT: linalg.generic
func.func @grouped_bias_relu(%x: memref<1x4x2x6x6xf32>, %w: memref<4x3x2x3x3xf32>, %b: memref<4x3xf32>, %y: memref<1x4x3x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<4x3xf32>) outs(%y : memref<1x4x3x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x4x2x6x6xf32>, memref<4x3x2x3x3xf32>) outs(%y : memref<1x4x3x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%y : memref<1x4x3x4x4xf32>) outs(%y : memref<1x4x3x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A broadcast along the filters of each group only is no bias of the
// kernel: it stays, and the call accumulates onto it (flags 0).
#bias = affine_map<(d0, d1, d2, d3, d4) -> (d2)>
#id = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped_not_bias
// CHECK: linalg.generic
// CHECK: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_conv2d_ngchw_gfchw_f32({{.+}}, %[[FLAGS]], {{.+}})
func.func @grouped_not_bias(%x: memref<1x4x2x6x6xf32>, %w: memref<4x3x2x3x3xf32>, %b: memref<3xf32>, %y: memref<1x4x3x4x4xf32>) {
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<3xf32>) outs(%y : memref<1x4x3x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x4x2x6x6xf32>, memref<4x3x2x3x3xf32>) outs(%y : memref<1x4x3x4x4xf32>)
  return
}

// -----

// Other element types and tensors stay.
// CHECK-LABEL: func.func @not_f32
// CHECK: linalg.matmul
// CHECK-NOT: call
func.func @not_f32(%a: memref<4x8xf64>, %b: memref<8x16xf64>, %c: memref<4x16xf64>) {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x16xf64>) outs(%c : memref<4x16xf64>)
  return
}

// -----

// CHECK-LABEL: func.func @tensors
// CHECK: linalg.matmul
func.func @tensors(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %c: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%c : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

// -----

// A constant weight sets the flag of its operand (4: the second input).
// CHECK-LABEL: func.func @constant_weight
// CHECK: %[[FLAGS:.+]] = arith.constant 4 : i64
// CHECK: call @onnxc_kernel_matmul_f32(%{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
memref.global "private" constant @weight : memref<8x16xf32> = dense<1.0>
func.func @constant_weight(%a: memref<4x8xf32>, %c: memref<4x16xf32>) {
  %b = memref.get_global @weight : memref<8x16xf32>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// A part of a constant at static offsets (one direction of a recurrent op's
// weights) is constant too, transposed or not, also inside a loop.
// CHECK-LABEL: func.func @constant_subview
// CHECK: scf.for
// CHECK: %[[FLAGS:.+]] = arith.constant 4 : i64
// CHECK: call @onnxc_kernel_matmul_f32(%{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
memref.global "private" constant @weights : memref<2x16x8xf32> = dense<1.0>
func.func @constant_subview(%a: memref<4x8xf32>, %c: memref<4x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %w = memref.get_global @weights : memref<2x16x8xf32>
  %r = memref.subview %w[1, 0, 0] [1, 16, 8] [1, 1, 1] : memref<2x16x8xf32> to memref<16x8xf32, strided<[8, 1], offset: 128>>
  scf.for %i = %c0 to %c3 step %c1 {
    linalg.matmul_transpose_b ins(%a, %r : memref<4x8xf32>, memref<16x8xf32, strided<[8, 1], offset: 128>>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// At a dynamic offset the part may differ from call to call: not constant.
// CHECK-LABEL: func.func @dynamic_subview
// CHECK: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_matmul_f32(%{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]])
memref.global "private" constant @table : memref<2x8x16xf32> = dense<1.0>
func.func @dynamic_subview(%a: memref<4x8xf32>, %c: memref<4x16xf32>, %i: index) {
  %w = memref.get_global @table : memref<2x8x16xf32>
  %b = memref.subview %w[%i, 0, 0] [1, 8, 16] [1, 1, 1] : memref<2x8x16xf32> to memref<8x16xf32, strided<[16, 1], offset: ?>>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32, strided<[16, 1], offset: ?>>) outs(%c : memref<4x16xf32>)
  return
}

// The bias broadcast before and the in-place Clip after go into the call:
// flags 8 (bias) | 1 (clamp), the bounds last.
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_bias_clip
// CHECK-SAME: (%[[X:.+]]: memref<1x3x9x9xf32>, %[[W:.+]]: memref<8x3x3x3xf32>, %[[B:.+]]: memref<8xf32>, %[[Y:.+]]: memref<1x8x7x7xf32>)
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[CB:.+]] = memref.cast %[[B]] : memref<8xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-DAG: %[[CY:.+]] = memref.cast %[[Y]]
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 9 : i64
// CHECK-DAG: %[[LO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[HI:.+]] = arith.constant 6.000000e+00 : f32
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32(%{{.+}}, %{{.+}}, %[[CY]], %[[CB]], %[[CY]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[FLAGS]], %[[LO]], %[[HI]])
// CHECK-NOT: linalg.generic
func.func @conv_bias_clip(%x: memref<1x3x9x9xf32>, %w: memref<8x3x3x3xf32>, %b: memref<8xf32>, %y: memref<1x8x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<8xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x7x7xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y : memref<1x8x7x7xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    %1 = arith.minimumf %0, %six : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A residual added in place, then Relu: flags 16 | 1, no bias (the
// one-element stand-in).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise_residual_relu
// CHECK-SAME: (%[[X:.+]]: memref<1x8x6x6xf32>, %[[W:.+]]: memref<8x3x3xf32>, %[[R:.+]]: memref<1x8x4x4xf32>, %[[Y:.+]]: memref<1x8x4x4xf32>)
// CHECK-DAG: %[[NONE:.+]] = memref.get_global @__onnxc_no_bias
// CHECK-DAG: %[[CR:.+]] = memref.cast %[[R]]
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 17 : i64
// CHECK-DAG: %[[HI:.+]] = arith.constant 0x7F800000 : f32
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32({{.+}}, %[[CR]], {{.+}}, %[[FLAGS]], %{{.+}}, %[[HI]], %{{.+}}, %{{.+}})
// CHECK-NOT: linalg.generic
func.func @depthwise_residual_relu(%x: memref<1x8x6x6xf32>, %w: memref<8x3x3xf32>, %r: memref<1x8x4x4xf32>, %y: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%r, %y : memref<1x8x4x4xf32>, memref<1x8x4x4xf32>) outs(%y : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// A reader of the output between the convolution and the Relu keeps both
// apart; so does an activation that is not a clamp (flags 0).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @not_fused
// CHECK: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32({{.+}}, %[[FLAGS]], {{.+}})
// CHECK: memref.copy
// CHECK: linalg.generic
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32({{.+}}, %[[FLAGS]], {{.+}})
// CHECK: linalg.generic
// CHECK: math.tanh
func.func @not_fused(%x: memref<1x3x9x9xf32>, %w: memref<8x3x3x3xf32>, %y: memref<1x8x7x7xf32>, %z: memref<1x8x7x7xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x7x7xf32>)
  memref.copy %y, %z : memref<1x8x7x7xf32> to memref<1x8x7x7xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y : memref<1x8x7x7xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%z : memref<1x8x7x7xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%z : memref<1x8x7x7xf32>) outs(%z : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A residual Add + Relu into a new buffer: the convolution (and its bias)
// write that buffer instead of their own, which goes, and the Add joins the
// call (flags 8 | 16 | 1).
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_into_consumer_buffer
// CHECK-SAME: (%[[X:.+]]: memref<?x3x9x9xf32>, %[[W:.+]]: memref<8x3x3x3xf32>, %[[B:.+]]: memref<8xf32>, %[[R:.+]]: memref<?x8x7x7xf32>)
// CHECK: %[[Z:.+]] = memref.alloc(%{{.+}}) : memref<?x8x7x7xf32>
// CHECK-NOT: memref.alloc
// CHECK-DAG: %[[CZ:.+]] = memref.cast %[[Z]]
// CHECK-DAG: %[[CR:.+]] = memref.cast %[[R]]
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 25 : i64
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32(%{{.+}}, %{{.+}}, %[[CZ]], %{{.+}}, %[[CR]], {{.+}}, %[[FLAGS]], {{.+}})
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.dealloc
// CHECK: return %[[Z]]
func.func @conv_into_consumer_buffer(%x: memref<?x3x9x9xf32>, %w: memref<8x3x3x3xf32>, %b: memref<8xf32>, %r: memref<?x8x7x7xf32>) -> memref<?x8x7x7xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x3x9x9xf32>
  %y = memref.alloc(%n) : memref<?x8x7x7xf32>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<8xf32>) outs(%y : memref<?x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<?x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%y : memref<?x8x7x7xf32>)
  %z = memref.alloc(%n) : memref<?x8x7x7xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y, %r : memref<?x8x7x7xf32>, memref<?x8x7x7xf32>) outs(%z : memref<?x8x7x7xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %y : memref<?x8x7x7xf32>
  return %z : memref<?x8x7x7xf32>
}

// -----

// A padded copy: zeros, then the image into the interior, in one call; the
// same through a copy of a filled buffer, which goes once nothing reads it.
// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[X:.+]]: memref<?x3x4x4xf32>, %[[Y:.+]]: memref<?x3x4x4xf32>)
// CHECK: %[[P:.+]] = memref.alloc(%{{.+}}) : memref<?x3x6x7xf32>
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[CX:.+]] = memref.cast %[[X]]
// CHECK-DAG: %[[CP:.+]] = memref.cast %[[P]]
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: call @onnxc_kernel_pad_f32(%[[CX]], %[[CP]], %[[ONE]], %[[TWO]], %[[ZERO]])
// CHECK: %[[Q:.+]] = memref.alloc(%{{.+}}) : memref<?x3x6x7xf32>
// CHECK-NOT: memref.copy
// CHECK: call @onnxc_kernel_pad_f32(%{{.+}}, %{{.+}}, %[[ONE]], %[[TWO]], %[[ZERO]])
// CHECK-NOT: memref.copy
// CHECK-NOT: linalg.fill
// CHECK: return %[[P]], %[[Q]]
func.func @pad(%x: memref<?x3x4x4xf32>, %y: memref<?x3x4x4xf32>) -> (memref<?x3x6x7xf32>, memref<?x3x6x7xf32>) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %n = memref.dim %x, %c0 : memref<?x3x4x4xf32>
  %p = memref.alloc(%n) : memref<?x3x6x7xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<?x3x6x7xf32>)
  %pv = memref.subview %p[0, 0, 1, 2] [%n, 3, 4, 4] [1, 1, 1, 1] : memref<?x3x6x7xf32> to memref<?x3x4x4xf32, strided<[126, 42, 7, 1], offset: 9>>
  memref.copy %x, %pv : memref<?x3x4x4xf32> to memref<?x3x4x4xf32, strided<[126, 42, 7, 1], offset: 9>>
  %z = memref.alloc(%n) : memref<?x3x6x7xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<?x3x6x7xf32>)
  %m = memref.dim %z, %c0 : memref<?x3x6x7xf32>
  %q = memref.alloc(%m) : memref<?x3x6x7xf32>
  memref.copy %z, %q : memref<?x3x6x7xf32> to memref<?x3x6x7xf32>
  %qv = memref.subview %q[0, 0, 1, 2] [%n, 3, 4, 4] [1, 1, 1, 1] : memref<?x3x6x7xf32> to memref<?x3x4x4xf32, strided<[126, 42, 7, 1], offset: 9>>
  memref.copy %y, %qv : memref<?x3x4x4xf32> to memref<?x3x4x4xf32, strided<[126, 42, 7, 1], offset: 9>>
  memref.dealloc %z : memref<?x3x6x7xf32>
  return %p, %q : memref<?x3x6x7xf32>, memref<?x3x6x7xf32>
}

// -----

// The convolution's buffer is shared with a later convolution, which
// overwrites it first: this one still writes the Add's buffer, and the
// shared one stays for the later one. A read of it before it is overwritten
// again keeps the Add apart.
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @shared_conv_buffer
// CHECK-SAME: (%[[X:.+]]: memref<1x3x9x9xf32>, %[[W:.+]]: memref<8x3x3x3xf32>, %[[B:.+]]: memref<8xf32>, %[[R:.+]]: memref<1x8x7x7xf32>)
// CHECK: %[[Y:.+]] = memref.alloc() : memref<1x8x7x7xf32>
// CHECK: %[[Z:.+]] = memref.alloc() : memref<1x8x7x7xf32>
// CHECK: %[[CZ:.+]] = memref.cast %[[Z]]
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32(%{{.+}}, %{{.+}}, %[[CZ]], {{.+}}, %c25_i64, {{.+}})
// CHECK: %[[CY:.+]] = memref.cast %[[Y]]
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32(%{{.+}}, %{{.+}}, %[[CY]], {{.+}}, %c8_i64, {{.+}})
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[Y]], %[[Z]] : {{.+}}) outs(%[[Z]] :
// CHECK: return %[[Z]]
func.func @shared_conv_buffer(%x: memref<1x3x9x9xf32>, %w: memref<8x3x3x3xf32>, %b: memref<8xf32>, %r: memref<1x8x7x7xf32>) -> memref<1x8x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x8x7x7xf32>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<8xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x7x7xf32>)
  %z = memref.alloc() : memref<1x8x7x7xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y, %r : memref<1x8x7x7xf32>, memref<1x8x7x7xf32>) outs(%z : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.addf %in, %in_1 : f32
    %1 = arith.maximumf %0, %zero : f32
    linalg.yield %1 : f32
  }
  // The later convolution: its bias overwrites %y, so the first may leave it.
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<8xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x3x9x9xf32>, memref<8x3x3x3xf32>) outs(%y : memref<1x8x7x7xf32>)
  // Reads %y and %z, writes %z: not in place on %y, and %y is read later.
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y, %z : memref<1x8x7x7xf32>, memref<1x8x7x7xf32>) outs(%z : memref<1x8x7x7xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %0 = arith.addf %in, %in_1 : f32
    linalg.yield %0 : f32
  }
  memref.copy %y, %r : memref<1x8x7x7xf32> to memref<1x8x7x7xf32>
  return %z : memref<1x8x7x7xf32>
}

// -----

// A depthwise convolution reads the zero padding of its input implicitly:
// the kernel takes the image and the pads (top 1, left 2), and the padded
// copy goes.
// CHECK-LABEL: func.func @depthwise_implicit_pad
// CHECK-SAME: (%[[X:.+]]: memref<1x8x4x4xf32>, %[[W:.+]]: memref<8x3x3xf32>, %[[Y:.+]]: memref<1x8x4x6xf32>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: onnxc_kernel_pad_f32
// CHECK-DAG: %[[CX:.+]] = memref.cast %[[X]]
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[TWO:.+]] = arith.constant 2 : i64
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32(%[[CX]], {{.+}}, %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], %[[TWO]], {{.+}})
// CHECK-NOT: memref.dealloc
func.func @depthwise_implicit_pad(%x: memref<1x8x4x4xf32>, %w: memref<8x3x3xf32>, %y: memref<1x8x4x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = memref.alloc() : memref<1x8x6x8xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x6x8xf32>)
  %pv = memref.subview %p[0, 0, 1, 2] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x8xf32> to memref<1x8x4x4xf32, strided<[384, 48, 8, 1], offset: 10>>
  memref.copy %x, %pv : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[384, 48, 8, 1], offset: 10>>
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : memref<1x8x6x8xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x6xf32>)
  memref.dealloc %p : memref<1x8x6x8xf32>
  return
}

// -----

// When the padded image is the buffer B that the convolution then writes
// (bufferization reuses it after the copy), the convolution, its epilogue
// and B's later users get a new buffer; B is freed after the call.
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise_implicit_pad_reused
// CHECK: %[[B:.+]] = memref.alloc() : memref<1x8x4x4xf32>
// CHECK-NOT: onnxc_kernel_pad_f32
// CHECK: %[[NEW:.+]] = memref.alloc() : memref<1x8x4x4xf32>
// CHECK-DAG: %[[CB:.+]] = memref.cast %[[B]]
// CHECK-DAG: %[[CNEW:.+]] = memref.cast %[[NEW]]
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 9 : i64
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32(%[[CB]], %{{.+}}, %[[CNEW]], {{.+}}, %[[FLAGS]], {{.+}})
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NOT: linalg.generic
// CHECK: return %[[NEW]]
func.func @depthwise_implicit_pad_reused(%x: memref<1x8x4x4xf32>, %w: memref<8x3x3xf32>, %bias: memref<8xf32>) -> memref<1x8x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %b = memref.alloc() : memref<1x8x4x4xf32>
  memref.copy %x, %b : memref<1x8x4x4xf32> to memref<1x8x4x4xf32>
  %p = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x6x6xf32>)
  %pv = memref.subview %p[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %b, %pv : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%bias : memref<8xf32>) outs(%b : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%b : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<1x8x4x4xf32>) outs(%b : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %p : memref<1x8x6x6xf32>
  return %b : memref<1x8x4x4xf32>
}

// -----

// The padding stays explicit (pads 0 0) where the padded buffer is read by
// another op too, where the pad value is not zero, and where the image is
// written between the copy and the convolution.
// CHECK-LABEL: func.func @depthwise_explicit_pad
// CHECK: call @onnxc_kernel_pad_f32
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32({{.+}}, %[[ZERO]], %[[ZERO]], {{.+}})
// CHECK: memref.copy
// CHECK: call @onnxc_kernel_pad_f32
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32({{.+}}, %[[ZERO]], %[[ZERO]], {{.+}})
// CHECK: call @onnxc_kernel_pad_f32
// CHECK: linalg.fill
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32({{.+}}, %[[ZERO]], %[[ZERO]], {{.+}})
func.func @depthwise_explicit_pad(%x: memref<1x8x4x4xf32>, %w: memref<8x3x3xf32>, %y: memref<1x8x4x4xf32>, %z: memref<1x8x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %p = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%p : memref<1x8x6x6xf32>)
  %pv = memref.subview %p[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %x, %pv : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%p, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  memref.copy %p, %z : memref<1x8x6x6xf32> to memref<1x8x6x6xf32>
  %q = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%one : f32) outs(%q : memref<1x8x6x6xf32>)
  %qv = memref.subview %q[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %x, %qv : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%q, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  %r = memref.alloc() : memref<1x8x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%r : memref<1x8x6x6xf32>)
  %rv = memref.subview %r[0, 0, 1, 1] [1, 8, 4, 4] [1, 1, 1, 1] : memref<1x8x6x6xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  memref.copy %x, %rv : memref<1x8x4x4xf32> to memref<1x8x4x4xf32, strided<[288, 36, 6, 1], offset: 7>>
  linalg.fill ins(%one : f32) outs(%x : memref<1x8x4x4xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%r, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  memref.dealloc %p : memref<1x8x6x6xf32>
  memref.dealloc %q : memref<1x8x6x6xf32>
  memref.dealloc %r : memref<1x8x6x6xf32>
  return
}

// -----

// HardSwish right after a depthwise convolution joins its epilogue: flags
// 8 | 32, alpha and beta after the clamp's bounds. After a plain
// convolution it joins too, as ONNX's (alpha 1/6, beta 1/2), which that
// kernel applies without arguments: flags 32.
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise_hardswish
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 40 : i64
// CHECK-DAG: %[[ALPHA:.+]] = arith.constant 0.166666672 : f32
// CHECK-DAG: %[[BETA:.+]] = arith.constant 5.000000e-01 : f32
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32({{.+}}, %[[FLAGS]], %{{.+}}, %{{.+}}, %[[ALPHA]], %[[BETA]])
// CHECK-NOT: linalg.generic
// CHECK: %[[PLAIN:.+]] = arith.constant 32 : i64
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32({{.+}}, %[[PLAIN]], %{{.+}}, %{{.+}}) :
// CHECK-NOT: linalg.generic
func.func @depthwise_hardswish(%x: memref<1x8x6x6xf32>, %w: memref<8x3x3xf32>, %b: memref<8xf32>, %y: memref<1x8x4x4xf32>, %w2: memref<8x8x1x1xf32>, %z: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %alpha = arith.constant 0.166666672 : f32
  %beta = arith.constant 0.5 : f32
  linalg.generic {indexing_maps = [#bias, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%b : memref<8xf32>) outs(%y : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y : memref<1x8x4x4xf32>) outs(%y : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %alpha : f32
    %1 = arith.addf %0, %beta : f32
    %2 = arith.minimumf %1, %one : f32
    %3 = arith.maximumf %2, %zero : f32
    %4 = arith.mulf %in, %3 : f32
    linalg.yield %4 : f32
  }
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%y, %w2 : memref<1x8x4x4xf32>, memref<8x8x1x1xf32>) outs(%z : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%z : memref<1x8x4x4xf32>) outs(%z : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %alpha : f32
    %1 = arith.addf %0, %beta : f32
    %2 = arith.minimumf %1, %one : f32
    %3 = arith.maximumf %2, %zero : f32
    %4 = arith.mulf %in, %3 : f32
    linalg.yield %4 : f32
  }
  return
}

// -----

// A HardSwish of another alpha (1/5) is no epilogue of the plain kernel,
// which applies ONNX's only.
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @plain_other_hardswish
// CHECK: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32({{.+}}, %[[FLAGS]], {{.+}})
// CHECK: linalg.generic
func.func @plain_other_hardswish(%x: memref<1x8x4x4xf32>, %w: memref<8x8x1x1xf32>, %z: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %alpha = arith.constant 0.2 : f32
  %beta = arith.constant 0.5 : f32
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x4x4xf32>, memref<8x8x1x1xf32>) outs(%z : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%z : memref<1x8x4x4xf32>) outs(%z : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %alpha : f32
    %1 = arith.addf %0, %beta : f32
    %2 = arith.minimumf %1, %one : f32
    %3 = arith.maximumf %2, %zero : f32
    %4 = arith.mulf %in, %3 : f32
    linalg.yield %4 : f32
  }
  return
}

// -----

// A body that is almost HardSwish (the gate's upper bound 2) is no epilogue
// of the depthwise kernel (flags 0).
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise_not_hardswish
// CHECK: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_depthwise_conv2d_nchw_chw_f32({{.+}}, %[[FLAGS]], {{.+}})
// CHECK: linalg.generic
func.func @depthwise_not_hardswish(%x: memref<1x8x6x6xf32>, %w: memref<8x3x3xf32>, %y: memref<1x8x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %alpha = arith.constant 0.166666672 : f32
  %beta = arith.constant 0.5 : f32
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<1x8x6x6xf32>, memref<8x3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
    ins(%y : memref<1x8x4x4xf32>) outs(%y : memref<1x8x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.mulf %in, %alpha : f32
    %1 = arith.addf %0, %beta : f32
    %2 = arith.minimumf %1, %two : f32
    %3 = arith.maximumf %2, %zero : f32
    %4 = arith.mulf %in, %3 : f32
    linalg.yield %4 : f32
  }
  return
}

// -----

// A constant B is packed for the module's GEMM ISA (generic: 8-column
// slivers; k = 2 is one reduction block, of 8 at most): row p of the sliver is B's row p,
// zero padded. The original global goes with its last reader.
// CHECK-LABEL: module attributes {onnxc.gemm_isa = "generic"}
// CHECK-NOT: memref.global "private" constant @w :
// CHECK: memref.global "private" constant @w_packed : memref<64xi8> = dense_resource<w_packed> {alignment = 64 : i64}
// CHECK-LABEL: func.func @packed_matmul
// CHECK: %[[RAW:.+]] = memref.get_global @w_packed : memref<64xi8>
// CHECK: %[[FLOATS:.+]] = memref.view %[[RAW]][%{{.+}}][] : memref<64xi8> to memref<16xf32>
// CHECK: %[[CB:.+]] = memref.cast %[[FLOATS]] : memref<16xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-DAG: %[[N:.+]] = arith.constant 3 : i64
// CHECK-DAG: %[[NR:.+]] = arith.constant 8 : i64
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 0 : i64
// CHECK: call @onnxc_kernel_matmul_packed_f32(%{{.+}}, %[[CB]], %{{.+}}, %[[N]], %[[NR]], %[[NR]], %[[FLAGS]])
// CHECK-NOT: linalg.matmul
// CHECK: w_packed: "0x04000000
// CHECK-SAME: 0000803F00000040000040400000000000000000000000000000000000000000000080400000A0400000C0400000000000000000000000000000000000000000"
module attributes {onnxc.gemm_isa = "generic"} {
  memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
  func.func @packed_matmul(%a: memref<5x2xf32>, %c: memref<5x3xf32>) {
    %b = memref.get_global @w : memref<2x3xf32>
    linalg.matmul ins(%a, %b : memref<5x2xf32>, memref<2x3xf32>) outs(%c : memref<5x3xf32>)
    return
  }
}

// -----

// B^T stored as bytes (the form onnxc-flatten-memref-globals leaves), read
// through a view and a reshape: packed as the B it is the transpose of
// (the same bytes as above). A global that another op still reads stays.
// CHECK-LABEL: module attributes {onnxc.gemm_isa = "generic"}
// CHECK: memref.global "private" constant @wt_packed : memref<64xi8>
// CHECK: memref.global "private" constant @wt : memref<24xi8>
// CHECK-LABEL: func.func @packed_matmul_transpose_b
// CHECK: call @onnxc_kernel_matmul_packed_f32
// CHECK: memref.copy
// CHECK: wt_packed: "0x04000000
// CHECK-SAME: 0000803F00000040000040400000000000000000000000000000000000000000000080400000A0400000C0400000000000000000000000000000000000000000"
module attributes {onnxc.gemm_isa = "generic"} {
  memref.global "private" constant @wt : memref<24xi8> = dense<[0, 0, -128, 63, 0, 0, -128, 64, 0, 0, 0, 64, 0, 0, -96, 64, 0, 0, 64, 64, 0, 0, -64, 64]> {alignment = 64 : i64}
  func.func @packed_matmul_transpose_b(%a: memref<5x2xf32>, %c: memref<5x3xf32>, %copy: memref<24xi8>) {
    %zero = arith.constant 0 : index
    %raw = memref.get_global @wt : memref<24xi8>
    %flat = memref.view %raw[%zero][] : memref<24xi8> to memref<6xf32>
    %bt = memref.expand_shape %flat [[0, 1]] output_shape [3, 2] : memref<6xf32> into memref<3x2xf32>
    linalg.matmul_transpose_b ins(%a, %bt : memref<5x2xf32>, memref<3x2xf32>) outs(%c : memref<5x3xf32>)
    %again = memref.get_global @wt : memref<24xi8>
    memref.copy %again, %copy : memref<24xi8> to memref<24xi8>
    return
  }
}

// -----

// AVX-512: 16 rows and 96 columns fit the 8 x 48 tile better than 14 x 32;
// a reduction of 600 is cut into two blocks of 304 (kc 256: three of 200).
// Unknown rows take the 8 x 48 tile where the columns fit it.
// CHECK-LABEL: module attributes {onnxc.gemm_isa = "avx512"}
// CHECK-LABEL: func.func @packed_matmul_wide
// CHECK-DAG: %[[NR:.+]] = arith.constant 48 : i64
// CHECK-DAG: %[[KC:.+]] = arith.constant 200 : i64
// CHECK: call @onnxc_kernel_matmul_packed_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[NR]], %[[KC]], %{{.+}})
// CHECK: call @onnxc_kernel_matmul_packed_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[NR]], %[[KC]], %{{.+}})
// CHECK-LABEL: func.func @packed_matmul_narrow
// CHECK-DAG: %[[NR:.+]] = arith.constant 32 : i64
// CHECK-DAG: %[[KC:.+]] = arith.constant 304 : i64
// CHECK: call @onnxc_kernel_matmul_packed_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[NR]], %[[KC]], %{{.+}})
module attributes {onnxc.gemm_isa = "avx512"} {
  memref.global "private" constant @w : memref<600x96xf32> = dense<1.0>
  memref.global "private" constant @v : memref<600x100xf32> = dense<1.0>
  func.func @packed_matmul_wide(%a: memref<16x600xf32>, %c: memref<16x96xf32>, %d: memref<?x600xf32>, %e: memref<?x96xf32>) {
    %b = memref.get_global @w : memref<600x96xf32>
    linalg.matmul ins(%a, %b : memref<16x600xf32>, memref<600x96xf32>) outs(%c : memref<16x96xf32>)
    linalg.matmul ins(%d, %b : memref<?x600xf32>, memref<600x96xf32>) outs(%e : memref<?x96xf32>)
    return
  }
  func.func @packed_matmul_narrow(%a: memref<16x600xf32>, %c: memref<16x100xf32>) {
    %b = memref.get_global @v : memref<600x100xf32>
    linalg.matmul ins(%a, %b : memref<16x600xf32>, memref<600x100xf32>) outs(%c : memref<16x100xf32>)
    return
  }
}

// -----

// A product of at most 4 rows (a batch-1 fully connected layer) keeps its
// constant B unpacked: the runtime's GEMV packs it in its own layout.
// CHECK-LABEL: func.func @few_rows_not_packed
// CHECK-NOT: onnxc_kernel_matmul_packed_f32
// CHECK: call @onnxc_kernel_matmul_f32
// CHECK-NOT: w_packed
module attributes {onnxc.gemm_isa = "avx512"} {
  memref.global "private" constant @w : memref<2x3xf32> = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]>
  func.func @few_rows_not_packed(%a: memref<4x2xf32>, %c: memref<4x3xf32>) {
    %b = memref.get_global @w : memref<2x3xf32>
    linalg.matmul ins(%a, %b : memref<4x2xf32>, memref<2x3xf32>) outs(%c : memref<4x3xf32>)
    return
  }
}

// -----

// On AVX-512, a plain convolution of small planes (8x8 digits, any batch)
// whose output keeps its image's size calls the small-plane kernel, which
// reads the padding implicitly (top 1, left 1) like the depthwise one: the
// padded copy goes. Planes of more than 64 pixels, and stride 2, keep the
// GEMM kernel and its padded copy.
// CHECK-LABEL: func.func @small_plane_conv
// CHECK-SAME: (%[[X:.+]]: memref<?x8x8x8xf32>, %[[W:.+]]: memref<16x8x3x3xf32>, %[[Y:.+]]: memref<?x16x8x8xf32>
// CHECK-NOT: onnxc_kernel_pad_f32
// CHECK-DAG: %[[CX:.+]] = memref.cast %[[X]]
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1 : i64
// CHECK: call @onnxc_kernel_conv2d_small_nchw_fchw_f32(%[[CX]], {{.+}}, %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], %[[ONE]], {{.+}})
// CHECK: call @onnxc_kernel_pad_f32
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32
// CHECK: call @onnxc_kernel_pad_f32
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32
module attributes {onnxc.gemm_isa = "avx512"} {
  func.func @small_plane_conv(%x: memref<?x8x8x8xf32>, %w: memref<16x8x3x3xf32>, %y: memref<?x16x8x8xf32>,
                              %a: memref<1x8x9x9xf32>, %b: memref<1x16x9x9xf32>, %c: memref<1x16x4x4xf32>) {
    %zero = arith.constant 0.0 : f32
    %c0 = arith.constant 0 : index
    %n = memref.dim %x, %c0 : memref<?x8x8x8xf32>
    %p = memref.alloc(%n) : memref<?x8x10x10xf32>
    linalg.fill ins(%zero : f32) outs(%p : memref<?x8x10x10xf32>)
    %pv = memref.subview %p[0, 0, 1, 1] [%n, 8, 8, 8] [1, 1, 1, 1] : memref<?x8x10x10xf32> to memref<?x8x8x8xf32, strided<[800, 100, 10, 1], offset: 11>>
    memref.copy %x, %pv : memref<?x8x8x8xf32> to memref<?x8x8x8xf32, strided<[800, 100, 10, 1], offset: 11>>
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<?x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%y : memref<?x16x8x8xf32>)
    memref.dealloc %p : memref<?x8x10x10xf32>
    %q = memref.alloc() : memref<1x8x11x11xf32>
    linalg.fill ins(%zero : f32) outs(%q : memref<1x8x11x11xf32>)
    %qv = memref.subview %q[0, 0, 1, 1] [1, 8, 9, 9] [1, 1, 1, 1] : memref<1x8x11x11xf32> to memref<1x8x9x9xf32, strided<[968, 121, 11, 1], offset: 12>>
    memref.copy %a, %qv : memref<1x8x9x9xf32> to memref<1x8x9x9xf32, strided<[968, 121, 11, 1], offset: 12>>
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%q, %w : memref<1x8x11x11xf32>, memref<16x8x3x3xf32>) outs(%b : memref<1x16x9x9xf32>)
    memref.dealloc %q : memref<1x8x11x11xf32>
    %r = memref.alloc() : memref<1x8x10x10xf32>
    linalg.fill ins(%zero : f32) outs(%r : memref<1x8x10x10xf32>)
    %rv = memref.subview %r[0, 0, 1, 1] [1, 8, 8, 8] [1, 1, 1, 1] : memref<1x8x10x10xf32> to memref<1x8x8x8xf32, strided<[800, 100, 10, 1], offset: 11>>
    %x0 = memref.subview %x[0, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : memref<?x8x8x8xf32> to memref<1x8x8x8xf32, strided<[512, 64, 8, 1]>>
    memref.copy %x0, %rv : memref<1x8x8x8xf32, strided<[512, 64, 8, 1]>> to memref<1x8x8x8xf32, strided<[800, 100, 10, 1], offset: 11>>
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%r, %w : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%c : memref<1x16x4x4xf32>)
    memref.dealloc %r : memref<1x8x10x10xf32>
    return
  }
}

// -----

// A small-plane convolution whose padded copy is also read by another op
// keeps that copy and the GEMM kernel: the small-plane kernel reads only an
// implicit padding.
// CHECK-LABEL: func.func @small_plane_conv_explicit_pad
// CHECK: call @onnxc_kernel_pad_f32
// CHECK-NOT: onnxc_kernel_conv2d_small_nchw_fchw_f32
// CHECK: call @onnxc_kernel_conv2d_nchw_fchw_f32
// CHECK: memref.copy
module attributes {onnxc.gemm_isa = "avx512"} {
  func.func @small_plane_conv_explicit_pad(%x: memref<1x8x8x8xf32>, %w: memref<16x8x3x3xf32>, %y: memref<1x16x8x8xf32>, %z: memref<1x8x10x10xf32>) {
    %zero = arith.constant 0.0 : f32
    %p = memref.alloc() : memref<1x8x10x10xf32>
    linalg.fill ins(%zero : f32) outs(%p : memref<1x8x10x10xf32>)
    %pv = memref.subview %p[0, 0, 1, 1] [1, 8, 8, 8] [1, 1, 1, 1] : memref<1x8x10x10xf32> to memref<1x8x8x8xf32, strided<[800, 100, 10, 1], offset: 11>>
    memref.copy %x, %pv : memref<1x8x8x8xf32> to memref<1x8x8x8xf32, strided<[800, 100, 10, 1], offset: 11>>
    linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : memref<1x8x10x10xf32>, memref<16x8x3x3xf32>) outs(%y : memref<1x16x8x8xf32>)
    memref.copy %p, %z : memref<1x8x10x10xf32> to memref<1x8x10x10xf32>
    memref.dealloc %p : memref<1x8x10x10xf32>
    return
  }
}

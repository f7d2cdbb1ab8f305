// RUN: onnx-opt %s -onnx-gpu-order-loops -split-input-file | FileCheck %s

// A depthwise convolution iterates (n, oh, ow, c, kh, kw): generalized and
// reordered to the output's (n, c, oh, ow), the window's dims last.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-DAG: #[[W:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise(%x: memref<?x144x58x58xf32>, %w: memref<144x3x3xf32>, %y: memref<?x144x56x56xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<?x144x58x58xf32>, memref<144x3x3xf32>) outs(%y : memref<?x144x56x56xf32>)
  return
}

// -----

// A column sum: the reduction moves after the parallel dim.
// CHECK-DAG: #[[X:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[S:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @column_sum
// CHECK: linalg.generic {indexing_maps = [#[[X]], #[[S]]], iterator_types = ["parallel", "reduction"]}
func.func @column_sum(%x: memref<64x128xf32>, %s: memref<128xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x128xf32>) outs(%s : memref<128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A sum over the outer dim that keeps it (an output index 0): reordered.
// CHECK-DAG: #[[M:.+]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-DAG: #[[R:.+]] = affine_map<(d0, d1) -> (0, d0)>
// CHECK-LABEL: func.func @keepdims
// CHECK: linalg.generic {indexing_maps = [#[[M]], #[[R]]], iterator_types = ["parallel", "reduction"]}
func.func @keepdims(%m: memref<4x8xf32>, %r: memref<1x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%m : memref<4x8xf32>) outs(%r : memref<1x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Already in order, or an output indexed by something else than dims and
// constants: left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: linalg.pooling_nchw_max
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}], iterator_types = ["reduction", "parallel"]}
func.func @left_alone(%x: memref<1x8x6x6xf32>, %k: memref<3x3xf32>, %y: memref<1x8x4x4xf32>, %m: memref<4x8xf32>, %r: memref<16xf32>) {
  linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %k : memref<1x8x6x6xf32>, memref<3x3xf32>) outs(%y : memref<1x8x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1 * 2)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%m : memref<4x8xf32>) outs(%r : memref<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return
}

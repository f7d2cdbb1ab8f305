// RUN: onnx-opt %s -convert-onnx-to-linalg="cpu-kernels=false" -split-input-file | FileCheck %s

// Pooling (passes/Conversion/ONNXToLinalg/Pool.cpp) on linalg ops; cpu-kernels.mlir
// has the calls of the runtime's kernel.

// CHECK-LABEL: func.func @max_pool
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[FILL:.+]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.+}} : tensor<?x8x10x10xf32>)
// CHECK: %[[PAD:.+]] = tensor.insert_slice %{{.+}} into %[[FILL]][0, 0, 1, 1]
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.+}} : tensor<?x8x4x4xf32>)
// CHECK: %[[WINDOW:.+]] = tensor.empty() : tensor<3x3xf32>
// CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PAD]], %[[WINDOW]] : tensor<?x8x10x10xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<?x8x4x4xf32>)
func.func @max_pool(%x: tensor<?x8x8x8xf32>) -> tensor<?x8x4x4xf32> {
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x8x8x8xf32>) -> (tensor<?x8x4x4xf32>, tensor<?x8x4x4xi64>)
  return %0 : tensor<?x8x4x4xf32>
}

// -----

// Unsigned integers pad with 0 and take the unsigned maximum in a generic
// with the loops of pooling_nchw_max.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-DAG: #[[WIN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
// CHECK-DAG: #[[OUT:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @max_pool_unsigned
// CHECK-SAME: (%{{.+}}: tensor<1x2x8x8xi8>) -> tensor<1x2x4x4xi8>
// CHECK: %[[ZERO:.+]] = arith.constant 0 : i8
// CHECK: linalg.fill ins(%[[ZERO]] : i8) outs(%{{.+}} : tensor<1x2x4x4xi8>)
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[WIN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.maxui
func.func @max_pool_unsigned(%x: tensor<1x2x8x8xui8>) -> tensor<1x2x4x4xui8> {
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xui8>) -> (tensor<1x2x4x4xui8>, tensor<1x2x4x4xi64>)
  return %0 : tensor<1x2x4x4xui8>
}

// -----

// ceil_mode pads the end so that the last window fits.
// CHECK-LABEL: func.func @max_pool_ceil
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [1, 2, 8, 8] [1, 1, 1, 1] : tensor<1x2x8x8xf32> into tensor<1x2x9x9xf32>
// CHECK: linalg.pooling_nchw_max
// CHECK-SAME: outs(%{{.+}} : tensor<1x2x4x4xf32>)
func.func @max_pool_ceil(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<1x2x8x8xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi64>)
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Without padding every window holds the whole kernel.
// CHECK-LABEL: func.func @average_pool
// CHECK: %[[AREA:.+]] = arith.constant 4.000000e+00 : f32
// CHECK: %[[SUM:.+]] = linalg.pooling_nchw_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x2x4x4xf32>)
// CHECK: arith.divf %{{.+}}, %[[AREA]]
func.func @average_pool(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Padding not counted, static dims: a constant tensor of per-window counts.
// CHECK-DAG: #[[SPATIAL:.+]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-LABEL: func.func @average_pool_exclude_pad
// CHECK: %[[COUNTS:.+]] = arith.constant dense<{{\[}}[4.000000e+00, 6.000000e+00, 4.000000e+00], [6.000000e+00, 9.000000e+00, 6.000000e+00], [4.000000e+00, 6.000000e+00, 4.000000e+00]]> : tensor<3x3xf32>
// CHECK: %[[SUM:.+]] = linalg.pooling_nchw_sum
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[SPATIAL]], #{{.+}}]{{.*}} ins(%[[SUM]], %[[COUNTS]] : tensor<1x1x3x3xf32>, tensor<3x3xf32>)
// CHECK: arith.divf
func.func @average_pool_exclude_pad(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  return %0 : tensor<1x1x3x3xf32>
}

// -----

// count_include_pad counts the explicit pads, but not the ceil_mode overhang.
// CHECK-LABEL: func.func @average_pool_include_pad_ceil
// CHECK: arith.constant dense<{{\[}}[9.000000e+00, 9.000000e+00, 6.000000e+00]]> : tensor<1x3xf32>
func.func @average_pool_include_pad_ceil(%x: tensor<1x1x1x6xf32>) -> tensor<1x1x1x3xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 3, 3>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<1x1x1x6xf32>) -> tensor<1x1x1x3xf32>
  return %0 : tensor<1x1x1x3xf32>
}

// -----

// Dynamic spatial dims: the counts are computed per window at runtime.
// CHECK-LABEL: func.func @average_pool_dynamic
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: arith.minsi
// CHECK: arith.maxsi
// CHECK: linalg.index 3
// CHECK: arith.divf
func.func @average_pool_dynamic(%x: tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  return %0 : tensor<?x2x?x?xf32>
}

// -----

// CHECK-LABEL: func.func @global_average_pool
// CHECK-SAME: (%[[X:.+]]: tensor<?x8x7x7xf32>)
// CHECK: %[[COUNT:.+]] = arith.constant 4.900000e+01 : f32
// CHECK: %[[SUM:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} ins(%[[X]] : tensor<?x8x7x7xf32>) outs(%{{.+}} : tensor<?x8xf32>)
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<?x8xf32>)
// CHECK: arith.divf %{{.+}}, %[[COUNT]]
// CHECK: tensor.expand_shape %[[MEAN]] {{\[}}[0], [1, 2, 3]] output_shape [%{{.+}}, 8, 1, 1] : tensor<?x8xf32> into tensor<?x8x1x1xf32>
func.func @global_average_pool(%x: tensor<?x8x7x7xf32>) -> tensor<?x8x1x1xf32> {
  %0 = onnx.GlobalAveragePool %x : (tensor<?x8x7x7xf32>) -> tensor<?x8x1x1xf32>
  return %0 : tensor<?x8x1x1xf32>
}

// -----

// CHECK-LABEL: func.func @global_max_pool
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x?x?xf32>)
// CHECK: %[[NEG_INF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.+]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.+}} : tensor<1x8xf32>)
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]{{.*}} ins(%[[X]] : tensor<1x8x?x?xf32>) outs(%[[INIT]] : tensor<1x8xf32>)
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %[[MAX]] {{\[}}[0], [1, 2, 3]] output_shape [1, 8, 1, 1] : tensor<1x8xf32> into tensor<1x8x1x1xf32>
func.func @global_max_pool(%x: tensor<1x8x?x?xf32>) -> tensor<1x8x1x1xf32> {
  %0 = onnx.GlobalMaxPool %x : (tensor<1x8x?x?xf32>) -> tensor<1x8x1x1xf32>
  return %0 : tensor<1x8x1x1xf32>
}

// -----

// 1-D pooling uses the named NCW op.
// CHECK-LABEL: func.func @maxpool_1d
// CHECK: linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
func.func @maxpool_1d(%x: tensor<1x3x8xf32>) -> tensor<1x3x4xf32> {
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x3x8xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xi64>)
  return %0 : tensor<1x3x4xf32>
}

// -----

// 3-D pooling is a linalg.generic over (n, c, od, oh, ow, kd, kh, kw); the
// average divides by the kernel volume.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 + d5, d3 + d6, d4 + d7)>
// CHECK-LABEL: func.func @averagepool_3d
// CHECK: %[[VOLUME:.+]] = arith.constant 8.000000e+00 : f32
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #{{.+}}, #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.addf
// CHECK: arith.divf %{{.+}}, %[[VOLUME]]
func.func @averagepool_3d(%x: tensor<1x3x4x4x4xf32>) -> tensor<1x3x3x3x3xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 2, 2, 2>} : (tensor<1x3x4x4x4xf32>) -> tensor<1x3x3x3x3xf32>
  return %0 : tensor<1x3x3x3x3xf32>
}

// -----

// Dilated windows over `?` dims, padding not counted: the taps start +
// t * 2 (t in [0, 2)) inside [0, in) run from ceil((0 - start) / 2) to
// ceil((in - start) / 2), clamped to [0, 2].
// CHECK-LABEL: func.func @averagepool_dilated_dynamic
// CHECK: %[[IN:.+]] = tensor.dim %arg0, %c2
// CHECK: linalg.pooling_ncw_sum {dilations = dense<2> : tensor<1xi64>
// CHECK: linalg.generic
// CHECK: %[[O:.+]] = linalg.index 2
// CHECK: %[[START:.+]] = arith.subi %[[O]], %c1
// CHECK: %[[LO:.+]] = arith.subi %c0, %[[START]]
// CHECK: %[[LOUP:.+]] = arith.addi %[[LO]], %c1
// CHECK: %[[LOPOS:.+]] = arith.maxsi %[[LOUP]], %c0
// CHECK: %[[FIRST:.+]] = arith.divsi %[[LOPOS]], %c2
// CHECK: %[[HI:.+]] = arith.subi %[[IN]], %[[START]]
// CHECK: %[[HIUP:.+]] = arith.addi %[[HI]], %c1
// CHECK: %[[HIPOS:.+]] = arith.maxsi %[[HIUP]], %c0
// CHECK: %[[HIT:.+]] = arith.divsi %[[HIPOS]], %c2
// CHECK: %[[LAST:.+]] = arith.minsi %[[HIT]], %c2
// CHECK: %[[DIFF:.+]] = arith.subi %[[LAST]], %[[FIRST]]
// CHECK: %[[COUNT:.+]] = arith.maxsi %[[DIFF]], %c0
// CHECK: arith.index_cast %[[COUNT]]
// CHECK: arith.divf
func.func @averagepool_dilated_dynamic(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = onnx.AveragePool %x {kernel_shape = array<i64: 2>, dilations = array<i64: 2>, pads = array<i64: 1, 1>, count_include_pad = 0 : i64} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// SAME over `?` dims: the run-time pads also bound the taps that the
// average counts.
// CHECK-LABEL: func.func @averagepool_same_dynamic
// CHECK: %[[TOTAL:.+]] = arith.maxsi
// CHECK: %[[HALF:.+]] = arith.divsi %[[TOTAL]], %c2
// CHECK: %[[BEGIN:.+]] = arith.subi %[[TOTAL]], %[[HALF]]
// CHECK: linalg.pooling_nchw_sum
// CHECK: linalg.generic
// CHECK: arith.subi %{{.+}}, %[[BEGIN]]
// CHECK: arith.divf
func.func @averagepool_same_dynamic(%x: tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32> {
  %0 = onnx.AveragePool %x {auto_pad = "SAME_LOWER", kernel_shape = array<i64: 2, 2>} : (tensor<1x3x?x?xf32>) -> tensor<1x3x?x?xf32>
  return %0 : tensor<1x3x?x?xf32>
}

// -----

// A used Indices makes one generic keep the maximum and its flat index, the
// spatial dims in column-major order for storage_order 1: ((n * C + c) * W
// + w) * H + h, the position in x being out * stride + k - pad.
// CHECK-LABEL: func.func @max_pool_indices
// CHECK-NOT: linalg.pooling_nchw_max
// CHECK: %{{.+}}:2 = linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: %[[GT:.+]] = arith.cmpf ogt
// CHECK: arith.index_cast %{{.+}} : index to i64
// CHECK: arith.select %[[GT]]
// CHECK: arith.select %[[GT]]
func.func @max_pool_indices(%x: tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>) {
  %0, %i0 = onnx.MaxPool %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, storage_order = 1 : i64, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>)
  return %0, %i0 : tensor<1x2x3x3xf32>, tensor<1x2x3x3xi64>
}

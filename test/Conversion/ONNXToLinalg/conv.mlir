// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Conv (passes/Conversion/ONNXToLinalg/Conv.cpp): padding, bias init and the
// named convolution for each kind of grouping.

// Zero padding is a fill + insert_slice; the bias, broadcast along dim 1,
// initializes the accumulator.
// CHECK-DAG: #[[BIAS:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8x8xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x3x10x9xf32>)
// CHECK: %[[PAD:.+]] = tensor.insert_slice %[[X]] into %[[ZERO]][0, 0, 1, 0] [%{{.+}}, 3, 8, 8] [1, 1, 1, 1]
// CHECK: %[[INIT:.+]] = linalg.generic {indexing_maps = [#[[BIAS]], #{{.+}}]{{.*}} ins(%[[B]] : tensor<4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PAD]], %[[W]] : tensor<?x3x10x9xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<?x4x4x4xf32>)
func.func @conv(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x4x4xf32> {
  %0 = onnx.Conv %x, %w, %b {pads = array<i64: 1, 0, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x4x4xf32>
  return %0 : tensor<?x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @conv_no_bias_dilated
// CHECK-NOT: tensor.insert_slice
// CHECK: %[[INIT:.+]] = linalg.fill
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME: outs(%[[INIT]] : tensor<1x4x4x4xf32>)
func.func @conv_no_bias_dilated(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {dilations = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @conv_depthwise
// CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1], [2], [3]] : tensor<8x1x3x3xf32> into tensor<8x3x3xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
// CHECK-SAME: ins(%{{.+}}, %[[F]] : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>)
func.func @conv_depthwise(%x: tensor<1x8x8x8xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = onnx.Conv %x, %w, %b {group = 8 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}

// -----

// Other groups split the channel dims into [group, channels / group].
// CHECK-LABEL: func.func @conv_group
// CHECK: %[[IN:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] output_shape [%{{.+}}, 2, 3, 10, 10] : tensor<?x6x10x10xf32> into tensor<?x2x3x10x10xf32>
// CHECK: %[[F:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 2, 3, 3, 3] : tensor<4x3x3x3xf32> into tensor<2x2x3x3x3xf32>
// CHECK: %[[OUT:.+]] = tensor.expand_shape %{{.+}} {{\[}}[0], [1, 2], [3], [4]] output_shape [%{{.+}}, 2, 2, 8, 8] : tensor<?x4x8x8xf32> into tensor<?x2x2x8x8xf32>
// CHECK: %[[C:.+]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[IN]], %[[F]] : {{.*}}) outs(%[[OUT]] : tensor<?x2x2x8x8xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[}}[0], [1, 2], [3], [4]] : tensor<?x2x2x8x8xf32> into tensor<?x4x8x8xf32>
func.func @conv_group(%x: tensor<?x6x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x8x8xf32> {
  %0 = onnx.Conv %x, %w, %b {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x6x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// -----

// A grouped convolution whose input channel dim is dynamic (lost by shape
// inference, as in ShuffleNet's channel shuffle): the weight fixes it,
// group x (C / group) = 2 x 3.
// CHECK-LABEL: func.func @conv_group_dynamic_channels
// CHECK: tensor.cast %{{.+}} : tensor<?x?x10x10xf32> to tensor<?x6x10x10xf32>
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @conv_group_dynamic_channels(%x: tensor<?x?x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<?x4x8x8xf32> {
  %0 = onnx.Conv %x, %w, %b {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x?x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// -----

// auto_pad SAME_UPPER resolves to pads [0, 0] begin and [1, 1] end here.
// CHECK-LABEL: func.func @conv_same_upper
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0, 0] [1, 3, 7, 7] [1, 1, 1, 1] : tensor<1x3x7x7xf32> into tensor<1x3x8x8xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}}strides = dense<2>
func.func @conv_same_upper(%x: tensor<1x3x7x7xf32>, %w: tensor<2x3x2x2xf32>) -> tensor<1x2x4x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>, tensor<2x3x2x2xf32>, none) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

// Dynamic spatial dims: the output size is computed at runtime.
// CHECK-LABEL: func.func @conv_dynamic_spatial
// CHECK: arith.divsi
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK-SAME: outs(%{{.+}} : tensor<1x2x?x?xf32>)
func.func @conv_dynamic_spatial(%x: tensor<1x3x?x?xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x2x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {strides = array<i64: 2, 2>} : (tensor<1x3x?x?xf32>, tensor<2x3x3x3xf32>, none) -> tensor<1x2x?x?xf32>
  return %0 : tensor<1x2x?x?xf32>
}

// -----

// 1-D and 3-D convolutions with group 1 use the named ops of their rank.
// CHECK-LABEL: func.func @conv_1d
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
// CHECK-SAME: outs(%{{.+}} : tensor<1x4x4xf32>)
func.func @conv_1d(%x: tensor<1x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {pads = array<i64: 1, 1>, strides = array<i64: 2>} : (tensor<1x3x8xf32>, tensor<4x3x3xf32>, none) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @conv_3d
// CHECK: linalg.conv_3d_ncdhw_fcdhw
// CHECK-SAME: outs(%{{.+}} : tensor<1x4x4x4x4xf32>)
func.func @conv_3d(%x: tensor<1x3x6x6x6xf32>, %w: tensor<4x3x3x3x3xf32>) -> tensor<1x4x4x4x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none : (tensor<1x3x6x6x6xf32>, tensor<4x3x3x3x3xf32>, none) -> tensor<1x4x4x4x4xf32>
  return %0 : tensor<1x4x4x4x4xf32>
}

// -----

// A grouped 1-D convolution: a linalg.generic over the split channel dims
// (n, g, m, ow, c, kw), reading the input at ow * stride + kw * dilation.
// CHECK-DAG: #[[IN:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 * 2 + d5 * 3)>
// CHECK-DAG: #[[FILTER:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d4, d5)>
// CHECK-LABEL: func.func @conv_1d_grouped
// CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0], [1, 2], [3]] {{.*}} : tensor<1x4x10xf32> into tensor<1x2x2x10xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[FILTER]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: tensor.collapse_shape
func.func @conv_1d_grouped(%x: tensor<1x4x10xf32>, %w: tensor<6x2x2xf32>) -> tensor<1x6x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {group = 2 : i64, strides = array<i64: 2>, dilations = array<i64: 3>} : (tensor<1x4x10xf32>, tensor<6x2x2xf32>, none) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// -----

// ConvTranspose: the input is inserted with the strides into zeros padded
// by extent - 1 - pads (H: 3 - 1 - 1 = 1 each side, W: 3 - 1 - 2 = 0), the
// kernel flipped with its channel dims swapped, and a stride-1 convolution
// accumulates onto the bias.
// CHECK-LABEL: func.func @convtranspose
// CHECK-SAME: (%[[X:.+]]: tensor<1x4x3x3xf32>, %[[W:.+]]: tensor<4x2x3x3xf32>, %[[B:.+]]: tensor<2xf32>)
// CHECK: %[[ZEROS:.+]] = linalg.fill {{.*}} -> tensor<1x4x9x5xf32>
// CHECK: %[[SPREAD:.+]] = tensor.insert_slice %[[X]] into %[[ZEROS]][0, 0, 1, 0] [1, 4, 3, 3] [1, 1, 3, 2]
// CHECK: %[[FLIP:.+]] = linalg.generic
// CHECK: %[[KH:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK: %[[KW:.+]] = arith.subi %{{.+}}, %{{.+}} : index
// CHECK: tensor.extract %[[W]][%{{.+}}, %{{.+}}, %[[KH]], %[[KW]]]
// CHECK: } -> tensor<2x4x3x3xf32>
// CHECK: %[[INIT:.+]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[SPREAD]], %[[FLIP]] : {{.*}}) outs(%[[INIT]] : tensor<1x2x7x3xf32>)
func.func @convtranspose(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<1x2x7x3xf32> {
  %0 = onnx.ConvTranspose %x, %w, %b {pads = array<i64: 1, 2, 1, 2>, strides = array<i64: 3, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x7x3xf32>
  return %0 : tensor<1x2x7x3xf32>
}

// -----

// Pads beyond the kernel extent cut the spread input (1-D: extent 2, pads 3
// and 2 leave -2 and -1 + output_padding 1 = 0).
// CHECK-LABEL: func.func @convtranspose_cut
// CHECK: tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 0] [1, 1, 4] [1, 1, 3] : tensor<1x1x4xf32> into tensor<1x1x10xf32>
// CHECK: tensor.extract_slice %{{.+}}[0, 0, 2] [1, 1, 8] [1, 1, 1] : tensor<1x1x10xf32> to tensor<1x1x8xf32>
// CHECK: linalg.conv_1d_ncw_fcw
// CHECK-SAME: outs(%{{.+}} : tensor<1x2x7xf32>)
func.func @convtranspose_cut(%x: tensor<1x1x4xf32>, %w: tensor<1x2x2xf32>) -> tensor<1x2x7xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvTranspose %x, %w, %none {pads = array<i64: 3, 2>, strides = array<i64: 3>, output_padding = array<i64: 1>} : (tensor<1x1x4xf32>, tensor<1x2x2xf32>, none) -> tensor<1x2x7xf32>
  return %0 : tensor<1x2x7xf32>
}

// -----

// Grouped: output channel m = g * (M/G) + mm reads W[g * (C/G) + c, mm].
// CHECK-LABEL: func.func @convtranspose_grouped
// CHECK: linalg.generic
// CHECK: arith.divui
// CHECK: arith.remui
// CHECK: } -> tensor<4x2x2x2xf32>
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @convtranspose_grouped(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x2x2xf32>) -> tensor<1x4x6x6xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvTranspose %x, %w, %none {group = 2 : i64, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x2x2xf32>, none) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// `?` kernel dims: the extent and the SAME pads (total = extent - stride,
// split with the odd one at the end) are computed at run time, and the kernel
// is flipped at its run-time size.
// CHECK-LABEL: func.func @convtranspose_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?xf32>, %[[W:.+]]: tensor<?x?x?xf32>)
// CHECK: %[[K:.+]] = tensor.dim %[[W]], %c2
// CHECK: %[[TOTAL:.+]] = arith.subi %[[K]], %c2
// CHECK: %[[NONNEG:.+]] = arith.maxsi %[[TOTAL]], %c0
// CHECK: %[[BEGIN:.+]] = arith.divsi %[[NONNEG]], %c2
// CHECK: tensor.insert_slice %[[X]] into %{{.+}}[0, 0, %{{.+}}] [%{{.+}}, %{{.+}}, %{{.+}}] [1, 1, 2]
// CHECK: tensor.extract_slice
// CHECK: linalg.conv_1d_ncw_fcw
func.func @convtranspose_dynamic(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvTranspose %x, %w, %none {auto_pad = "SAME_UPPER", strides = array<i64: 2>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, none) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// SAME over `?` dims: out = ceil(in / stride), and the total padding
// max((out - 1) * stride + extent - in, 0) is split at run time, the odd one
// at the end for SAME_UPPER.
// CHECK-LABEL: func.func @conv_same_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x?x?xf32>
// CHECK: %[[IN:.+]] = tensor.dim %[[X]], %c2
// CHECK: %[[UP:.+]] = arith.addi %[[IN]], %c1
// CHECK: %[[OUT:.+]] = arith.divsi %[[UP]], %c2
// CHECK: %[[TOTAL:.+]] = arith.maxsi
// CHECK: %[[BEGIN:.+]] = arith.divsi %[[TOTAL]], %c2
// CHECK: tensor.insert_slice %[[X]] into %{{.+}}[0, 0, %[[BEGIN]], %{{.+}}]
// CHECK: linalg.conv_2d_nchw_fchw
func.func @conv_same_dynamic(%x: tensor<1x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x3x?x?xf32>, tensor<4x3x3x3xf32>, none) -> tensor<1x4x?x?xf32>
  return %0 : tensor<1x4x?x?xf32>
}

// -----

// `?` kernel dims (a weight that is a graph input): the dilated extent
// (k - 1) * dilation + 1 and the output size are computed at run time, and
// group 1 keeps the named convolution.
// CHECK-LABEL: func.func @conv_dynamic_kernel
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x?xf32>, %[[W:.+]]: tensor<?x?x?xf32>)
// CHECK: %[[K:.+]] = tensor.dim %[[W]], %c2
// CHECK: %[[KM1:.+]] = arith.subi %[[K]], %c1
// CHECK: %[[DIL:.+]] = arith.muli %[[KM1]], %c2
// CHECK: %[[EXTENT:.+]] = arith.addi %[[DIL]], %c1
// CHECK: %[[IN:.+]] = tensor.dim %[[X]], %c2
// CHECK: %[[PADDED:.+]] = arith.addi %[[IN]], %c2
// CHECK: arith.subi %[[PADDED]], %[[EXTENT]]
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<2> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>} ins(%{{.+}}, %[[W]] : tensor<?x?x?xf32>, tensor<?x?x?xf32>)
func.func @conv_dynamic_kernel(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {dilations = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, none) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// Grouped with `?` channel and kernel dims (a depthwise causal convolution
// whose weight is a graph input): the channel dims split into [group, `?`]
// at run time, then the generic grouped convolution.
// CHECK-LABEL: func.func @conv_grouped_dynamic
// CHECK: %[[C:.+]] = tensor.dim %arg0, %c1
// CHECK: %[[CG:.+]] = arith.divui %[[C]], %c4
// CHECK: tensor.expand_shape %arg0 {{\[}}[0], [1, 2], [3]] output_shape [%{{.+}}, 4, %[[CG]], %{{.+}}] : tensor<?x?x?xf32> into tensor<?x4x?x?xf32>
// CHECK: tensor.expand_shape %arg1 {{.+}} into tensor<4x?x?x?xf32>
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: tensor.collapse_shape %{{.+}} : tensor<?x4x?x?xf32> into tensor<?x?x?xf32>
func.func @conv_grouped_dynamic(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {group = 4 : i64} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, none) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// -----

// 2-D grouped with `?` channel dims: the named grouped convolution on the
// split dims.
// CHECK-LABEL: func.func @conv_grouped_dynamic_2d
// CHECK: linalg.conv_2d_ngchw_gfchw {{.+}} ins(%{{.+}}, %{{.+}} : tensor<?x2x?x?x?xf32>, tensor<2x?x?x?x?xf32>)
func.func @conv_grouped_dynamic_2d(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %b: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %0 = onnx.Conv %x, %w, %b {group = 2 : i64} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// SAME with a `?` kernel dim over a static input: the output size
// ceil(7 / 2) = 4 is static, the pads follow from the run-time extent (the
// odd one at the begin for SAME_LOWER).
// CHECK-LABEL: func.func @conv_same_dynamic_kernel
// CHECK: %[[K:.+]] = tensor.dim %arg1, %c2
// CHECK: %[[SPAN:.+]] = arith.addi %[[K]], %c6
// CHECK: %[[NEED:.+]] = arith.subi %[[SPAN]], %c7
// CHECK: %[[TOTAL:.+]] = arith.maxsi %[[NEED]], %c0
// CHECK: %[[HALF:.+]] = arith.divsi %[[TOTAL]], %c2
// CHECK: %[[BEGIN:.+]] = arith.subi %[[TOTAL]], %[[HALF]]
// CHECK: tensor.insert_slice %arg0 into %{{.+}}[0, 0, %[[BEGIN]]] [1, 3, 7] [1, 1, 1] : tensor<1x3x7xf32> into tensor<1x3x?xf32>
// CHECK: linalg.conv_1d_ncw_fcw {{.+}} outs(%{{.+}} : tensor<1x2x4xf32>)
func.func @conv_same_dynamic_kernel(%x: tensor<1x3x7xf32>, %w: tensor<2x3x?xf32>) -> tensor<1x2x4xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.Conv %x, %w, %none {auto_pad = "SAME_LOWER", strides = array<i64: 2>} : (tensor<1x3x7xf32>, tensor<2x3x?xf32>, none) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

// Grouped ConvTranspose with `?` channel dims: M / G and C / G are read
// from W before the kernel is flipped, and index it in the body.
// CHECK-LABEL: func.func @convtranspose_grouped_dynamic
// CHECK: %[[MG:.+]] = tensor.dim %arg1, %c1
// CHECK: %[[C:.+]] = tensor.dim %arg1, %c0
// CHECK: %[[CG:.+]] = arith.divsi %[[C]], %c2
// CHECK: %[[M:.+]] = arith.muli %[[MG]], %c2
// CHECK: tensor.empty(%[[M]], %[[CG]], %{{.+}}, %{{.+}}) : tensor<?x?x?x?xf32>
// CHECK: linalg.generic
// CHECK: %[[GI:.+]] = arith.divui %{{.+}}, %[[MG]]
// CHECK: arith.remui %{{.+}}, %[[MG]]
// CHECK: arith.muli %[[GI]], %[[CG]]
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @convtranspose_grouped_dynamic(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.ConvTranspose %x, %w, %none {group = 2 : i64} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

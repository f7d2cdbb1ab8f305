// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// BatchNormalization, Softmax, LogSoftmax, Hardmax, the normalizations and the losses
// (passes/Conversion/ONNXToLinalg/Normalization.cpp).

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[CHANNEL:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x8x8xf32>, %[[S:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>, %[[M:.+]]: tensor<4xf32>, %[[V:.+]]: tensor<4xf32>)
// CHECK: %[[EPS:.+]] = arith.constant 1.000000e-03 : f32
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[CHANNEL]], #[[ID]]]
// CHECK-SAME: ins(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]] :
// CHECK: ^bb0(%[[XE:.+]]: f32, %[[SE:.+]]: f32, %[[BE:.+]]: f32, %[[ME:.+]]: f32, %[[VE:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[VAR:.+]] = arith.addf %[[VE]], %[[EPS]]
// CHECK: %[[STD:.+]] = math.sqrt %[[VAR]]
// CHECK: %[[FACTOR:.+]] = arith.divf %[[SE]], %[[STD]]
// CHECK: %[[CENTERED:.+]] = arith.subf %[[XE]], %[[ME]]
// CHECK: %[[SCALED:.+]] = arith.mulf %[[CENTERED]], %[[FACTOR]]
// CHECK: arith.addf %[[SCALED]], %[[BE]]
func.func @batch_norm(%x: tensor<?x4x8x8xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>, %m: tensor<4xf32>, %v: tensor<4xf32>) -> tensor<?x4x8x8xf32> {
  %0 = onnx.BatchNormalization %x, %s, %b, %m, %v {epsilon = 1.0e-3 : f32} : (tensor<?x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x8x8xf32>
  return %0 : tensor<?x4x8x8xf32>
}

// -----

// max, exp(x - max), sum, divide.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @softmax
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]}
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%{{.+}}, %[[MAX]] :
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] :
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] :
// CHECK: arith.divf
func.func @softmax(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = onnx.Softmax %x {axis = 1 : i64} : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// -----

// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OTHER:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @softmax_axis_1
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[OTHER]]], iterator_types = ["parallel", "reduction", "parallel"]}
func.func @softmax_axis_1(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = onnx.Softmax %x {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// Mean and variance over the trailing dims, 1 / sqrt(var + epsilon), then one
// normalizing generic with Scale and B broadcast over those dims (Mean has a
// reader: no runtime kernel).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUTER:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[INNER:.+]] = affine_map<(d0, d1, d2) -> (d2)>
// CHECK-LABEL: func.func @layer_norm
// CHECK-DAG: %[[COUNT:.+]] = arith.constant 4.000000e+00 : f32
// CHECK-DAG: %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[OUTER]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] :
// CHECK: arith.divf %{{.+}}, %[[COUNT]]
// CHECK: %[[SQUARES:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[OUTER]], #[[OUTER]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}}, %[[MEAN]] :
// CHECK: %[[VAR:.+]] = linalg.generic {{.*}} ins(%[[SQUARES]] :
// CHECK: %[[INVSTD:.+]] = linalg.generic {{.*}} ins(%[[VAR]] :
// CHECK: math.sqrt
// CHECK: arith.divf %[[ONE]]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[OUTER]], #[[OUTER]], #[[INNER]], #[[INNER]], #[[ID]]]{{.*}} ins(%{{.+}}, %[[MEAN]], %[[INVSTD]], %{{.+}}, %{{.+}} :
func.func @layer_norm(%x: tensor<?x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<?x3x4xf32>, tensor<?x3x1xf32>) {
  %0:3 = onnx.LayerNormalization %x, %s, %b {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<?x3x4xf32>, tensor<?x3x1xf32>, tensor<?x3x1xf32>)
  return %0#0, %0#1 : tensor<?x3x4xf32>, tensor<?x3x1xf32>
}

// -----

// f32 over the last axis, Mean and InvStdDev unread: the runtime's row
// kernel on X collapsed to rows, the result expanded back.
// CHECK-LABEL: func.func private @onnxc_kernel_layer_norm_f32
// CHECK-LABEL: func.func @layer_norm_kernel
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x4xf32>, %[[S:.+]]: tensor<4xf32>, %[[B:.+]]: tensor<4xf32>)
// CHECK-DAG: %[[FLAGS:.+]] = arith.constant 1 : i64
// CHECK-DAG: %[[EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[ROWS:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<?x3x4xf32> into tensor<?x4xf32>
// CHECK: %[[Y:.+]] = memref.alloc(%{{.+}}) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: bufferization.to_memref %[[ROWS]] read_only
// CHECK: bufferization.to_memref %[[S]] read_only
// CHECK: bufferization.to_memref %[[B]] read_only
// CHECK: call @onnxc_kernel_layer_norm_f32(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %[[EPS]], %[[FLAGS]])
// CHECK: %[[T:.+]] = bufferization.to_tensor %[[Y]] restrict writable
// CHECK: %[[R:.+]] = tensor.expand_shape %[[T]] {{\[}}[0, 1], [2]] output_shape [%{{.+}}, 3, 4] : tensor<?x4xf32> into tensor<?x3x4xf32>
// CHECK: return %[[R]]
func.func @layer_norm_kernel(%x: tensor<?x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x3x4xf32> {
  %0:3 = onnx.LayerNormalization %x, %s, %b {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<?x3x4xf32>, tensor<?x3x1xf32>, tensor<?x3x1xf32>)
  return %0#0 : tensor<?x3x4xf32>
}

// -----

// Rows of a dynamic batch and sequence: the kernel's result is reshaped back
// to both sizes (an expand_shape into [?, ?] does not bufferize in MLIR 19).
// CHECK-LABEL: func.func @layer_norm_kernel_dynamic_rows
// CHECK-SAME: (%[[X:.+]]: tensor<?x?x4xf32>
// CHECK: call @onnxc_kernel_layer_norm_f32
// CHECK: %[[T:.+]] = bufferization.to_tensor
// CHECK: %[[SHAPE:.+]] = tensor.from_elements %{{.+}}, %{{.+}}, %{{.+}} : tensor<3xindex>
// CHECK: %[[R:.+]] = tensor.reshape %[[T]](%[[SHAPE]]) : (tensor<?x4xf32>, tensor<3xindex>) -> tensor<?x?x4xf32>
// CHECK: return %[[R]]
func.func @layer_norm_kernel_dynamic_rows(%x: tensor<?x?x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x?x4xf32> {
  %0:3 = onnx.LayerNormalization %x, %s, %b {axis = -1 : i64, epsilon = 1.0e-5 : f32} : (tensor<?x?x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<?x?x4xf32>, tensor<?x?x1xf32>, tensor<?x?x1xf32>)
  return %0#0 : tensor<?x?x4xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm_no_bias
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x3x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x4xf32>)
func.func @layer_norm_no_bias(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) -> tensor<2x3x4xf32> {
  %none = onnx.NoValue : () -> none
  %0:3 = onnx.LayerNormalization %x, %s, %none {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>, none) -> (tensor<2x3x4xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %0#0 : tensor<2x3x4xf32>
}

// -----

// Mean and InvStdDev are computed in the input's type, converted to
// stash_type and given the normalized dims back as size 1.
// CHECK-LABEL: func.func @layer_norm_stats
// CHECK: %[[SUM:.+]] = linalg.generic
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<2xf16>)
// CHECK: %[[SQUARES:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MEAN]] :
// CHECK: %[[VAR:.+]] = linalg.generic {{.*}} ins(%[[SQUARES]] : tensor<2xf16>)
// CHECK: %[[INVSTD:.+]] = linalg.generic {{.*}} ins(%[[VAR]] : tensor<2xf16>)
// CHECK: %[[MEAN32:.+]] = linalg.generic {{.*}} ins(%[[MEAN]] : tensor<2xf16>) outs(%{{.+}} : tensor<2xf32>)
// CHECK: arith.extf
// CHECK: %[[M:.+]] = tensor.expand_shape %[[MEAN32]] {{\[}}[0, 1, 2]] output_shape [2, 1, 1]
// CHECK: %[[INVSTD32:.+]] = linalg.generic {{.*}} ins(%[[INVSTD]] : tensor<2xf16>) outs(%{{.+}} : tensor<2xf32>)
// CHECK: %[[R:.+]] = tensor.expand_shape %[[INVSTD32]]
// CHECK: return %[[M]], %[[R]]
func.func @layer_norm_stats(%x: tensor<2x3x4xf16>, %s: tensor<3x4xf16>) -> (tensor<2x1x1xf32>, tensor<2x1x1xf32>) {
  %none = onnx.NoValue : () -> none
  %0:3 = onnx.LayerNormalization %x, %s, %none {axis = 1 : i64} : (tensor<2x3x4xf16>, tensor<3x4xf16>, none) -> (tensor<2x3x4xf16>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  return %0#1, %0#2 : tensor<2x1x1xf32>, tensor<2x1x1xf32>
}

// -----

// LogSoftmax: x - max - log(sum(exp(x - max))).
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[MAX:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]]], iterator_types = ["reduction", "parallel"]}
// CHECK: %[[SUM:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[COL]]], iterator_types = ["reduction", "parallel"]} ins(%{{.+}}, %[[MAX]] :
// CHECK: math.exp
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[COL]], #[[COL]], #[[ID]]]{{.*}} ins(%{{.+}}, %[[MAX]], %[[SUM]] :
// CHECK: arith.subf
// CHECK: math.log
// CHECK: arith.subf
func.func @log_softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.LogSoftmax %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Hardmax: 1 where the index along the axis is the (first) argmax.
// CHECK-LABEL: func.func @hardmax
// CHECK: %[[ARG:.+]]:2 = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.cmpf ogt
// CHECK: linalg.generic {{.*}} ins(%[[ARG]]#1 : tensor<2xi64>) outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: linalg.index 1
// CHECK: arith.cmpi eq
func.func @hardmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.Hardmax %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// InstanceNormalization: statistics over the spatial dims, per-channel
// scale and bias.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NC:.+]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[C:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @instance_norm
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[NC]]], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[NC]], #[[NC]], #[[C]], #[[C]], #[[ID]]]
// CHECK: math.sqrt
func.func @instance_norm(%x: tensor<2x3x4x5xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x4x5xf32> {
  %0 = onnx.InstanceNormalization %x, %s, %b : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  return %0 : tensor<2x3x4x5xf32>
}

// -----

// LpNormalization: the sum of squares, then x / sqrt(sum), or 0 where the
// norm is 0 (ONNX defines an all-zero vector's output as zeros).
// CHECK-LABEL: func.func @lp_norm
// CHECK: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[SQ:.+]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %[[SQ]] :
// CHECK: %[[N:.+]] = math.sqrt
// CHECK: %[[IS0:.+]] = arith.cmpf oeq, %[[N]], %[[ZERO]]
// CHECK: %[[Q:.+]] = arith.divf %{{.+}}, %[[N]]
// CHECK: arith.select %[[IS0]], %[[ZERO]], %[[Q]]
func.func @lp_norm(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = onnx.LpNormalization %x {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// MeanVarianceNormalization over its default axes 0, 2, 3.
// CHECK-DAG: #[[CHAN:.+]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @mvn
// CHECK: %[[EPS:.+]] = arith.constant 9.99999971E-10 : f32
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[CHAN]]], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
// CHECK: math.sqrt
// CHECK: arith.addf %{{.+}}, %[[EPS]]
func.func @mvn(%x: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
  %0 = onnx.MeanVarianceNormalization %x : (tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// NegativeLogLikelihoodLoss: one generic over the target gathers the log
// probability and the weight (0 where ignored); mean divides the sums.
// CHECK-LABEL: func.func @nll_mean
// CHECK-SAME: (%[[X:.+]]: tensor<3x5x2xf32>, %[[T:.+]]: tensor<3x2xi64>, %[[W:.+]]: tensor<5xf32>)
// CHECK: %[[L:.+]]:2 = linalg.generic {{.*}} ins(%[[T]] : tensor<3x2xi64>)
// CHECK: %[[IGNORED:.+]] = arith.cmpi eq, %{{.+}}, %c-1_i64
// CHECK: %[[C:.+]] = arith.select %[[IGNORED]], %c0
// CHECK: tensor.extract %[[X]][%{{.+}}, %[[C]], %{{.+}}]
// CHECK: tensor.extract %[[W]][%[[C]]]
// CHECK: arith.negf
// CHECK: %[[LOSS:.+]] = linalg.generic {{.*}} ins(%[[L]]#0 :
// CHECK: %[[WEIGHTS:.+]] = linalg.generic {{.*}} ins(%[[L]]#1 :
// CHECK: linalg.generic {{.*}} ins(%[[LOSS]], %[[WEIGHTS]] : tensor<f32>, tensor<f32>)
// CHECK: arith.divf
func.func @nll_mean(%x: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>) -> tensor<f32> {
  %0 = onnx.NegativeLogLikelihoodLoss %x, %t, %w {ignore_index = -1 : i64} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// SoftmaxCrossEntropyLoss: LogSoftmax over dim 1, then the loss of it.
// CHECK-LABEL: func.func @sce_none
// CHECK: %[[LOGP:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<3x5xf32>)
// CHECK: math.log
// CHECK: %[[L:.+]]:2 = linalg.generic
// CHECK: tensor.extract %[[LOGP]]
// CHECK: return %[[L]]#0, %[[LOGP]]
func.func @sce_none(%x: tensor<3x5xf32>, %t: tensor<3xi64>) -> (tensor<3xf32>, tensor<3x5xf32>) {
  %none = onnx.NoValue : () -> none
  %0, %1 = onnx.SoftmaxCrossEntropyLoss %x, %t, %none {reduction = "none"} : (tensor<3x5xf32>, tensor<3xi64>, none) -> (tensor<3xf32>, tensor<3x5xf32>)
  return %0, %1 : tensor<3xf32>, tensor<3x5xf32>
}


// -----

// Training mode normalizes with the batch statistics (sums over every dim
// but 1, divided by N * H * W) and blends them into the running ones.
// CHECK-LABEL: func.func @batchnorm_training
// CHECK: %[[SUM:.+]] = linalg.generic {{{.*}}iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
// CHECK: %[[MEAN:.+]] = linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK: arith.divf
// CHECK: %[[SQ:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MEAN]] : tensor<2x3x4x5xf32>, tensor<3xf32>)
// CHECK: %[[VAR:.+]] = linalg.generic {{.*}} ins(%[[SQ]] : tensor<3xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %{{.+}}, %[[MEAN]], %[[VAR]] :
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %[[MEAN]] : tensor<3xf32>, tensor<3xf32>)
// CHECK: linalg.generic {{.*}} ins(%{{.+}}, %[[VAR]] : tensor<3xf32>, tensor<3xf32>)
func.func @batchnorm_training(%x: tensor<2x3x4x5xf32>, %p: tensor<3xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0:3 = onnx.BatchNormalization %x, %p, %p, %p, %p {training_mode = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>
}

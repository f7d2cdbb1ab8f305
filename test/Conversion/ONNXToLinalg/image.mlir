// RUN: onnx-opt %s -convert-onnx-to-linalg -split-input-file | FileCheck %s

// Col2Im, DeformConv, AffineGrid and ImageDecoder (passes/Conversion/ONNXToLinalg/Image.cpp):
// one parallel generic over the result each (ImageDecoder: runtime calls).

// Col2Im gathers: each image element loops over the positions of the block
// and reads the column of the block that covers it there, when that block
// starts on the stride and within the blocks.
// CHECK-LABEL: func.func @col2im
// CHECK-SAME: (%[[X:.+]]: tensor<1x5x15xf32>, %[[IMAGE:.+]]: tensor<2xi64>, %[[BLOCK:.+]]: tensor<2xi64>)
// CHECK: tensor.extract %[[IMAGE]]
// CHECK: tensor.extract %[[BLOCK]]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%{{.+}} : tensor<1x?x?x?xf32>)
// CHECK: scf.for {{.*}} -> (f32)
// CHECK: arith.remsi
// CHECK: %[[READ:.+]] = scf.if
// CHECK: tensor.extract %[[X]]
// CHECK: arith.addf %{{.+}}, %[[READ]] : f32
func.func @col2im(%x: tensor<1x5x15xf32>, %image: tensor<2xi64>, %block: tensor<2xi64>) -> tensor<1x?x?x?xf32> {
  %0 = onnx.Col2Im %x, %image, %block {pads = array<i64: 0, 1, 0, 1>} : (tensor<1x5x15xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?x?x?xf32>
  return %0 : tensor<1x?x?x?xf32>
}

// -----

// DeformConv: per input channel of the group (scf.for) and per kernel tap
// (unrolled), the offsets move the tap; four guarded reads make the
// bilinear sample; the mask scales the term.
// CHECK-LABEL: func.func @deform_conv
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x3x3xf32>, %[[W:.+]]: tensor<1x1x2x2xf32>, %[[OFF:.+]]: tensor<1x8x2x2xf32>, %[[B:.+]]: tensor<1xf32>, %[[MASK:.+]]: tensor<1x4x2x2xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<1x1x2x2xf32>)
// CHECK: %[[BIAS:.+]] = tensor.extract %[[B]]
// CHECK: scf.for {{.*}} iter_args(%{{.+}} = %[[BIAS]]) -> (f32)
// CHECK: tensor.extract %[[OFF]]
// CHECK: math.floor
// CHECK-COUNT-4: scf.if
// CHECK: tensor.extract %[[W]]
// CHECK: tensor.extract %[[MASK]]
func.func @deform_conv(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x2x2xf32>, %off: tensor<1x8x2x2xf32>, %b: tensor<1xf32>, %mask: tensor<1x4x2x2xf32>) -> tensor<1x1x2x2xf32> {
  %0 = onnx.DeformConv %x, %w, %off, %b, %mask : (tensor<1x1x3x3xf32>, tensor<1x1x2x2xf32>, tensor<1x8x2x2xf32>, tensor<1xf32>, tensor<1x4x2x2xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// AffineGrid: theta's last column plus its others times the normalized
// coordinates x (of W), then y (of H), in f64; (2i + 1) / size - 1 without
// align_corners.
// CHECK-LABEL: func.func @affine_grid
// CHECK-SAME: (%[[T:.+]]: tensor<2x2x3xf32>, %[[S:.+]]: tensor<4xi64>)
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<2x?x?x2xf32>)
// CHECK: %[[N:.+]] = linalg.index 0
// CHECK: %[[K:.+]] = linalg.index 3
// CHECK: tensor.extract %[[T]][%[[N]], %[[K]], %c2]
// CHECK: linalg.index 2
// CHECK: arith.divf
// CHECK: linalg.index 1
// CHECK: arith.truncf %{{.+}} : f64 to f32
func.func @affine_grid(%theta: tensor<2x2x3xf32>, %size: tensor<4xi64>) -> tensor<2x?x?x2xf32> {
  %0 = onnx.AffineGrid %theta, %size : (tensor<2x2x3xf32>, tensor<4xi64>) -> tensor<2x?x?x2xf32>
  return %0 : tensor<2x?x?x2xf32>
}

// -----

// W of dims known only at run time: the taps come from `kernel_shape`.
// CHECK-LABEL: func.func @deform_conv_dynamic
// CHECK: linalg.generic
// CHECK: scf.for
// CHECK-COUNT-16: scf.if
// CHECK: scf.yield
func.func @deform_conv_dynamic(%x: tensor<?x?x?x?xf32>, %w: tensor<?x?x?x?xf32>, %off: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %none = onnx.NoValue : () -> none
  %0 = onnx.DeformConv %x, %w, %off, %none, %none {kernel_shape = array<i64: 2, 2>} : (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>, none, none) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// ImageDecoder: a copy of the stream as a runtime value, decoded by the
// runtime into a value of the run whose dims size the result.
// CHECK-LABEL: func.func @image_decoder
// CHECK: call @onnxc_value_from_memref
// CHECK: %[[IMAGE:.+]] = call @onnxc_image_decode(%{{.+}}, %c1_i64) : (i64, i64) -> i64
// CHECK: call @onnxc_value_dim(%[[IMAGE]]
// CHECK: call @onnxc_value_dim(%[[IMAGE]]
// CHECK: call @onnxc_value_to_memref(%[[IMAGE]]
func.func @image_decoder(%x: tensor<?xui8>) -> tensor<?x?x3xui8> {
  %0 = onnx.ImageDecoder %x {pixel_format = "BGR"} : (tensor<?xui8>) -> tensor<?x?x3xui8>
  return %0 : tensor<?x?x3xui8>
}

// RUN: onnx-opt %s -split-input-file -onnx-gpu-copy-kernels | FileCheck %s

// A copy into the interior of a padded buffer (a convolution's padding)
// becomes linalg.copy, which the pipeline turns into a kernel.
// CHECK-LABEL: func.func @pad_copy
// CHECK: %[[SUB:.+]] = memref.subview
// CHECK-NEXT: linalg.copy ins(%arg0 : memref<?x3x8x8xf32>) outs(%[[SUB]] : memref<?x3x8x8xf32, strided<[300, 100, 10, 1], offset: 11>>)
// CHECK-NOT: memref.copy
func.func @pad_copy(%x: memref<?x3x8x8xf32>, %padded: memref<?x3x10x10xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x3x8x8xf32>
  %sub = memref.subview %padded[0, 0, 1, 1] [%n, 3, 8, 8] [1, 1, 1, 1]
      : memref<?x3x10x10xf32> to memref<?x3x8x8xf32, strided<[300, 100, 10, 1], offset: 11>>
  memref.copy %x, %sub : memref<?x3x8x8xf32> to memref<?x3x8x8xf32, strided<[300, 100, 10, 1], offset: 11>>
  return
}

// -----

// Rank-0 copies stay on the host; copies already in a parallel loop or a
// kernel are left alone.
// CHECK-LABEL: func.func @left_alone
// CHECK: memref.copy %arg0, %arg1 : memref<f32> to memref<f32>
// CHECK: scf.parallel
// CHECK-NEXT: memref.copy
// CHECK: gpu.launch
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @left_alone(%a: memref<f32>, %b: memref<f32>, %x: memref<4x4xf32>, %y: memref<4x4xf32>) {
  memref.copy %a, %b : memref<f32> to memref<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.copy %x, %y : memref<4x4xf32> to memref<4x4xf32>
    scf.reduce
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.copy %x, %y : memref<4x4xf32> to memref<4x4xf32>
    gpu.terminator
  }
  return
}

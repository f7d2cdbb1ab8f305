// RUN: onnx-opt %s -onnx-gpu-map-parallel-loops=block-size=128 -split-input-file | FileCheck %s

// A 2-d parallel loop collapses to one dimension, tiled by the block size
// into a block loop and a thread loop with a bounds guard.
// CHECK-LABEL: func.func @collapse_and_tile
// CHECK: %[[C128:.+]] = arith.constant 128 : index
// CHECK: %[[STEP:.+]] = arith.muli %{{.+}}, %[[C128]]
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%[[STEP]]) {
// CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[STEP]]) step (%{{.+}}) {
// CHECK:     arith.cmpi ult
// CHECK:     scf.if
// CHECK:       memref.store
// CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
// CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
func.func @collapse_and_tile(%m: memref<4x100xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c100 = arith.constant 100 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c100) step (%c1, %c1) {
    memref.store %v, %m[%i, %j] : memref<4x100xf32>
  }
  return
}

// -----

// A loop of fewer elements than a block gets one block of whole warps; the
// reduction loop inside stays sequential in each thread.
// CHECK-LABEL: func.func @small_with_reduction
// CHECK: %[[C32:.+]] = arith.constant 32 : index
// CHECK: %[[STEP:.+]] = arith.muli %{{.+}}, %[[C32]]
// CHECK: scf.parallel
// CHECK:   scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[STEP]])
// CHECK:     scf.for
// CHECK: processor = thread_x
// CHECK: processor = block_x
func.func @small_with_reduction(%in: memref<10x8xf32>, %out: memref<10xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %a = memref.load %in[%i, %k] : memref<10x8xf32>
      %b = memref.load %out[%i] : memref<10xf32>
      %s = arith.addf %a, %b : f32
      memref.store %s, %out[%i] : memref<10xf32>
    }
  }
  return
}

// -----

// A parallel loop nested in another one becomes sequential.
// CHECK-LABEL: func.func @nested
// CHECK: processor = sequential
// CHECK: processor = thread_x
// CHECK: processor = block_x
func.func @nested(%m: memref<64x64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %k = %c0 to %c64 step %c1 {
      scf.parallel (%j) = (%c0) to (%c64) step (%c1) {
        memref.store %v, %m[%i, %j] : memref<64x64xf32>
      }
    }
  }
  return
}

// -----

// A loop that calls a function (a runtime string function, host code that a
// kernel cannot call) stays on the host: not collapsed, tiled nor mapped.
// CHECK-LABEL: func.func @calls_host
// CHECK: scf.parallel (%[[I:.+]], %[[J:.+]]) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step (%{{.+}}, %{{.+}}) {
// CHECK:   func.call @onnxc_string_concat
// CHECK-NOT: mapping
// CHECK: return
func.func private @onnxc_string_concat(i64, i64) -> i64
func.func @calls_host(%a: memref<2x3xi64>, %b: memref<2x3xi64>, %y: memref<2x3xi64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
    %x = memref.load %a[%i, %j] : memref<2x3xi64>
    %z = memref.load %b[%i, %j] : memref<2x3xi64>
    %s = func.call @onnxc_string_concat(%x, %z) : (i64, i64) -> i64
    memref.store %s, %y[%i, %j] : memref<2x3xi64>
  }
  return
}

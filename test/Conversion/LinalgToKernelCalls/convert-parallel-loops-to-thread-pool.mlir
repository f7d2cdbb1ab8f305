// RUN: onnx-opt %s -split-input-file -convert-parallel-loops-to-thread-pool | FileCheck %s

// A large elementwise nest: outlined over its first non-unit dim (64
// iterations), the buffers in a context struct, run by onnxc_parallel_for.
// CHECK-LABEL: func.func @elementwise
// CHECK: %[[CTX:.+]] = llvm.alloca %{{.+}} x !llvm.struct<(struct<(ptr, ptr, i64, array<4 x i64>, array<4 x i64>)>, struct<(ptr, ptr, i64, array<4 x i64>, array<4 x i64>)>)>
// CHECK: llvm.store %{{.+}}, %[[CTX]]
// CHECK: %[[N:.+]] = arith.index_cast %{{.+}} : index to i64
// CHECK: %[[FN:.+]] = constant @elementwise_parallel : (!llvm.ptr, i64, i64) -> ()
// CHECK: %[[POOL:.+]] = call @onnxc_current_threadpool()
// CHECK: call @onnxc_parallel_for(%[[POOL]], %[[N]], %[[FN]], %[[CTX]])
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func private @elementwise_parallel
// CHECK-SAME: (%{{.+}}: !llvm.ptr, %[[BEGIN:.+]]: i64, %[[END:.+]]: i64)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>
// CHECK: %[[B:.+]] = arith.index_cast %[[BEGIN]] : i64 to index
// CHECK: %[[E:.+]] = arith.index_cast %[[END]] : i64 to index
// CHECK: scf.for %[[C:.+]] = %[[B]] to %[[E]]
// CHECK: scf.parallel (%[[N0:.+]], %[[H:.+]], %[[W:.+]]) = {{.+}} to (%c1, %c32, %c32)
// CHECK: memref.load %{{.+}}[%[[N0]], %{{.+}}, %[[H]], %[[W]]]
// CHECK: arith.maximumf
func.func @elementwise(%x: memref<1x64x32x32xf32>, %y: memref<1x64x32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%n, %c, %h, %w) = (%c0, %c0, %c0, %c0) to (%c1, %c64, %c32, %c32) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %x[%n, %c, %h, %w] : memref<1x64x32x32xf32>
    %r = arith.maximumf %v, %zero : f32
    memref.store %r, %y[%n, %c, %h, %w] : memref<1x64x32x32xf32>
    scf.reduce
  }
  return
}

// -----

// Few outer iterations: the next dim is linearized with them (4 x 32); the
// body recovers both indices from the linear one.
// CHECK-LABEL: func.func @linearized
// CHECK: call @onnxc_parallel_for
// CHECK-LABEL: func.func private @linearized_parallel
// CHECK: scf.for %[[L:.+]] = 
// CHECK: %[[J:.+]] = arith.remui %[[L]], %c32
// CHECK: %[[I:.+]] = arith.divui %[[L]], %c32
// CHECK: scf.parallel (%[[K:.+]]) = (%c0) to (%c512)
// CHECK: memref.load %{{.+}}[%[[I]], %[[J]], %[[K]]]
func.func @linearized(%x: memref<4x32x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c512 = arith.constant 512 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c4, %c32, %c512) step (%c1, %c1, %c1) {
    %v = memref.load %x[%i, %j, %k] : memref<4x32x512xf32>
    %r = arith.addf %v, %v : f32
    memref.store %r, %x[%i, %j, %k] : memref<4x32x512xf32>
    scf.reduce
  }
  return
}

// -----

// A dynamic trip count: the work is checked at run time, and a small loop
// calls the body directly on the caller.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.+]] = memref.dim
// CHECK: %[[WORTH:.+]] = arith.cmpi sge, %{{.+}}, %c32768
// CHECK: scf.if %[[WORTH]] {
// CHECK: func.call @onnxc_parallel_for
// CHECK: } else {
// CHECK: %[[ZERO:.+]] = llvm.mlir.constant(0 : i64) : i64
// CHECK: func.call @dynamic_parallel(%{{.+}}, %[[ZERO]], %{{.+}})
// CHECK-LABEL: func.func private @dynamic_parallel
// CHECK: scf.parallel (%{{.+}}) = (%c0) to (%c256)
func.func @dynamic(%x: memref<?x256xf32>, %y: memref<?x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %d = memref.dim %x, %c0 : memref<?x256xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%d, %c256) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<?x256xf32>
    memref.store %v, %y[%i, %j] : memref<?x256xf32>
    scf.reduce
  }
  return
}

// -----

// A dynamic dim (a batch, most often of one) counts as one iteration: the
// static dim after it is shared too, linearized with it.
// CHECK-LABEL: func.func private @dynamic_batch_parallel
// CHECK: scf.for %[[L:.+]] =
// CHECK: %[[C:.+]] = arith.remui %[[L]], %c64
// CHECK: %[[N:.+]] = arith.divui %[[L]], %c64
// CHECK: scf.parallel (%[[K:.+]]) = (%c0) to (%c256)
// CHECK: memref.load %{{.+}}[%[[N]], %[[C]], %[[K]]]
func.func @dynamic_batch(%x: memref<?x64x256xf32>, %y: memref<?x64x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %d = memref.dim %x, %c0 : memref<?x64x256xf32>
  scf.parallel (%n, %c, %k) = (%c0, %c0, %c0) to (%d, %c64, %c256) step (%c1, %c1, %c1) {
    %v = memref.load %x[%n, %c, %k] : memref<?x64x256xf32>
    memref.store %v, %y[%n, %c, %k] : memref<?x64x256xf32>
    scf.reduce
  }
  return
}

// -----

// Constants and views of globals are recomputed in the body, not captured:
// the context holds only the output.
// CHECK-LABEL: func.func @global
// CHECK: llvm.alloca %{{.+}} x !llvm.struct<(struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>)>
// CHECK-LABEL: func.func private @global_parallel
// CHECK: memref.get_global @w : memref<16384xf32>
// CHECK: memref.expand_shape
memref.global "private" constant @w : memref<16384xf32> = dense<1.0>
func.func @global(%y: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %g = memref.get_global @w : memref<16384xf32>
  %w = memref.expand_shape %g [[0, 1]] output_shape [128, 128] : memref<16384xf32> into memref<128x128xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c128, %c128) step (%c1, %c1) {
    %v = memref.load %w[%i, %j] : memref<128x128xf32>
    %e = math.exp %v : f32
    memref.store %e, %y[%i, %j] : memref<128x128xf32>
    scf.reduce
  }
  return
}

// -----

// Too little work to share: left alone.
// CHECK-LABEL: func.func @tiny
// CHECK-NOT: onnxc_parallel_for
// CHECK: scf.parallel
func.func @tiny(%x: memref<16x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c16, %c16) step (%c1, %c1) {
    %v = memref.load %x[%i, %j] : memref<16x16xf32>
    %r = arith.addf %v, %v : f32
    memref.store %r, %x[%i, %j] : memref<16x16xf32>
    scf.reduce
  }
  return
}

// -----

// A reduction (a loop with results) is not shared.
// CHECK-LABEL: func.func @reduction
// CHECK-NOT: onnxc_parallel_for
// CHECK: scf.parallel {{.+}} init
// CHECK: scf.reduce
func.func @reduction(%x: memref<1024x1024xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i, %j) = (%c0, %c0) to (%c1024, %c1024) step (%c1, %c1) init (%zero) -> f32 {
    %v = memref.load %x[%i, %j] : memref<1024x1024xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %sum : f32
}

// -----

// A serial reduction dim outside (scf.for) with the parallel dims inside:
// the scf.parallel is shared per iteration of the for. Loops nested in a
// shared one stay in its body.
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK: call @onnxc_parallel_for
// CHECK-LABEL: func.func private @nested_parallel
// CHECK: scf.for
// CHECK-NEXT: scf.parallel (%{{.+}}) = (%c0) to (%c256)
// CHECK-NOT: onnxc_parallel_for
func.func @nested(%x: memref<64x256x256xf32>, %y: memref<256x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  scf.for %r = %c0 to %c64 step %c1 {
    scf.parallel (%i) = (%c0) to (%c256) step (%c1) {
      scf.parallel (%j) = (%c0) to (%c256) step (%c1) {
        %v = memref.load %x[%r, %i, %j] : memref<64x256x256xf32>
        %a = memref.load %y[%i, %j] : memref<256x256xf32>
        %s = arith.addf %v, %a : f32
        memref.store %s, %y[%i, %j] : memref<256x256xf32>
        scf.reduce
      }
      scf.reduce
    }
  }
  return
}

// -----

// A loop that calls a function is left alone (the callee may not be safe to
// run on several threads).
// CHECK-LABEL: func.func @call
// CHECK-NOT: onnxc_parallel_for
// CHECK: scf.parallel
func.func private @effect(index)
func.func @call() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c65536 = arith.constant 65536 : index
  scf.parallel (%i) = (%c0) to (%c65536) step (%c1) {
    func.call @effect(%i) : (index) -> ()
    scf.reduce
  }
  return
}

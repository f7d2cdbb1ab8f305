// RUN: onnx-opt %s -split-input-file -allow-unregistered-dialect -onnxc-plan-buffers | FileCheck %s

// Three temporaries: %a and %b live at the same time, %c only after %a is
// freed, so it takes %a's place. The largest (%b, 4 KiB) goes first at 0,
// %a (256 bytes, rounded up to 64) after it, %c (100 bytes -> 128) where %a
// was. The returned buffer stays an alloc.
// The runtime's functions, with C's memref descriptors.
// CHECK-DAG: func.func private @onnxc_arena_acquire(index) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @onnxc_arena_release(memref<?xi8>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @temporaries
// CHECK: %[[SIZE:.+]] = arith.constant 4352 : index
// CHECK: %[[ARENA:.+]] = call @onnxc_arena_acquire(%[[SIZE]]) : (index) -> memref<?xi8>
// CHECK: %[[OA:.+]] = arith.constant 4096 : index
// CHECK: %[[A:.+]] = memref.view %[[ARENA]][%[[OA]]][] : memref<?xi8> to memref<64xf32>
// CHECK: %[[OB:.+]] = arith.constant 0 : index
// CHECK: %[[B:.+]] = memref.view %[[ARENA]][%[[OB]]][] : memref<?xi8> to memref<32x32xf32>
// CHECK: "test.use"(%[[A]], %[[B]])
// CHECK-NOT: memref.dealloc
// CHECK: %[[OC:.+]] = arith.constant 4096 : index
// CHECK: %[[C:.+]] = memref.view %[[ARENA]][%[[OC]]][] : memref<?xi8> to memref<25xi32>
// CHECK: %[[R:.+]] = memref.alloc() : memref<8xf32>
// CHECK: "test.use"(%[[C]], %[[B]], %[[R]])
// CHECK-NOT: memref.dealloc
// CHECK: call @onnxc_arena_release(%[[ARENA]]) : (memref<?xi8>) -> ()
// CHECK-NEXT: return %[[R]]
func.func @temporaries() -> memref<8xf32> {
  %a = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  %b = memref.alloc() {alignment = 64 : i64} : memref<32x32xf32>
  "test.use"(%a, %b) : (memref<64xf32>, memref<32x32xf32>) -> ()
  memref.dealloc %a : memref<64xf32>
  %c = memref.alloc() : memref<25xi32>
  %r = memref.alloc() : memref<8xf32>
  "test.use"(%c, %b, %r) : (memref<25xi32>, memref<32x32xf32>, memref<8xf32>) -> ()
  memref.dealloc %b : memref<32x32xf32>
  memref.dealloc %c : memref<25xi32>
  return %r : memref<8xf32>
}

// -----

// Freed at the end of the block (as the deallocation pipeline places most
// deallocs), a buffer still lives only to its last use, through its views
// and in nested regions: %b reuses %a's place once the loop that reads a
// view of %a is done, and %c once %b is done. %c's view escapes into an
// scf.if result, so %c lives to its dealloc and %d, allocated after the
// scf.if, must not overlap it.
// CHECK-LABEL: func.func @last_use
// CHECK: %[[SIZE:.+]] = arith.constant 6144 : index
// CHECK: %[[ARENA:.+]] = call @onnxc_arena_acquire(%[[SIZE]])
// CHECK: %[[OA:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[OA]]][] : memref<?xi8> to memref<1024xf32>
// CHECK: scf.for
// CHECK: %[[OB:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[OB]]][] : memref<?xi8> to memref<1024xf32>
// CHECK: %[[OC:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[OC]]][] : memref<?xi8> to memref<1024xf32>
// CHECK: scf.if
// CHECK: %[[OD:.+]] = arith.constant 4096 : index
// CHECK: memref.view %[[ARENA]][%[[OD]]][] : memref<?xi8> to memref<512xf32>
func.func @last_use(%cond: i1, %other: memref<4x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.alloc() : memref<1024xf32>
  %va = memref.expand_shape %a [[0, 1]] output_shape [4, 256] : memref<1024xf32> into memref<4x256xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    "test.use"(%va) : (memref<4x256xf32>) -> ()
  }
  %b = memref.alloc() : memref<1024xf32>
  "test.use"(%b) : (memref<1024xf32>) -> ()
  %c = memref.alloc() : memref<1024xf32>
  %vc = memref.expand_shape %c [[0, 1]] output_shape [4, 256] : memref<1024xf32> into memref<4x256xf32>
  %either = scf.if %cond -> memref<4x256xf32> {
    scf.yield %vc : memref<4x256xf32>
  } else {
    scf.yield %other : memref<4x256xf32>
  }
  %d = memref.alloc() : memref<512xf32>
  "test.use"(%d, %either) : (memref<512xf32>, memref<4x256xf32>) -> ()
  memref.dealloc %a : memref<1024xf32>
  memref.dealloc %b : memref<1024xf32>
  memref.dealloc %c : memref<1024xf32>
  memref.dealloc %d : memref<512xf32>
  return
}

// -----

// Buffers sized by one dynamic dim (a batch) scale with it: the fixed part
// first (128 bytes), then %n times the scaled plan (%x: 512 bytes per unit
// at 0, %y: 64 per unit, alive with it, at 512).
// CHECK-LABEL: func.func @batch
// CHECK-SAME: (%[[IN:.+]]: memref<?x16xf32>)
// CHECK: %[[N:.+]] = memref.dim %[[IN]], %{{.+}}
// CHECK: %[[FIXED:.+]] = arith.constant 128 : index
// CHECK: %[[PER:.+]] = arith.constant 576 : index
// CHECK: %[[SCALED:.+]] = arith.muli %[[N]], %[[PER]]
// CHECK: %[[SIZE:.+]] = arith.addi %[[FIXED]], %[[SCALED]]
// CHECK: %[[ARENA:.+]] = call @onnxc_arena_acquire(%[[SIZE]])
// CHECK: %[[OF:.+]] = arith.constant 0 : index
// CHECK: memref.view %[[ARENA]][%[[OF]]][] : memref<?xi8> to memref<2x16xf32>
// CHECK: %[[OX:.+]] = arith.constant 0 : index
// CHECK: %[[MX:.+]] = arith.muli %[[N]], %[[OX]]
// CHECK: %[[AX:.+]] = arith.addi %[[FIXED]], %[[MX]]
// CHECK: memref.view %[[ARENA]][%[[AX]]][%[[N]]] : memref<?xi8> to memref<?x8x16xf32>
// CHECK: %[[OY:.+]] = arith.constant 512 : index
// CHECK: %[[MY:.+]] = arith.muli %[[N]], %[[OY]]
// CHECK: %[[AY:.+]] = arith.addi %[[FIXED]], %[[MY]]
// CHECK: memref.view %[[ARENA]][%[[AY]]][%[[N]]] : memref<?xi8> to memref<?x16xf32>
func.func @batch(%in: memref<?x16xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?x16xf32>
  %f = memref.alloc() : memref<2x16xf32>
  %x = memref.alloc(%n) : memref<?x8x16xf32>
  %y = memref.alloc(%n) : memref<?x16xf32>
  "test.use"(%f, %x, %y) : (memref<2x16xf32>, memref<?x8x16xf32>, memref<?x16xf32>) -> ()
  memref.dealloc %f : memref<2x16xf32>
  memref.dealloc %x : memref<?x8x16xf32>
  memref.dealloc %y : memref<?x16xf32>
  return
}

// -----

// Left as they are: a buffer freed in a nested region (conditionally), one
// never freed, one of two dynamic dims, one of a strided layout, one of
// index elements, and one aligned beyond the arena's 64 bytes.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: onnxc_arena_acquire
// CHECK-COUNT-6: memref.alloc
// CHECK-NOT: memref.view
func.func @kept(%cond: i1, %m: index, %n: index) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  %d = memref.alloc() : memref<4x4xf32, strided<[8, 1]>>
  %e = memref.alloc() : memref<16xindex>
  %g = memref.alloc() {alignment = 128 : i64} : memref<16xf32>
  "test.use"(%a, %b, %c, %d, %e, %g) : (memref<16xf32>, memref<16xf32>, memref<?x?xf32>, memref<4x4xf32, strided<[8, 1]>>, memref<16xindex>, memref<16xf32>) -> ()
  scf.if %cond {
    memref.dealloc %a : memref<16xf32>
  }
  memref.dealloc %c : memref<?x?xf32>
  memref.dealloc %d : memref<4x4xf32, strided<[8, 1]>>
  memref.dealloc %e : memref<16xindex>
  memref.dealloc %g : memref<16xf32>
  return
}

// -----

// Temporaries past 1 TiB (a fuzzed model's dims; 4 x 2^63 - 1 bytes would
// overflow int64): they stay allocs; the small one still goes in the arena.
// CHECK-LABEL: func.func @huge_temporaries
// CHECK: call @onnxc_arena_acquire
// CHECK: memref.view %{{.+}} : memref<?xi8> to memref<16xf32>
// CHECK: %[[H:.+]] = memref.alloc() {alignment = 64 : i64} : memref<9223372036854775807xf32>
// CHECK: %[[T:.+]] = memref.alloc() {alignment = 64 : i64} : memref<1048576x1048576xf32>
// CHECK: memref.dealloc %[[H]]
// CHECK: memref.dealloc %[[T]]
func.func @huge_temporaries() {
  %s = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %h = memref.alloc() {alignment = 64 : i64} : memref<9223372036854775807xf32>
  %t = memref.alloc() {alignment = 64 : i64} : memref<1048576x1048576xf32>
  "test.use"(%s, %h, %t) : (memref<16xf32>, memref<9223372036854775807xf32>, memref<1048576x1048576xf32>) -> ()
  memref.dealloc %s : memref<16xf32>
  memref.dealloc %h : memref<9223372036854775807xf32>
  memref.dealloc %t : memref<1048576x1048576xf32>
  return
}

// RUN: onnx-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(onnxc-reductions-to-loops))" | FileCheck %s

// A global average pooling's sum over each plane: a parallel loop over the
// planes, the sum carried by the loop over the plane from the output's
// element, and reassociable so that LLVM vectorizes it.
// CHECK-LABEL: func.func @plane_sum
// CHECK-SAME: (%[[X:.+]]: memref<1x8x49xf32>, %[[Y:.+]]: memref<1x8xf32>)
// CHECK-DAG: %[[C49:.+]] = arith.constant 49 : index
// CHECK: scf.parallel (%[[N:.+]], %[[C:.+]]) =
// CHECK: %[[INIT:.+]] = memref.load %[[Y]][%[[N]], %[[C]]]
// CHECK: %[[SUM:.+]] = scf.for %[[P:.+]] = %{{.+}} to %[[C49]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[INIT]]) -> (f32)
// CHECK: %[[A:.+]] = memref.load %[[X]][%[[N]], %[[C]], %[[P]]]
// CHECK: %[[S:.+]] = arith.addf %[[A]], %[[ACC]] fastmath<reassoc> : f32
// CHECK: scf.yield %[[S]]
// CHECK: memref.store %[[SUM]], %[[Y]][%[[N]], %[[C]]]
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#pr = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @plane_sum(%x: memref<1x8x49xf32>, %y: memref<1x8xf32>) {
  linalg.generic {indexing_maps = [#id, #pr], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<1x8x49xf32>) outs(%y : memref<1x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two reduction dims (a transposed input's, not folded): one loop each,
// the running maximum carried through both; the ops before the combiner
// (the square) are kept, as is an index read in the body.
// CHECK-LABEL: func.func @nested_max
// CHECK: scf.parallel (%[[I:.+]]) =
// CHECK: scf.for %[[J:.+]] = {{.+}} iter_args(%[[OUTER:.+]] = %{{.+}}) -> (f32)
// CHECK: %[[R:.+]] = scf.for %[[K:.+]] = {{.+}} iter_args(%[[INNER:.+]] = %[[OUTER]]) -> (f32)
// CHECK: %[[A:.+]] = memref.load %{{.+}}[%[[K]], %[[I]], %[[J]]] : memref<5x4x6xf32>
// CHECK: %[[IDX:.+]] = arith.index_cast %[[K]] : index to i64
// CHECK: %[[SQ:.+]] = arith.mulf %[[A]], %[[A]] : f32
// CHECK: arith.maximumf %{{.+}}, %[[INNER]] fastmath<reassoc> : f32
// CHECK: scf.yield
// CHECK: scf.yield %[[R]]
#in = affine_map<(d0, d1, d2) -> (d2, d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0)>
func.func @nested_max(%x: memref<5x4x6xf32>, %y: memref<4xf32>) {
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<5x4x6xf32>) outs(%y : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %k = linalg.index 2 : index
    %i = arith.index_cast %k : index to i64
    %f = arith.sitofp %i : i64 to f32
    %sq = arith.mulf %a, %a : f32
    %t = arith.addf %sq, %f : f32
    %m = arith.maximumf %t, %b : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// Integers combine in any order as they are: no flag.
// CHECK-LABEL: func.func @int_sum
// CHECK: scf.for
// CHECK: arith.addi %{{.+}}, %{{.+}} : i64
// CHECK-NOT: fastmath
#id = affine_map<(d0, d1) -> (d0, d1)>
#pr = affine_map<(d0, d1) -> (d0)>
func.func @int_sum(%x: memref<3x10xi64>, %y: memref<3xi64>) {
  linalg.generic {indexing_maps = [#id, #pr], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x10xi64>) outs(%y : memref<3xi64>) {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    linalg.yield %s : i64
  }
  return
}

// -----

// Left to linalg: a reduction dim before a parallel one (the loop over the
// contiguous dim vectorizes as it is), and a body that reads the running
// value twice.
// CHECK-LABEL: func.func @not_innermost
// CHECK: linalg.generic
// CHECK-LABEL: func.func @running_value_twice
// CHECK: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#pr = affine_map<(d0, d1) -> (d1)>
func.func @not_innermost(%x: memref<3x10xf32>, %y: memref<10xf32>) {
  linalg.generic {indexing_maps = [#id, #pr], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<3x10xf32>) outs(%y : memref<10xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  return
}
#pr2 = affine_map<(d0, d1) -> (d0)>
func.func @running_value_twice(%x: memref<3x10xf32>, %y: memref<3xf32>) {
  linalg.generic {indexing_maps = [#id, #pr2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<3x10xf32>) outs(%y : memref<3xf32>) {
  ^bb0(%a: f32, %b: f32):
    %d = arith.subf %a, %b : f32
    %s = arith.addf %d, %b : f32
    linalg.yield %s : f32
  }
  return
}

// RUN: onnx-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(onnxc-collapse-elementwise))" | FileCheck %s

// An elementwise op over a 7x7 plane: one loop over all 392 elements.
// CHECK-LABEL: func.func @flat
// CHECK: %[[X:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2, 3]] : memref<1x8x7x7xf32> into memref<392xf32>
// CHECK: %[[Y:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1, 2, 3]] : memref<1x8x7x7xf32> into memref<392xf32>
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel"]} ins(%[[X]] : memref<392xf32>) outs(%[[Y]] : memref<392xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @flat(%x: memref<1x8x7x7xf32>, %y: memref<1x8x7x7xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x8x7x7xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A per-channel scale (a squeeze-and-excitation block's) folds the plane
// below the broadcast; a global pooling its reduction over the plane.
// CHECK-LABEL: func.func @broadcast_and_pool
// CHECK: memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : memref<1x8x7x7xf32> into memref<1x8x49xf32>
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}}, %{{.+}} : memref<1x8x49xf32>, memref<1x8xf32>)
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.+}} : memref<1x8x49xf32>) outs(%{{.+}} : memref<1x8xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#bc = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
func.func @broadcast_and_pool(%x: memref<1x8x7x7xf32>, %s: memref<1x8xf32>, %y: memref<1x8x7x7xf32>, %z: memref<1x8xf32>) {
  linalg.generic {indexing_maps = [#id, #bc, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : memref<1x8x7x7xf32>, memref<1x8xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #bc], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%y : memref<1x8x7x7xf32>) outs(%z : memref<1x8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Left as they are: a strided operand, a transposing map, a map with a
// constant, and a generic whose innermost dims mix iterator types.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref.collapse_shape
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#cst = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#red = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @kept(%s: memref<2x4x4xf32, strided<[32, 8, 1]>>, %x: memref<2x4x4xf32>, %y: memref<2x4x4xf32>, %z: memref<2x4xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : memref<2x4x4xf32, strided<[32, 8, 1]>>) outs(%y : memref<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#tr, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x4x4xf32>) outs(%y : memref<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#cst, #id], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x4x4xf32>) outs(%y : memref<2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<2x4x4xf32>) outs(%z : memref<2x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A squeeze-and-excitation block's scale, 1x8x1x1 read at (d0, d1, 0, 0):
// its unit dims are dropped (the map becomes a projected permutation), and
// the plane then folds below the broadcast.
// CHECK-LABEL: func.func @unit_broadcast
// CHECK: %[[S:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2, 3]] : memref<1x8x1x1xf32> into memref<1x8xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[BC:.+]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.+}}, %[[S]] : memref<1x8x49xf32>, memref<1x8xf32>) outs(%{{.+}} : memref<1x8x49xf32>)
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#unit = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
func.func @unit_broadcast(%x: memref<1x8x7x7xf32>, %s: memref<1x8x1x1xf32>, %y: memref<1x8x7x7xf32>) {
  linalg.generic {indexing_maps = [#id, #unit, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %s : memref<1x8x7x7xf32>, memref<1x8x1x1xf32>) outs(%y : memref<1x8x7x7xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  return
}

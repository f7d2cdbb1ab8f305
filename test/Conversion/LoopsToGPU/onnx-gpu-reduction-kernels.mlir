// RUN: onnx-opt %s -onnx-gpu-reduction-kernels -split-input-file | FileCheck %s

// A row sum (the innermost dim reduced): one warp per row, 8 warps a block;
// the lanes stride over the row from their lane index, fold with the body
// (the input is squared first, as in a variance), combine by five xor
// shuffles, and lane 0 adds the total to the output's initial value.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[X:.+]]: memref<?x768xf32>, %[[S:.+]]: memref<?xf32>)
// CHECK: %[[ROWS:.+]] = memref.dim %[[X]], %{{.+}}
// CHECK: %[[P:.+]] = arith.muli %{{.+}}, %[[ROWS]] : index
// CHECK: %[[R:.+]] = arith.muli %{{.+}}, %{{.+}} : index
// CHECK: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[C7:.+]] = arith.constant 7 : index
// CHECK: %[[PLUS:.+]] = arith.addi %[[P]], %[[C7]]
// CHECK: %[[BLOCKS:.+]] = arith.divui %[[PLUS]], %[[C8]]
// CHECK: %[[C256:.+]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[BLOCKS]], {{.+}} threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C256]],
// CHECK:   %[[LANE:.+]] = arith.remui %[[TX]], %{{.+}} : index
// CHECK:   %[[BASE:.+]] = arith.muli %[[BX]], %{{.+}} : index
// CHECK:   %[[WARP:.+]] = arith.divui %[[TX]], %{{.+}} : index
// CHECK:   %[[ROW:.+]] = arith.addi %[[BASE]], %[[WARP]] : index
// CHECK:   %[[IN:.+]] = arith.cmpi ult, %[[ROW]], %[[P]] : index
// CHECK:   scf.if %[[IN]] {
// CHECK:     %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK:     %[[PART:.+]] = scf.for %[[K:.+]] = %[[LANE]] to %[[R]] step %{{.+}} iter_args(%[[ACC:.+]] = %[[ZERO]]) -> (f32) {
// CHECK:       %[[V:.+]] = memref.load %[[X]][%{{.+}}, %{{.+}}]
// CHECK:       %[[SQ:.+]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK:       %[[NEXT:.+]] = arith.addf %[[SQ]], %[[ACC]] : f32
// CHECK:       scf.yield %[[NEXT]] : f32
// CHECK:     }
// CHECK:     %[[S16:.+]], %{{.+}} = gpu.shuffle  xor %[[PART]], %{{.+}}, %{{.+}} : f32
// CHECK:     %[[T16:.+]] = arith.addf %[[PART]], %[[S16]] : f32
// CHECK-COUNT-4: gpu.shuffle  xor
// CHECK:     %[[T1:.+]] = arith.addf
// CHECK:     %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %{{.+}} : index
// CHECK:     scf.if %[[FIRST]] {
// CHECK:       %[[OLD:.+]] = memref.load %[[S]][%[[ROW]]] : memref<?xf32>
// CHECK:       %[[NEW:.+]] = arith.addf %[[T1]], %[[OLD]] : f32
// CHECK:       memref.store %[[NEW]], %[[S]][%[[ROW]]] : memref<?xf32>
// CHECK:     }
// CHECK:   }
// CHECK:   gpu.terminator
// CHECK-NOT: linalg.generic
func.func @row_sum(%x: memref<?x768xf32>, %s: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x768xf32>) outs(%s : memref<?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %sq = arith.mulf %in, %in : f32
    %sum = arith.addf %sq, %out : f32
    linalg.yield %sum : f32
  }
  return
}

// -----

// Global pooling: the two innermost dims reduced, linearized; the lanes'
// index split into (h, w); the max starts at -inf.
// CHECK-LABEL: func.func @spatial_max
// CHECK: gpu.launch
// CHECK: %[[NEG:.+]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for %[[K:.+]] = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[NEG]]) -> (f32) {
// CHECK:   %[[W:.+]] = arith.remui %[[K]], %{{.+}} : index
// CHECK:   %[[H:.+]] = arith.divui %[[K]], %{{.+}} : index
// CHECK:   arith.maximumf
// CHECK: gpu.shuffle  xor
// CHECK: arith.maximumf
// CHECK: memref.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : memref<2x64x1x1xf32>
func.func @spatial_max(%x: memref<2x64x7x7xf32>, %m: memref<2x64x1x1xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%x : memref<2x64x7x7xf32>) outs(%m : memref<2x64x1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %out : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left to the default lowering: a reduction over an outer dim (lanes would
// read a column), one of 16 elements, an f64 output, a body whose output
// value is not just combined (no neutral element to start a lane from), and
// a batched matmul (its rows serve many outputs).
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: gpu.launch
// CHECK-COUNT-5: linalg.generic
// CHECK-NOT: gpu.launch
func.func @left_alone(%x: memref<64x128xf32>, %col: memref<128xf32>, %short: memref<64x16xf32>, %row: memref<64xf32>,
                      %d: memref<64x128xf64>, %drow: memref<64xf64>,
                      %a: memref<2x3x64x128xf32>, %b: memref<2x3x128x64xf32>, %c: memref<2x3x64x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x3x64x128xf32>, memref<2x3x128x64xf32>) outs(%c : memref<2x3x64x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %p = arith.mulf %in, %in_0 : f32
    %s = arith.addf %p, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>],
                  iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<64x128xf32>) outs(%col : memref<128xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%short : memref<64x16xf32>) outs(%row : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%d : memref<64x128xf64>) outs(%drow : memref<64xf64>) {
  ^bb0(%in: f64, %out: f64):
    %s = arith.addf %in, %out : f64
    linalg.yield %s : f64
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x128xf32>) outs(%row : memref<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    %t = arith.mulf %s, %out : f32
    linalg.yield %t : f32
  }
  return
}

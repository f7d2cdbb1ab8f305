// RUN: onnx-opt %s -split-input-file -onnx-gpu-gemm-kernels=precision=fp16 -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,FP16
// RUN: onnx-opt %s -split-input-file -onnx-gpu-gemm-kernels=precision=tf32 -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,TF32
// RUN: onnx-opt %s -split-input-file -onnx-gpu-gemm-kernels=precision=bf16 -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,BF16
// RUN: onnx-opt %s -split-input-file -onnx-gpu-gemm-kernels=precision=fp32 -canonicalize -cse | FileCheck %s --check-prefixes=CHECK,FP32
// RUN: not onnx-opt %s -split-input-file -onnx-gpu-gemm-kernels=precision=fp8 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: unknown precision 'fp8' (expected fp32, tf32, fp16 or bf16)

// A matmul becomes one launch: 64x64 output tiles (grid x over N, y over M),
// 128 threads, the A and B tiles in shared memory in the chosen type, a
// reduction loop by 32 with two barriers, and C += the f32 accumulators
// (atomically: with few tiles the reduction is split over more blocks);
// the operands of the next step are loaded while a step computes.
// The fragment loads follow the PTX ISA's layouts, with g = lane / 4 and
// t = lane % 4 (see GemmKernels.cpp):
//   f16/bf16 m16n8k16: A reg r elt j = A[g + 8(r%2)][2t + j + 8(r/2)],
//                      B reg r elt j = B[2t + j + 8r][g]
//   tf32 m16n8k8:      A reg r = A[g + 8(r%2)][t + 4(r/2)], B reg r = B[t + 4r][g]
//   C (f32, all):      c_v = C[g + 8(v/2)][2t + v%2]
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.+]]: memref<?x?xf32>, %[[B:.+]]: memref<?x?xf32>, %[[C:.+]]: memref<?x?xf32>)
// CHECK: %[[M:.+]] = memref.dim %[[C]], %c0
// CHECK: %[[N:.+]] = memref.dim %[[C]], %c1
// CHECK: %[[K:.+]] = memref.dim %[[A]], %c1
// CHECK: %[[NP:.+]] = arith.addi %[[N]], %c63
// CHECK: %[[GX:.+]] = arith.divui %[[NP]], %c64
// CHECK: %[[MP:.+]] = arith.addi %[[M]], %c63
// CHECK: %[[GY:.+]] = arith.divui %[[MP]], %c64
// Split-K: splits = min(ceil(256 / tiles), max(steps / 4, 1)) with steps =
// ceil(K / 32), then evened out into ranges of PER steps (none empty).
// CHECK: %[[TILES:.+]] = arith.muli %[[GX]], %[[GY]]
// CHECK: %[[T1:.+]] = arith.maxui %[[TILES]], %c1
// CHECK: %[[KP:.+]] = arith.addi %[[K]], %c31
// CHECK: %[[ST0:.+]] = arith.divui %[[KP]], %c32
// CHECK: %[[STEPS:.+]] = arith.maxui %[[ST0]], %c1
// CHECK: %[[W0:.+]] = arith.addi %[[T1]], %c255
// CHECK: %[[WANTED:.+]] = arith.divui %[[W0]], %[[T1]]
// CHECK: %[[MS0:.+]] = arith.divui %[[STEPS]], %c4
// CHECK: %[[MS:.+]] = arith.maxui %[[MS0]], %c1
// CHECK: %[[S0:.+]] = arith.minui %[[WANTED]], %[[MS]]
// CHECK: %[[S0M:.+]] = arith.addi %[[S0]], %c-1
// CHECK: %[[P0:.+]] = arith.addi %[[STEPS]], %[[S0M]]
// CHECK: %[[PER:.+]] = arith.divui %[[P0]], %[[S0]]
// CHECK: %[[PERM:.+]] = arith.addi %[[PER]], %c-1
// CHECK: %[[SP0:.+]] = arith.addi %[[STEPS]], %[[PERM]]
// CHECK: %[[SPLITS:.+]] = arith.divui %[[SP0]], %[[PER]]
// CHECK: %[[CHUNK:.+]] = arith.muli %[[PER]], %c32
// CHECK: gpu.launch blocks(%[[BX:[a-z0-9_]+]], %[[BY:[a-z0-9_]+]], %[[BZ:[a-z0-9_]+]]) in (%{{[a-z0-9_]+}} = %[[GX]], %{{[a-z0-9_]+}} = %[[GY]], %{{[a-z0-9_]+}} = %[[SPLITS]])
// CHECK-SAME: threads(%[[TID:[a-z0-9_]+]], %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}) in (%{{[a-z0-9_]+}} = %c128, %{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c1)
// FP16-SAME: workgroup(%[[AT:.+]] : memref<64x36xf16, #gpu.address_space<workgroup>>, %[[BT:.+]] : memref<32x68xf16, #gpu.address_space<workgroup>>)
// BF16-SAME: workgroup(%[[AT:.+]] : memref<64x36xbf16, #gpu.address_space<workgroup>>, %[[BT:.+]] : memref<32x68xbf16, #gpu.address_space<workgroup>>)
// TF32-SAME: workgroup(%[[AT:.+]] : memref<64x36xf32, #gpu.address_space<workgroup>>, %[[BT:.+]] : memref<32x68xf32, #gpu.address_space<workgroup>>)
// FP32-SAME: workgroup(%[[AT:.+]] : memref<64x36xf32, #gpu.address_space<workgroup>>, %[[BT:.+]] : memref<32x68xf32, #gpu.address_space<workgroup>>)
// CHECK: %[[SPLIT:.+]] = arith.remui %[[BZ]], %[[SPLITS]]
// CHECK: %[[KB:.+]] = arith.muli %[[SPLIT]], %[[CHUNK]]
// CHECK: %[[KE0:.+]] = arith.addi %[[KB]], %[[CHUNK]]
// CHECK: %[[KE:.+]] = arith.minui %[[K]], %[[KE0]]
// An empty reduction (K = 0) adds nothing.
// CHECK: %[[NONEMPTY:.+]] = arith.cmpi ult, %[[KB]], %[[KE]]
// CHECK: scf.if %[[NONEMPTY]] {
// CHECK: %[[ROW0:.+]] = arith.muli %[[BY]], %c64
// CHECK: %[[COL0:.+]] = arith.muli %[[BX]], %c64
// CHECK: %[[WARP:.+]] = arith.divui %[[TID]], %c32
// CHECK: %[[LANE:.+]] = arith.remui %[[TID]], %c32
// CHECK: %[[G:.+]] = arith.divui %[[LANE]], %c4
// CHECK: %[[T:.+]] = arith.remui %[[LANE]], %c4
// CHECK: %[[WR:.+]] = arith.divui %[[WARP]], %c2
// CHECK: %[[WROW:.+]] = arith.muli %[[WR]], %c32
// CHECK: %[[WC:.+]] = arith.remui %[[WARP]], %c2
// CHECK: %[[WCOL:.+]] = arith.muli %[[WC]], %c32
// The first step's operands into registers: each thread loads column
// k0 + tid % 32 of A in rows rowBase + tid / 32 + 4i (i < 16), the indices
// clamped into A and the values outside replaced by zeros, so that the 16
// loads have no branch between them; then B's column colBase + tid % 64 in
// rows k0 + tid / 64 + 2i.
// CHECK: %[[AC:.+]] = arith.addi %[[KB]], %[[LANE]]
// CHECK: %[[ACIN:.+]] = arith.cmpi ult, %[[AC]], %[[K]]
// CHECK: %[[KM1:.+]] = arith.addi %[[K]], %c-1
// CHECK: %[[ACL:.+]] = arith.minui %[[AC]], %[[KM1]]
// CHECK: %[[AR:.+]] = arith.addi %[[ROW0]], %[[WARP]]
// CHECK: %[[MM1:.+]] = arith.addi %[[M]], %c-1
// CHECK: %[[ARIN:.+]] = arith.cmpi ult, %[[AR]], %[[M]]
// CHECK: %[[AIN:.+]] = arith.andi %[[ARIN]], %[[ACIN]]
// CHECK: %[[ARL:.+]] = arith.minui %[[AR]], %[[MM1]]
// CHECK: %[[AV:.+]] = memref.load %[[A]][%[[ARL]], %[[ACL]]]
// CHECK: arith.select %[[AIN]], %[[AV]], %{{.+}} : f32
// FP16: arith.truncf %{{.+}} : f32 to f16
// BF16: arith.truncf %{{.+}} : f32 to bf16
// TF32: llvm.call_intrinsic "llvm.nvvm.f2tf32.rna"
// CHECK: %[[AR4:.+]] = arith.addi %[[AR]], %c4
// CHECK: memref.load %[[A]][%{{.+}}, %[[ACL]]]
// CHECK-COUNT-14: memref.load %[[A]]
// CHECK-NOT: memref.store
// CHECK-COUNT-16: memref.load %[[B]]
// CHECK: %[[ACC:.+]]:40 = scf.for %[[K0:.+]] = %[[KB]] to %[[KE]] step %c32 iter_args
// The loop carries the 8 accumulators and the 32 loaded values, which go
// to shared memory between two barriers.
// CHECK:   gpu.barrier
// CHECK-COUNT-16: memref.store %{{.+}}, %[[AT]]
// CHECK-COUNT-16: memref.store %{{.+}}, %[[BT]]
// CHECK:   gpu.barrier
// Then the next step's loads, issued before this step's products so that
// their latency hides behind them (past the end they read zeros).
// CHECK:   %[[K1:.+]] = arith.addi %[[K0]], %c32
// CHECK:   %[[AC1:.+]] = arith.addi %[[K1]], %[[LANE]]
// CHECK:   memref.load %[[A]]
// CHECK-COUNT-15: memref.load %[[A]]
// CHECK-COUNT-16: memref.load %[[B]]
// The first A fragment: rows g and g + 8 of the warp's first 16, columns
// from 2t (f16, bf16) or t (tf32).
// FP16:    %[[K2:.+]] = arith.muli %[[T]], %c2
// FP16:    %[[R0:.+]] = arith.addi %[[WROW]], %[[G]]
// FP16:    memref.load %[[AT]][%[[R0]], %[[K2]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [0, 0] : f16 into vector<4x2xf16>
// FP16:    %[[K21:.+]] = arith.addi %[[K2]], %c1
// FP16:    memref.load %[[AT]][%[[R0]], %[[K21]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [0, 1]
// FP16:    %[[R8:.+]] = arith.addi %[[R0]], %c8
// FP16:    memref.load %[[AT]][%[[R8]], %[[K2]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [1, 0]
// FP16:    %[[K28:.+]] = arith.addi %[[K2]], %c8
// FP16:    memref.load %[[AT]][%[[R0]], %[[K28]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [2, 0]
// The first B fragment: column g of the warp's first 8, rows from 2t.
// FP16:    %[[N0:.+]] = arith.addi %[[WCOL]], %[[G]]
// FP16:    memref.load %[[BT]][%[[K2]], %[[N0]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [0, 0] : f16 into vector<2x2xf16>
// FP16:    memref.load %[[BT]][%[[K21]], %[[N0]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [0, 1]
// FP16:    memref.load %[[BT]][%[[K28]], %[[N0]]]
// FP16:    vector.insert %{{.+}}, %{{.+}} [1, 0]
// FP16-COUNT-16: nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// TF32:    %[[R0:.+]] = arith.addi %[[WROW]], %[[G]]
// TF32:    memref.load %[[AT]][%[[R0]], %[[T]]]
// TF32:    vector.insert %{{.+}}, %{{.+}} [0, 0] : f32 into vector<4x1xf32>
// TF32:    %[[R8:.+]] = arith.addi %[[R0]], %c8
// TF32:    memref.load %[[AT]][%[[R8]], %[[T]]]
// TF32:    vector.insert %{{.+}}, %{{.+}} [1, 0]
// TF32:    %[[T4:.+]] = arith.addi %[[T]], %c4
// TF32:    memref.load %[[AT]][%[[R0]], %[[T4]]]
// TF32:    vector.insert %{{.+}}, %{{.+}} [2, 0]
// TF32:    %[[N0:.+]] = arith.addi %[[WCOL]], %[[G]]
// TF32:    memref.load %[[BT]][%[[T]], %[[N0]]]
// TF32:    vector.insert %{{.+}}, %{{.+}} [0, 0] : f32 into vector<2x1xf32>
// TF32:    memref.load %[[BT]][%[[T4]], %[[N0]]]
// TF32:    vector.insert %{{.+}}, %{{.+}} [1, 0]
// TF32-COUNT-32: nvgpu.mma.sync({{.+}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// BF16:    vector.extract %{{.+}}[0] : vector<2xbf16> from vector<4x2xbf16>
// BF16:    llvm.bitcast %{{.+}} : vector<2xbf16> to i32
// BF16-COUNT-16: llvm.call_intrinsic "llvm.nvvm.mma.m16n8k16.row.col.bf16"({{.+}}) : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// The fp32 kernel: 32 FMAs per step of k, on the C positions of the mma,
// for each of the 32 (unrolled).
// FP32-COUNT-1024: math.fma
// FP32-NOT: nvgpu.mma.sync
// CHECK:   scf.yield
// C += the accumulators: c0 at row g, column 2t of the warp's tile.
// CHECK: %[[CT:.+]] = arith.muli %[[T]], %c2
// CHECK: %[[RB:.+]] = arith.addi %[[ROW0]], %[[WROW]]
// CHECK: %[[CR:.+]] = arith.addi %[[RB]], %[[G]]
// CHECK: %[[CB:.+]] = arith.addi %[[COL0]], %[[WCOL]]
// CHECK: %[[CC:.+]] = arith.addi %[[CB]], %[[CT]]
// CHECK: %[[INR:.+]] = arith.cmpi ult, %[[CR]], %[[M]]
// CHECK: %[[INC:.+]] = arith.cmpi ult, %[[CC]], %[[N]]
// CHECK: %[[IN:.+]] = arith.andi %[[INR]], %[[INC]]
// CHECK: scf.if %[[IN]] {
// CHECK:   %[[V:.+]] = vector.extract %[[ACC]]#0[0, 0]
// CHECK:   memref.atomic_rmw addf %[[V]], %[[C]][%[[CR]], %[[CC]]]
// CHECK-COUNT-31: memref.atomic_rmw addf %{{.+}}, %[[C]]
// CHECK: gpu.terminator
// CHECK-NOT: linalg.matmul
func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// A batch matmul with B stored [batch, n, k]: the batch is grid z, B is
// read transposed.
// CHECK-LABEL: func.func @batch_matmul_transpose_b
// CHECK-SAME: (%[[A:.+]]: memref<12x128x64xf32>, %[[B:.+]]: memref<12x128x64xf32>, %[[C:.+]]: memref<12x128x128xf32>)
// CHECK: gpu.launch blocks(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[BZ:[a-z0-9_]+]]) in (%{{[a-z0-9_]+}} = %c2, %{{[a-z0-9_]+}} = %c2, %{{[a-z0-9_]+}} = %c12)
// CHECK:   memref.load %[[A]][%[[BZ]], %[[AM:.+]], %[[AK:.+]]]
// CHECK:   memref.load %[[B]][%[[BZ]], %[[BN:.+]], %[[BK:.+]]]
// CHECK:   memref.store %{{.+}}, %{{.+}}[%[[BK0:.+]], %[[BN0:.+]]]
// CHECK: memref.atomic_rmw addf %{{.+}}, %[[C]][%[[BZ]], %{{.+}}, %{{.+}}]
// CHECK-NOT: linalg.batch_matmul_transpose_b
func.func @batch_matmul_transpose_b(%a: memref<12x128x64xf32>, %b: memref<12x128x64xf32>, %c: memref<12x128x128xf32>) {
  linalg.batch_matmul_transpose_b ins(%a, %b : memref<12x128x64xf32>, memref<12x128x64xf32>) outs(%c : memref<12x128x128xf32>)
  return
}

// -----

// A strided convolution as an implicit GEMM per image: M = F = 8,
// N = OH*OW = 16, K = C*KH*KW = 36; the B loads gather the input window
// (oy * 2 + y, ox * 2 + x) from k = (c, y, x) and n = (oy, ox).
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.+]]: memref<2x4x10x10xf32>, %[[W:.+]]: memref<8x4x3x3xf32>, %[[O:.+]]: memref<2x8x4x4xf32>)
// CHECK: gpu.launch blocks(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[IMG:[a-z0-9_]+]]) in (%{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c2)
// CHECK:   %[[KC:.+]] = arith.divui %[[KA:.+]], %c9
// CHECK:   %[[KR:.+]] = arith.remui %[[KA]], %c9
// CHECK:   %[[KY:.+]] = arith.divui %[[KR]], %c3
// CHECK:   %[[KX:.+]] = arith.remui %[[KR]], %c3
// CHECK:   memref.load %[[W]][%{{.+}}, %[[KC]], %[[KY]], %[[KX]]]
// CHECK:   %[[OY:.+]] = arith.divui %[[NB:.+]], %c4
// CHECK:   %[[OX:.+]] = arith.remui %[[NB]], %c4
// CHECK:   %[[SY:.+]] = arith.muli %[[OY]], %c2
// CHECK:   %[[IY:.+]] = arith.addi %[[SY]], %{{.+}}
// CHECK:   %[[SX:.+]] = arith.muli %[[OX]], %c2
// CHECK:   %[[IX:.+]] = arith.addi %[[SX]], %{{.+}}
// CHECK:   memref.load %[[X]][%[[IMG]], %{{.+}}, %[[IY]], %[[IX]]]
// CHECK: scf.for %{{.+}} = %c0 to %c36 step %c32
// CHECK: memref.atomic_rmw addf %{{.+}}, %[[O]][%[[IMG]], %{{.+}}, %{{.+}}, %{{.+}}]
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @conv(%x: memref<2x4x10x10xf32>, %w: memref<8x4x3x3xf32>, %o: memref<2x8x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x4x10x10xf32>, memref<8x4x3x3xf32>) outs(%o : memref<2x8x4x4xf32>)
  return
}

// -----

// A grouped convolution (4 groups): the GEMM batch is image x group (grid z
// 8), image = z / 4 and group = z % 4 index the input, the filter and the
// output.
// CHECK-LABEL: func.func @grouped_conv
// CHECK-SAME: (%[[X:.+]]: memref<2x4x3x10x10xf32>, %[[W:.+]]: memref<4x5x3x3x3xf32>, %[[O:.+]]: memref<2x4x5x4x4xf32>)
// CHECK: gpu.launch blocks(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[Z:[a-z0-9_]+]]) in (%{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c8)
// CHECK:   %[[GA:.+]] = arith.remui %[[Z]], %c4
// CHECK:   memref.load %[[W]][%[[GA]], %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}]
// CHECK:   %[[IB:.+]] = arith.divui %[[Z]], %c4
// CHECK:   memref.load %[[X]][%[[IB]], %[[GA]], %{{.+}}, %{{.+}}, %{{.+}}]
// CHECK: memref.atomic_rmw addf %{{.+}}, %[[O]][%[[IB]], %[[GA]], %{{.+}}, %{{.+}}, %{{.+}}]
// CHECK-NOT: linalg.conv_2d_ngchw_gfchw
func.func @grouped_conv(%x: memref<2x4x3x10x10xf32>, %w: memref<4x5x3x3x3xf32>, %o: memref<2x4x5x4x4xf32>) {
  linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%x, %w : memref<2x4x3x10x10xf32>, memref<4x5x3x3x3xf32>) outs(%o : memref<2x4x5x4x4xf32>)
  return
}

// -----

// One 64x64 tile and K = 4096 (128 steps of 32): the reduction splits into
// 32 blocks (grid z) of 4 steps, 128 columns of A each.
// CHECK-LABEL: func.func @split_k
// CHECK: gpu.launch blocks(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %[[Z:[a-z0-9_]+]]) in (%{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c1, %{{[a-z0-9_]+}} = %c32)
// CHECK: %[[S:.+]] = arith.remui %[[Z]], %c32
// CHECK: %[[KB:.+]] = arith.muli %[[S]], %c128
// CHECK: %[[KE0:.+]] = arith.addi %[[KB]], %c128
// CHECK: %[[KE:.+]] = arith.minui %[[KE0]], %c4096
// CHECK: scf.for %{{.+}} = %[[KB]] to %[[KE]] step %c32
// CHECK: memref.atomic_rmw addf
func.func @split_k(%a: memref<64x4096xf32>, %b: memref<4096x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x4096xf32>, memref<4096x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// Left alone: other element types, and ops already inside a parallel loop.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: gpu.launch
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<16x16xf16>, memref<16x16xf16>)
// CHECK: scf.parallel
// CHECK:   linalg.matmul
func.func @left_alone(%a: memref<16x16xf16>, %c: memref<16x16xf16>, %x: memref<4x16x16xf32>, %y: memref<4x16x16xf32>) {
  linalg.matmul ins(%a, %a : memref<16x16xf16>, memref<16x16xf16>) outs(%c : memref<16x16xf16>)
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %xi = memref.subview %x[%i, 0, 0] [1, 16, 16] [1, 1, 1] : memref<4x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
    %yi = memref.subview %y[%i, 0, 0] [1, 16, 16] [1, 1, 1] : memref<4x16x16xf32> to memref<16x16xf32, strided<[16, 1], offset: ?>>
    linalg.matmul ins(%xi, %xi : memref<16x16xf32, strided<[16, 1], offset: ?>>, memref<16x16xf32, strided<[16, 1], offset: ?>>) outs(%yi : memref<16x16xf32, strided<[16, 1], offset: ?>>)
    scf.reduce
  }
  return
}

// RUN: onnx-opt %s -pass-pipeline='builtin.module(gpu.module(onnx-gpu-expand-math))' | FileCheck %s

// Inside kernels: f32 transcendentals become polynomials, the ops PTX has
// instructions for become NVVM or LLVM intrinsics, and no libdevice call
// is needed.
// asin and acos are Cephes' (its asinf polynomial's leading coefficient),
// not MLIR's polynomials, which were 0.036 off near 1 on an H200.
// CHECK-LABEL: gpu.func @kernel
// CHECK-NOT: math.exp
// CHECK-NOT: math.tanh
// CHECK-NOT: math.asin
// CHECK-NOT: math.acos
// CHECK: arith.constant 4.216320e-02 : f32
// CHECK: llvm.call @llvm.nvvm.sqrt.rn.f(%{{.+}}) : (f32) -> f32
// CHECK: llvm.call @llvm.nvvm.floor.d(%{{.+}}) : (f64) -> f64
// CHECK-NOT: math.
// CHECK: gpu.return
gpu.module @kernels {
  gpu.func @kernel(%x: f32, %y: f64, %out: memref<4xf32>, %out64: memref<f64>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %e = math.exp %x : f32
    %t = math.tanh %x : f32
    %s = math.sqrt %x : f32
    %f = math.floor %y : f64
    %as = math.asin %x : f32
    %ac = math.acos %x : f32
    %inv = arith.addf %as, %ac : f32
    memref.store %e, %out[%c0] : memref<4xf32>
    memref.store %t, %out[%c1] : memref<4xf32>
    memref.store %s, %out[%c2] : memref<4xf32>
    memref.store %f, %out64[] : memref<f64>
    memref.store %inv, %out[%c3] : memref<4xf32>
    gpu.return
  }
}

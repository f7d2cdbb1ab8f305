// RUN: onnx-opt %s -onnx-gpu-merge-kernel-modules -split-input-file | FileCheck %s

// Two outlined modules whose kernels share a name become one module; each
// kernel takes its old module's name followed by its node's (the first
// NameLoc of its location, as an identifier), the constant global both
// cloned is kept once, and the launches follow.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @main
// CHECK:   gpu.launch_func @onnxc_kernels::@k0
// CHECK:   gpu.launch_func @onnxc_kernels::@k1__layer_0_MatMul
// CHECK: gpu.module @onnxc_kernels {
// CHECK-DAG: memref.global "private" constant @cst
// CHECK-DAG: gpu.func @k0(%{{.+}}: memref<4xf32>) kernel
// CHECK-DAG: gpu.func @k1__layer_0_MatMul(%{{.+}}: memref<4xf32>) kernel
// CHECK: }
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @main(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k0::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @k1::@main_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @k0 {
    memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
    gpu.func @main_kernel(%m: memref<4xf32>) kernel {
      %g = memref.get_global @cst : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @k1 {
    memref.global "private" constant @cst : memref<4xf32> = dense<1.0>
    gpu.func @main_kernel(%m: memref<4xf32>) kernel {
      %g = memref.get_global @cst : memref<4xf32>
      gpu.return
    } loc(fused["/layer.0/MatMul"("model.onnx":1:1), "other"])
  }
}

// -----

// Without kernels, an empty module.
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK: func.func @no_kernels
// CHECK: gpu.module @onnxc_kernels {
// CHECK-NEXT: }
module {
  func.func @no_kernels() {
    return
  }
}

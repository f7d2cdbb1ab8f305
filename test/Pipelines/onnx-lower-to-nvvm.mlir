// RUN: onnx-opt %s -onnx-lower-to-nvvm="chip=sm_90 features=+ptx78" | FileCheck %s

// The GPU pipeline end to end on a small graph: the host is LLVM dialect
// that allocates through the runtime, reads the weights through
// onnxc_gpu_constant and launches kernels of one PTX module for sm_90 on
// one stream, synchronized once, before it returns.
// CHECK-LABEL: llvm.func @main_graph
// CHECK-DAG: llvm.call @_mlir_memref_to_llvm_alloc
// CHECK-DAG: llvm.call @onnxc_gpu_constant
// CHECK-DAG: %[[STREAM:.+]] = llvm.call @mgpuStreamCreate()
// CHECK: gpu.launch_func <%[[STREAM]] : !llvm.ptr> @onnxc_kernels::@main_graph_kernel
// CHECK-SAME: blocks in
// CHECK-SAME: threads in
// CHECK-NOT: llvm.call @mgpuStreamSynchronize
// CHECK: llvm.call @mgpuStreamSynchronize(%[[STREAM]])
// CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[STREAM]])
// CHECK-NOT: llvm.call @mgpuStreamSynchronize
// CHECK: llvm.return
// CHECK-NOT: gpu.module
// CHECK: gpu.binary @onnxc_kernels [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx78">
// CHECK-SAME: assembly = "
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry main_graph_kernel(
// CHECK-NOT: gpu.binary
func.func @main_graph(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %w = onnx.Constant {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = onnx.Add %x, %w : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %1 = onnx.Exp %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %2 = onnx.Sqrt %1 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %2 : tensor<?x4xf32>
}

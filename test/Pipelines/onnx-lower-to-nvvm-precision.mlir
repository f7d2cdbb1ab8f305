// RUN: onnx-opt %s -onnx-lower-to-nvvm="chip=sm_80 features=+ptx70 precision=bf16" | FileCheck %s

// A MatMul under a tensor-core precision: the zero fill of its output, one
// tiled kernel of 128 threads with its tiles in shared memory, the inputs
// rounded to bf16 and the products on mma.sync, then the Relu.
// CHECK-LABEL: llvm.func @main_graph
// CHECK: %[[C128:.+]] = llvm.mlir.constant(128 : index) : i64
// CHECK: gpu.launch_func <%{{.+}} : !llvm.ptr> @onnxc_kernels::@main_graph_kernel blocks
// CHECK: gpu.launch_func <%{{.+}} : !llvm.ptr> @onnxc_kernels::@main_graph_kernel_0 blocks in (%{{.+}}, %{{.+}}, %{{.+}}) threads in (%[[C128]], %{{.+}}, %{{.+}})
// CHECK: gpu.launch_func <%{{.+}} : !llvm.ptr> @onnxc_kernels::@main_graph_kernel_1 blocks
// CHECK: gpu.binary @onnxc_kernels
// CHECK-SAME: .visible .entry main_graph_kernel_0(
// CHECK-SAME: .shared .align {{[0-9]+}} .b8 __wg_main_graph_kernel_0_0[
// CHECK-SAME: bar.sync {{\\}}090;
// CHECK-SAME: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-SAME: .visible .entry main_graph_kernel_1(
func.func @main_graph(%x: tensor<?x64xf32>) -> tensor<?x32xf32> {
  %w = onnx.Constant {value = dense<0.5> : tensor<64x32xf32>} : () -> tensor<64x32xf32>
  %0 = onnx.MatMul %x, %w : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
  %1 = onnx.Relu %0 : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %1 : tensor<?x32xf32>
}

//===- Pipelines.h - The named pass pipelines of onnxc ----------*- C++ -*-===//

#ifndef ONNXC_PASSES_PIPELINES_PIPELINES_H
#define ONNXC_PASSES_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

#include <string>

namespace onnxc {

/// The onnx -> onnx optimizer that onnx-opt and onnx-compile run at their
/// `-O` level: 0 shape inference and the ops' own small folds; 1 constant
/// folding with shape inference to a fixed point, no-op and dead code removal,
/// CSE, QDQ islands around Conv, MatMul and Gemm into integer ops; 2 (the
/// default) also Pad, BatchNormalization, Mul and Add folded into Conv,
/// transpose and reshape chains, MatMul + Add into Gemm, and LayerNorm, GELU
/// and Softmax recognized where the model's opset has them; 3 also raises
/// the opset for recognized forms newer than the model's.
/// Whether the optimizer fuses activations into Conv and Gemm (at -O2 and
/// up): not at all (ONNX output), every form (MLIR output), or ONNX
/// Runtime's com.microsoft forms (ONNX output on request).
enum class ActivationFusion { None, All, ORTCompatible };

/// `fuseAttention` (at -O2 and up) also fuses multi-head attention into
/// fused.attention: for MLIR output and for compilation, not ONNX output.
/// `specializeIfRanks` (at -O1 and up) moves the ops that read an If whose
/// branches yield different ranks into both branches, so that the lowering
/// sees ranks: for MLIR output and compilation, not ONNX output, where it
/// only duplicates code, and where a copy that shape inference finds unable
/// to run (a run-time failure in onnxc) has no ONNX form.
void buildONNXOptimizePipeline(mlir::OpPassManager &pm, unsigned level = 2,
                               ActivationFusion fusion = ActivationFusion::None,
                               bool fuseAttention = false,
                               bool specializeIfRanks = true);

/// onnx (on tensors) -> the LLVM dialect: lowering to linalg, elementwise
/// fusion, bufferization with deallocation, loops, and conversion to LLVM.
/// `level` is the optimizer's (buildONNXOptimizePipeline); `parallelLoops`
/// runs the large generated loops on the runtime's thread pool
/// (convert-parallel-loops-to-thread-pool); `profile` times each node's work
/// through the runtime's profiler (onnxc-insert-profile-probes).
void buildONNXLowerToLLVMPipeline(mlir::OpPassManager &pm, unsigned level = 2,
                                  bool parallelLoops = false,
                                  bool profile = false);

/// onnx (on tensors) -> bufferized memrefs with explicit deallocation: the
/// stages that the CPU and GPU pipelines share. `level` is the optimizer's;
/// `int8Kernels`: integer matmuls and convolutions become fused.qmatmul and
/// fused.qconv (the CPU runtime's int8 GEMM); `cpuKernels`: 2-D f32 pooling
/// and last-axis LayerNormalization call the CPU runtime's kernels (off for
/// the GPU, where a host call would run on the CPU over managed memory).
void buildONNXBufferizePipeline(mlir::OpPassManager &pm, unsigned level = 2,
                                bool int8Kernels = true,
                                bool cpuKernels = true);

/// Options of the GPU pipeline.
struct NVVMPipelineOptions
    : public mlir::PassPipelineOptions<NVVMPipelineOptions> {
  Option<unsigned> level{*this, "level",
                         llvm::cl::desc("onnx optimizer level 0-3"),
                         llvm::cl::init(2)};
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("GPU architecture (sm_80, sm_90)"),
                           llvm::cl::init("sm_80")};
  Option<std::string> features{*this, "features",
                               llvm::cl::desc("PTX features (+ptxNN)"),
                               llvm::cl::init("+ptx80")};
  Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the kernels"),
      llvm::cl::init(2)};
  Option<int64_t> blockSize{*this, "block-size",
                            llvm::cl::desc("threads per block"),
                            llvm::cl::init(256)};
  Option<std::string> precision{
      *this, "precision",
      llvm::cl::desc("matmul and conv multiplications: fp32 (FMA), tf32, "
                     "fp16 or bf16 (tensor cores)"),
      llvm::cl::init("fp32")};
  Option<bool> gemmKernels{
      *this, "gemm-kernels",
      llvm::cl::desc(
          "tiled kernels for f32 matmuls and convolutions (off: "
          "one thread per output element, in fp32 whatever the precision)"),
      llvm::cl::init(true)};
};

/// onnx (on tensors) -> the LLVM dialect on the host with the kernels in a
/// gpu.binary holding PTX: f32 matmuls and convolutions become tiled GEMM
/// kernels (onnx-gpu-gemm-kernels, on tensor cores for a tf32, fp16 or bf16
/// `precision`), the other bufferized loops parallel loops and
/// gpu.launch ops (one thread per element of each parallel loop nest), one
/// outlined gpu.module lowered to NVVM and serialized by LLVM's NVPTX
/// backend; buffers come from `_mlir_memref_to_llvm_alloc` (managed memory
/// in the runtime) and constant globals through `onnxc_gpu_constant`.
void buildONNXLowerToNVVMPipeline(mlir::OpPassManager &pm,
                                  const NVVMPipelineOptions &options);

/// Registers `onnx-optimize{level=N}`, its aliases `onnx-O1` to `onnx-O3`,
/// `onnx-lower-to-llvm{level=N}` and `onnx-lower-to-nvvm` for onnx-opt.
void registerONNXCPipelines();

} // namespace onnxc

#endif // ONNXC_PASSES_PIPELINES_PIPELINES_H

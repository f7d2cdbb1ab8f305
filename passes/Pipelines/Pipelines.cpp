//===- Pipelines.cpp - The named pass pipelines of onnxc ------------------===//

#include "passes/Pipelines/Pipelines.h"

#include "passes/Conversion/Passes.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Folding to a fixed point with shape inference, no-op removal, CSE.
static void addCleanup(OpPassManager &pm) {
  using namespace onnxc;
  pm.addNestedPass<func::FuncOp>(createONNXConstantFoldingPass());
  pm.addNestedPass<func::FuncOp>(createONNXEliminateNoOpsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createONNXConstantFoldingPass());
}

void onnxc::buildONNXOptimizePipeline(OpPassManager &pm, unsigned level,
                                      ActivationFusion fusion,
                                      bool fuseAttention,
                                      bool specializeIfRanks) {
  pm.addNestedPass<func::FuncOp>(createONNXShapeInferencePass());
  if (level == 0) {
    // The small folds of the ops' folders, which the lowering relies on.
    pm.addPass(createCanonicalizerPass());
    pm.addPass(createCSEPass());
    pm.addNestedPass<func::FuncOp>(createONNXShapeInferencePass());
    return;
  }
  addCleanup(pm);
  // Ifs whose branches yield different ranks (shape tests of exporters).
  if (specializeIfRanks)
    pm.addNestedPass<func::FuncOp>(createONNXSpecializeIfRanksPass());
  // Half-float reductions accumulate in float.
  pm.addNestedPass<func::FuncOp>(createONNXWidenFloat16Pass());
  // QDQ models compute in integers (the lowering's int8 kernels).
  pm.addNestedPass<func::FuncOp>(createONNXFuseQDQPass());
  if (level == 1)
    return;
  pm.addNestedPass<func::FuncOp>(createONNXFusePadPass());
  pm.addNestedPass<func::FuncOp>(createONNXFuseConvBNPass());
  pm.addNestedPass<func::FuncOp>(createONNXFoldTransposeReshapePass());
  pm.addNestedPass<func::FuncOp>(createONNXFuseMatMulAddPass());
  ONNXRecognizePatternsPassOptions recognize;
  recognize.upgradeOpset = level >= 3;
  pm.addPass(createONNXRecognizePatternsPass(recognize));
  addCleanup(pm);
  if (fuseAttention)
    pm.addNestedPass<func::FuncOp>(createONNXFuseAttentionPass());
  if (fusion == ActivationFusion::None)
    return;
  ONNXFuseActivationPassOptions fuse;
  fuse.ortCompatible = fusion == ActivationFusion::ORTCompatible;
  pm.addNestedPass<func::FuncOp>(createONNXFuseActivationPass(fuse));
}

void onnxc::buildONNXBufferizePipeline(OpPassManager &pm, unsigned level,
                                       bool int8Kernels, bool cpuKernels) {
  buildONNXOptimizePipeline(pm, level);
  ConvertONNXToLinalgPassOptions toLinalg;
  toLinalg.int8Kernels = int8Kernels;
  toLinalg.cpuKernels = cpuKernels;
  pm.addPass(createConvertONNXToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createLinalgFuseElementwisePass());
  pm.addPass(createCSEPass());

  bufferization::OneShotBufferizationOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  // Loops over tensors (the recurrent ops' time steps) yield new states;
  // ownership-based deallocation frees the buffers they replace.
  bufferization.allowReturnAllocsFromLoops = true;
  bufferization.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  bufferization::BufferDeallocationPipelineOptions deallocation;
  bufferization::buildBufferDeallocationPipeline(pm, deallocation);
  // Results that alias inputs, constants or each other were cloned so the
  // caller owns every returned buffer; clones become alloc + copy.
  pm.addPass(createBufferizationToMemRefPass());
}

void onnxc::buildONNXLowerToLLVMPipeline(OpPassManager &pm, unsigned level,
                                         bool parallelLoops, bool profile) {
  buildONNXBufferizePipeline(pm, level);
  // Weights as flat LLVM arrays (nested ones cost most of the compile time).
  pm.addPass(createFlattenMemRefGlobalsPass());
  // f32 matmuls and convolutions: packed kernels of the runtime.
  pm.addPass(createConvertLinalgToKernelCallsPass());
  // fused.qmatmul and fused.qconv: the int8 GEMM of the runtime.
  pm.addPass(createConvertFusedToKernelCallsPass());
  // Temporaries in one arena per call, reused while it is hot.
  pm.addPass(createPlanBuffersPass());
  // Elementwise loops over one flat dim, which vectorizes.
  pm.addNestedPass<func::FuncOp>(createCollapseElementwisePass());
  // Reductions that keep their running value in a register.
  pm.addNestedPass<func::FuncOp>(createReductionsToLoopsPass());
  // One view per buffer: an in-place loop then reads and writes through one
  // pointer (the outlined loop would get two, and LLVM's check that they do
  // not overlap would send it down its scalar path).
  pm.addPass(createCSEPass());
  if (parallelLoops) {
    // Generated loops over the session's thread pool where they are big.
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
    // Only loops of 256K scalar ops or more: a smaller one (a recurrent
    // step's gates) costs about as much to hand out as it saves.
    ConvertParallelLoopsToThreadPoolPassOptions share;
    share.minWork = 262144;
    pm.addPass(createConvertParallelLoopsToThreadPoolPass(share));
  } else {
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  }
  // Each node's kernels and loops between probes (onnx-compile --profile).
  if (profile)
    pm.addPass(createInsertProfileProbesPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Erf as arithmetic that vectorizes, not one erff call per element.
  pm.addPass(createApproximateMathPass());
  pm.addPass(createExpandBF16ConversionsPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void onnxc::buildONNXLowerToNVVMPipeline(OpPassManager &pm,
                                         const NVVMPipelineOptions &options) {
  // The int8 and pooling kernels are host code: linalg ops instead.
  buildONNXBufferizePipeline(pm, options.level, /*int8Kernels=*/false,
                             /*cpuKernels=*/false);
  if (options.gemmKernels)
    pm.addNestedPass<func::FuncOp>(
        createGPUGemmKernelsPass({options.precision}));
  pm.addNestedPass<func::FuncOp>(createGPUCopyKernelsPass());
  // Reductions along the innermost dim: a warp per output.
  pm.addNestedPass<func::FuncOp>(createGPUReductionKernelsPass());
  // The rest: the output's contiguous dim to neighbouring threads.
  pm.addNestedPass<func::FuncOp>(createGPUOrderLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(
      createGPUMapParallelLoopsPass({options.blockSize}));
  pm.addPass(createParallelLoopToGpuPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createCanonicalizerPass());
  // Constants and dims into the launches: the kernels then divide by
  // constants (a multiply and shift, not a 64-bit division) and LLVM sees
  // their trip counts; outlining alone would pass each as an argument.
  pm.addPass(createGpuLauchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createGPUMergeKernelModulesPass());
  pm.addNestedPass<func::FuncOp>(createGPUAsyncLaunchesPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = options.features;
  target.optLevel = options.optLevel;
  pm.addPass(createGpuNVVMAttachTarget(target));

  // Host and kernels: structured control flow and strided metadata away.
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());

  // Kernels: NVVM.
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createGPUExpandMathPass());
  kernels.addPass(createConvertNVGPUToNVVMPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());

  // Host: LLVM, with buffers from the runtime's allocator.
  FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
  memrefOptions.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createGpuToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGPUHostConstantsPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binary));
}

namespace {
struct OptimizeOptions : public PassPipelineOptions<OptimizeOptions> {
  Option<unsigned> level{*this, "level",
                         llvm::cl::desc("optimization level 0-3"),
                         llvm::cl::init(2)};
  Option<std::string> fuseActivations{
      *this, "fuse-activations",
      llvm::cl::desc("none (default), all, or ort (ONNX Runtime's forms)"),
      llvm::cl::init("none")};
  Option<bool> fuseAttention{
      *this, "fuse-attention",
      llvm::cl::desc("fuse multi-head attention into fused.attention"),
      llvm::cl::init(false)};
  Option<bool> specializeIfRanks{
      *this, "specialize-if-ranks",
      llvm::cl::desc("move the ops that read an If of branches of different "
                     "ranks into its branches (the lowering needs ranks)"),
      llvm::cl::init(true)};
};
} // namespace

void onnxc::registerONNXCPipelines() {
  PassPipelineRegistration<OptimizeOptions>(
      "onnx-optimize",
      "The onnx optimizer at a level: 0 shape inference and small folds; 1 "
      "folding, no-ops, "
      "CSE; 2 also fusions and recognized forms; 3 also opset upgrades",
      [](OpPassManager &pm, const OptimizeOptions &options) {
        ActivationFusion fusion =
            options.fuseActivations == "all"   ? ActivationFusion::All
            : options.fuseActivations == "ort" ? ActivationFusion::ORTCompatible
                                               : ActivationFusion::None;
        buildONNXOptimizePipeline(pm, options.level, fusion,
                                  options.fuseAttention,
                                  options.specializeIfRanks);
      });
  for (unsigned level = 1; level <= 3; ++level)
    PassPipelineRegistration<>(
        "onnx-O" + std::to_string(level),
        "onnx-optimize at level " + std::to_string(level),
        [level](OpPassManager &pm) { buildONNXOptimizePipeline(pm, level); });
  PassPipelineRegistration<NVVMPipelineOptions>(
      "onnx-lower-to-nvvm",
      "Lower onnx to host LLVM dialect and PTX kernels (the nvptx target)",
      buildONNXLowerToNVVMPipeline);
  PassPipelineRegistration<OptimizeOptions>(
      "onnx-lower-to-llvm", "Lower onnx to the LLVM dialect",
      [](OpPassManager &pm, const OptimizeOptions &options) {
        buildONNXLowerToLLVMPipeline(pm, options.level,
                                     /*parallelLoops=*/options.level >= 2);
      });
}

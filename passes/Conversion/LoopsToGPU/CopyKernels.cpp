//===- CopyKernels.cpp - The onnx-gpu-copy-kernels pass
//--------------------===//
//
// Turns the host's memref.copy ops into linalg.copy, so that the nvptx
// pipeline runs them as kernels instead of copying on the host through
// managed memory.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUCOPYKERNELSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
/// memref.copy on the host -> linalg.copy. Copies already inside a kernel or
/// a parallel loop (which becomes one) are left alone, as are rank-0 copies:
/// a one-element kernel would cost more than the host's load and store.
struct CopyToLinalg : public OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::CopyOp op,
                                PatternRewriter &rewriter) const override {
    auto source = dyn_cast<MemRefType>(op.getSource().getType());
    auto target = dyn_cast<MemRefType>(op.getTarget().getType());
    if (!source || !target || source.getRank() == 0)
      return rewriter.notifyMatchFailure(op, "not a ranked copy");
    if (op->getParentOfType<gpu::LaunchOp>() ||
        op->getParentOfType<scf::ParallelOp>())
      return rewriter.notifyMatchFailure(op, "already in a parallel region");
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(op, op.getSource(),
                                                op.getTarget());
    return success();
  }
};

struct GPUCopyKernelsPass
    : public onnxc::impl::GPUCopyKernelsPassBase<GPUCopyKernelsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    onnxc::populateGPUCopyKernelPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void onnxc::populateGPUCopyKernelPatterns(RewritePatternSet &patterns) {
  patterns.add<CopyToLinalg>(patterns.getContext());
}

//===- FuseElementwise.cpp - Elementwise fusion computing nothing twice ---===//
//
// The patterns of MLIR's linalg-fuse-elementwise-ops under a control that
// keeps named ops named and never fuses a producer into a consumer that
// would evaluate it more than once per element.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_LINALGFUSEELEMENTWISEPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// True for a linalg.generic whose loops are all parallel.
static bool isParallelGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getNumLoops() == generic.getNumParallelLoops();
}

/// Fuse a single-use producer where the consumer reads each of its elements
/// once.
static bool controlElementwise(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  auto consumer = dyn_cast<linalg::LinalgOp>(fused->getOwner());
  return consumer && consumer.getMatchingIndexingMap(fused).isPermutation();
}

/// Fold a reshape only into (or out of) an all-parallel generic.
static bool controlReshape(OpOperand *fused) {
  Operation *producer = fused->get().getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return false;
  Operation *owner = fused->getOwner();
  if (isa<linalg::LinalgOp>(owner))
    return isParallelGeneric(owner);
  return !isa<linalg::LinalgOp>(producer) || isParallelGeneric(producer);
}

namespace {
struct LinalgFuseElementwisePass
    : public onnxc::impl::LinalgFuseElementwisePassBase<
          LinalgFuseElementwisePass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    linalg::populateElementwiseOpsFusionPatterns(patterns, controlElementwise);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, controlReshape);
    linalg::populateConstantFoldLinalgOperations(patterns, [](OpOperand *o) {
      Operation *producer = o->get().getDefiningOp();
      return producer && producer->hasOneUse();
    });
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
    ctx->getLoadedDialect<linalg::LinalgDialect>()->getCanonicalizationPatterns(
        patterns);
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                            config)))
      signalPassFailure();
  }
};
} // namespace

//===- ApproximateMath.cpp - The onnxc-approximate-math pass --------------===//
//
// f32 math.erf as MLIR's polynomial approximation rather than a call of
// libm's erff: plain arithmetic, which LLVM vectorizes with the loop around
// it (GELU's Erf is one call per element of BERT's widest activations).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
struct ApproximateMathPass
    : public onnxc::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

//===- GreedyPatternPass.h - A pass that is only its patterns -------------===//
//
// The body of the onnx passes that consist of one pattern set applied
// greedily to the function (the fusions and the cleanups): the set is built
// and frozen once per pass instance, in initialize(). A pass declares itself
//
//   struct ONNXFusePadPass
//       : GreedyPatternPass<ONNXFusePadPass, onnxc::impl::ONNXFusePadPassBase,
//                           populateONNXFusePadPatterns> {};
//
// Passes with options that shape their patterns write the two methods out.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_TRANSFORMS_GREEDYPATTERNPASS_H
#define ONNXC_PASSES_TRANSFORMS_GREEDYPATTERNPASS_H

#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {

template <typename Derived, template <typename> class PassBase,
          void (*populate)(mlir::RewritePatternSet &)>
struct GreedyPatternPass : public PassBase<Derived> {
  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    mlir::RewritePatternSet set(context);
    populate(set);
    patterns = mlir::FrozenRewritePatternSet(std::move(set));
    return mlir::success();
  }
  void runOnOperation() override {
    if (mlir::failed(
            mlir::applyPatternsAndFoldGreedily(this->getOperation(), patterns)))
      this->signalPassFailure();
  }
  mlir::FrozenRewritePatternSet patterns;
};

} // namespace onnxc

#endif // ONNXC_PASSES_TRANSFORMS_GREEDYPATTERNPASS_H

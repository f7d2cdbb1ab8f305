//===- ExpandBF16Conversions.cpp - The onnxc-expand-bf16 pass -------------===//
//
// f32 <-> bf16 conversions as integer arithmetic. LLVM lowers an f32 -> bf16
// fptrunc on x86-64 and AArch64 to a call of compiler-rt's __truncsfbf2,
// which the C library and libgcc that executables link against may not
// have (Debian 12's do not): a Cast to bfloat16 then fails to link. MLIR's
// bf16 expansion rounds to nearest even and keeps NaN, as the call would.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_EXPANDBF16CONVERSIONSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
struct ExpandBF16ConversionsPass
    : public onnxc::impl::ExpandBF16ConversionsPassBase<
          ExpandBF16ConversionsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

//===- EliminateNoOps.cpp - The onnx-eliminate-no-ops pass ----------------===//
//
// Ops that return their input unchanged: Identity, inference Dropout, Cast to
// the same type, identity Transposes and reshapes, zero Pads, whole Slices,
// and arithmetic by a neutral constant that does not broadcast.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXELIMINATENOOPSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// True when `value` is a constant all of whose elements equal `neutral`.
static bool isConstantSplatOf(Value value, double neutral) {
  auto t = readConstant(value, /*maxElements=*/1 << 20);
  if (!t)
    return false;
  for (int64_t i = 0, e = t->size(); i < e; ++i)
    if (t->getDouble(i) != neutral)
      return false;
  return true;
}

/// True when `result` may replace its op by `input`: same static type.
static bool sameStaticType(Value input, Value result) {
  auto type = dyn_cast<RankedTensorType>(input.getType());
  return type && type.hasStaticShape() && type == result.getType();
}

/// Identity, Cast, CastLike, Reshape, Flatten, Squeeze, Unsqueeze, Expand and
/// Transpose (identity perm) whose result type is their input's.
template <typename OpT> struct RemoveSameTypeOp : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value input = op->getOperand(0);
    if (!sameStaticType(input, op->getResult(0)) &&
        !(isa<IdentityOp>(op) && input.getType() == op->getResult(0).getType()))
      return failure();
    if constexpr (std::is_same_v<OpT, TransposeOp>) {
      if (auto perm = op.getPerm())
        for (auto [i, p] : llvm::enumerate(*perm))
          if (p != static_cast<int64_t>(i))
            return failure();
      if (!op.getPerm() && cast<ShapedType>(input.getType()).getRank() > 1)
        return failure();
    }
    rewriter.replaceOp(op, input);
    return success();
  }
};

/// Inference Dropout whose mask nobody reads.
struct RemoveDropout : public OpRewritePattern<DropoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DropoutOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getMask().use_empty())
      return failure();
    if (!isNoValue(op.getTrainingMode()) &&
        !isConstantSplatOf(op.getTrainingMode(), 0.0))
      return failure();
    if (op.getData().getType() != op.getOutput().getType())
      return failure();
    rewriter.replaceAllUsesWith(op.getOutput(), op.getData());
    rewriter.eraseOp(op);
    return success();
  }
};

/// Pad by zeros in every dim.
struct RemoveZeroPad : public OpRewritePattern<PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(PadOp op,
                                PatternRewriter &rewriter) const override {
    auto pads = getConstantIntValues(op.getPads());
    if (!pads || llvm::any_of(*pads, [](int64_t p) { return p != 0; }) ||
        op.getData().getType() != op.getType())
      return failure();
    rewriter.replaceOp(op, op.getData());
    return success();
  }
};

/// Slice that takes every element.
struct RemoveWholeSlice : public OpRewritePattern<SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SliceOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getData().getType());
    if (!type || type != op.getType())
      return failure();
    auto params =
        getConstantSliceParams(op.getStarts(), op.getEnds(), op.getAxes(),
                               op.getSteps(), type.getRank());
    if (!params)
      return failure();
    for (auto [i, axis] : llvm::enumerate(params->axes)) {
      int64_t dim = type.getDimSize(axis);
      if (params->steps[i] != 1 || params->starts[i] != 0)
        return failure();
      // An end of at least the dim (INT64_MAX from exporters) is the end.
      if (ShapedType::isDynamic(dim) ? params->ends[i] < (int64_t(1) << 62)
                                     : params->ends[i] < dim)
        return failure();
    }
    rewriter.replaceOp(op, op.getData());
    return success();
  }
};

/// `x op c` with a neutral constant `c` that does not broadcast `x`.
template <typename OpT>
struct RemoveNeutralBinary : public OpRewritePattern<OpT> {
  RemoveNeutralBinary(MLIRContext *context, double neutral, bool commutative)
      : OpRewritePattern<OpT>(context), neutral(neutral),
        commutative(commutative) {}
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Value result = op->getResult(0);
    if (lhs.getType() == result.getType() && isConstantSplatOf(rhs, neutral)) {
      rewriter.replaceOp(op, lhs);
      return success();
    }
    if (commutative && rhs.getType() == result.getType() &&
        isConstantSplatOf(lhs, neutral)) {
      rewriter.replaceOp(op, rhs);
      return success();
    }
    return failure();
  }
  double neutral;
  bool commutative;
};

struct ONNXEliminateNoOpsPass
    : GreedyPatternPass<ONNXEliminateNoOpsPass,
                        onnxc::impl::ONNXEliminateNoOpsPassBase,
                        populateONNXEliminateNoOpsPatterns> {};

} // namespace

void onnxc::populateONNXEliminateNoOpsPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<RemoveSameTypeOp<IdentityOp>, RemoveSameTypeOp<CastOp>,
               RemoveSameTypeOp<CastLikeOp>, RemoveSameTypeOp<ReshapeOp>,
               RemoveSameTypeOp<FlattenOp>, RemoveSameTypeOp<SqueezeOp>,
               RemoveSameTypeOp<UnsqueezeOp>, RemoveSameTypeOp<ExpandOp>,
               RemoveSameTypeOp<TransposeOp>, RemoveDropout, RemoveZeroPad,
               RemoveWholeSlice>(context);
  patterns.add<RemoveNeutralBinary<AddOp>>(context, 0.0, true);
  patterns.add<RemoveNeutralBinary<SubOp>>(context, 0.0, false);
  patterns.add<RemoveNeutralBinary<MulOp>>(context, 1.0, true);
  patterns.add<RemoveNeutralBinary<DivOp>>(context, 1.0, false);
  patterns.add<RemoveNeutralBinary<PowOp>>(context, 1.0, false);
}

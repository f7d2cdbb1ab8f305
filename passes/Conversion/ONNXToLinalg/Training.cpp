//===- Training.cpp - onnx Adagrad, Adam, Momentum to linalg --------------===//
//
// Each optimizer computes its step's scalars (the adjusted learning rate or
// momentum factor, from `R` and `T`) once, then updates each optimized tensor
// in one linalg.generic that reads the tensor's group (X, G, then H and/or V)
// and writes all of its updated tensors.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The float scalar `value` as the float type `type`.
static Value convertFloat(ImplicitLocOpBuilder &b, Value value, Type type) {
  unsigned from = value.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (from == to)
    return value;
  if (from < to)
    return b.create<arith::ExtFOp>(type, value);
  return b.create<arith::TruncFOp>(type, value);
}

/// The elementwise update of one optimized tensor: the elements of its group
/// of inputs in, the elements of its updated tensors out.
using UpdateBuilder =
    llvm::function_ref<SmallVector<Value>(ImplicitLocOpBuilder &, ValueRange)>;

/// Replaces `op`, whose `inputs` are `numGroups` groups of n tensors and
/// whose results have the types `resultTypes`, with one linalg.generic per
/// optimized tensor computing `update`.
static LogicalResult
lowerOptimizer(Operation *op, ValueRange inputs, int64_t numGroups,
               ArrayRef<RankedTensorType> resultTypes, Location loc,
               ConversionPatternRewriter &rewriter, UpdateBuilder update) {
  int64_t n = static_cast<int64_t>(inputs.size()) / numGroups;
  int64_t numResultGroups = static_cast<int64_t>(op->getNumResults()) / n;
  SmallVector<Value> replacements(op->getNumResults());
  for (int64_t i = 0; i < n; ++i) {
    Value x = inputs[i];
    SmallVector<Value> groupInputs;
    for (int64_t group = 0; group < numGroups; ++group)
      groupInputs.push_back(inputs[group * n + i]);
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    SmallVector<Type> groupTypes;
    SmallVector<Value> inits;
    for (int64_t group = 0; group < numResultGroups; ++group) {
      RankedTensorType type = resultTypes[group * n + i];
      groupTypes.push_back(type);
      inits.push_back(createEmpty(rewriter, loc, type, sizes));
    }
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    SmallVector<AffineMap> maps(numGroups + numResultGroups,
                                rewriter.getMultiDimIdentityMap(rank));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, groupTypes, groupInputs, inits, maps, getParallel(rank),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          ImplicitLocOpBuilder b(l, nb);
          b.create<linalg::YieldOp>(update(b, args.take_front(numGroups)));
        });
    for (int64_t group = 0; group < numResultGroups; ++group)
      replacements[group * n + i] = generic.getResult(group);
  }
  rewriter.replaceOp(op, replacements);
  return success();
}

/// The step's scalars: `R` as `element`, `T` as `element`, and whether `T`
/// is positive.
struct StepScalars {
  Value rate, count, countIsPositive;
};

static StepScalars getStepScalars(ImplicitLocOpBuilder &b, Value rate,
                                  Value count, Type element) {
  Value t = extractScalar(b, b.getLoc(), count);
  return {convertFloat(b, extractScalar(b, b.getLoc(), rate), element),
          b.create<arith::SIToFPOp>(element, t),
          b.create<arith::CmpIOp>(arith::CmpIPredicate::sgt, t,
                                  b.create<arith::ConstantIntOp>(0, 64))};
}

namespace {

struct AdagradLowering
    : public ONNXToLinalgMultiResultPattern<onnx::AdagradOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::AdagradOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(adaptor.getInputs().front().getType());
    ImplicitLocOpBuilder b(loc, rewriter);
    auto constant = [&](ImplicitLocOpBuilder &cb, const APFloat &value) {
      return createScalar(cb, cb.getLoc(), element, value.convertToDouble());
    };
    StepScalars step =
        getStepScalars(b, adaptor.getR(), adaptor.getT(), element);
    // r = R / (1 + T * decay_factor)
    Value rate = b.create<arith::DivFOp>(
        step.rate, b.create<arith::AddFOp>(
                       createScalar(b, b.getLoc(), element, 1.0),
                       b.create<arith::MulFOp>(
                           step.count, constant(b, op.getDecayFactor()))));
    return lowerOptimizer(
        op, adaptor.getInputs(), 3, resultTypes, loc, rewriter,
        [&](ImplicitLocOpBuilder &bb, ValueRange args) -> SmallVector<Value> {
          Value x = args[0], g = args[1], h = args[2];
          Value grad = bb.create<arith::AddFOp>(
              bb.create<arith::MulFOp>(constant(bb, op.getNormCoefficient()),
                                       x),
              g);
          Value hNew =
              bb.create<arith::AddFOp>(h, bb.create<arith::MulFOp>(grad, grad));
          Value denom = bb.create<arith::AddFOp>(bb.create<math::SqrtOp>(hNew),
                                                 constant(bb, op.getEpsilon()));
          Value xNew = bb.create<arith::SubFOp>(
              x, bb.create<arith::DivFOp>(bb.create<arith::MulFOp>(rate, grad),
                                          denom));
          return {xNew, hNew};
        });
  }
};

struct AdamLowering : public ONNXToLinalgMultiResultPattern<onnx::AdamOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::AdamOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(adaptor.getInputs().front().getType());
    ImplicitLocOpBuilder b(loc, rewriter);
    auto constant = [&](ImplicitLocOpBuilder &cb, double value) {
      return createScalar(cb, cb.getLoc(), element, value);
    };
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    StepScalars step =
        getStepScalars(b, adaptor.getR(), adaptor.getT(), element);
    // r = T > 0 ? R * sqrt(1 - beta^T) / (1 - alpha^T) : R
    Value one = constant(b, 1.0);
    Value corrected = b.create<arith::DivFOp>(
        b.create<arith::MulFOp>(
            step.rate,
            b.create<math::SqrtOp>(b.create<arith::SubFOp>(
                one, b.create<math::PowFOp>(constant(b, beta), step.count)))),
        b.create<arith::SubFOp>(
            one, b.create<math::PowFOp>(constant(b, alpha), step.count)));
    Value rate =
        b.create<arith::SelectOp>(step.countIsPositive, corrected, step.rate);
    return lowerOptimizer(
        op, adaptor.getInputs(), 4, resultTypes, loc, rewriter,
        [&](ImplicitLocOpBuilder &bb, ValueRange args) -> SmallVector<Value> {
          Value x = args[0], g = args[1], v = args[2], h = args[3];
          auto mul = [&](double c, Value value) {
            return bb.create<arith::MulFOp>(constant(bb, c), value);
          };
          Value grad = bb.create<arith::AddFOp>(
              mul(op.getNormCoefficient().convertToDouble(), x), g);
          Value vNew =
              bb.create<arith::AddFOp>(mul(alpha, v), mul(1.0 - alpha, grad));
          Value hNew = bb.create<arith::AddFOp>(
              mul(beta, h),
              mul(1.0 - beta, bb.create<arith::MulFOp>(grad, grad)));
          Value denom = bb.create<arith::AddFOp>(
              bb.create<math::SqrtOp>(hNew),
              constant(bb, op.getEpsilon().convertToDouble()));
          Value stepped = bb.create<arith::SubFOp>(
              x, bb.create<arith::DivFOp>(bb.create<arith::MulFOp>(rate, vNew),
                                          denom));
          Value xNew =
              mul(1.0 - op.getNormCoefficientPost().convertToDouble(), stepped);
          return {xNew, vNew, hNew};
        });
  }
};

struct MomentumLowering
    : public ONNXToLinalgMultiResultPattern<onnx::MomentumOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::MomentumOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = getElementTypeOrSelf(adaptor.getInputs().front().getType());
    ImplicitLocOpBuilder b(loc, rewriter);
    auto constant = [&](ImplicitLocOpBuilder &cb, double value) {
      return createScalar(cb, cb.getLoc(), element, value);
    };
    double alpha = op.getAlpha().convertToDouble();
    bool nesterov = op.getMode() == "nesterov";
    StepScalars step =
        getStepScalars(b, adaptor.getR(), adaptor.getT(), element);
    // The first step (T = 0) takes the whole gradient.
    Value beta = b.create<arith::SelectOp>(
        step.countIsPositive, constant(b, op.getBeta().convertToDouble()),
        constant(b, 1.0));
    return lowerOptimizer(
        op, adaptor.getInputs(), 3, resultTypes, loc, rewriter,
        [&](ImplicitLocOpBuilder &bb, ValueRange args) -> SmallVector<Value> {
          Value x = args[0], g = args[1], v = args[2];
          Value grad = bb.create<arith::AddFOp>(
              bb.create<arith::MulFOp>(
                  constant(bb, op.getNormCoefficient().convertToDouble()), x),
              g);
          Value vNew = bb.create<arith::AddFOp>(
              bb.create<arith::MulFOp>(constant(bb, alpha), v),
              bb.create<arith::MulFOp>(beta, grad));
          Value direction = nesterov ? bb.create<arith::AddFOp>(
                                           grad, bb.create<arith::MulFOp>(
                                                     constant(bb, alpha), vNew))
                                     : vNew;
          Value xNew = bb.create<arith::SubFOp>(
              x, bb.create<arith::MulFOp>(step.rate, direction));
          return {xNew, vNew};
        });
  }
};

} // namespace

void onnxc::populateONNXTrainingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<AdagradLowering, AdamLowering, MomentumLowering>(
      patterns.getContext());
}

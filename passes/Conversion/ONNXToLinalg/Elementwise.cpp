//===- Elementwise.cpp - onnx elementwise ops to linalg.generic -----------===//
//
// Each elementwise op becomes one linalg.generic over the (numpy broadcast)
// result shape whose body is the scalar arith/math op for its element type.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// Converts a scalar between float, signless integer and bool types as ONNX
/// Cast does: to bool is `x != 0`, from bool is 0 or 1.
static Value convertScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (to.isInteger(1)) {
    Value zero = createScalar(b, loc, from, 0);
    if (isa<FloatType>(from))
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, value,
                                     zero);
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (from.isInteger(1)) {
    if (isa<FloatType>(to))
      return b.create<arith::UIToFPOp>(loc, to, value);
    return b.create<arith::ExtUIOp>(loc, to, value);
  }
  auto fromFloat = dyn_cast<FloatType>(from);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() == toFloat.getWidth()) {
      // bf16 <-> f16: through f32.
      Value wide = b.create<arith::ExtFOp>(loc, b.getF32Type(), value);
      return b.create<arith::TruncFOp>(loc, to, wide);
    }
    if (fromFloat.getWidth() < toFloat.getWidth())
      return b.create<arith::ExtFOp>(loc, to, value);
    return b.create<arith::TruncFOp>(loc, to, value);
  }
  if (fromFloat)
    return b.create<arith::FPToSIOp>(loc, to, value);
  if (toFloat)
    return b.create<arith::SIToFPOp>(loc, to, value);
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return b.create<arith::ExtSIOp>(loc, to, value);
  return b.create<arith::TruncIOp>(loc, to, value);
}

//===----------------------------------------------------------------------===//
// Scalar bodies, one overload per op.
//===----------------------------------------------------------------------===//

static Value buildScalar(onnx::AddOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createAdd(b, loc, args[0], args[1]);
}

static Value buildScalar(onnx::SubOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createSub(b, loc, args[0], args[1]);
}

static Value buildScalar(onnx::MulOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createMul(b, loc, args[0], args[1]);
}

static Value buildScalar(onnx::DivOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createDiv(b, loc, args[0], args[1]);
}

static Value buildScalar(onnx::PowOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  Type baseType = args[0].getType();
  if (isa<FloatType>(baseType)) {
    Value exponent = convertScalar(b, loc, args[1], baseType);
    return b.create<math::PowFOp>(loc, args[0], exponent);
  }
  // Integer powers are computed in f64, exact for the results that fit.
  Type f64 = b.getF64Type();
  Value base = convertScalar(b, loc, args[0], f64);
  Value exponent = convertScalar(b, loc, args[1], f64);
  Value power = b.create<math::PowFOp>(loc, base, exponent);
  return b.create<arith::FPToSIOp>(loc, baseType, power);
}

/// A comparison: `floatPred` on floats, `signedPred` on integers and
/// `boolPred` on i1.
static Value buildCompare(OpBuilder &b, Location loc, ValueRange args,
                          arith::CmpFPredicate floatPred,
                          arith::CmpIPredicate signedPred,
                          arith::CmpIPredicate boolPred) {
  Type type = args[0].getType();
  if (isa<FloatType>(type))
    return b.create<arith::CmpFOp>(loc, floatPred, args[0], args[1]);
  return b.create<arith::CmpIOp>(loc, type.isInteger(1) ? boolPred : signedPred,
                                 args[0], args[1]);
}

static Value buildScalar(onnx::EqualOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(b, loc, args, arith::CmpFPredicate::OEQ,
                      arith::CmpIPredicate::eq, arith::CmpIPredicate::eq);
}

static Value buildScalar(onnx::LessOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(b, loc, args, arith::CmpFPredicate::OLT,
                      arith::CmpIPredicate::slt, arith::CmpIPredicate::ult);
}

static Value buildScalar(onnx::GreaterOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(b, loc, args, arith::CmpFPredicate::OGT,
                      arith::CmpIPredicate::sgt, arith::CmpIPredicate::ugt);
}

static Value buildScalar(onnx::WhereOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<arith::SelectOp>(loc, args[0], args[1], args[2]);
}

static Value buildScalar(onnx::SqrtOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::SqrtOp>(loc, args[0]);
}

static Value buildScalar(onnx::ExpOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::ExpOp>(loc, args[0]);
}

static Value buildScalar(onnx::LogOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::LogOp>(loc, args[0]);
}

static Value buildScalar(onnx::TanhOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::TanhOp>(loc, args[0]);
}

static Value buildScalar(onnx::ErfOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::ErfOp>(loc, args[0]);
}

static Value buildScalar(onnx::SigmoidOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value one = createScalar(b, loc, type, 1.0);
  Value negated = b.create<arith::NegFOp>(loc, args[0]);
  Value exp = b.create<math::ExpOp>(loc, negated);
  Value denominator = b.create<arith::AddFOp>(loc, one, exp);
  return b.create<arith::DivFOp>(loc, one, denominator);
}

static Value buildScalar(onnx::ReluOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  return createMax(b, loc, args[0], createScalar(b, loc, type, 0));
}

static Value buildScalar(onnx::NegOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  if (isa<FloatType>(type))
    return b.create<arith::NegFOp>(loc, args[0]);
  return b.create<arith::SubIOp>(loc, createScalar(b, loc, type, 0), args[0]);
}

static Value buildScalar(onnx::AbsOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  if (isa<FloatType>(type))
    return b.create<math::AbsFOp>(loc, args[0]);
  return b.create<math::AbsIOp>(loc, args[0]);
}

static Value buildScalar(onnx::ReciprocalOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  return b.create<arith::DivFOp>(loc, createScalar(b, loc, type, 1.0), args[0]);
}

static Value buildScalar(onnx::LeakyReluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value zero = createScalar(b, loc, type, 0);
  Value alpha = createScalar(b, loc, type, op.getAlpha().convertToDouble());
  Value negative =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, args[0], zero);
  Value scaled = b.create<arith::MulFOp>(loc, alpha, args[0]);
  return b.create<arith::SelectOp>(loc, negative, scaled, args[0]);
}

static Value buildScalar(onnx::CastOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  return convertScalar(b, loc, args[0], type);
}

//===----------------------------------------------------------------------===//
// Element type checks.
//===----------------------------------------------------------------------===//

/// By default every operand and the result must be arith types.
static LogicalResult checkTypes(Operation *op) {
  for (Type type : op->getOperandTypes())
    if (!isArithType(getElementTypeOrSelf(type)))
      return unsupportedElementType(op, getElementTypeOrSelf(type));
  Type result = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isArithType(result))
    return unsupportedElementType(op, result);
  return success();
}

/// Where only selects, so any element type works.
static LogicalResult checkTypes(onnx::WhereOp) { return success(); }

//===----------------------------------------------------------------------===//
// Patterns.
//===----------------------------------------------------------------------===//

namespace {
/// Lowers an elementwise op with broadcasting to one linalg.generic.
template <typename OpT>
struct ElementwiseLowering : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType || failed(checkTypes(op)))
      return failure();
    Value result = createElementwise(
        rewriter, op.getLoc(), adaptor.getOperands(), resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return buildScalar(op, b, loc, args, resultType.getElementType());
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Clip: max with `min` then min with `max`, each bound optional.
struct ClipLowering : public OpConversionPattern<onnx::ClipOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ClipOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    if (!isArithType(resultType.getElementType()))
      return unsupportedElementType(op, resultType.getElementType());
    Location loc = op.getLoc();
    Value lo = onnx::isNoValue(op.getMin())
                   ? Value()
                   : extractScalar(rewriter, loc, adaptor.getMin());
    Value hi = onnx::isNoValue(op.getMax())
                   ? Value()
                   : extractScalar(rewriter, loc, adaptor.getMax());
    Value result = createElementwise(
        rewriter, loc, ValueRange{adaptor.getInput()}, resultType,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          Value v = args[0];
          if (lo)
            v = createMax(b, nestedLoc, v, lo);
          if (hi)
            v = createMin(b, nestedLoc, v, hi);
          return v;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void onnxc::populateONNXElementwiseToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      ElementwiseLowering<onnx::AddOp>, ElementwiseLowering<onnx::SubOp>,
      ElementwiseLowering<onnx::MulOp>, ElementwiseLowering<onnx::DivOp>,
      ElementwiseLowering<onnx::PowOp>, ElementwiseLowering<onnx::EqualOp>,
      ElementwiseLowering<onnx::LessOp>, ElementwiseLowering<onnx::GreaterOp>,
      ElementwiseLowering<onnx::WhereOp>, ElementwiseLowering<onnx::SqrtOp>,
      ElementwiseLowering<onnx::ExpOp>, ElementwiseLowering<onnx::LogOp>,
      ElementwiseLowering<onnx::TanhOp>, ElementwiseLowering<onnx::ErfOp>,
      ElementwiseLowering<onnx::SigmoidOp>, ElementwiseLowering<onnx::ReluOp>,
      ElementwiseLowering<onnx::NegOp>, ElementwiseLowering<onnx::AbsOp>,
      ElementwiseLowering<onnx::ReciprocalOp>,
      ElementwiseLowering<onnx::LeakyReluOp>, ElementwiseLowering<onnx::CastOp>,
      ClipLowering>(patterns.getContext());
}

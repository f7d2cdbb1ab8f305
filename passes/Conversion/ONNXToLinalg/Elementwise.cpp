//===- Elementwise.cpp - onnx elementwise ops to linalg.generic -----------===//
//
// Each elementwise op becomes one linalg.generic over the (numpy broadcast)
// result shape whose body is the scalar arith/math op for its element type.
// Unsigned integers enter the body as their signless twins (Common.h) and
// pick the unsigned arith ops.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// True when `op` computes on unsigned integers (its first operand's elements).
static bool isUnsignedOp(Operation *op) {
  return getElementTypeOrSelf(op->getOperand(0).getType()).isUnsignedInteger();
}

/// Converts the signless scalar `value`, an element of ONNX type `from`, to
/// (the signless form of) ONNX type `to` as Cast does: to bool is `x != 0`,
/// from bool is 0 or 1, unsigned integers zero-extend and convert with the
/// unsigned float conversions, and integers of one width keep their bits.
static Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                           Type to) {
  Type target = getSignlessType(to);
  if (getSignlessType(from) == target)
    return value;
  Type source = value.getType();
  if (to.isInteger(1)) {
    Value zero = createScalar(b, loc, source, 0);
    if (isa<FloatType>(source))
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, value,
                                     zero);
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (from.isInteger(1)) {
    if (isa<FloatType>(target))
      return b.create<arith::UIToFPOp>(loc, target, value);
    return b.create<arith::ExtUIOp>(loc, target, value);
  }
  auto fromFloat = dyn_cast<FloatType>(source);
  auto toFloat = dyn_cast<FloatType>(target);
  if (fromFloat && toFloat) {
    if (fromFloat.getWidth() == toFloat.getWidth()) {
      // bf16 <-> f16: through f32.
      Value wide = b.create<arith::ExtFOp>(loc, b.getF32Type(), value);
      return b.create<arith::TruncFOp>(loc, target, wide);
    }
    if (fromFloat.getWidth() < toFloat.getWidth())
      return b.create<arith::ExtFOp>(loc, target, value);
    return b.create<arith::TruncFOp>(loc, target, value);
  }
  if (fromFloat) {
    if (to.isUnsignedInteger())
      return b.create<arith::FPToUIOp>(loc, target, value);
    return b.create<arith::FPToSIOp>(loc, target, value);
  }
  if (toFloat) {
    if (from.isUnsignedInteger())
      return b.create<arith::UIToFPOp>(loc, target, value);
    return b.create<arith::SIToFPOp>(loc, target, value);
  }
  if (source.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth()) {
    if (from.isUnsignedInteger())
      return b.create<arith::ExtUIOp>(loc, target, value);
    return b.create<arith::ExtSIOp>(loc, target, value);
  }
  return b.create<arith::TruncIOp>(loc, target, value);
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

static Value buildScalar(onnx::DivOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createDiv(b, loc, args[0], args[1], isUnsignedOp(op));
}

static Value buildScalar(onnx::PowOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  Type baseType = getElementTypeOrSelf(op.getX());
  Type exponentType = getElementTypeOrSelf(op.getY());
  if (isa<FloatType>(baseType)) {
    Value exponent = convertScalar(b, loc, args[1], exponentType, baseType);
    return b.create<math::PowFOp>(loc, args[0], exponent);
  }
  // Integer powers are computed in f64, exact for the results that fit.
  Type f64 = b.getF64Type();
  Value base = convertScalar(b, loc, args[0], baseType, f64);
  Value exponent = convertScalar(b, loc, args[1], exponentType, f64);
  Value power = b.create<math::PowFOp>(loc, base, exponent);
  return convertScalar(b, loc, power, f64, baseType);
}

/// A comparison: `floatPred` on floats, `signedPred` on signed integers and
/// `unsignedPred` on unsigned integers and i1.
static Value buildCompare(Operation *op, OpBuilder &b, Location loc,
                          ValueRange args, arith::CmpFPredicate floatPred,
                          arith::CmpIPredicate signedPred,
                          arith::CmpIPredicate unsignedPred) {
  Type type = args[0].getType();
  if (isa<FloatType>(type))
    return b.create<arith::CmpFOp>(loc, floatPred, args[0], args[1]);
  bool isUnsigned = type.isInteger(1) || isUnsignedOp(op);
  return b.create<arith::CmpIOp>(loc, isUnsigned ? unsignedPred : signedPred,
                                 args[0], args[1]);
}

static Value buildScalar(onnx::EqualOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(op, b, loc, args, arith::CmpFPredicate::OEQ,
                      arith::CmpIPredicate::eq, arith::CmpIPredicate::eq);
}

static Value buildScalar(onnx::LessOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(op, b, loc, args, arith::CmpFPredicate::OLT,
                      arith::CmpIPredicate::slt, arith::CmpIPredicate::ult);
}

static Value buildScalar(onnx::GreaterOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(op, b, loc, args, arith::CmpFPredicate::OGT,
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

static Value buildScalar(onnx::ReluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  return createMax(b, loc, args[0], createScalar(b, loc, type, 0),
                   isUnsignedOp(op));
}

static Value buildScalar(onnx::NegOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  if (isa<FloatType>(type))
    return b.create<arith::NegFOp>(loc, args[0]);
  return b.create<arith::SubIOp>(loc, createScalar(b, loc, type, 0), args[0]);
}

static Value buildScalar(onnx::AbsOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  if (isa<FloatType>(type))
    return b.create<math::AbsFOp>(loc, args[0]);
  if (isUnsignedOp(op))
    return args[0];
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

static Value buildScalar(onnx::CastOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return convertScalar(b, loc, args[0], getElementTypeOrSelf(op.getInput()),
                       getElementTypeOrSelf(op.getOutput()));
}

//===----------------------------------------------------------------------===//
// Element type checks.
//===----------------------------------------------------------------------===//

/// Floats and signless integers, and unsigned integers computed on as
/// signless ones.
static bool isLowerableType(Type type) {
  return isArithType(type) || type.isUnsignedInteger();
}

/// By default every operand and the result must be of lowerable types.
static LogicalResult checkTypes(Operation *op) {
  for (Type type : op->getOperandTypes())
    if (!isLowerableType(getElementTypeOrSelf(type)))
      return unsupportedElementType(op, getElementTypeOrSelf(type));
  Type result = getElementTypeOrSelf(op->getResult(0).getType());
  if (!isLowerableType(result))
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
    Type element = resultType.getElementType();
    Value result = createElementwise(
        rewriter, op.getLoc(), adaptor.getOperands(), resultType,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> signless = llvm::map_to_vector(
              args, [&](Value arg) { return toSignless(b, loc, arg); });
          Value value =
              buildScalar(op, b, loc, signless, getSignlessType(element));
          return fromSignless(b, loc, value, element);
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
    Type element = resultType.getElementType();
    if (!isLowerableType(element))
      return unsupportedElementType(op, element);
    Location loc = op.getLoc();
    auto bound = [&](Value original, Value converted) {
      if (onnx::isNoValue(original))
        return Value();
      return toSignless(rewriter, loc, extractScalar(rewriter, loc, converted));
    };
    Value lo = bound(op.getMin(), adaptor.getMin());
    Value hi = bound(op.getMax(), adaptor.getMax());
    bool isUnsigned = element.isUnsignedInteger();
    Value result = createElementwise(
        rewriter, loc, ValueRange{adaptor.getInput()}, resultType,
        [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          Value v = toSignless(b, nestedLoc, args[0]);
          if (lo)
            v = createMax(b, nestedLoc, v, lo, isUnsigned);
          if (hi)
            v = createMin(b, nestedLoc, v, hi, isUnsigned);
          return fromSignless(b, nestedLoc, v, element);
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

//===- Elementwise.cpp - onnx elementwise ops to linalg.generic -----------===//
//
// Each elementwise op becomes one linalg.generic over the (numpy broadcast)
// result shape whose body is the scalar arith/math op for its element type.
// Unsigned integers enter the body as their signless twins (Common.h) and
// pick the unsigned arith ops.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/LowPrecision.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include <cmath>

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
/// The float8 and float4 types convert through f32 (LowPrecision.h, with
/// `saturate` and `roundMode`); to a 2- or 4-bit integer keeps the low bits
/// of the value converted to i64 (wraps around); from one, the value is the
/// byte that holds it.
static Value convertScalar(OpBuilder &b, Location loc, Value value, Type from,
                           Type to, bool saturate = true,
                           StringRef roundMode = "up") {
  MLIRContext *ctx = b.getContext();
  if (from == to)
    return value;
  Type f32 = b.getF32Type();
  if (onnx::isLowPrecisionFloat(from)) {
    value = decodeLowPrecisionFloat(b, loc, value, from);
    return convertScalar(b, loc, value, f32, to, saturate, roundMode);
  }
  if (onnx::isLowPrecisionFloat(to)) {
    // (From f64, rounding to f32 first may round twice.)
    value = convertScalar(b, loc, value, from, f32);
    return encodeLowPrecisionFloat(b, loc, value, to, saturate, roundMode);
  }
  if (isStorageOnlyType(from))
    from = IntegerType::get(ctx, 8,
                            from.isUnsignedInteger() ? IntegerType::Unsigned
                                                     : IntegerType::Signless);
  if (isStorageOnlyType(to)) {
    value = convertScalar(b, loc, value, from, b.getI64Type());
    return wrapToNarrowInteger(b, loc, value, to);
  }
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

static Value buildScalar(onnx::LessOrEqualOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(op, b, loc, args, arith::CmpFPredicate::OLE,
                      arith::CmpIPredicate::sle, arith::CmpIPredicate::ule);
}

static Value buildScalar(onnx::GreaterOrEqualOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return buildCompare(op, b, loc, args, arith::CmpFPredicate::OGE,
                      arith::CmpIPredicate::sge, arith::CmpIPredicate::uge);
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
                       getElementTypeOrSelf(op.getOutput()),
                       op.getSaturate() != 0, op.getRoundMode());
}

static Value buildScalar(onnx::CastLikeOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return convertScalar(b, loc, args[0], getElementTypeOrSelf(op.getInput()),
                       getElementTypeOrSelf(op.getOutput()),
                       op.getSaturate() != 0, op.getRoundMode());
}

//===----------------------------------------------------------------------===//
// Variadic, logical, bitwise, rounding, trigonometric and activation ops.
//===----------------------------------------------------------------------===//

static Value buildScalar(onnx::MaxOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  Value result = args[0];
  for (Value arg : args.drop_front())
    result = createMax(b, loc, result, arg, isUnsignedOp(op));
  return result;
}

static Value buildScalar(onnx::MinOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  Value result = args[0];
  for (Value arg : args.drop_front())
    result = createMin(b, loc, result, arg, isUnsignedOp(op));
  return result;
}

/// The sum of `args`, left to right.
static Value createSum(OpBuilder &b, Location loc, ValueRange args) {
  Value result = args[0];
  for (Value arg : args.drop_front())
    result = createAdd(b, loc, result, arg);
  return result;
}

static Value buildScalar(onnx::SumOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createSum(b, loc, args);
}

static Value buildScalar(onnx::MeanOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  return b.create<arith::DivFOp>(loc, createSum(b, loc, args),
                                 createScalar(b, loc, type, args.size()));
}

static Value buildScalar(onnx::ModOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value lhs = args[0], rhs = args[1];
  if (isa<FloatType>(type))
    return b.create<arith::RemFOp>(loc, lhs, rhs);
  if (isUnsignedOp(op))
    return b.create<arith::RemUIOp>(loc, lhs, rhs);
  Value rem = b.create<arith::RemSIOp>(loc, lhs, rhs);
  if (op.getFmod() != 0)
    return rem;
  // Python's %: a nonzero remainder takes the divisor's sign.
  Value zero = createScalar(b, loc, type, 0);
  Value nonzero =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, rem, zero);
  Value remNegative =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, rem, zero);
  Value rhsNegative =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, rhs, zero);
  Value signsDiffer = b.create<arith::XOrIOp>(loc, remNegative, rhsNegative);
  Value adjust = b.create<arith::AndIOp>(loc, nonzero, signsDiffer);
  Value adjusted = b.create<arith::AddIOp>(loc, rem, rhs);
  return b.create<arith::SelectOp>(loc, adjust, adjusted, rem);
}

static Value buildScalar(onnx::BitShiftOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value shifted =
      op.getDirection() == "LEFT"
          ? b.create<arith::ShLIOp>(loc, args[0], args[1]).getResult()
          : b.create<arith::ShRUIOp>(loc, args[0], args[1]).getResult();
  // arith leaves shifts by the bit width or more undefined; numpy gives 0.
  Value width = createScalar(b, loc, type, type.getIntOrFloatBitWidth());
  Value tooFar =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, args[1], width);
  return b.create<arith::SelectOp>(loc, tooFar, createScalar(b, loc, type, 0),
                                   shifted);
}

/// And, Or, Xor (of bools) and their bitwise forms (of integers): one arith
/// op, whatever the width.
template <typename OpT>
static std::enable_if_t<
    llvm::is_one_of<OpT, onnx::AndOp, onnx::OrOp, onnx::XorOp,
                    onnx::BitwiseAndOp, onnx::BitwiseOrOp,
                    onnx::BitwiseXorOp>::value,
    Value>
buildScalar(OpT, OpBuilder &b, Location loc, ValueRange args, Type) {
  if constexpr (llvm::is_one_of<OpT, onnx::AndOp, onnx::BitwiseAndOp>::value)
    return b.create<arith::AndIOp>(loc, args[0], args[1]);
  else if constexpr (llvm::is_one_of<OpT, onnx::OrOp, onnx::BitwiseOrOp>::value)
    return b.create<arith::OrIOp>(loc, args[0], args[1]);
  else
    return b.create<arith::XOrIOp>(loc, args[0], args[1]);
}

/// Not and BitwiseNot flip every bit: xor with all ones (true for a bool).
template <typename OpT>
static std::enable_if_t<
    llvm::is_one_of<OpT, onnx::NotOp, onnx::BitwiseNotOp>::value, Value>
buildScalar(OpT, OpBuilder &b, Location loc, ValueRange args, Type type) {
  Value allOnes = b.create<arith::ConstantOp>(
      loc,
      b.getIntegerAttr(type, APInt::getAllOnes(type.getIntOrFloatBitWidth())));
  return b.create<arith::XOrIOp>(loc, args[0], allOnes);
}

static Value buildScalar(onnx::BitCastOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  if (x.getType() == type)
    return x;
  // A bool is the byte 0 or 1; a byte read as bool is true when not 0.
  if (x.getType().isInteger(1))
    return b.create<arith::ExtUIOp>(loc, type, x);
  if (type.isInteger(1))
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x,
                                   createScalar(b, loc, x.getType(), 0));
  return b.create<arith::BitcastOp>(loc, type, x);
}

static Value buildScalar(onnx::CeilOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::CeilOp>(loc, args[0]);
}

static Value buildScalar(onnx::FloorOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::FloorOp>(loc, args[0]);
}

static Value buildScalar(onnx::RoundOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<math::RoundEvenOp>(loc, args[0]);
}

static Value buildScalar(onnx::SignOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  Value zero = createScalar(b, loc, type, 0);
  Value one = createScalar(b, loc, type, 1);
  if (isUnsignedOp(op)) {
    Value nonzero =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, x, zero);
    return b.create<arith::SelectOp>(loc, nonzero, one, zero);
  }
  Value positive, negative;
  if (isa<FloatType>(type)) {
    positive = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x, zero);
    negative = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, zero);
  } else {
    positive = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, x, zero);
    negative = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, zero);
  }
  // A float that is neither (zero or NaN) is its own sign.
  Value rest = isa<FloatType>(type) ? x : zero;
  Value notPositive = b.create<arith::SelectOp>(
      loc, negative, createScalar(b, loc, type, -1), rest);
  return b.create<arith::SelectOp>(loc, positive, one, notPositive);
}

/// The ops that are one math dialect op.
#define ONNX_MATH_UNARY(OP, MATH_OP)                                           \
  static Value buildScalar(onnx::OP, OpBuilder &b, Location loc,               \
                           ValueRange args, Type) {                            \
    return b.create<math::MATH_OP>(loc, args[0]);                              \
  }
ONNX_MATH_UNARY(SinOp, SinOp)
ONNX_MATH_UNARY(CosOp, CosOp)
ONNX_MATH_UNARY(TanOp, TanOp)
ONNX_MATH_UNARY(AsinOp, AsinOp)
ONNX_MATH_UNARY(AcosOp, AcosOp)
ONNX_MATH_UNARY(AtanOp, AtanOp)
ONNX_MATH_UNARY(SinhOp, SinhOp)
ONNX_MATH_UNARY(CoshOp, CoshOp)
ONNX_MATH_UNARY(AsinhOp, AsinhOp)
ONNX_MATH_UNARY(AcoshOp, AcoshOp)
ONNX_MATH_UNARY(AtanhOp, AtanhOp)
#undef ONNX_MATH_UNARY

static Value buildScalar(onnx::IsNaNOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, args[0],
                                 args[0]);
}

static Value buildScalar(onnx::IsInfOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  Value x = args[0];
  auto type = cast<FloatType>(x.getType());
  auto infinity = [&](bool negative) -> Value {
    return b.create<arith::ConstantOp>(
        loc, b.getFloatAttr(
                 type, APFloat::getInf(type.getFloatSemantics(), negative)));
  };
  bool positive = op.getDetectPositive() != 0;
  bool negative = op.getDetectNegative() != 0;
  if (positive && negative)
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ,
                                   b.create<math::AbsFOp>(loc, x),
                                   infinity(false));
  if (positive || negative)
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, x,
                                   infinity(negative));
  return b.create<arith::ConstantOp>(loc, b.getBoolAttr(false));
}

/// alpha * (exp(x) - 1), the negative branch of Elu, Selu and Celu.
static Value createScaledExpm1(OpBuilder &b, Location loc, Value x,
                               double alpha) {
  Type type = x.getType();
  Value expm1 = b.create<arith::SubFOp>(loc, b.create<math::ExpOp>(loc, x),
                                        createScalar(b, loc, type, 1));
  return b.create<arith::MulFOp>(loc, createScalar(b, loc, type, alpha), expm1);
}

/// max(0, min(1, alpha * x + beta)).
static Value createHardSigmoid(OpBuilder &b, Location loc, Value x,
                               double alpha, double beta) {
  Type type = x.getType();
  Value linear = b.create<arith::AddFOp>(
      loc, b.create<arith::MulFOp>(loc, createScalar(b, loc, type, alpha), x),
      createScalar(b, loc, type, beta));
  Value clipped =
      b.create<arith::MinimumFOp>(loc, linear, createScalar(b, loc, type, 1));
  return b.create<arith::MaximumFOp>(loc, clipped,
                                     createScalar(b, loc, type, 0));
}

/// log(exp(x) + 1) as max(x, 0) + log1p(exp(-|x|)), which does not overflow.
static Value createSoftplus(OpBuilder &b, Location loc, Value x) {
  Value zero = createScalar(b, loc, x.getType(), 0);
  Value negAbs = b.create<arith::NegFOp>(loc, b.create<math::AbsFOp>(loc, x));
  Value log1p =
      b.create<math::Log1pOp>(loc, b.create<math::ExpOp>(loc, negAbs));
  return b.create<arith::AddFOp>(loc, b.create<arith::MaximumFOp>(loc, x, zero),
                                 log1p);
}

static Value buildScalar(onnx::EluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  Value negative = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x,
                                           createScalar(b, loc, type, 0));
  Value scaled = createScaledExpm1(b, loc, x, op.getAlpha().convertToDouble());
  return b.create<arith::SelectOp>(loc, negative, scaled, x);
}

static Value buildScalar(onnx::SeluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  double gamma = op.getGamma().convertToDouble();
  Value positive = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x,
                                           createScalar(b, loc, type, 0));
  Value scaled =
      createScaledExpm1(b, loc, x, gamma * op.getAlpha().convertToDouble());
  Value linear =
      b.create<arith::MulFOp>(loc, createScalar(b, loc, type, gamma), x);
  return b.create<arith::SelectOp>(loc, positive, linear, scaled);
}

static Value buildScalar(onnx::CeluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  double alpha = op.getAlpha().convertToDouble();
  Value zero = createScalar(b, loc, type, 0);
  Value scaledX =
      b.create<arith::DivFOp>(loc, x, createScalar(b, loc, type, alpha));
  Value negative = b.create<arith::MinimumFOp>(
      loc, createScaledExpm1(b, loc, scaledX, alpha), zero);
  return b.create<arith::AddFOp>(loc, b.create<arith::MaximumFOp>(loc, x, zero),
                                 negative);
}

static Value buildScalar(onnx::HardSigmoidOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createHardSigmoid(b, loc, args[0], op.getAlpha().convertToDouble(),
                           op.getBeta().convertToDouble());
}

static Value buildScalar(onnx::HardSwishOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return b.create<arith::MulFOp>(
      loc, args[0], createHardSigmoid(b, loc, args[0], 1.0 / 6.0, 0.5));
}

static Value buildScalar(onnx::SoftplusOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  return createSoftplus(b, loc, args[0]);
}

static Value buildScalar(onnx::SoftsignOp, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value denominator = b.create<arith::AddFOp>(
      loc, createScalar(b, loc, type, 1), b.create<math::AbsFOp>(loc, args[0]));
  return b.create<arith::DivFOp>(loc, args[0], denominator);
}

static Value buildScalar(onnx::ThresholdedReluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value above = b.create<arith::CmpFOp>(
      loc, arith::CmpFPredicate::OGT, args[0],
      createScalar(b, loc, type, op.getAlpha().convertToDouble()));
  return b.create<arith::SelectOp>(loc, above, args[0],
                                   createScalar(b, loc, type, 0));
}

static Value buildScalar(onnx::MishOp, OpBuilder &b, Location loc,
                         ValueRange args, Type) {
  Value softplus = createSoftplus(b, loc, args[0]);
  return b.create<arith::MulFOp>(loc, args[0],
                                 b.create<math::TanhOp>(loc, softplus));
}

static Value buildScalar(onnx::ShrinkOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  // Integers shrink in f64, as the reference does after numpy's promotion.
  Type element = getElementTypeOrSelf(op.getX());
  Type computeType = isa<FloatType>(type) ? type : b.getF64Type();
  Value x = convertScalar(b, loc, args[0], element, computeType);
  double lambd = op.getLambd().convertToDouble();
  Value bias =
      createScalar(b, loc, computeType, op.getBias().convertToDouble());
  Value below =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x,
                              createScalar(b, loc, computeType, -lambd));
  Value above =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OGT, x,
                              createScalar(b, loc, computeType, lambd));
  Value result = b.create<arith::SelectOp>(
      loc, above, b.create<arith::SubFOp>(loc, x, bias),
      createScalar(b, loc, computeType, 0));
  result = b.create<arith::SelectOp>(
      loc, below, b.create<arith::AddFOp>(loc, x, bias), result);
  return convertScalar(b, loc, result, computeType, element);
}

static Value buildScalar(onnx::GeluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  Value inner;
  if (op.getApproximate() == "tanh") {
    // tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))
    Value cube =
        b.create<arith::MulFOp>(loc, x, b.create<arith::MulFOp>(loc, x, x));
    Value sum = b.create<arith::AddFOp>(
        loc, x,
        b.create<arith::MulFOp>(loc, createScalar(b, loc, type, 0.044715),
                                cube));
    inner = b.create<math::TanhOp>(
        loc, b.create<arith::MulFOp>(
                 loc, createScalar(b, loc, type, std::sqrt(2.0 / M_PI)), sum));
  } else {
    inner = b.create<math::ErfOp>(
        loc,
        b.create<arith::MulFOp>(loc, x, createScalar(b, loc, type, M_SQRT1_2)));
  }
  Value half = b.create<arith::MulFOp>(loc, createScalar(b, loc, type, 0.5), x);
  return b.create<arith::MulFOp>(
      loc, half,
      b.create<arith::AddFOp>(loc, createScalar(b, loc, type, 1), inner));
}

static Value buildScalar(onnx::PReluOp op, OpBuilder &b, Location loc,
                         ValueRange args, Type type) {
  Value x = args[0];
  if (isUnsignedOp(op))
    return x;
  Value zero = createScalar(b, loc, type, 0);
  Value negative =
      isa<FloatType>(type)
          ? b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OLT, x, zero)
                .getResult()
          : b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, zero)
                .getResult();
  return b.create<arith::SelectOp>(loc, negative, createMul(b, loc, args[1], x),
                                   x);
}

//===----------------------------------------------------------------------===//
// Element type checks.
//===----------------------------------------------------------------------===//

/// Floats and signless integers, and unsigned integers computed on as
/// signless ones; not the storage-only types.
static bool isLowerableType(Type type) {
  return isArithType(type) ||
         (type.isUnsignedInteger() && !isStorageOnlyType(type));
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

/// Cast and CastLike also convert the storage-only types.
static LogicalResult checkCastTypes(Operation *op) {
  for (Value value : {op->getOperand(0), Value(op->getResult(0))}) {
    Type type = getElementTypeOrSelf(value);
    if (!isLowerableType(type) && !isStorageOnlyType(type))
      return unsupportedElementType(op, type);
  }
  return success();
}
static LogicalResult checkTypes(onnx::CastOp op) { return checkCastTypes(op); }
static LogicalResult checkTypes(onnx::CastLikeOp op) {
  return checkCastTypes(op);
}

/// The operands that the scalar body reads: all by default.
static ValueRange getElementwiseInputs(Operation *, ValueRange operands) {
  return operands;
}

/// CastLike reads only the element type of `target_type`.
static ValueRange getElementwiseInputs(onnx::CastLikeOp, ValueRange operands) {
  return operands.take_front();
}

//===----------------------------------------------------------------------===//
// Patterns.
//===----------------------------------------------------------------------===//

namespace {
/// Lowers an elementwise op with broadcasting to one linalg.generic.
template <typename OpT>
struct ElementwiseLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (failed(checkTypes(op)))
      return failure();
    Type element = resultType.getElementType();
    Value result = createElementwise(
        rewriter, loc, getElementwiseInputs(op, adaptor.getOperands()),
        resultType, [&](OpBuilder &b, Location nestedLoc, ValueRange args) {
          SmallVector<Value> signless = llvm::map_to_vector(
              args, [&](Value arg) { return toSignless(b, nestedLoc, arg); });
          Value value =
              buildScalar(op, b, nestedLoc, signless, getSignlessType(element));
          return fromSignless(b, nestedLoc, value, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Clip: max with `min` then min with `max`, each bound optional.
struct ClipLowering : public ONNXToLinalgPattern<onnx::ClipOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ClipOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isLowerableType(element))
      return unsupportedElementType(op, element);
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
  patterns.add<
      ElementwiseLowering<onnx::MaxOp>, ElementwiseLowering<onnx::MinOp>,
      ElementwiseLowering<onnx::SumOp>, ElementwiseLowering<onnx::MeanOp>,
      ElementwiseLowering<onnx::ModOp>, ElementwiseLowering<onnx::BitShiftOp>,
      ElementwiseLowering<onnx::AndOp>, ElementwiseLowering<onnx::OrOp>,
      ElementwiseLowering<onnx::XorOp>, ElementwiseLowering<onnx::NotOp>,
      ElementwiseLowering<onnx::BitwiseAndOp>,
      ElementwiseLowering<onnx::BitwiseOrOp>,
      ElementwiseLowering<onnx::BitwiseXorOp>,
      ElementwiseLowering<onnx::BitwiseNotOp>,
      ElementwiseLowering<onnx::BitCastOp>,
      ElementwiseLowering<onnx::GreaterOrEqualOp>,
      ElementwiseLowering<onnx::LessOrEqualOp>,
      ElementwiseLowering<onnx::CastLikeOp>, ElementwiseLowering<onnx::CeilOp>,
      ElementwiseLowering<onnx::FloorOp>, ElementwiseLowering<onnx::RoundOp>,
      ElementwiseLowering<onnx::SignOp>, ElementwiseLowering<onnx::SinOp>,
      ElementwiseLowering<onnx::CosOp>, ElementwiseLowering<onnx::TanOp>,
      ElementwiseLowering<onnx::AsinOp>, ElementwiseLowering<onnx::AcosOp>,
      ElementwiseLowering<onnx::AtanOp>, ElementwiseLowering<onnx::SinhOp>,
      ElementwiseLowering<onnx::CoshOp>, ElementwiseLowering<onnx::AsinhOp>,
      ElementwiseLowering<onnx::AcoshOp>, ElementwiseLowering<onnx::AtanhOp>,
      ElementwiseLowering<onnx::IsInfOp>, ElementwiseLowering<onnx::IsNaNOp>,
      ElementwiseLowering<onnx::EluOp>, ElementwiseLowering<onnx::SeluOp>,
      ElementwiseLowering<onnx::CeluOp>,
      ElementwiseLowering<onnx::HardSigmoidOp>,
      ElementwiseLowering<onnx::HardSwishOp>,
      ElementwiseLowering<onnx::SoftplusOp>,
      ElementwiseLowering<onnx::SoftsignOp>,
      ElementwiseLowering<onnx::ThresholdedReluOp>,
      ElementwiseLowering<onnx::MishOp>, ElementwiseLowering<onnx::ShrinkOp>,
      ElementwiseLowering<onnx::GeluOp>, ElementwiseLowering<onnx::PReluOp>>(
      patterns.getContext());
}

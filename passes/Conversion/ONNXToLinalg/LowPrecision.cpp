//===- LowPrecision.cpp - float8, float4 and narrow integer conversions ---===//
//
// The formats, as ONNX defines them (onnx.proto, the Cast operator):
//
//   type            exp  mant  bias  largest   infinity  NaN
//   f8E4M3FN          4     3     7     448    none      S.1111.111
//   f8E4M3FNUZ        4     3     8     240    none      1.0000.000
//   f8E5M2            5     2    15   57344    S.11111.00  S.11111.xx
//   f8E5M2FNUZ        5     2    16   57344    none      1.00000.00
//   !onnx.f4E2M1      2     1     1       6    none      none
//   !onnx.f8E8M0      8     0   127   2^127    none      11111111
//
// f32 to code: rounding to nearest even on the f32 bits, in i32: a normal
// result rebiases the exponent and rounds the mantissa away (a carry moves
// into the exponent), a subnormal one shifts the significand right. A code
// beyond the largest finite one is an overflow.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/LowPrecision.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"

#include <cmath>

using namespace mlir;

namespace onnxc::tolinalg {

namespace {
/// A float8 or float4 format (the table above).
struct FloatFormat {
  unsigned expBits, mantBits;
  int bias;
  /// The largest finite magnitude's code.
  unsigned maxCode;
  /// The code of an overflow without saturation (with the sign when
  /// `signedSpecials`), and of NaN.
  unsigned overflowCode, nanCode;
  /// 'fnuz': one zero and one NaN, 0x80; neither takes a sign.
  bool fnuz;
  /// f4E2M1: no NaN, no infinity, always saturates.
  bool finiteOnly;

  unsigned signShift() const { return expBits + mantBits; }
};
} // namespace

static FloatFormat getFormat(Type type) {
  if (type.isFloat8E4M3FN())
    return {4, 3, 7, 0x7E, 0x7F, 0x7F, false, false};
  if (type.isFloat8E4M3FNUZ())
    return {4, 3, 8, 0x7F, 0x80, 0x80, true, false};
  if (type.isFloat8E5M2())
    return {5, 2, 15, 0x7B, 0x7C, 0x7E, false, false};
  if (type.isFloat8E5M2FNUZ())
    return {5, 2, 16, 0x7F, 0x80, 0x80, true, false};
  assert(isa<onnx::Float4E2M1Type>(type) && "expects a float8 or float4 type");
  // ONNX's reference turns NaN into the code of -0.
  return {2, 1, 1, 0x7, 0x7, 0x8, false, true};
}

static Value i32Constant(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIntOp>(loc, value, 32);
}

static Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred,
                 Value lhs, int64_t rhs) {
  return b.create<arith::CmpIOp>(loc, pred, lhs, i32Constant(b, loc, rhs));
}

static Value select(OpBuilder &b, Location loc, Value cond, Value lhs,
                    Value rhs) {
  return b.create<arith::SelectOp>(loc, cond, lhs, rhs);
}

/// `x` rounded to nearest even after dropping its low `shift` bits (a
/// positive i32, `shift` in [1, 31]).
static Value shiftRightRoundingEven(OpBuilder &b, Location loc, Value x,
                                    Value shift) {
  Value one = i32Constant(b, loc, 1);
  Value half = b.create<arith::SubIOp>(
      loc,
      b.create<arith::ShLIOp>(loc, one,
                              b.create<arith::SubIOp>(loc, shift, one)),
      one);
  Value odd = b.create<arith::AndIOp>(
      loc, b.create<arith::ShRUIOp>(loc, x, shift), one);
  Value sum =
      b.create<arith::AddIOp>(loc, b.create<arith::AddIOp>(loc, x, half), odd);
  return b.create<arith::ShRUIOp>(loc, sum, shift);
}

Value decodeLowPrecisionFloat(OpBuilder &b, Location loc, Value code,
                              Type type) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  Value c = b.create<arith::ExtUIOp>(loc, i32, code);
  if (isa<onnx::Float8E8M0Type>(type)) {
    // 2^(c - 127): c << 23 as f32 bits; 0 is the f32 subnormal 2^-127.
    Value bits = b.create<arith::ShLIOp>(loc, c, i32Constant(b, loc, 23));
    bits = select(b, loc, cmp(b, loc, arith::CmpIPredicate::eq, c, 0),
                  i32Constant(b, loc, 0x00400000), bits);
    bits = select(b, loc, cmp(b, loc, arith::CmpIPredicate::eq, c, 0xFF),
                  i32Constant(b, loc, 0x7FC00000), bits);
    return b.create<arith::BitcastOp>(loc, f32, bits);
  }
  FloatFormat f = getFormat(type);
  unsigned m = f.mantBits;
  c = b.create<arith::AndIOp>(
      loc, c, i32Constant(b, loc, (1 << (f.signShift() + 1)) - 1));
  Value exp = b.create<arith::AndIOp>(
      loc, b.create<arith::ShRUIOp>(loc, c, i32Constant(b, loc, m)),
      i32Constant(b, loc, (1 << f.expBits) - 1));
  Value mant =
      b.create<arith::AndIOp>(loc, c, i32Constant(b, loc, (1 << m) - 1));
  // |value| = significand * 2^(max(exp, 1) - bias - mant bits), exactly.
  Value isSubnormal = cmp(b, loc, arith::CmpIPredicate::eq, exp, 0);
  Value significand =
      select(b, loc, isSubnormal, mant,
             b.create<arith::OrIOp>(loc, mant, i32Constant(b, loc, 1 << m)));
  Value scaleExp = b.create<arith::AddIOp>(
      loc, b.create<arith::MaxUIOp>(loc, exp, i32Constant(b, loc, 1)),
      i32Constant(b, loc, 127 - f.bias - int(m)));
  Value scale = b.create<arith::BitcastOp>(
      loc, f32,
      b.create<arith::ShLIOp>(loc, scaleExp, i32Constant(b, loc, 23)));
  Value value = b.create<arith::MulFOp>(
      loc, b.create<arith::UIToFPOp>(loc, f32, significand), scale);
  Value negative = cmp(
      b, loc, arith::CmpIPredicate::ne,
      b.create<arith::ShRUIOp>(loc, c, i32Constant(b, loc, f.signShift())), 0);
  value = select(b, loc, negative, b.create<arith::NegFOp>(loc, value), value);
  if (f.finiteOnly)
    return value;
  Value magnitude = b.create<arith::AndIOp>(
      loc, c, i32Constant(b, loc, (1 << f.signShift()) - 1));
  Value isNaN =
      f.fnuz ? cmp(b, loc, arith::CmpIPredicate::eq, c, 0x80)
             : cmp(b, loc, arith::CmpIPredicate::uge, magnitude, f.nanCode);
  if (type.isFloat8E5M2()) {
    // 0x7C is infinity, 0x7D-0x7F NaN.
    Value inf = createScalar(b, loc, f32, INFINITY);
    Value isInf = cmp(b, loc, arith::CmpIPredicate::eq, magnitude, 0x7C);
    value =
        select(b, loc, isInf,
               select(b, loc, negative, b.create<arith::NegFOp>(loc, inf), inf),
               value);
    isNaN = cmp(b, loc, arith::CmpIPredicate::ugt, magnitude, 0x7C);
  }
  return select(b, loc, isNaN, createScalar(b, loc, f32, NAN), value);
}

/// FLOAT8E8M0's code of the f32 bits `bits`: the exponent field, rounded up
/// as ONNX's reference (onnx.numpy_helper.to_float8e8m0) does.
static Value encodeFloat8E8M0(OpBuilder &b, Location loc, Value bits,
                              bool saturate, StringRef roundMode) {
  using Pred = arith::CmpIPredicate;
  Value exp = b.create<arith::AndIOp>(
      loc, b.create<arith::ShRUIOp>(loc, bits, i32Constant(b, loc, 23)),
      i32Constant(b, loc, 0xFF));
  Value roundUp;
  if (roundMode == "up") {
    Value fraction =
        b.create<arith::AndIOp>(loc, bits, i32Constant(b, loc, 0x7FFFFF));
    roundUp = cmp(b, loc, Pred::ne, fraction, 0);
  } else if (roundMode == "nearest") {
    // Guard bit, and either the bits below it or a nonzero exponent.
    auto bitSet = [&](int64_t mask) {
      return cmp(b, loc, Pred::ne,
                 b.create<arith::AndIOp>(loc, bits, i32Constant(b, loc, mask)),
                 0);
    };
    Value rest = b.create<arith::OrIOp>(loc, bitSet(0x3FFFFF),
                                        cmp(b, loc, Pred::ne, exp, 0));
    roundUp = b.create<arith::AndIOp>(loc, bitSet(0x400000), rest);
  } else {
    assert(roundMode == "down" && "expects a verified round_mode");
    return b.create<arith::TruncIOp>(loc, b.getI8Type(), exp);
  }
  Value special = cmp(b, loc, Pred::eq, exp, 0xFF);
  roundUp = b.create<arith::AndIOp>(
      loc, roundUp,
      b.create<arith::XOrIOp>(loc, special,
                              b.create<arith::ConstantIntOp>(loc, 1, 1)));
  if (saturate)
    roundUp =
        b.create<arith::AndIOp>(loc, roundUp, cmp(b, loc, Pred::ne, exp, 0xFE));
  Value code = b.create<arith::AddIOp>(
      loc, exp, b.create<arith::ExtUIOp>(loc, b.getI32Type(), roundUp));
  return b.create<arith::TruncIOp>(loc, b.getI8Type(), code);
}

Value encodeLowPrecisionFloat(OpBuilder &b, Location loc, Value value,
                              Type type, bool saturate, StringRef roundMode) {
  using Pred = arith::CmpIPredicate;
  Value bits = b.create<arith::BitcastOp>(loc, b.getI32Type(), value);
  if (isa<onnx::Float8E8M0Type>(type))
    return encodeFloat8E8M0(b, loc, bits, saturate, roundMode);
  FloatFormat f = getFormat(type);
  int m = f.mantBits;
  Value abs =
      b.create<arith::AndIOp>(loc, bits, i32Constant(b, loc, 0x7FFFFFFF));
  Value exp32 = b.create<arith::ShRUIOp>(loc, abs, i32Constant(b, loc, 23));
  // A normal result: rebias, then round the mantissa to `m` bits.
  Value rebiased = b.create<arith::SubIOp>(
      loc, abs, i32Constant(b, loc, int64_t(127 - f.bias) << 23));
  Value normal =
      shiftRightRoundingEven(b, loc, rebiased, i32Constant(b, loc, 23 - m));
  // A subnormal one: the significand (with its implicit bit; an f32
  // subnormal rounds to 0 either way) in units of the smallest subnormal,
  // 2^(1 - bias - m).
  Value significand = b.create<arith::OrIOp>(
      loc, b.create<arith::AndIOp>(loc, abs, i32Constant(b, loc, 0x7FFFFF)),
      i32Constant(b, loc, 0x800000));
  // (In [1, 31] also where the normal result is taken.)
  Value shift = b.create<arith::SubIOp>(
      loc, i32Constant(b, loc, 151 - f.bias - m), exp32);
  shift = b.create<arith::MaxSIOp>(
      loc, b.create<arith::MinSIOp>(loc, shift, i32Constant(b, loc, 31)),
      i32Constant(b, loc, 1));
  Value subnormal = shiftRightRoundingEven(b, loc, significand, shift);
  Value isSubnormal = cmp(b, loc, Pred::sle, exp32, 127 - f.bias);
  Value magnitude = select(b, loc, isSubnormal, subnormal, normal);
  // Overflow (infinities included), then NaN.
  bool saturates = saturate || f.finiteOnly;
  Value overflow = cmp(b, loc, Pred::ugt, magnitude, f.maxCode);
  magnitude = select(
      b, loc, overflow,
      i32Constant(b, loc, saturates ? f.maxCode : f.overflowCode), magnitude);
  Value isNaN = cmp(b, loc, Pred::ugt, abs, 0x7F800000);
  Value sign = b.create<arith::ShLIOp>(
      loc, b.create<arith::ShRUIOp>(loc, bits, i32Constant(b, loc, 31)),
      i32Constant(b, loc, f.signShift()));
  Value code = b.create<arith::OrIOp>(loc, magnitude, sign);
  if (f.fnuz) {
    // Neither 0 nor the NaN 0x80 takes a sign.
    Value unsignedCode =
        b.create<arith::OrIOp>(loc, cmp(b, loc, Pred::eq, magnitude, 0),
                               cmp(b, loc, Pred::eq, magnitude, 0x80));
    code = select(b, loc, unsignedCode, magnitude, code);
    code = select(b, loc, isNaN, i32Constant(b, loc, f.nanCode), code);
  } else if (f.finiteOnly) {
    code = select(b, loc, isNaN, i32Constant(b, loc, f.nanCode), code);
  } else {
    code = select(
        b, loc, isNaN,
        b.create<arith::OrIOp>(loc, i32Constant(b, loc, f.nanCode), sign),
        code);
  }
  return b.create<arith::TruncIOp>(loc, b.getI8Type(), code);
}

Value wrapToNarrowInteger(OpBuilder &b, Location loc, Value value, Type type) {
  unsigned width = type.getIntOrFloatBitWidth();
  Value byte = b.create<arith::TruncIOp>(loc, b.getI8Type(), value);
  Value shift = b.create<arith::ConstantIntOp>(loc, 8 - width, 8);
  Value high = b.create<arith::ShLIOp>(loc, byte, shift);
  if (type.isUnsignedInteger())
    return b.create<arith::ShRUIOp>(loc, high, shift);
  return b.create<arith::ShRSIOp>(loc, high, shift);
}

} // namespace onnxc::tolinalg

//===- ApproximateMath.cpp - The onnxc-approximate-math pass --------------===//
//
// f32 math.erf, math.exp, math.tanh, math.asin and math.acos as plain
// arithmetic rather than calls of libm's erff, expf, tanhf, asinf and acosf:
// LLVM vectorizes them with the loop around them (GELU's Erf is one call per
// element of BERT's widest activations; the gates of LSTM and GRU are
// sigmoids and tanhs).
//
// erf is MLIR's polynomial approximation. exp and tanh are Cephes' expf and
// tanhf (about 1e-7 relative error, one or two ulp), with their special
// values kept: exp overflows to +inf above ln(FLT_MAX), underflows to 0
// below ln of the least denormal, and keeps NaN. asin and acos are Cephes'
// asinf and acosf (the GPU's kernels use them too: MLIR 19's polynomial asin
// was 0.036 off near 1 on an H200).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace onnxc {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
/// Builds arithmetic on values of one f32 type (a scalar or a vector) and on
/// the i32 type of its shape.
struct F32Builder {
  OpBuilder &b;
  Location loc;
  Type type;

  Type intType() const {
    Type i32 = b.getI32Type();
    if (auto vector = dyn_cast<VectorType>(type))
      return vector.clone(i32);
    return i32;
  }
  Value constant(double v) const {
    auto attr = b.getF32FloatAttr(static_cast<float>(v));
    if (auto vector = dyn_cast<VectorType>(type))
      return b.create<arith::ConstantOp>(loc,
                                         SplatElementsAttr::get(vector, attr));
    return b.create<arith::ConstantOp>(loc, attr);
  }
  Value intConstant(int32_t v) const {
    Type i32 = intType();
    auto attr = b.getI32IntegerAttr(v);
    if (auto vector = dyn_cast<VectorType>(i32))
      return b.create<arith::ConstantOp>(loc,
                                         SplatElementsAttr::get(vector, attr));
    return b.create<arith::ConstantOp>(loc, attr);
  }
  Value add(Value x, Value y) const {
    return b.create<arith::AddFOp>(loc, x, y);
  }
  Value mul(Value x, Value y) const {
    return b.create<arith::MulFOp>(loc, x, y);
  }
  Value fma(Value x, Value y, Value z) const {
    return b.create<math::FmaOp>(loc, x, y, z);
  }
  Value cmp(arith::CmpFPredicate predicate, Value x, Value y) const {
    return b.create<arith::CmpFOp>(loc, predicate, x, y);
  }
  Value select(Value condition, Value x, Value y) const {
    return b.create<arith::SelectOp>(loc, condition, x, y);
  }
  /// The polynomial with `coefficients` (highest degree first) at x.
  Value polynomial(Value x, ArrayRef<double> coefficients) const {
    Value p = constant(coefficients.front());
    for (double c : coefficients.drop_front())
      p = fma(p, x, constant(c));
    return p;
  }
  /// 2^n for an i32 `n` in [-126, 127].
  Value exp2(Value n) const {
    Value biased = b.create<arith::AddIOp>(loc, n, intConstant(127));
    Value bits = b.create<arith::ShLIOp>(loc, biased, intConstant(23));
    return b.create<arith::BitcastOp>(loc, type, bits);
  }

  /// e^x: x = n ln(2) + r with |r| <= ln(2) / 2, e^r by Cephes' expf
  /// polynomial, times 2^n in two factors (2^n alone is not a normal float
  /// across the whole range).
  Value exp(Value x) const {
    // ln(FLT_MAX) and ln of half the least denormal.
    const double maxLog = 88.72283905206835, minLog = -103.97208;
    using P = arith::CmpFPredicate;
    Value lo = constant(minLog), hi = constant(maxLog);
    Value clamped = select(cmp(P::OLT, x, lo), lo, x);
    clamped = select(cmp(P::OGT, clamped, hi), hi, clamped);
    Value n = b.create<math::FloorOp>(
        loc, fma(clamped, constant(1.44269504088896341), constant(0.5)));
    // ln(2) as 0.693359375 (exact in few bits) - 2.12194440e-4.
    Value r = fma(n, constant(-0.693359375), clamped);
    r = fma(n, constant(2.12194440e-4), r);
    Value p =
        polynomial(r, {1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3,
                       4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1});
    Value y = add(fma(p, mul(r, r), r), constant(1.0));
    Value ni = b.create<arith::FPToSIOp>(loc, intType(), n);
    Value half = b.create<arith::ShRSIOp>(loc, ni, intConstant(1));
    Value rest = b.create<arith::SubIOp>(loc, ni, half);
    Value result = mul(mul(y, exp2(half)), exp2(rest));
    result = select(cmp(P::OGT, x, hi),
                    constant(std::numeric_limits<double>::infinity()), result);
    result = select(cmp(P::OLT, x, lo), constant(0.0), result);
    // NaN in, NaN out (the conversion to i32 made poison of it).
    return select(cmp(P::UNO, x, x), x, result);
  }

  /// tanh(x): Cephes' tanhf, an odd polynomial below 0.625 in magnitude,
  /// 1 - 2 / (e^2|x| + 1) with x's sign above.
  Value tanh(Value x) const {
    Value s = mul(x, x);
    Value p =
        polynomial(s, {-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2,
                       1.33314422036e-1, -3.33332819422e-1});
    Value small = fma(mul(p, s), x, x);
    Value magnitude = b.create<math::AbsFOp>(loc, x);
    Value e = exp(add(magnitude, magnitude));
    Value one = constant(1.0);
    Value large = b.create<arith::SubFOp>(
        loc, one, b.create<arith::DivFOp>(loc, constant(2.0), add(e, one)));
    large = b.create<math::CopySignOp>(loc, large, x);
    return select(cmp(arith::CmpFPredicate::OLT, magnitude, constant(0.625)),
                  small, large);
  }

  /// asin(x) for |x| <= 1/2: Cephes' asinf polynomial, x + x^3 P(x^2).
  Value asinNearZero(Value x) const {
    Value z = mul(x, x);
    Value p = polynomial(z, {4.2163199048e-2, 2.4181311049e-2, 4.5470025998e-2,
                             7.4953002686e-2, 1.6666752422e-1});
    return fma(mul(p, z), x, x);
  }

  /// asin(sqrt((1 - a) / 2)) for a in [1/2, 1]: the half angle that keeps
  /// full precision near 1, where asin's slope is unbounded (NaN above 1).
  Value halfAngle(Value a) const {
    Value z =
        mul(constant(0.5), b.create<arith::SubFOp>(loc, constant(1.0), a));
    return asinNearZero(b.create<math::SqrtOp>(loc, z));
  }

  /// asin(x): Cephes' asinf (about 2.5e-7 relative error), with
  /// asin(a) = pi/2 - 2 asin(sqrt((1 - a) / 2)) above 1/2 in magnitude.
  Value asin(Value x) const {
    Value a = b.create<math::AbsFOp>(loc, x);
    Value twice = mul(constant(2.0), halfAngle(a));
    Value large =
        b.create<arith::SubFOp>(loc, constant(llvm::numbers::pi / 2), twice);
    Value result = select(cmp(arith::CmpFPredicate::OGT, a, constant(0.5)),
                          large, asinNearZero(a));
    return b.create<math::CopySignOp>(loc, result, x);
  }

  /// acos(x): Cephes' acosf, pi/2 - asin(x) within 1/2 of 0, and
  /// 2 asin(sqrt((1 - |x|) / 2)) (from pi for negative x) beyond.
  Value acos(Value x) const {
    using P = arith::CmpFPredicate;
    Value a = b.create<math::AbsFOp>(loc, x);
    Value twice = mul(constant(2.0), halfAngle(a));
    Value large =
        select(cmp(P::OLT, x, constant(0.0)),
               b.create<arith::SubFOp>(loc, constant(llvm::numbers::pi), twice),
               twice);
    Value small = b.create<arith::SubFOp>(loc, constant(llvm::numbers::pi / 2),
                                          asinNearZero(x));
    return select(cmp(P::OGT, a, constant(0.5)), large, small);
  }
};

/// True when `type` is f32 or a vector of f32.
bool isF32Like(Type type) {
  if (auto vector = dyn_cast<VectorType>(type))
    type = vector.getElementType();
  return type.isF32();
}

template <typename OpT> struct ExpandF32 : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!isF32Like(type))
      return failure();
    F32Builder f{rewriter, op.getLoc(), type};
    Value x = op.getOperand();
    if constexpr (std::is_same_v<OpT, math::ExpOp>)
      rewriter.replaceOp(op, f.exp(x));
    else if constexpr (std::is_same_v<OpT, math::TanhOp>)
      rewriter.replaceOp(op, f.tanh(x));
    else if constexpr (std::is_same_v<OpT, math::AsinOp>)
      rewriter.replaceOp(op, f.asin(x));
    else
      rewriter.replaceOp(op, f.acos(x));
    return success();
  }
};
} // namespace

void onnxc::populateApproximateExpTanhPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandF32<math::ExpOp>, ExpandF32<math::TanhOp>>(
      patterns.getContext());
}

void onnxc::populateApproximateAsinAcosPatterns(RewritePatternSet &patterns,
                                                PatternBenefit benefit) {
  patterns.add<ExpandF32<math::AsinOp>, ExpandF32<math::AcosOp>>(
      patterns.getContext(), benefit);
}

namespace {
struct ApproximateMathPass
    : public onnxc::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    onnxc::populateApproximateExpTanhPatterns(patterns);
    onnxc::populateApproximateAsinAcosPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

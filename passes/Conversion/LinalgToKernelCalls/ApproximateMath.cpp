//===- ApproximateMath.cpp - The onnxc-approximate-math pass --------------===//
//
// f32 math.erf, math.exp and math.tanh as plain arithmetic rather than calls
// of libm's erff, expf and tanhf: LLVM vectorizes them with the loop around
// them (GELU's Erf is one call per element of BERT's widest activations; the
// gates of LSTM and GRU are sigmoids and tanhs).
//
// erf is MLIR's polynomial approximation. exp and tanh are Cephes' expf and
// tanhf (about 1e-7 relative error, one or two ulp), with their special
// values kept: exp overflows to +inf above ln(FLT_MAX), underflows to 0
// below ln of the least denormal, and keeps NaN.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

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
    else
      rewriter.replaceOp(op, f.tanh(x));
    return success();
  }
};
} // namespace

void onnxc::populateApproximateExpTanhPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandF32<math::ExpOp>, ExpandF32<math::TanhOp>>(
      patterns.getContext());
}

namespace {
struct ApproximateMathPass
    : public onnxc::impl::ApproximateMathPassBase<ApproximateMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populatePolynomialApproximateErfPattern(patterns);
    onnxc::populateApproximateExpTanhPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

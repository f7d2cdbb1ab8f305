//===- Normalization.cpp - onnx normalization ops to linalg.generic -------===//
//
// BatchNormalization (inference) is one elementwise generic with per-channel
// parameters. Softmax is max, exp(x - max), sum and divide along its axis.
// LayerNormalization reduces mean and variance over the trailing dims, then
// normalizes, scales and shifts in one generic; InstanceNormalization does
// the same over the spatial dims with per-channel scale and shift.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The map from a rank-`rank` iteration space to the dims `[0, rank)` except
/// those in `drop`.
static AffineMap getMapWithout(MLIRContext *ctx, int64_t rank,
                               ArrayRef<int64_t> drop) {
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < rank; ++i)
    if (!llvm::is_contained(drop, i))
      exprs.push_back(getAffineDimExpr(i, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// The dims in [from, to).
static SmallVector<int64_t> getRange(int64_t from, int64_t to) {
  SmallVector<int64_t> dims;
  for (int64_t i = from; i < to; ++i)
    dims.push_back(i);
  return dims;
}

/// The mean of `x` over `axes` (sorted; `count` elements each) and the sum of
/// squared differences from it, both without the `axes` dims.
static std::pair<Value, Value> createMeanAndSquares(OpBuilder &b, Location loc,
                                                    Value x,
                                                    ArrayRef<int64_t> axes,
                                                    Value count) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Value zero = createScalar(b, loc, count.getType(), 0);
  // mean = sum(x) / count
  Value sum =
      createReduction(b, loc, x, axes, zero,
                      [](OpBuilder &nb, Location l, Value in, Value acc) {
                        return nb.create<arith::AddFOp>(l, in, acc).getResult();
                      });
  auto statType = cast<RankedTensorType>(sum.getType());
  Value mean =
      createElementwise(b, loc, ValueRange{sum}, statType,
                        [&](OpBuilder &nb, Location l, ValueRange args) {
                          return nb.create<arith::DivFOp>(l, args[0], count);
                        });
  // sum((x - mean)^2)
  SmallVector<utils::IteratorType> iterators = getParallel(rank);
  for (int64_t i : axes)
    iterators[i] = utils::IteratorType::reduction;
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap outer = getMapWithout(ctx, rank, axes);
  Value init = createFilled(b, loc, statType, getDimSizes(b, loc, mean), zero);
  Value squares =
      b.create<linalg::GenericOp>(
           loc, TypeRange{statType}, ValueRange{x, mean}, ValueRange{init},
           ArrayRef<AffineMap>{identity, outer, outer}, iterators,
           [](OpBuilder &nb, Location l, ValueRange args) {
             Value d = nb.create<arith::SubFOp>(l, args[0], args[1]);
             Value sq = nb.create<arith::MulFOp>(l, d, d);
             nb.create<linalg::YieldOp>(
                 l, nb.create<arith::AddFOp>(l, sq, args[2]).getResult());
           })
          .getResult(0);
  return {mean, squares};
}

namespace {
struct BatchNormalizationLowering
    : public OpConversionPattern<onnx::BatchNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::BatchNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    if (op.getTrainingMode() != 0)
      return op.emitOpError("supports only inference mode (training_mode = 0)");
    if (resultType.getRank() < 2)
      return op.emitOpError("expects an input of rank 2 or more");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    int64_t rank = resultType.getRank();
    Value x = adaptor.getX();
    SmallVector<Value> inputs{x, adaptor.getScale(), adaptor.getB(),
                              adaptor.getInputMean(), adaptor.getInputVar()};
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank)};
    for (Value param : ArrayRef<Value>(inputs).drop_front()) {
      auto type = cast<RankedTensorType>(param.getType());
      if (type.getRank() != 1)
        return op.emitOpError("expects 1-D parameters (got ") << type << ")";
      bool broadcast = type.getDimSize(0) == 1 && resultType.getDimSize(1) != 1;
      maps.push_back(AffineMap::get(rank, 0,
                                    broadcast ? getAffineConstantExpr(0, ctx)
                                              : getAffineDimExpr(1, ctx)));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value epsilon =
        createScalar(rewriter, loc, element, op.getEpsilon().convertToDouble());
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange args) {
          // (x - mean) * (scale / sqrt(var + epsilon)) + B
          Value stddev = b.create<math::SqrtOp>(
              l, b.create<arith::AddFOp>(l, args[4], epsilon));
          Value factor = b.create<arith::DivFOp>(l, args[1], stddev);
          Value centered = b.create<arith::SubFOp>(l, args[0], args[3]);
          Value scaled = b.create<arith::MulFOp>(l, centered, factor);
          b.create<linalg::YieldOp>(
              l, b.create<arith::AddFOp>(l, scaled, args[2]).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct SoftmaxLowering : public OpConversionPattern<onnx::SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    Value x = adaptor.getInput();
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank),
                                getMapWithout(ctx, rank, *axis),
                                rewriter.getMultiDimIdentityMap(rank)};

    Value max = createReduction(
        rewriter, loc, x, *axis, createLowest(rewriter, loc, element),
        [](OpBuilder &b, Location l, Value in, Value acc) {
          return b.create<arith::MaximumFOp>(l, in, acc).getResult();
        });
    Value expInit = createEmpty(rewriter, loc, resultType, sizes);
    Value exp = rewriter
                    .create<linalg::GenericOp>(
                        loc, TypeRange{resultType}, ValueRange{x, max},
                        ValueRange{expInit}, maps, getParallel(rank),
                        [](OpBuilder &b, Location l, ValueRange args) {
                          Value shifted =
                              b.create<arith::SubFOp>(l, args[0], args[1]);
                          b.create<linalg::YieldOp>(
                              l, b.create<math::ExpOp>(l, shifted).getResult());
                        })
                    .getResult(0);
    Value sum = createReduction(
        rewriter, loc, exp, *axis, createScalar(rewriter, loc, element, 0),
        [](OpBuilder &b, Location l, Value in, Value acc) {
          return b.create<arith::AddFOp>(l, in, acc).getResult();
        });
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType}, ValueRange{exp, sum},
                ValueRange{init}, maps, getParallel(rank),
                [](OpBuilder &b, Location l, ValueRange args) {
                  b.create<linalg::YieldOp>(
                      l,
                      b.create<arith::DivFOp>(l, args[0], args[1]).getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LayerNormalizationLowering
    : public OpConversionPattern<onnx::LayerNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::LayerNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    Value scale = adaptor.getScale();
    Value bias = onnx::isNoValue(op.getB()) ? Value() : adaptor.getB();
    for (Value param : {scale, bias}) {
      if (param &&
          cast<RankedTensorType>(param.getType()).getRank() > rank - *axis)
        return op.emitOpError("expects Scale and B of rank at most ")
               << rank - *axis;
    }
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    SmallVector<int64_t> axes = getRange(*axis, rank);
    Value count = indexToElement(
        rewriter, loc,
        createProduct(rewriter, loc, ArrayRef(sizes).drop_front(*axis)),
        element);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getMapWithout(ctx, rank, axes);
    auto [mean, squares] = createMeanAndSquares(rewriter, loc, x, axes, count);

    // y = (x - mean) / sqrt(var + epsilon) * Scale + B
    Value epsilon =
        createScalar(rewriter, loc, element, op.getEpsilon().convertToDouble());
    SmallVector<Value> inputs{x, mean, squares, scale};
    SmallVector<AffineMap> maps{
        identity, outer, outer,
        getBroadcastMap(ctx, cast<RankedTensorType>(scale.getType()).getShape(),
                        xType.getShape())};
    if (bias) {
      inputs.push_back(bias);
      maps.push_back(getBroadcastMap(
          ctx, cast<RankedTensorType>(bias.getType()).getShape(),
          xType.getShape()));
    }
    maps.push_back(identity);
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value var = b.create<arith::DivFOp>(l, args[2], count);
                  Value stddev = b.create<math::SqrtOp>(
                      l, b.create<arith::AddFOp>(l, var, epsilon));
                  Value centered = b.create<arith::SubFOp>(l, args[0], args[1]);
                  Value normalized =
                      b.create<arith::DivFOp>(l, centered, stddev);
                  Value y = b.create<arith::MulFOp>(l, normalized, args[3]);
                  if (bias)
                    y = b.create<arith::AddFOp>(l, y, args[4]);
                  b.create<linalg::YieldOp>(l, y);
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct InstanceNormalizationLowering
    : public OpConversionPattern<onnx::InstanceNormalizationOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::InstanceNormalizationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    int64_t rank = resultType.getRank();
    if (rank < 3)
      return op.emitOpError("expects an input of rank 3 or more");
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    Value x = adaptor.getInput();
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    SmallVector<int64_t> axes = getRange(2, rank);
    Value count = indexToElement(
        rewriter, loc,
        createProduct(rewriter, loc, ArrayRef(sizes).drop_front(2)), element);
    auto [mean, squares] = createMeanAndSquares(rewriter, loc, x, axes, count);

    // y = (x - mean) / sqrt(var + epsilon) * scale + B
    Value epsilon =
        createScalar(rewriter, loc, element, op.getEpsilon().convertToDouble());
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getMapWithout(ctx, rank, axes);
    AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType},
                ValueRange{x, mean, squares, adaptor.getScale(),
                           adaptor.getB()},
                ValueRange{init},
                ArrayRef<AffineMap>{identity, outer, outer, channel, channel,
                                    identity},
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value var = b.create<arith::DivFOp>(l, args[2], count);
                  Value stddev = b.create<math::SqrtOp>(
                      l, b.create<arith::AddFOp>(l, var, epsilon));
                  Value centered = b.create<arith::SubFOp>(l, args[0], args[1]);
                  Value normalized =
                      b.create<arith::DivFOp>(l, centered, stddev);
                  Value scaled =
                      b.create<arith::MulFOp>(l, normalized, args[3]);
                  b.create<linalg::YieldOp>(
                      l,
                      b.create<arith::AddFOp>(l, scaled, args[4]).getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void onnxc::populateONNXNormalizationToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BatchNormalizationLowering, SoftmaxLowering,
               LayerNormalizationLowering, InstanceNormalizationLowering>(
      patterns.getContext());
}

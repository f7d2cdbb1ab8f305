//===- Normalization.cpp - onnx normalization ops to linalg.generic -------===//
//
// BatchNormalization (inference) is one elementwise generic with per-channel
// parameters. Softmax is max, exp(x - max), sum and divide along its axis;
// LogSoftmax x - max - log(sum); Hardmax compares each index with the
// argmax. An f32 LayerNormalization over the last axis whose Mean and
// InvStdDev are unused calls the runtime's row kernel
// (lib/Kernels/norm/Norm.c) where CPU kernels are allowed; otherwise
// LayerNormalization, InstanceNormalization and MeanVarianceNormalization
// reduce mean and variance over their dims, then normalize (scale and shift) in
// one generic; LpNormalization divides by the reduced norm (zero where that is
// zero). NegativeLogLikelihoodLoss gathers the target's log probabilities and
// weights in one generic, then sums; SoftmaxCrossEntropyLoss is LogSoftmax then
// that.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

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

/// The mean and the biased variance of `x` over `axes` (sorted), in the
/// shape of `x` without them.
static std::pair<Value, Value> createMeanAndVariance(OpBuilder &b, Location loc,
                                                     Value x,
                                                     ArrayRef<int64_t> axes) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  Type element = xType.getElementType();
  SmallVector<OpFoldResult> counted;
  for (int64_t i : axes)
    counted.push_back(getDimSize(b, loc, x, i));
  Value count = indexToElement(b, loc, createProduct(b, loc, counted), element);
  Value zero = createScalar(b, loc, element, 0);
  Value sum =
      createReduction(b, loc, x, axes, zero,
                      [](OpBuilder &nb, Location l, Value in, Value acc) {
                        return nb.create<arith::AddFOp>(l, in, acc).getResult();
                      });
  auto statType = cast<RankedTensorType>(sum.getType());
  SmallVector<OpFoldResult> statSizes = getDimSizes(b, loc, sum);
  Value mean =
      createElementwiseMap(b, loc, ValueRange{sum}, statType, statSizes,
                           [&](OpBuilder &nb, Location l, ValueRange args) {
                             return nb.create<arith::DivFOp>(l, args[0], count);
                           });
  SmallVector<utils::IteratorType> iterators = getParallel(rank);
  for (int64_t i : axes)
    iterators[i] = utils::IteratorType::reduction;
  AffineMap outer = getMapWithout(ctx, rank, axes);
  Value squaresInit = createFilled(b, loc, statType, statSizes, zero);
  Value squares =
      b.create<linalg::GenericOp>(
           loc, TypeRange{statType}, ValueRange{x, mean},
           ValueRange{squaresInit},
           ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank), outer, outer},
           iterators,
           [](OpBuilder &nb, Location l, ValueRange args) {
             Value d = nb.create<arith::SubFOp>(l, args[0], args[1]);
             Value sq = nb.create<arith::MulFOp>(l, d, d);
             nb.create<linalg::YieldOp>(
                 l, nb.create<arith::AddFOp>(l, sq, args[2]).getResult());
           })
          .getResult(0);
  Value variance =
      createElementwiseMap(b, loc, ValueRange{squares}, statType, statSizes,
                           [&](OpBuilder &nb, Location l, ValueRange args) {
                             return nb.create<arith::DivFOp>(l, args[0], count);
                           });
  return {mean, variance};
}

/// `value` (floats) converted to the float type `element`.
static Value convertFloat(OpBuilder &b, Location loc, Value value,
                          Type element) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getElementType() == element)
    return value;
  auto resultType = type.clone(element);
  unsigned from = type.getElementType().getIntOrFloatBitWidth();
  unsigned to = element.getIntOrFloatBitWidth();
  return createElementwiseMap(
      b, loc, ValueRange{value}, resultType, getDimSizes(b, loc, value),
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        if (to > from)
          return nb.create<arith::ExtFOp>(l, element, args[0]);
        return nb.create<arith::TruncFOp>(l, element, args[0]);
      });
}

/// LogSoftmax of `x` along `axis`: x - max - log(sum(exp(x - max))).
static Value createLogSoftmax(OpBuilder &b, Location loc, Value x, int64_t axis,
                              RankedTensorType type) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = type.getRank();
  Type element = type.getElementType();
  SmallVector<OpFoldResult> sizes = getDimSizes(b, loc, x);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap outer = getMapWithout(ctx, rank, axis);
  Value max = createReduction(
      b, loc, x, axis, createLowest(b, loc, element),
      [](OpBuilder &nb, Location l, Value in, Value acc) {
        return nb.create<arith::MaximumFOp>(l, in, acc).getResult();
      });
  auto statType = cast<RankedTensorType>(max.getType());
  Value sumInit = createFilled(b, loc, statType, getDimSizes(b, loc, max),
                               createScalar(b, loc, element, 0));
  SmallVector<utils::IteratorType> iterators = getParallel(rank);
  iterators[axis] = utils::IteratorType::reduction;
  Value sum =
      b.create<linalg::GenericOp>(
           loc, TypeRange{statType}, ValueRange{x, max}, ValueRange{sumInit},
           ArrayRef<AffineMap>{identity, outer, outer}, iterators,
           [](OpBuilder &nb, Location l, ValueRange args) {
             Value shifted = nb.create<arith::SubFOp>(l, args[0], args[1]);
             Value exp = nb.create<math::ExpOp>(l, shifted);
             nb.create<linalg::YieldOp>(
                 l, nb.create<arith::AddFOp>(l, exp, args[2]).getResult());
           })
          .getResult(0);
  Value init = createEmpty(b, loc, type, sizes);
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{type}, ValueRange{x, max, sum}, ValueRange{init},
          ArrayRef<AffineMap>{identity, outer, outer, identity},
          getParallel(rank),
          [](OpBuilder &nb, Location l, ValueRange args) {
            Value shifted = nb.create<arith::SubFOp>(l, args[0], args[1]);
            Value log = nb.create<math::LogOp>(l, args[2]);
            nb.create<linalg::YieldOp>(
                l, nb.create<arith::SubFOp>(l, shifted, log).getResult());
          })
      .getResult(0);
}

/// NegativeLogLikelihoodLoss of the log probabilities `input` [N, C, d...]
/// with `target` [N, d...] and `weight` [C] (or null), into `type`.
static Value createNLLLoss(OpBuilder &b, Location loc, Value input,
                           Value target, Value weight,
                           std::optional<int64_t> ignoreIndex,
                           StringRef reduction, RankedTensorType type) {
  auto targetType = cast<RankedTensorType>(target.getType());
  int64_t rank = targetType.getRank();
  Type element = type.getElementType();
  auto lossType = RankedTensorType::get(targetType.getShape(), element);
  SmallVector<OpFoldResult> sizes = getDimSizes(b, loc, target);
  Value lossInit = createEmpty(b, loc, lossType, sizes);
  Value weightInit = createEmpty(b, loc, lossType, sizes);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{lossType, lossType}, ValueRange{target},
      ValueRange{lossInit, weightInit},
      ArrayRef<AffineMap>{identity, identity, identity}, getParallel(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value t = args[0];
        Value zero = createScalar(nb, l, element, 0);
        Value ignored = nb.create<arith::ConstantOp>(l, nb.getBoolAttr(false));
        if (ignoreIndex)
          ignored = nb.create<arith::CmpIOp>(
              l, arith::CmpIPredicate::eq, t,
              createScalar(nb, l, t.getType(), *ignoreIndex));
        // An ignored target may be out of range: read class 0 instead.
        Value c = nb.create<arith::SelectOp>(
            l, ignored, createIndex(nb, l, 0),
            nb.create<arith::IndexCastOp>(l, nb.getIndexType(), t));
        SmallVector<Value> position{nb.create<linalg::IndexOp>(l, 0), c};
        for (int64_t d = 1; d < rank; ++d)
          position.push_back(nb.create<linalg::IndexOp>(l, d));
        Value logProb = nb.create<tensor::ExtractOp>(l, input, position);
        Value w = weight
                      ? nb.create<tensor::ExtractOp>(l, weight, c).getResult()
                      : createScalar(nb, l, element, 1);
        w = nb.create<arith::SelectOp>(l, ignored, zero, w);
        Value loss = nb.create<arith::NegFOp>(
            l, nb.create<arith::MulFOp>(l, logProb, w));
        loss = nb.create<arith::SelectOp>(l, ignored, zero, loss);
        nb.create<linalg::YieldOp>(l, ValueRange{loss, w});
      });
  Value loss = generic.getResult(0);
  if (reduction == "none")
    return castTo(b, loc, loss, type);
  SmallVector<int64_t> all;
  for (int64_t i = 0; i < rank; ++i)
    all.push_back(i);
  auto sumAll = [&](Value v) {
    return createReduction(
        b, loc, v, all, createScalar(b, loc, element, 0),
        [](OpBuilder &nb, Location l, Value in, Value acc) {
          return nb.create<arith::AddFOp>(l, in, acc).getResult();
        });
  };
  Value total = sumAll(loss);
  if (reduction == "sum")
    return castTo(b, loc, total, type);
  Value weights = sumAll(generic.getResult(1));
  auto scalarType = cast<RankedTensorType>(total.getType());
  return castTo(
      b, loc,
      createElementwiseMap(
          b, loc, ValueRange{total, weights}, scalarType, {},
          [](OpBuilder &nb, Location l, ValueRange args) {
            return nb.create<arith::DivFOp>(l, args[0], args[1]).getResult();
          }),
      type);
}

namespace {
/// The mean and the variance (without Bessel's correction) of `x` over every
/// dim but 1, as 1-D tensors of size C.
static std::pair<Value, Value> createBatchStatistics(OpBuilder &b, Location loc,
                                                     Value x) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  Type element = xType.getElementType();
  auto statsType = RankedTensorType::get({xType.getDimSize(1)}, element);
  SmallVector<OpFoldResult> statsSizes{getDimSize(b, loc, x, 1)};
  SmallVector<OpFoldResult> others;
  for (int64_t d = 0; d < rank; ++d)
    if (d != 1)
      others.push_back(getDimSize(b, loc, x, d));
  Value count = indexToElement(b, loc, createProduct(b, loc, others), element);
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  iterators[1] = utils::IteratorType::parallel;
  Value zero = createScalar(b, loc, element, 0);
  // Sums over x of `term(x, extra...)` per channel, divided by the count.
  auto average =
      [&](ValueRange extra,
          llvm::function_ref<Value(OpBuilder &, Location, ValueRange)> term) {
        SmallVector<Value> ins{x};
        ins.append(extra.begin(), extra.end());
        SmallVector<AffineMap> maps{identity};
        maps.append(extra.size(), channel);
        maps.push_back(channel);
        Value sum =
            b.create<linalg::GenericOp>(
                 loc, TypeRange{statsType}, ins,
                 ValueRange{createFilled(b, loc, statsType, statsSizes, zero)},
                 maps, iterators,
                 [&](OpBuilder &nb, Location l, ValueRange args) {
                   nb.create<linalg::YieldOp>(
                       l, nb.create<arith::AddFOp>(
                                l, args.back(), term(nb, l, args.drop_back()))
                              .getResult());
                 })
                .getResult(0);
        return createElementwiseMap(
            b, loc, ValueRange{sum}, statsType, statsSizes,
            [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
              return nb.create<arith::DivFOp>(l, args[0], count);
            });
      };
  Value mean = average(
      {}, [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  Value var = average({mean}, [](OpBuilder &nb, Location l, ValueRange args) {
    Value centered = nb.create<arith::SubFOp>(l, args[0], args[1]);
    return nb.create<arith::MulFOp>(l, centered, centered).getResult();
  });
  return {mean, var};
}

struct BatchNormalizationLowering
    : public ONNXToLinalgPattern<onnx::BatchNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::BatchNormalizationOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (resultType.getRank() < 2)
      return op.emitOpError("expects an input of rank 2 or more");
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    int64_t rank = resultType.getRank();
    Value x = adaptor.getX();
    // Opset 15 lets the parameters and statistics differ from X's type
    // (T1, T2): not lowered.
    for (Value param : {adaptor.getScale(), adaptor.getB(),
                        adaptor.getInputMean(), adaptor.getInputVar()})
      if (getElementTypeOrSelf(param.getType()) != element)
        return op.emitOpError("supports scale, B, input_mean and input_var "
                              "of X's element type only (got ")
               << getElementTypeOrSelf(param.getType()) << " with " << element
               << ")";
    bool training = op.getTrainingMode() != 0;
    Value mean = adaptor.getInputMean(), var = adaptor.getInputVar();
    if (training) {
      auto [batchMean, batchVar] = createBatchStatistics(rewriter, loc, x);
      mean = batchMean;
      var = batchVar;
    }
    SmallVector<Value> inputs{x, adaptor.getScale(), adaptor.getB(), mean, var};
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
    if (!training) {
      rewriter.replaceOp(op, generic.getResult(0));
      return success();
    }
    // running = input * momentum + batch * (1 - momentum)
    double momentum = op.getMomentum().convertToDouble();
    SmallVector<Value> results{generic.getResult(0)};
    // Named arrays: an ArrayRef of a braced list in the loop header would
    // outlive the list.
    Value runningStats[] = {adaptor.getInputMean(), adaptor.getInputVar()};
    Value batchStats[] = {mean, var};
    for (auto [index, running, batch] :
         llvm::enumerate(runningStats, batchStats)) {
      RankedTensorType type = getRankedResultType(op, index + 1);
      if (!type)
        return failure();
      Type statElement = type.getElementType();
      Value batchAsType = castTo(rewriter, loc, batch, type);
      results.push_back(createElementwiseMap(
          rewriter, loc, ValueRange{running, batchAsType}, type,
          getDimSizes(rewriter, loc, batchAsType),
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            return b.create<arith::AddFOp>(
                l,
                b.create<arith::MulFOp>(
                    l, args[0], createScalar(b, l, statElement, momentum)),
                b.create<arith::MulFOp>(
                    l, args[1],
                    createScalar(b, l, statElement, 1.0 - momentum)));
          }));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct SoftmaxLowering : public ONNXToLinalgPattern<onnx::SoftmaxOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::SoftmaxOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
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

/// An f32 LayerNormalization over the last axis of `x` (rank 2 or more) with
/// 1-D Scale and B of its width and no reader of Mean and InvStdDev, as a
/// call of the runtime's kernel on X collapsed to rows; failure (and no IR)
/// otherwise.
static LogicalResult
lowerLayerNormToKernel(onnx::LayerNormalizationOp op, Value x, Value scale,
                       Value bias, RankedTensorType resultType,
                       ConversionPatternRewriter &rewriter) {
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  int64_t width = xType.getDimSize(rank - 1);
  auto isRow = [&](Value v) {
    auto type = cast<RankedTensorType>(v.getType());
    return type.getElementType().isF32() && type.getRank() == 1 &&
           type.getDimSize(0) == width;
  };
  std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
  if (rank < 2 || ShapedType::isDynamic(width) || !axis || *axis != rank - 1 ||
      !xType.getElementType().isF32() || !isRow(scale) ||
      (bias && !isRow(bias)) || !op.getMean().use_empty() ||
      !op.getInvStdDev().use_empty())
    return failure();
  Location loc = op.getLoc();
  SmallVector<ReassociationIndices> groups(2);
  for (int64_t i = 0; i < rank - 1; ++i)
    groups[0].push_back(i);
  groups[1].push_back(rank - 1);
  SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
  Value rows = rewriter.create<tensor::CollapseShapeOp>(loc, x, groups);
  auto rowsType = cast<RankedTensorType>(rows.getType());
  SmallVector<Value> dynamicSizes;
  if (rowsType.isDynamicDim(0))
    dynamicSizes.push_back(rewriter.create<tensor::DimOp>(loc, rows, 0));
  Value result = allocBuffer(rewriter, loc, rowsType, dynamicSizes);
  SmallVector<Value> args = {readBuffer(rewriter, loc, rows),
                             readBuffer(rewriter, loc, scale),
                             readBuffer(rewriter, loc, bias ? bias : scale),
                             castToDynamic(rewriter, loc, result)};
  args.push_back(rewriter.create<arith::ConstantFloatOp>(
      loc, op.getEpsilonAttr().getValue(), rewriter.getF32Type()));
  // Bit 0: there is a bias.
  args.push_back(rewriter.create<arith::ConstantIntOp>(loc, bias ? 1 : 0, 64));
  callKernel(rewriter, loc, "onnxc_kernel_layer_norm_f32", args);
  Value y = createExpandShape(rewriter, loc,
                              filledTensor(rewriter, loc, rowsType, result),
                              resultType, groups, sizes);
  // Mean and InvStdDev have no readers: any value of their types will do.
  auto unused = [&](Value stat) {
    auto type = cast<RankedTensorType>(stat.getType());
    SmallVector<OpFoldResult> statSizes;
    for (int64_t i = 0; i < type.getRank(); ++i)
      statSizes.push_back(type.isDynamicDim(i)
                              ? sizes[i]
                              : rewriter.getIndexAttr(type.getDimSize(i)));
    return createEmpty(rewriter, loc, type, statSizes);
  };
  rewriter.replaceOp(op, {y, unused(op.getMean()), unused(op.getInvStdDev())});
  return success();
}

struct LayerNormalizationLowering
    : public ONNXToLinalgMultiResultPattern<onnx::LayerNormalizationOp> {
  LayerNormalizationLowering(MLIRContext *ctx, bool cpuKernels)
      : ONNXToLinalgMultiResultPattern(ctx), cpuKernels(cpuKernels) {}
  /// Whether the runtime's kernel may do it (not on the GPU).
  bool cpuKernels;

  LogicalResult lower(onnx::LayerNormalizationOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = resultTypes[0], meanType = resultTypes[1],
                     invStdType = resultTypes[2];
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
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
    if (cpuKernels && succeeded(lowerLayerNormToKernel(op, x, scale, bias,
                                                       resultType, rewriter)))
      return success();
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    SmallVector<int64_t> axes = getRange(*axis, rank);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getMapWithout(ctx, rank, axes);
    auto [mean, variance] = createMeanAndVariance(rewriter, loc, x, axes);

    // invStdDev = 1 / sqrt(var + epsilon)
    Value epsilon =
        createScalar(rewriter, loc, element, op.getEpsilon().convertToDouble());
    auto statType = cast<RankedTensorType>(mean.getType());
    Value invStd = createElementwiseMap(
        rewriter, loc, ValueRange{variance}, statType,
        getDimSizes(rewriter, loc, variance),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value stddev = b.create<math::SqrtOp>(
              l, b.create<arith::AddFOp>(l, args[0], epsilon));
          return b.create<arith::DivFOp>(l, createScalar(b, l, element, 1),
                                         stddev);
        });

    // y = (x - mean) * invStdDev * Scale + B
    SmallVector<Value> inputs{x, mean, invStd, scale};
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
                  Value centered = b.create<arith::SubFOp>(l, args[0], args[1]);
                  Value normalized =
                      b.create<arith::MulFOp>(l, centered, args[2]);
                  Value y = b.create<arith::MulFOp>(l, normalized, args[3]);
                  if (bias)
                    y = b.create<arith::AddFOp>(l, y, args[4]);
                  b.create<linalg::YieldOp>(l, y);
                })
            .getResult(0);
    // Mean and InvStdDev keep the normalized dims as size 1.
    auto keep = [&](Value stat, RankedTensorType type) {
      stat = convertFloat(rewriter, loc, stat, type.getElementType());
      return expandUnitDims(rewriter, loc, stat, axes, type);
    };
    rewriter.replaceOp(
        op, {result, keep(mean, meanType), keep(invStd, invStdType)});
    return success();
  }
};

/// LogSoftmax and Hardmax.
template <typename OpT>
struct SoftmaxLikeLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    Value x = adaptor.getInput();
    if (std::is_same_v<OpT, onnx::LogSoftmaxOp>) {
      rewriter.replaceOp(op,
                         createLogSoftmax(rewriter, loc, x, *axis, resultType));
      return success();
    }
    // Hardmax: 1 at the first maximum along the axis.
    Value argmax = createArgReduction(rewriter, loc, x, *axis, /*max=*/true,
                                      /*last=*/false);
    Type element = resultType.getElementType();
    AffineMap outer = getMapWithout(rewriter.getContext(), rank, *axis);
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType}, ValueRange{argmax},
                ValueRange{init},
                ArrayRef<AffineMap>{outer,
                                    rewriter.getMultiDimIdentityMap(rank)},
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value index = b.create<arith::IndexCastOp>(
                      l, b.getI64Type(), b.create<linalg::IndexOp>(l, *axis));
                  Value hit = b.create<arith::CmpIOp>(
                      l, arith::CmpIPredicate::eq, index, args[0]);
                  b.create<linalg::YieldOp>(
                      l, b.create<arith::SelectOp>(
                              l, hit, createScalar(b, l, element, 1),
                              createScalar(b, l, element, 0))
                             .getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct InstanceNormalizationLowering
    : public ONNXToLinalgPattern<onnx::InstanceNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::InstanceNormalizationOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t rank = resultType.getRank();
    if (rank < 3)
      return op.emitOpError("expects an input of rank 3 or more");
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    Value x = adaptor.getInput();
    SmallVector<int64_t> axes = getRange(2, rank);
    auto [mean, variance] = createMeanAndVariance(rewriter, loc, x, axes);
    Value epsilon =
        createScalar(rewriter, loc, element, op.getEpsilon().convertToDouble());
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getMapWithout(ctx, rank, axes);
    AffineMap channel = AffineMap::get(rank, 0, getAffineDimExpr(1, ctx));
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType},
                ValueRange{x, mean, variance, adaptor.getScale(),
                           adaptor.getB()},
                ValueRange{init},
                ArrayRef<AffineMap>{identity, outer, outer, channel, channel,
                                    identity},
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value stddev = b.create<math::SqrtOp>(
                      l, b.create<arith::AddFOp>(l, args[2], epsilon));
                  Value centered = b.create<arith::SubFOp>(l, args[0], args[1]);
                  Value normalized =
                      b.create<arith::DivFOp>(l, centered, stddev);
                  Value y = b.create<arith::MulFOp>(l, normalized, args[3]);
                  b.create<linalg::YieldOp>(
                      l, b.create<arith::AddFOp>(l, y, args[4]).getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct LpNormalizationLowering
    : public ONNXToLinalgPattern<onnx::LpNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::LpNormalizationOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    bool l1 = op.getP() == 1;
    Type element = resultType.getElementType();
    Value x = adaptor.getInput();
    Value norm = createReduction(
        rewriter, loc, x, *axis, createScalar(rewriter, loc, element, 0),
        [&](OpBuilder &b, Location l, Value in, Value acc) -> Value {
          Value term = l1 ? b.create<math::AbsFOp>(l, in).getResult()
                          : b.create<arith::MulFOp>(l, in, in).getResult();
          return b.create<arith::AddFOp>(l, term, acc);
        });
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getMapWithout(rewriter.getContext(), rank, *axis);
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    Value zero = createScalar(rewriter, loc, element, 0);
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType}, ValueRange{x, norm},
                ValueRange{init},
                ArrayRef<AffineMap>{identity, outer, identity},
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value n = l1 ? args[1]
                               : b.create<math::SqrtOp>(l, args[1]).getResult();
                  // A zero norm (an all-zero vector) gives zeros, not NaN.
                  Value isZero = b.create<arith::CmpFOp>(
                      l, arith::CmpFPredicate::OEQ, n, zero);
                  Value quotient = b.create<arith::DivFOp>(l, args[0], n);
                  b.create<linalg::YieldOp>(
                      l, b.create<arith::SelectOp>(l, isZero, zero, quotient)
                             .getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MeanVarianceNormalizationLowering
    : public ONNXToLinalgPattern<onnx::MeanVarianceNormalizationOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::MeanVarianceNormalizationOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> axes;
    for (int64_t a : op.getAxes()) {
      std::optional<int64_t> norm = onnx::normalizeAxis(a, rank);
      if (!norm || llvm::is_contained(axes, *norm))
        return op.emitOpError("has invalid 'axes'");
      axes.push_back(*norm);
    }
    llvm::sort(axes);
    Type element = resultType.getElementType();
    Value x = adaptor.getX();
    auto [mean, variance] = createMeanAndVariance(rewriter, loc, x, axes);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    AffineMap outer = getMapWithout(rewriter.getContext(), rank, axes);
    Value epsilon = createScalar(rewriter, loc, element, 1e-9);
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    Value result =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{resultType}, ValueRange{x, mean, variance},
                ValueRange{init},
                ArrayRef<AffineMap>{identity, outer, outer, identity},
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value stddev = b.create<arith::AddFOp>(
                      l, b.create<math::SqrtOp>(l, args[2]), epsilon);
                  Value centered = b.create<arith::SubFOp>(l, args[0], args[1]);
                  b.create<linalg::YieldOp>(
                      l,
                      b.create<arith::DivFOp>(l, centered, stddev).getResult());
                })
            .getResult(0);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct NegativeLogLikelihoodLossLowering
    : public ONNXToLinalgPattern<onnx::NegativeLogLikelihoodLossOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::NegativeLogLikelihoodLossOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value weight =
        onnx::isNoValue(op.getWeight()) ? Value() : adaptor.getWeight();
    std::optional<int64_t> ignoreIndex;
    if (std::optional<uint64_t> ii = op.getIgnoreIndex())
      ignoreIndex = static_cast<int64_t>(*ii);
    rewriter.replaceOp(op,
                       createNLLLoss(rewriter, loc, adaptor.getInput(),
                                     adaptor.getTarget(), weight, ignoreIndex,
                                     op.getReduction(), resultType));
    return success();
  }
};

struct SoftmaxCrossEntropyLossLowering
    : public ONNXToLinalgMultiResultPattern<onnx::SoftmaxCrossEntropyLossOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::SoftmaxCrossEntropyLossOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = resultTypes[0], logProbType = resultTypes[1];
    if (logProbType.getRank() < 2)
      return op.emitOpError("expects scores of rank 2 or more");
    Value logProb =
        createLogSoftmax(rewriter, loc, adaptor.getScores(), 1, logProbType);
    Value weight =
        onnx::isNoValue(op.getWeights()) ? Value() : adaptor.getWeights();
    std::optional<int64_t> ignoreIndex;
    if (std::optional<uint64_t> ii = op.getIgnoreIndex())
      ignoreIndex = static_cast<int64_t>(*ii);
    Value loss =
        createNLLLoss(rewriter, loc, logProb, adaptor.getLabels(), weight,
                      ignoreIndex, op.getReduction(), resultType);
    rewriter.replaceOp(op, {loss, logProb});
    return success();
  }
};
} // namespace

void onnxc::populateONNXNormalizationToLinalgPatterns(
    RewritePatternSet &patterns, bool cpuKernels) {
  patterns
      .add<BatchNormalizationLowering, SoftmaxLowering,
           SoftmaxLikeLowering<onnx::LogSoftmaxOp>,
           SoftmaxLikeLowering<onnx::HardmaxOp>, InstanceNormalizationLowering,
           LpNormalizationLowering, MeanVarianceNormalizationLowering,
           NegativeLogLikelihoodLossLowering, SoftmaxCrossEntropyLossLowering>(
          patterns.getContext());
  patterns.add<LayerNormalizationLowering>(patterns.getContext(), cpuKernels);
}

//===- Reduce.cpp - onnx reductions and scans to linalg.generic -----------===//
//
// The ReduceX ops over constant axes: one reduction generic into the shape
// without the reduced dims, a scalar epilogue (Mean divides by the element
// count, L2 takes the square root, LogSum the log, LogSumExp adds back the
// maximum it subtracted), expanded back when keepdims is set. Axes known only
// at run time reduce into the keepdims shape: a parallel generic over the
// result whose body loops over each dim, up to its size where the run-time
// mask of axes has it and once elsewhere. ArgMax/ArgMin are a generic with a
// value and an index result; CumSum and CumProd combine a window of the axis
// per element;
// TopK ranks each element along its axis, then scatters the first K.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

namespace {
/// What a ReduceX op accumulates and how it finishes.
enum class ReduceKind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};
} // namespace

static ReduceKind getKind(onnx::ReduceSumOp) { return ReduceKind::Sum; }
static ReduceKind getKind(onnx::ReduceMeanOp) { return ReduceKind::Mean; }
static ReduceKind getKind(onnx::ReduceMaxOp) { return ReduceKind::Max; }
static ReduceKind getKind(onnx::ReduceMinOp) { return ReduceKind::Min; }
static ReduceKind getKind(onnx::ReduceProdOp) { return ReduceKind::Prod; }
static ReduceKind getKind(onnx::ReduceL1Op) { return ReduceKind::L1; }
static ReduceKind getKind(onnx::ReduceL2Op) { return ReduceKind::L2; }
static ReduceKind getKind(onnx::ReduceLogSumOp) { return ReduceKind::LogSum; }
static ReduceKind getKind(onnx::ReduceLogSumExpOp) {
  return ReduceKind::LogSumExp;
}
static ReduceKind getKind(onnx::ReduceSumSquareOp) {
  return ReduceKind::SumSquare;
}

/// True for the reductions whose epilogue needs a float type.
static bool needsFloat(ReduceKind kind) {
  return kind == ReduceKind::L2 || kind == ReduceKind::LogSum ||
         kind == ReduceKind::LogSumExp;
}

static Value createInit(ReduceKind kind, OpBuilder &b, Location loc,
                        Type type) {
  switch (kind) {
  case ReduceKind::Max:
    return createLowest(b, loc, type);
  case ReduceKind::Min:
    return createHighest(b, loc, type);
  case ReduceKind::Prod:
    return createScalar(b, loc, type, 1);
  default:
    return createScalar(b, loc, type, 0);
  }
}

/// The accumulation step; `extra` is the maximum LogSumExp subtracts.
static Value combine(ReduceKind kind, OpBuilder &b, Location loc, Value in,
                     Value acc, Value extra) {
  switch (kind) {
  case ReduceKind::Max:
    return createMax(b, loc, in, acc);
  case ReduceKind::Min:
    return createMin(b, loc, in, acc);
  case ReduceKind::Prod:
    return createMul(b, loc, in, acc);
  case ReduceKind::L1: {
    Value abs = isa<FloatType>(in.getType())
                    ? b.create<math::AbsFOp>(loc, in).getResult()
                    : b.create<math::AbsIOp>(loc, in).getResult();
    return createAdd(b, loc, abs, acc);
  }
  case ReduceKind::L2:
  case ReduceKind::SumSquare:
    return createAdd(b, loc, createMul(b, loc, in, in), acc);
  case ReduceKind::LogSumExp: {
    Value shifted = b.create<arith::SubFOp>(loc, in, extra);
    return b.create<arith::AddFOp>(loc, b.create<math::ExpOp>(loc, shifted),
                                   acc);
  }
  default:
    return createAdd(b, loc, in, acc);
  }
}

/// The scalar epilogue of a reduced value `v` over `count` elements, with
/// the maximum `extra` of LogSumExp.
static Value finish(ReduceKind kind, OpBuilder &b, Location loc, Value v,
                    Value count, Value extra) {
  switch (kind) {
  case ReduceKind::Mean:
    return createDiv(b, loc, v, count);
  case ReduceKind::L2:
    return b.create<math::SqrtOp>(loc, v);
  case ReduceKind::LogSum:
    return b.create<math::LogOp>(loc, v);
  case ReduceKind::LogSumExp:
    return b.create<arith::AddFOp>(loc, b.create<math::LogOp>(loc, v), extra);
  default:
    return v;
  }
}

/// The maximum of LogSumExp, with an infinite one replaced by 0 so that
/// `x - max` is not NaN.
static Value finiteShift(OpBuilder &b, Location loc, Value max) {
  Value inf = createHighest(b, loc, max.getType());
  Value abs = b.create<math::AbsFOp>(loc, max);
  Value isInf =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, abs, inf);
  return b.create<arith::SelectOp>(loc, isInf,
                                   createScalar(b, loc, max.getType(), 0), max);
}

using ReduceBody = llvm::function_ref<Value(OpBuilder &, Location, Value in,
                                            Value acc, Value extra)>;

/// Reduces `input` over the constant `axes` into the shape without them.
/// `extra` (or null) has that shape; its element reaches `body`.
static Value reduceConstantAxes(OpBuilder &b, Location loc, Value input,
                                ArrayRef<int64_t> axes, Value init, Value extra,
                                ReduceBody body) {
  auto srcType = cast<RankedTensorType>(input.getType());
  MLIRContext *ctx = b.getContext();
  int64_t rank = srcType.getRank();
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> sizes;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i) {
    if (llvm::is_contained(axes, i)) {
      iterators.push_back(utils::IteratorType::reduction);
      continue;
    }
    iterators.push_back(utils::IteratorType::parallel);
    shape.push_back(srcType.getDimSize(i));
    sizes.push_back(getDimSize(b, loc, input, i));
    outExprs.push_back(getAffineDimExpr(i, ctx));
  }
  auto type = RankedTensorType::get(shape, srcType.getElementType());
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, ctx);
  SmallVector<Value> inputs{input};
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  if (extra) {
    inputs.push_back(extra);
    maps.push_back(outMap);
  }
  maps.push_back(outMap);
  Value filled = createFilled(b, loc, type, sizes, init);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{type}, inputs, ValueRange{filled}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        nb.create<linalg::YieldOp>(
            l, body(nb, l, args[0], args.back(), extra ? args[1] : Value()));
      });
  return generic.getResult(0);
}

/// Reduces `input` over the dims whose `mask` bit is set at run time into
/// `type` (`input`'s rank, sizes `sizes`: 1 where reduced). `extra` (or null)
/// has the type of the result; its element reaches `body`.
static Value reduceMaskedAxes(OpBuilder &b, Location loc, Value input,
                              ArrayRef<Value> mask, RankedTensorType type,
                              ArrayRef<OpFoldResult> sizes, Value init,
                              Value extra, ReduceBody body) {
  int64_t rank = type.getRank();
  Value one = createIndex(b, loc, 1);
  SmallVector<Value> upper;
  for (int64_t i = 0; i < rank; ++i)
    upper.push_back(b.create<arith::SelectOp>(
        loc, mask[i], toValue(b, loc, getDimSize(b, loc, input, i)), one));
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  if (extra) {
    inputs.push_back(extra);
    maps.push_back(b.getMultiDimIdentityMap(rank));
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value empty = createEmpty(b, loc, type, sizes);
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{type}, inputs, ValueRange{empty}, maps, getParallel(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value extraValue = extra ? args[0] : Value();
        SmallVector<Value> outIndex, position(rank);
        for (int64_t d = 0; d < rank; ++d)
          outIndex.push_back(nb.create<linalg::IndexOp>(l, d));
        std::function<Value(OpBuilder &, int64_t, Value)> loops =
            [&](OpBuilder &ob, int64_t d, Value acc) -> Value {
          if (d == rank) {
            Value in = ob.create<tensor::ExtractOp>(l, input, position);
            return body(ob, l, in, acc, extraValue);
          }
          auto loop = ob.create<scf::ForOp>(
              l, createIndex(ob, l, 0), upper[d], createIndex(ob, l, 1),
              ValueRange{acc},
              [&](OpBuilder &lb, Location ll, Value iv, ValueRange iter) {
                position[d] =
                    lb.create<arith::SelectOp>(ll, mask[d], iv, outIndex[d]);
                lb.create<scf::YieldOp>(ll, loops(lb, d + 1, iter[0]));
              });
          return loop.getResult(0);
        };
        nb.create<linalg::YieldOp>(l, loops(nb, 0, init));
      });
  return generic.getResult(0);
}

namespace {
template <typename OpT>
struct ReduceLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ReduceKind kind = getKind(op);
    Type element = resultType.getElementType();
    if (!isArithType(element) || (needsFloat(kind) && !isa<FloatType>(element)))
      return unsupportedElementType(op, element);
    Value x = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();

    SmallVector<int64_t> axes;
    bool constantAxes = true;
    if (!onnx::isNoValue(op.getAxes()) && getStaticLength(op.getAxes()) != 0) {
      std::optional<SmallVector<int64_t>> constant =
          onnx::getNormalizedAxes(op.getAxes(), rank);
      if (constant)
        axes = std::move(*constant);
      else if (onnx::getConstantIntValues(op.getAxes()))
        return op.emitOpError("has invalid 'axes' for rank ") << rank;
      else
        constantAxes = false;
    }
    if (!constantAxes)
      return lowerRuntimeAxes(op, adaptor, kind, resultType, rewriter);
    if (axes.empty()) {
      if (op.getNoopWithEmptyAxes() != 0) {
        rewriter.replaceOp(op, castTo(rewriter, loc, x, resultType));
        return success();
      }
      for (int64_t i = 0; i < rank; ++i)
        axes.push_back(i);
    }

    Value extra;
    if (kind == ReduceKind::LogSumExp) {
      Value max = reduceConstantAxes(
          rewriter, loc, x, axes, createLowest(rewriter, loc, element), Value(),
          [](OpBuilder &b, Location l, Value in, Value acc, Value) {
            return createMax(b, l, in, acc);
          });
      extra = createElementwiseMap(
          rewriter, loc, ValueRange{max}, cast<RankedTensorType>(max.getType()),
          getDimSizes(rewriter, loc, max),
          [](OpBuilder &b, Location l, ValueRange args) {
            return finiteShift(b, l, args[0]);
          });
    }
    Value reduced = reduceConstantAxes(
        rewriter, loc, x, axes, createInit(kind, rewriter, loc, element), extra,
        [&](OpBuilder &b, Location l, Value in, Value acc, Value e) {
          return combine(kind, b, l, in, acc, e);
        });
    SmallVector<OpFoldResult> counted;
    for (int64_t i : axes)
      counted.push_back(getDimSize(rewriter, loc, x, i));
    reduced = applyEpilogue(rewriter, loc, kind, reduced, extra, counted);
    if (op.getKeepdims() != 0)
      reduced = expandUnitDims(rewriter, loc, reduced, axes, resultType);
    rewriter.replaceOp(op, castTo(rewriter, loc, reduced, resultType));
    return success();
  }

  /// Divides, takes roots or logs of `reduced` elementwise as `kind` says;
  /// `counted` are the sizes of the reduced dims (for Mean).
  static Value applyEpilogue(OpBuilder &b, Location loc, ReduceKind kind,
                             Value reduced, Value extra,
                             ArrayRef<OpFoldResult> counted) {
    if (kind != ReduceKind::Mean && kind != ReduceKind::L2 &&
        kind != ReduceKind::LogSum && kind != ReduceKind::LogSumExp)
      return reduced;
    auto type = cast<RankedTensorType>(reduced.getType());
    Value count;
    if (kind == ReduceKind::Mean)
      count = indexToElement(b, loc, createProduct(b, loc, counted),
                             type.getElementType());
    SmallVector<Value> inputs{reduced};
    if (extra)
      inputs.push_back(extra);
    return createElementwiseMap(
        b, loc, inputs, type, getDimSizes(b, loc, reduced),
        [&](OpBuilder &nb, Location l, ValueRange args) {
          return finish(kind, nb, l, args[0], count, extra ? args[1] : Value());
        });
  }

  /// Axes known at run time: a masked reduction into the keepdims shape,
  /// reshaped to the result without the reduced dims unless keepdims.
  LogicalResult lowerRuntimeAxes(OpT op, typename OpT::Adaptor adaptor,
                                 ReduceKind kind, RankedTensorType resultType,
                                 ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    Type element = xType.getElementType();
    bool keepdims = op.getKeepdims() != 0;
    if ((keepdims && resultType.getRank() != rank) ||
        (!keepdims && resultType.getRank() > rank))
      return op.emitOpError("has a result rank that does not match its input");
    Value axesTensor = adaptor.getAxes();
    SmallVector<Value> mask = getAxesMask(rewriter, loc, axesTensor, rank);
    // An empty axes list reduces every dim (or none, as a no-op).
    Value length = rewriter.create<tensor::DimOp>(loc, axesTensor, 0);
    Value empty = rewriter.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, length, createIndex(rewriter, loc, 0));
    Value all = rewriter.create<arith::ConstantOp>(
        loc, rewriter.getBoolAttr(op.getNoopWithEmptyAxes() == 0));
    for (Value &bit : mask)
      bit = rewriter.create<arith::SelectOp>(loc, empty, all, bit);

    SmallVector<OpFoldResult> dims = getDimSizes(rewriter, loc, x);
    Value one = createIndex(rewriter, loc, 1);
    SmallVector<OpFoldResult> keptSizes, counted;
    SmallVector<int64_t> keptShape;
    for (int64_t i = 0; i < rank; ++i) {
      Value dim = toValue(rewriter, loc, dims[i]);
      keptSizes.push_back(getAsOpFoldResult(
          rewriter.createOrFold<arith::SelectOp>(loc, mask[i], one, dim)));
      counted.push_back(getAsOpFoldResult(
          rewriter.createOrFold<arith::SelectOp>(loc, mask[i], dim, one)));
      keptShape.push_back(xType.getDimSize(i) == 1 ? 1 : ShapedType::kDynamic);
    }
    auto keptType = RankedTensorType::get(keptShape, element);
    auto reduce = [&](Value init, Value extra, ReduceBody body) {
      return reduceMaskedAxes(rewriter, loc, x, mask, keptType, keptSizes, init,
                              extra, body);
    };
    Value extra;
    if (kind == ReduceKind::LogSumExp) {
      Value max = reduce(createLowest(rewriter, loc, element), Value(),
                         [](OpBuilder &b, Location l, Value in, Value acc,
                            Value) { return createMax(b, l, in, acc); });
      extra = createElementwiseMap(
          rewriter, loc, ValueRange{max}, keptType, keptSizes,
          [](OpBuilder &b, Location l, ValueRange args) {
            return finiteShift(b, l, args[0]);
          });
    }
    Value reduced =
        reduce(createInit(kind, rewriter, loc, element), extra,
               [&](OpBuilder &b, Location l, Value in, Value acc, Value e) {
                 return combine(kind, b, l, in, acc, e);
               });
    reduced = applyEpilogue(rewriter, loc, kind, reduced, extra, counted);
    if (op.getNoopWithEmptyAxes() != 0) {
      // No axes: the input itself, without the epilogue.
      auto ifOp = rewriter.create<scf::IfOp>(
          loc, empty,
          [&](OpBuilder &b, Location l) {
            b.create<scf::YieldOp>(l, castTo(b, l, x, keptType));
          },
          [&](OpBuilder &b, Location l) {
            b.create<scf::YieldOp>(l, reduced);
          });
      reduced = ifOp.getResult(0);
    }
    if (keepdims) {
      rewriter.replaceOp(op, castTo(rewriter, loc, reduced, resultType));
      return success();
    }
    SmallVector<Value> keep;
    for (Value bit : mask)
      keep.push_back(rewriter.create<arith::XOrIOp>(
          loc, bit,
          rewriter.create<arith::ConstantOp>(loc, rewriter.getBoolAttr(true))));
    SmallVector<OpFoldResult> sizes =
        compactSizes(rewriter, loc, keep, dims, resultType.getRank());
    rewriter.replaceOp(
        op, reshapeThroughFlat(rewriter, loc, reduced, resultType, sizes));
    return success();
  }
};

template <typename OpT>
struct ArgReduceLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getData();
    auto xType = cast<RankedTensorType>(x.getType());
    if (!isArithType(xType.getElementType()))
      return unsupportedElementType(op, xType.getElementType());
    std::optional<int64_t> axis =
        onnx::normalizeAxis(op.getAxis(), xType.getRank());
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    Value indices = createArgReduction(rewriter, loc, x, *axis,
                                       std::is_same_v<OpT, onnx::ArgMaxOp>,
                                       op.getSelectLastIndex() != 0);
    if (op.getKeepdims() != 0)
      indices = expandUnitDims(rewriter, loc, indices, *axis, resultType);
    rewriter.replaceOp(op, castTo(rewriter, loc, indices, resultType));
    return success();
  }
};

/// The index along `axis` (an index value, perhaps known only at run time)
/// among `indices`.
static Value selectAlongAxis(OpBuilder &b, Location loc, ArrayRef<Value> values,
                             Value axis) {
  Value result = values.front();
  for (int64_t d = 1, e = values.size(); d < e; ++d) {
    Value isAxis = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                 axis, createIndex(b, loc, d));
    result = b.createOrFold<arith::SelectOp>(loc, isAxis, values[d], result);
  }
  return result;
}

/// The identity and the combining step of CumSum and CumProd.
static Value createCumulativeStep(onnx::CumSumOp, OpBuilder &b, Location loc,
                                  Value lhs, Value rhs) {
  return createAdd(b, loc, lhs, rhs);
}
static Value createCumulativeStep(onnx::CumProdOp, OpBuilder &b, Location loc,
                                  Value lhs, Value rhs) {
  return createMul(b, loc, lhs, rhs);
}
static double getCumulativeIdentity(onnx::CumSumOp) { return 0; }
static double getCumulativeIdentity(onnx::CumProdOp) { return 1; }

/// CumSum and CumProd: each element combines a window of its axis.
template <typename OpT>
struct CumulativeLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Value x = adaptor.getX();
    int64_t rank = resultType.getRank();
    if (rank == 0)
      return op.emitOpError("expects an input of rank 1 or more");
    Value axis = normalizeIndex(
        rewriter, loc,
        getIndexScalar(rewriter, loc, adaptor.getAxis(), op.getAxis()),
        createIndex(rewriter, loc, rank));
    SmallVector<Value> dims;
    for (OpFoldResult d : getDimSizes(rewriter, loc, x))
      dims.push_back(toValue(rewriter, loc, d));
    Value length = selectAlongAxis(rewriter, loc, dims, axis);
    bool exclusive = op.getExclusive() != 0, reverse = op.getReverse() != 0;
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    // y[i] combines x over a window of the axis: [0, i] forward, [i, n)
    // reverse, without i itself when exclusive.
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> index;
          for (int64_t d = 0; d < rank; ++d)
            index.push_back(b.create<linalg::IndexOp>(l, d));
          Value i = selectAlongAxis(b, l, index, axis);
          Value one = createIndex(b, l, 1);
          Value lower =
              reverse ? (exclusive ? b.create<arith::AddIOp>(l, i, one) : i)
                      : createIndex(b, l, 0);
          Value upper =
              reverse ? length
                      : (exclusive ? i : b.create<arith::AddIOp>(l, i, one));
          auto loop = b.create<scf::ForOp>(
              l, lower, upper, one,
              ValueRange{
                  createScalar(b, l, element, getCumulativeIdentity(op))},
              [&](OpBuilder &lb, Location ll, Value k, ValueRange acc) {
                SmallVector<Value> position;
                for (int64_t d = 0; d < rank; ++d) {
                  Value isAxis = lb.createOrFold<arith::CmpIOp>(
                      ll, arith::CmpIPredicate::eq, axis,
                      createIndex(lb, ll, d));
                  position.push_back(lb.createOrFold<arith::SelectOp>(
                      ll, isAxis, k, index[d]));
                }
                Value in = lb.create<tensor::ExtractOp>(ll, x, position);
                lb.create<scf::YieldOp>(
                    ll, createCumulativeStep(op, lb, ll, acc[0], in));
              });
          b.create<linalg::YieldOp>(l, loop.getResult(0));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TopKLowering : public ONNXToLinalgMultiResultPattern<onnx::TopKOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::TopKOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    RankedTensorType valuesType = resultTypes[0], indicesType = resultTypes[1];
    Type element = valuesType.getElementType();
    bool isUnsigned = element.isUnsignedInteger();
    if (!isArithType(element) && !isUnsigned)
      return unsupportedElementType(op, element);
    Value x = adaptor.getX();
    int64_t rank = valuesType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    bool largest = op.getLargest() != 0;
    Value k = getIndexScalar(rewriter, loc, adaptor.getK(), op.getK());
    SmallVector<OpFoldResult> xSizes = getDimSizes(rewriter, loc, x);
    Value n = toValue(rewriter, loc, xSizes[*axis]);
    Value zero = createIndex(rewriter, loc, 0),
          one = createIndex(rewriter, loc, 1);

    // The rank of each element along the axis: how many come before it
    // (larger, or equal at a smaller index).
    auto rankType =
        RankedTensorType::get(cast<RankedTensorType>(x.getType()).getShape(),
                              rewriter.getIndexType());
    Value rankInit = createEmpty(rewriter, loc, rankType, xSizes);
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value ranks =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{rankType}, ValueRange{x}, ValueRange{rankInit},
                ArrayRef<AffineMap>{identity, identity}, getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  SmallVector<Value> position;
                  for (int64_t d = 0; d < rank; ++d)
                    position.push_back(b.create<linalg::IndexOp>(l, d));
                  Value at = position[*axis];
                  auto loop = b.create<scf::ForOp>(
                      l, zero, n, one, ValueRange{zero},
                      [&](OpBuilder &lb, Location ll, Value m, ValueRange acc) {
                        SmallVector<Value> other(position);
                        other[*axis] = m;
                        Value w = toSignless(
                            lb, ll, lb.create<tensor::ExtractOp>(ll, x, other));
                        Value self = toSignless(lb, ll, args[0]);
                        Value before =
                            compare(lb, ll, w, self, largest, isUnsigned);
                        Value equal = compareEqual(lb, ll, w, self);
                        Value earlier = lb.create<arith::CmpIOp>(
                            ll, arith::CmpIPredicate::ult, m, at);
                        before = lb.create<arith::OrIOp>(
                            ll, before,
                            lb.create<arith::AndIOp>(ll, equal, earlier));
                        Value step =
                            lb.create<arith::SelectOp>(ll, before, one, zero);
                        lb.create<scf::YieldOp>(
                            ll, lb.create<arith::AddIOp>(ll, acc[0], step)
                                    .getResult());
                      });
                  b.create<linalg::YieldOp>(l, loop.getResult(0));
                })
            .getResult(0);

    // Each element of rank r < K lands at position r along the axis.
    SmallVector<OpFoldResult> outSizes(xSizes);
    outSizes[*axis] = k;
    Value values = createEmpty(rewriter, loc, valuesType, outSizes);
    Value indices = createEmpty(rewriter, loc, indicesType, outSizes);
    SmallVector<Value> lbs(rank, zero), ubs, steps(rank, one);
    for (OpFoldResult s : xSizes)
      ubs.push_back(toValue(rewriter, loc, s));
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{values, indices},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          Value r = b.create<tensor::ExtractOp>(l, ranks, ivs);
          Value kept =
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult, r, k);
          auto ifOp = b.create<scf::IfOp>(
              l, kept,
              [&](OpBuilder &tb, Location tl) {
                SmallVector<Value> target(ivs);
                target[*axis] = r;
                Value v = tb.create<tensor::ExtractOp>(tl, x, ivs);
                Value i = tb.create<arith::IndexCastOp>(tl, tb.getI64Type(),
                                                        ivs[*axis]);
                Value newValues =
                    tb.create<tensor::InsertOp>(tl, v, iter[0], target);
                Value newIndices =
                    tb.create<tensor::InsertOp>(tl, i, iter[1], target);
                tb.create<scf::YieldOp>(tl, ValueRange{newValues, newIndices});
              },
              [&](OpBuilder &eb, Location el) {
                eb.create<scf::YieldOp>(el, iter);
              });
          return SmallVector<Value>(ifOp.getResults());
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }

  /// `a` comes strictly before `b` in the order TopK sorts by (integers
  /// compared as unsigned when `isUnsigned`).
  static Value compare(OpBuilder &b, Location loc, Value a, Value c,
                       bool largest, bool isUnsigned) {
    if (isa<FloatType>(a.getType()))
      return b.create<arith::CmpFOp>(
          loc, largest ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
          a, c);
    arith::CmpIPredicate predicate =
        isUnsigned
            ? (largest ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ult)
            : (largest ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt);
    return b.create<arith::CmpIOp>(loc, predicate, a, c);
  }
  static Value compareEqual(OpBuilder &b, Location loc, Value a, Value c) {
    if (isa<FloatType>(a.getType()))
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, a, c);
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, a, c);
  }
};
} // namespace

void onnxc::populateONNXReduceToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<
      ReduceLowering<onnx::ReduceMeanOp>, ReduceLowering<onnx::ReduceSumOp>,
      ReduceLowering<onnx::ReduceMaxOp>, ReduceLowering<onnx::ReduceMinOp>,
      ReduceLowering<onnx::ReduceProdOp>, ReduceLowering<onnx::ReduceL1Op>,
      ReduceLowering<onnx::ReduceL2Op>, ReduceLowering<onnx::ReduceLogSumOp>,
      ReduceLowering<onnx::ReduceLogSumExpOp>,
      ReduceLowering<onnx::ReduceSumSquareOp>,
      ArgReduceLowering<onnx::ArgMaxOp>, ArgReduceLowering<onnx::ArgMinOp>,
      CumulativeLowering<onnx::CumSumOp>, CumulativeLowering<onnx::CumProdOp>,
      TopKLowering>(patterns.getContext());
}

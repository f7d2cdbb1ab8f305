//===- MatMul.cpp - onnx MatMul and Gemm to linalg ------------------------===//
//
// MatMul: linalg.matmul for 2-D operands and for an N-D A times a 2-D B
// (A's batch dims folded into its rows), linalg.batch_matmul for 3-D ones
// with equal batches (and N-D ones with equal batch dims, folded into
// one), else one linalg.generic with broadcasting batch maps; batch dims
// that may broadcast at run time (a `?` against a dim not 1) version the
// product: as is where they are equal, else on operands broadcast first;
// 1-D operands get a unit dim that is collapsed away afterwards. Gemm: the
// init holds beta * C broadcast to [M, N] and a matmul (transposes folded
// into the indexing maps) accumulates alpha * A' B' onto it. Einsum: one
// generic over the equation's letters, the summed ones as reductions, a
// repeated letter in one input reading its diagonal.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// True when the batch dims of the 3-D `a` and `b` need no broadcasting.
static bool haveEqualBatch(RankedTensorType a, RankedTensorType b) {
  int64_t x = a.getDimSize(0), y = b.getDimSize(0);
  return x == y || (ShapedType::isDynamic(x) && y != 1) ||
         (ShapedType::isDynamic(y) && x != 1);
}

/// `value` with its dims [0, count] merged into one.
static Value collapseLeading(OpBuilder &b, Location loc, Value value,
                             int64_t count) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<ReassociationIndices> reassociation(1);
  SmallVector<int64_t> shape{1};
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i <= count) {
      reassociation[0].push_back(i);
      int64_t size = type.getDimSize(i);
      shape[0] = ShapedType::isDynamic(shape[0]) || ShapedType::isDynamic(size)
                     ? ShapedType::kDynamic
                     : shape[0] * size;
      continue;
    }
    reassociation.push_back({i});
    shape.push_back(type.getDimSize(i));
  }
  return b.create<tensor::CollapseShapeOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), value,
      reassociation);
}

/// The inverse of collapseLeading: `value` expanded back to `type`, whose
/// dims are `sizes`.
static Value expandLeading(OpBuilder &b, Location loc, Value value,
                           RankedTensorType type, ArrayRef<OpFoldResult> sizes,
                           int64_t count) {
  SmallVector<ReassociationIndices> reassociation(1);
  for (int64_t i = 0; i < type.getRank(); ++i) {
    if (i <= count)
      reassociation[0].push_back(i);
    else
      reassociation.push_back({i});
  }
  return createExpandShape(b, loc, value, type, reassociation, sizes);
}

/// The accumulate step of a matmul body: acc + a * b.
static void buildMulAcc(OpBuilder &b, Location loc, ValueRange args) {
  Value product = createMul(b, loc, args[0], args[1]);
  b.create<linalg::YieldOp>(loc, createAdd(b, loc, args[2], product));
}

namespace {
struct MatMulLowering : public ONNXToLinalgPattern<onnx::MatMulOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::MatMulOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Value a = adaptor.getA(), b = adaptor.getB();
    auto aType = cast<RankedTensorType>(a.getType());
    auto bType = cast<RankedTensorType>(b.getType());
    bool aVector = aType.getRank() == 1, bVector = bType.getRank() == 1;
    if (aVector) {
      a = expandUnitDims(
          rewriter, loc, a, {0},
          RankedTensorType::get({1, aType.getDimSize(0)}, element));
      aType = cast<RankedTensorType>(a.getType());
    }
    if (bVector) {
      b = expandUnitDims(
          rewriter, loc, b, {1},
          RankedTensorType::get({bType.getDimSize(0), 1}, element));
      bType = cast<RankedTensorType>(b.getType());
    }
    ArrayRef<int64_t> aBatch = aType.getShape().drop_back(2);
    ArrayRef<int64_t> bBatch = bType.getShape().drop_back(2);
    SmallVector<int64_t> batch;
    if (!OpTrait::util::getBroadcastedShape(aBatch, bBatch, batch))
      return op.emitOpError("has batch dims that do not broadcast");
    int64_t batchRank = batch.size();

    // The product in the promoted shape [batch..., M, N].
    SmallVector<int64_t> shape(batch);
    shape.push_back(aType.getDimSize(aType.getRank() - 2));
    shape.push_back(bType.getDimSize(bType.getRank() - 1));
    auto productType = RankedTensorType::get(shape, element);
    // A batch dim that is `?` in A or B (and not a static 1 in either) may
    // be 1 at run time where the other is not: its size is the larger, and
    // the product broadcasts the operands first unless every such pair of
    // dims is equal at run time (scf.if).
    SmallVector<OpFoldResult> sizes;
    Value batchesEqual;
    for (int64_t j = 0; j < batchRank; ++j) {
      SmallVector<Value> dims;
      bool anyDynamic = false;
      for (auto [value, shape] :
           {std::make_pair(a, aBatch), std::make_pair(b, bBatch)}) {
        int64_t i = j - (batchRank - static_cast<int64_t>(shape.size()));
        if (i < 0 || shape[i] == 1)
          continue;
        anyDynamic |= ShapedType::isDynamic(shape[i]);
        dims.push_back(
            toValue(rewriter, loc, getDimSize(rewriter, loc, value, i)));
      }
      if (!ShapedType::isDynamic(batch[j])) {
        sizes.push_back(rewriter.getIndexAttr(batch[j]));
        if (dims.size() < 2 || !anyDynamic)
          continue;
      } else if (dims.size() == 1) {
        sizes.push_back(dims[0]);
        continue;
      } else {
        sizes.push_back(
            rewriter.create<arith::MaxUIOp>(loc, dims[0], dims[1]).getResult());
      }
      Value eq = rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                dims[0], dims[1]);
      batchesEqual = batchesEqual
                         ? rewriter.create<arith::AndIOp>(loc, batchesEqual, eq)
                               .getResult()
                         : eq;
    }
    sizes.push_back(getDimSize(rewriter, loc, a, aType.getRank() - 2));
    sizes.push_back(getDimSize(rewriter, loc, b, bType.getRank() - 1));
    if (batchesEqual) {
      // `value` broadcast to the product's batch dims.
      auto broadcast = [&](Value value) {
        auto type = cast<RankedTensorType>(value.getType());
        int64_t rank = type.getRank();
        SmallVector<int64_t> shape(batch);
        SmallVector<OpFoldResult> full(ArrayRef(sizes).take_front(batchRank));
        for (int64_t i = rank - 2; i < rank; ++i) {
          shape.push_back(type.getDimSize(i));
          full.push_back(getDimSize(rewriter, loc, value, i));
        }
        return createElementwise(
            rewriter, loc, value, RankedTensorType::get(shape, element), full,
            [](OpBuilder &, Location, ValueRange args) { return args[0]; });
      };
      auto ifOp = rewriter.create<scf::IfOp>(
          loc, batchesEqual,
          [&](OpBuilder &then, Location thenLoc) {
            then.create<scf::YieldOp>(
                thenLoc, multiply(loc, a, b, productType, sizes, rewriter));
          },
          [&](OpBuilder &otherwise, Location elseLoc) {
            otherwise.create<scf::YieldOp>(
                elseLoc, multiply(loc, broadcast(a), broadcast(b), productType,
                                  sizes, rewriter));
          });
      return replaceByProduct(op, ifOp.getResult(0), aVector, bVector,
                              resultType, rewriter);
    }
    return replaceByProduct(op,
                            multiply(loc, a, b, productType, sizes, rewriter),
                            aVector, bVector, resultType, rewriter);
  }

  /// The product of `a` and `b` (of rank 2 or more), of `productType`
  /// ([batch..., M, N], of `sizes`), their batch dims broadcast; its ops at
  /// the MatMul's `loc`.
  Value multiply(Location loc, Value a, Value b, RankedTensorType productType,
                 ArrayRef<OpFoldResult> sizes,
                 ConversionPatternRewriter &rewriter) const {
    MLIRContext *ctx = rewriter.getContext();
    Type element = productType.getElementType();
    auto aType = cast<RankedTensorType>(a.getType());
    auto bType = cast<RankedTensorType>(b.getType());
    ArrayRef<int64_t> aBatch = aType.getShape().drop_back(2);
    ArrayRef<int64_t> bBatch = bType.getShape().drop_back(2);
    ArrayRef<int64_t> batch = productType.getShape().drop_back(2);
    int64_t batchRank = batch.size();
    Value init = createFilled(rewriter, loc, productType, sizes,
                              createScalar(rewriter, loc, element, 0));

    Value product;
    if (aType.getRank() == 2 && bType.getRank() == 2) {
      product =
          rewriter
              .create<linalg::MatmulOp>(loc, TypeRange{productType},
                                        ValueRange{a, b}, ValueRange{init})
              .getResult(0);
    } else if (aType.getRank() > 2 && bType.getRank() == 2) {
      // A shared B: the batch dims of A join its rows, one matmul.
      int64_t last = aType.getRank() - 2;
      Value flatInit = collapseLeading(rewriter, loc, init, last);
      Value flat =
          rewriter
              .create<linalg::MatmulOp>(
                  loc, TypeRange{flatInit.getType()},
                  ValueRange{collapseLeading(rewriter, loc, a, last), b},
                  ValueRange{flatInit})
              .getResult(0);
      product = expandLeading(rewriter, loc, flat, productType, sizes, last);
    } else if (aType.getRank() > 3 && aType.getRank() == bType.getRank() &&
               aBatch == bBatch) {
      // Equal batch dims: one batch dim. A `?` in both is equal at run time
      // here: lower() multiplies such operands only where the sizes were
      // found equal, or after broadcasting both to the product's.
      int64_t count = aType.getRank() - 3;
      Value flatInit = collapseLeading(rewriter, loc, init, count);
      Value flat = rewriter
                       .create<linalg::BatchMatmulOp>(
                           loc, TypeRange{flatInit.getType()},
                           ValueRange{collapseLeading(rewriter, loc, a, count),
                                      collapseLeading(rewriter, loc, b, count)},
                           ValueRange{flatInit})
                       .getResult(0);
      product = expandLeading(rewriter, loc, flat, productType, sizes, count);
    } else if (aType.getRank() == 3 && bType.getRank() == 3 &&
               haveEqualBatch(aType, bType)) {
      product =
          rewriter
              .create<linalg::BatchMatmulOp>(loc, TypeRange{productType},
                                             ValueRange{a, b}, ValueRange{init})
              .getResult(0);
    } else {
      // Loops: batch..., m, n, k.
      int64_t loops = batchRank + 3;
      AffineExpr m = getAffineDimExpr(batchRank, ctx);
      AffineExpr n = getAffineDimExpr(batchRank + 1, ctx);
      AffineExpr k = getAffineDimExpr(batchRank + 2, ctx);
      auto operandMap = [&](ArrayRef<int64_t> dims, AffineExpr row,
                            AffineExpr col) {
        AffineMap batchMap = getBroadcastMap(ctx, dims, batch);
        SmallVector<AffineExpr> exprs(batchMap.getResults());
        exprs.push_back(row);
        exprs.push_back(col);
        return AffineMap::get(loops, 0, exprs, ctx);
      };
      SmallVector<AffineExpr> outExprs;
      for (int64_t j = 0; j < batchRank + 2; ++j)
        outExprs.push_back(getAffineDimExpr(j, ctx));
      SmallVector<AffineMap> maps{operandMap(aBatch, m, k),
                                  operandMap(bBatch, k, n),
                                  AffineMap::get(loops, 0, outExprs, ctx)};
      SmallVector<utils::IteratorType> iterators = getParallel(loops);
      iterators.back() = utils::IteratorType::reduction;
      product = rewriter
                    .create<linalg::GenericOp>(
                        loc, TypeRange{productType}, ValueRange{a, b},
                        ValueRange{init}, maps, iterators, buildMulAcc)
                    .getResult(0);
    }
    return product;
  }

  /// Replaces `op` by `product` without the unit dims that 1-D operands
  /// added.
  static LogicalResult replaceByProduct(onnx::MatMulOp op, Value product,
                                        bool aVector, bool bVector,
                                        RankedTensorType resultType,
                                        ConversionPatternRewriter &rewriter) {
    int64_t batchRank = cast<RankedTensorType>(product.getType()).getRank() - 2;
    SmallVector<int64_t> unitDims;
    if (aVector)
      unitDims.push_back(batchRank);
    if (bVector)
      unitDims.push_back(batchRank + 1);
    rewriter.replaceOp(op, collapseUnitDims(rewriter, op.getLoc(), product,
                                            unitDims, resultType));
    return success();
  }
};

struct GemmLowering : public ONNXToLinalgPattern<onnx::GemmOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GemmOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    MLIRContext *ctx = rewriter.getContext();
    Value a = adaptor.getA(), b = adaptor.getB();
    bool transA = op.getTransA() != 0, transB = op.getTransB() != 0;
    double alpha = op.getAlpha().convertToDouble();
    double beta = op.getBeta().convertToDouble();
    SmallVector<OpFoldResult> sizes{
        getDimSize(rewriter, loc, a, transA ? 1 : 0),
        getDimSize(rewriter, loc, b, transB ? 0 : 1)};

    Value init;
    if (onnx::isNoValue(op.getC()) || beta == 0.0) {
      init = createFilled(rewriter, loc, resultType, sizes,
                          createScalar(rewriter, loc, element, 0));
    } else {
      Value betaValue = createScalar(rewriter, loc, element, beta);
      init = createElementwise(
          rewriter, loc, ValueRange{adaptor.getC()}, resultType, sizes,
          [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
            if (beta == 1.0)
              return args[0];
            return createMul(nested, nestedLoc, args[0], betaValue);
          });
    }

    Value result;
    if (!transA && alpha == 1.0 && !transB) {
      result = rewriter
                   .create<linalg::MatmulOp>(loc, TypeRange{resultType},
                                             ValueRange{a, b}, ValueRange{init})
                   .getResult(0);
    } else if (!transA && alpha == 1.0) {
      result = rewriter
                   .create<linalg::MatmulTransposeBOp>(
                       loc, TypeRange{resultType}, ValueRange{a, b},
                       ValueRange{init})
                   .getResult(0);
    } else {
      AffineExpr m = getAffineDimExpr(0, ctx), n = getAffineDimExpr(1, ctx),
                 k = getAffineDimExpr(2, ctx);
      SmallVector<AffineMap> maps{
          AffineMap::get(3, 0,
                         transA ? ArrayRef<AffineExpr>{k, m}
                                : ArrayRef<AffineExpr>{m, k},
                         ctx),
          AffineMap::get(3, 0,
                         transB ? ArrayRef<AffineExpr>{n, k}
                                : ArrayRef<AffineExpr>{k, n},
                         ctx),
          AffineMap::get(3, 0, {m, n}, ctx)};
      SmallVector<utils::IteratorType> iterators = getParallel(3);
      iterators.back() = utils::IteratorType::reduction;
      Value alphaValue = createScalar(rewriter, loc, element, alpha);
      result =
          rewriter
              .create<linalg::GenericOp>(
                  loc, TypeRange{resultType}, ValueRange{a, b},
                  ValueRange{init}, maps, iterators,
                  [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
                    Value lhs = args[0];
                    if (alpha != 1.0)
                      lhs = createMul(nested, nestedLoc, alphaValue, lhs);
                    Value product = createMul(nested, nestedLoc, lhs, args[1]);
                    nested.create<linalg::YieldOp>(
                        nestedLoc,
                        createAdd(nested, nestedLoc, args[2], product));
                  })
              .getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct EinsumLowering : public ONNXToLinalgPattern<onnx::EinsumOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::EinsumOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    MLIRContext *ctx = rewriter.getContext();
    ValueRange inputs = adaptor.getInputs();
    SmallVector<int64_t> ranks;
    for (Value input : inputs)
      ranks.push_back(cast<RankedTensorType>(input.getType()).getRank());
    std::string error;
    FailureOr<onnx::EinsumEquation> eq =
        onnx::parseEinsumEquation(op.getEquation(), ranks, error);
    if (failed(eq))
      return op.emitOpError("has an equation that ") << error;
    // The size of each letter, from a dim that is not a static 1 if any; the
    // dims of `...` broadcast, so the largest of the inputs' (a `?` may be 1
    // at run time).
    SmallVector<OpFoldResult> loopSizes(eq->numLoops);
    for (auto [input, dims] : llvm::zip(inputs, eq->inputs)) {
      for (auto [i, loop] : llvm::enumerate(dims)) {
        OpFoldResult size = getDimSize(rewriter, loc, input, i);
        std::optional<int64_t> current =
            loopSizes[loop] ? getConstantIntValue(loopSizes[loop])
                            : std::nullopt;
        std::optional<int64_t> next = getConstantIntValue(size);
        if (!loopSizes[loop] || current == std::optional<int64_t>(1)) {
          loopSizes[loop] = size;
        } else if (loop >= eq->numLetters &&
                   next != std::optional<int64_t>(1) && (!current || !next)) {
          loopSizes[loop] =
              getAsOpFoldResult(rewriter.createOrFold<arith::MaxUIOp>(
                  loc, toValue(rewriter, loc, loopSizes[loop]),
                  toValue(rewriter, loc, size)));
        }
      }
    }
    // An input whose `...` dims are `?` is first broadcast to the loop sizes
    // (at run time); a static 1 facing a larger loop reads index 0.
    SmallVector<Value> operands;
    SmallVector<AffineMap> maps;
    for (auto [input, dims] : llvm::zip(inputs, eq->inputs)) {
      auto type = cast<RankedTensorType>(input.getType());
      bool dynamicBroadcast = false;
      SmallVector<int64_t> shape(type.getShape());
      SmallVector<OpFoldResult> sizes;
      for (auto [i, loop] : llvm::enumerate(dims)) {
        sizes.push_back(loop >= eq->numLetters
                            ? loopSizes[loop]
                            : getDimSize(rewriter, loc, input, i));
        if (loop >= eq->numLetters && type.isDynamicDim(i))
          dynamicBroadcast = true;
        if (loop >= eq->numLetters)
          shape[i] = getConstantIntValue(loopSizes[loop])
                         .value_or(ShapedType::kDynamic);
      }
      Value operand = input;
      if (dynamicBroadcast)
        operand = createElementwise(
            rewriter, loc, ValueRange{input},
            RankedTensorType::get(shape, type.getElementType()), sizes,
            [](OpBuilder &, Location, ValueRange args) { return args[0]; });
      type = cast<RankedTensorType>(operand.getType());
      SmallVector<AffineExpr> exprs;
      for (auto [i, loop] : llvm::enumerate(dims)) {
        bool broadcast =
            type.getDimSize(i) == 1 &&
            getConstantIntValue(loopSizes[loop]) != std::optional<int64_t>(1);
        exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(loop, ctx));
      }
      maps.push_back(AffineMap::get(eq->numLoops, 0, exprs, ctx));
      operands.push_back(operand);
    }
    SmallVector<AffineExpr> outExprs;
    SmallVector<OpFoldResult> outSizes;
    SmallVector<utils::IteratorType> iterators(eq->numLoops,
                                               utils::IteratorType::reduction);
    for (int64_t loop : eq->output) {
      outExprs.push_back(getAffineDimExpr(loop, ctx));
      outSizes.push_back(loopSizes[loop]);
      iterators[loop] = utils::IteratorType::parallel;
    }
    maps.push_back(AffineMap::get(eq->numLoops, 0, outExprs, ctx));
    Value init = createFilled(rewriter, loc, resultType, outSizes,
                              createScalar(rewriter, loc, element, 0));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, operands, ValueRange{init}, maps, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value product = args.front();
          for (Value arg : args.drop_front().drop_back())
            product = createMul(b, l, product, arg);
          b.create<linalg::YieldOp>(l, createAdd(b, l, args.back(), product));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void onnxc::populateONNXMatMulToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MatMulLowering, GemmLowering, EinsumLowering>(
      patterns.getContext());
}

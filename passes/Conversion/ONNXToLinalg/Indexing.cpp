//===- Indexing.cpp - onnx gathers, scatters and OneHot to linalg/scf -----===//
//
// GatherElements, GatherND and OneHot are parallel generics over the result
// that read their data with tensor.extract at computed positions. The
// scatters copy `data` into a new tensor, then walk `updates` in an scf.for
// nest that extracts, combines (by `reduction`) and inserts element by
// element, in order, so repeated indices accumulate as the spec says.
// TensorScatter, whose writes never overlap, is a parallel generic over the
// cache that reads the update where one lands.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// An element of an index tensor as an index, made non-negative against
/// `size`.
static Value readIndex(OpBuilder &b, Location loc, Value element, Value size) {
  Value index = b.create<arith::IndexCastOp>(loc, b.getIndexType(), element);
  return normalizeIndex(b, loc, index, size);
}

/// Combines the current element `cur` and the update `upd` of a scatter.
static Value combineScatter(OpBuilder &b, Location loc, StringRef reduction,
                            Value cur, Value upd) {
  if (reduction == "add")
    return createAdd(b, loc, cur, upd);
  if (reduction == "mul")
    return createMul(b, loc, cur, upd);
  if (reduction == "max")
    return createMax(b, loc, cur, upd);
  if (reduction == "min")
    return createMin(b, loc, cur, upd);
  return upd;
}

/// An scf.for nest over every element of `shape` (the sizes of `tensor`)
/// that threads `init` through `body`, which returns the next value.
static Value walkElements(
    OpBuilder &b, Location loc, Value tensor, Value init,
    llvm::function_ref<Value(OpBuilder &, Location, ValueRange, Value)> body) {
  SmallVector<Value> lbs, ubs, steps;
  for (OpFoldResult size : getDimSizes(b, loc, tensor)) {
    lbs.push_back(createIndex(b, loc, 0));
    ubs.push_back(toValue(b, loc, size));
    steps.push_back(createIndex(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, ValueRange{init},
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange iter) {
        return scf::ValueVector{body(nb, l, ivs, iter[0])};
      });
  return nest.results.front();
}

namespace {
struct GatherElementsLowering
    : public ONNXToLinalgPattern<onnx::GatherElementsOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GatherElementsOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    Value axisSize =
        toValue(rewriter, loc, getDimSize(rewriter, loc, data, *axis));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value init = createEmpty(rewriter, loc, resultType,
                             getDimSizes(rewriter, loc, indices));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{indices}, ValueRange{init},
        ArrayRef<AffineMap>{identity, identity}, getParallel(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(d == *axis ? readIndex(b, l, args[0], axisSize)
                                          : b.create<linalg::IndexOp>(l, d));
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, data, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ScatterElementsLowering
    : public ONNXToLinalgPattern<onnx::ScatterElementsOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ScatterElementsOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    StringRef reduction = op.getReduction();
    if (reduction != "none" && !isArithType(element))
      return unsupportedElementType(op, element);
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    Value axisSize =
        toValue(rewriter, loc, getDimSize(rewriter, loc, data, *axis));
    Value copy =
        castTo(rewriter, loc, createCopy(rewriter, loc, data), resultType);
    Value result = walkElements(
        rewriter, loc, indices, copy,
        [&](OpBuilder &b, Location l, ValueRange ivs, Value out) -> Value {
          SmallVector<Value> position(ivs);
          position[*axis] = readIndex(
              b, l, b.create<tensor::ExtractOp>(l, indices, ivs), axisSize);
          Value upd = b.create<tensor::ExtractOp>(l, updates, ivs);
          Value cur = b.create<tensor::ExtractOp>(l, out, position);
          Value next = combineScatter(b, l, reduction, cur, upd);
          return b.create<tensor::InsertOp>(l, next, out, position);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNDLowering : public ONNXToLinalgPattern<onnx::GatherNDOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GatherNDOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto indexType = cast<RankedTensorType>(indices.getType());
    int64_t q = indexType.getRank(), rank = resultType.getRank();
    int64_t b = op.getBatchDims();
    // The tuple length: rank = (q - 1) + (rank(data) - b - k).
    int64_t k =
        cast<RankedTensorType>(data.getType()).getRank() - b + q - 1 - rank;
    if (q < 1 || k < 1 ||
        (!indexType.isDynamicDim(q - 1) && indexType.getDimSize(q - 1) != k))
      return op.emitOpError(
          "has a result rank that does not match its indices");
    SmallVector<OpFoldResult> dataSizes = getDimSizes(rewriter, loc, data);
    // Result dims: indices.shape[:-1], then data.shape[b + k:].
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, indices);
    sizes.pop_back();
    llvm::append_range(sizes, ArrayRef(dataSizes).drop_front(b + k));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &nb, Location l, ValueRange) {
          SmallVector<Value> out;
          for (int64_t d = 0; d < rank; ++d)
            out.push_back(nb.create<linalg::IndexOp>(l, d));
          SmallVector<Value> position(ArrayRef(out).take_front(b));
          SmallVector<Value> tuple(ArrayRef(out).take_front(q - 1));
          tuple.push_back(Value());
          for (int64_t j = 0; j < k; ++j) {
            tuple.back() = createIndex(nb, l, j);
            Value element = nb.create<tensor::ExtractOp>(l, indices, tuple);
            position.push_back(
                readIndex(nb, l, element, toValue(nb, l, dataSizes[b + j])));
          }
          llvm::append_range(position, ArrayRef(out).drop_front(q - 1));
          nb.create<linalg::YieldOp>(
              l, nb.create<tensor::ExtractOp>(l, data, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct ScatterNDLowering : public ONNXToLinalgPattern<onnx::ScatterNDOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ScatterNDOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    StringRef reduction = op.getReduction();
    if (reduction != "none" && !isArithType(element))
      return unsupportedElementType(op, element);
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    auto indexType = cast<RankedTensorType>(indices.getType());
    int64_t q = indexType.getRank();
    // The tuple length: rank(updates) = (q - 1) + (rank(data) - k).
    int64_t k = q - 1 + resultType.getRank() -
                cast<RankedTensorType>(updates.getType()).getRank();
    if (q < 1 || k < 1 || k > resultType.getRank())
      return op.emitOpError(
          "has updates whose rank does not match its indices");
    SmallVector<OpFoldResult> dataSizes = getDimSizes(rewriter, loc, data);
    Value copy =
        castTo(rewriter, loc, createCopy(rewriter, loc, data), resultType);
    // updates[u] goes to data[indices[u[:q-1]], u[q-1:]].
    Value result = walkElements(
        rewriter, loc, updates, copy,
        [&](OpBuilder &b, Location l, ValueRange ivs, Value out) -> Value {
          SmallVector<Value> tuple(ivs.take_front(q - 1));
          tuple.push_back(Value());
          SmallVector<Value> position;
          for (int64_t j = 0; j < k; ++j) {
            tuple.back() = createIndex(b, l, j);
            Value element = b.create<tensor::ExtractOp>(l, indices, tuple);
            position.push_back(
                readIndex(b, l, element, toValue(b, l, dataSizes[j])));
          }
          llvm::append_range(position, ivs.drop_front(q - 1));
          Value upd = b.create<tensor::ExtractOp>(l, updates, ivs);
          Value cur = b.create<tensor::ExtractOp>(l, out, position);
          Value next = combineScatter(b, l, reduction, cur, upd);
          return b.create<tensor::InsertOp>(l, next, out, position);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct OneHotLowering : public ONNXToLinalgPattern<onnx::OneHotOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::OneHotOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value indices = adaptor.getIndices(), values = adaptor.getValues();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    // The depth and the indices may be floats: truncate them.
    auto toI64 = [](OpBuilder &b, Location l, Value v) -> Value {
      if (isa<FloatType>(v.getType()))
        return b.create<arith::FPToSIOp>(l, b.getI64Type(), v);
      if (v.getType().isInteger(64))
        return v;
      return b.create<arith::ExtSIOp>(l, b.getI64Type(), v);
    };
    Value depth = rewriter.create<arith::IndexCastOp>(
        loc, rewriter.getIndexType(),
        toI64(rewriter, loc, extractScalar(rewriter, loc, adaptor.getDepth())));
    Value zero = createIndex(rewriter, loc, 0),
          one = createIndex(rewriter, loc, 1);
    Value off = rewriter.create<tensor::ExtractOp>(loc, values, zero);
    Value on = rewriter.create<tensor::ExtractOp>(loc, values, one);
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, indices);
    sizes.insert(sizes.begin() + *axis, depth);
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> indexExprs;
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis)
        indexExprs.push_back(getAffineDimExpr(d, ctx));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{indices}, ValueRange{init},
        ArrayRef<AffineMap>{AffineMap::get(rank, 0, indexExprs, ctx),
                            rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange args) {
          Value index = b.create<arith::IndexCastOp>(l, b.getIndexType(),
                                                     toI64(b, l, args[0]));
          index = normalizeIndex(b, l, index, depth);
          Value hit =
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, index,
                                      b.create<linalg::IndexOp>(l, *axis));
          b.create<linalg::YieldOp>(
              l, b.create<arith::SelectOp>(l, hit, on, off).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
/// TensorScatter as a gather: each element of the cache at position p
/// along the axis reads the update at p - write_indices[b] (modulo the axis
/// size when circular) where that falls within the update, else keeps the
/// cache's value.
struct TensorScatterLowering
    : public ONNXToLinalgPattern<onnx::TensorScatterOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::TensorScatterOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value cache = adaptor.getPastCache(), update = adaptor.getUpdate();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis || *axis == 0)
      return op.emitOpError("has 'axis' out of range");
    bool circular = op.getMode() == "circular";
    bool hasIndices = !onnx::isNoValue(op.getWriteIndices());
    Value cacheLength =
        toValue(rewriter, loc, getDimSize(rewriter, loc, cache, *axis));
    Value updateLength =
        toValue(rewriter, loc, getDimSize(rewriter, loc, update, *axis));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value init = createEmpty(rewriter, loc, resultType,
                             getDimSizes(rewriter, loc, cache));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{cache}, ValueRange{init},
        ArrayRef<AffineMap>{identity, identity}, getParallel(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(b.create<linalg::IndexOp>(l, d));
          Value c0 = createIndex(b, l, 0);
          Value start = c0;
          if (hasIndices)
            start = b.create<arith::IndexCastOp>(
                l, b.getIndexType(),
                b.create<tensor::ExtractOp>(l, adaptor.getWriteIndices(),
                                            ValueRange{position[0]}));
          Value offset = b.create<arith::SubIOp>(l, position[*axis], start);
          if (circular)
            offset = normalizeIndex(
                b, l, b.create<arith::RemSIOp>(l, offset, cacheLength),
                cacheLength);
          Value inside = b.create<arith::AndIOp>(
              l,
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, offset, c0),
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, offset,
                                      updateLength));
          auto ifOp = b.create<scf::IfOp>(
              l, inside,
              [&](OpBuilder &tb, Location tl) {
                SmallVector<Value> source(position);
                source[*axis] = offset;
                tb.create<scf::YieldOp>(
                    tl, tb.create<tensor::ExtractOp>(tl, update, source)
                            .getResult());
              },
              [&](OpBuilder &eb, Location el) {
                eb.create<scf::YieldOp>(el, args[0]);
              });
          b.create<linalg::YieldOp>(l, ifOp.getResult(0));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void onnxc::populateONNXIndexingToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<GatherElementsLowering, ScatterElementsLowering, GatherNDLowering,
           ScatterNDLowering, OneHotLowering, TensorScatterLowering>(
          patterns.getContext());
}

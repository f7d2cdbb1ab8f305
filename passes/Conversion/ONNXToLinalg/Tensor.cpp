//===- Tensor.cpp - onnx shape and data-movement ops to tensor/linalg -----===//
//
// Constants become arith.constant; Identity and Dropout forward their input;
// reshapes become tensor.collapse_shape/expand_shape (through a flat 1-D
// tensor when the dims do not group); Transpose is linalg.transpose, Concat
// a chain of tensor.insert_slice, Slice a tensor.extract_slice (a gather
// generic for negative steps), Gather and Expand linalg.generic ops. Sizes
// that depend on runtime shapes are computed with arith on index values.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// Folding index arithmetic.
static Value foldedCmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred,
                       Value lhs, Value rhs) {
  return b.createOrFold<arith::CmpIOp>(loc, pred, lhs, rhs);
}
static Value foldedSelect(OpBuilder &b, Location loc, Value cond, Value lhs,
                          Value rhs) {
  return b.createOrFold<arith::SelectOp>(loc, cond, lhs, rhs);
}
static Value foldedAdd(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
}
static Value foldedSub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return b.createOrFold<arith::SubIOp>(loc, lhs, rhs);
}
static Value foldedMul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return b.createOrFold<arith::MulIOp>(loc, lhs, rhs);
}
static Value foldedDiv(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return b.createOrFold<arith::DivSIOp>(loc, lhs, rhs);
}
static Value foldedMax(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return b.createOrFold<arith::MaxSIOp>(loc, lhs, rhs);
}
static Value foldedMin(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  return b.createOrFold<arith::MinSIOp>(loc, lhs, rhs);
}

namespace {
struct ConstantLowering : public OpConversionPattern<onnx::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto value = dyn_cast<TypedAttr>(Attribute(op.getValue()));
    if (!value)
      return op.emitOpError("has a 'value' that arith.constant cannot hold");
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, value);
    return success();
  }
};

struct NoValueLowering : public OpConversionPattern<onnx::NoValueOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::NoValueOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The users are onnx ops being lowered, which only test for `none`.
    rewriter.eraseOp(op);
    return success();
  }
};

struct IdentityLowering : public OpConversionPattern<onnx::IdentityOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::IdentityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, castTo(rewriter, op.getLoc(), adaptor.getInput(), op.getType()));
    return success();
  }
};

struct DropoutLowering : public OpConversionPattern<onnx::DropoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!onnx::isNoValue(op.getTrainingMode())) {
      std::optional<SmallVector<int64_t>> mode =
          onnx::getConstantIntValues(op.getTrainingMode());
      if (!mode || mode->size() != 1 || (*mode)[0] != 0)
        return op.emitOpError(
            "supports only inference ('training_mode' must be a constant "
            "false)");
    }
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Value output = castTo(rewriter, loc, data, op.getOutput().getType());
    Value mask;
    if (!op.getMask().use_empty()) {
      auto maskType = dyn_cast<RankedTensorType>(op.getMask().getType());
      if (!maskType || !isa<RankedTensorType>(data.getType()))
        return op.emitOpError("needs ranked tensors to lower its mask");
      Value one =
          rewriter.create<arith::ConstantOp>(loc, rewriter.getBoolAttr(true));
      mask = createFilled(rewriter, loc, maskType,
                          getDimSizes(rewriter, loc, data), one);
    }
    rewriter.replaceOp(op, {output, mask});
    return success();
  }
};

struct ShapeLowering : public OpConversionPattern<onnx::ShapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    auto clamp = [&](int64_t v) {
      if (v < 0)
        v += rank;
      return std::max<int64_t>(0, std::min<int64_t>(v, rank));
    };
    int64_t start = clamp(op.getStart());
    int64_t end = clamp(op.getEnd().value_or(rank));
    int64_t count = std::max<int64_t>(0, end - start);
    auto type = RankedTensorType::get({count}, rewriter.getI64Type());
    Value result;
    if (count == 0) {
      result = rewriter.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(type, ArrayRef<Attribute>{}));
    } else {
      SmallVector<Value> dims;
      for (int64_t i = start; i < end; ++i)
        dims.push_back(rewriter.create<arith::IndexCastOp>(
            loc, rewriter.getI64Type(),
            toValue(rewriter, loc, getDimSize(rewriter, loc, x, i))));
      result = rewriter.create<tensor::FromElementsOp>(loc, type, dims);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

struct ReshapeLowering : public OpConversionPattern<onnx::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = resultType.getRank();
    SmallVector<OpFoldResult> sizes;
    if (resultType.hasStaticShape()) {
      for (int64_t d : resultType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
    } else {
      SmallVector<Value> requested = getIndexValues(
          rewriter, loc, adaptor.getShape(), op.getShape(), rank);
      if (static_cast<int64_t>(requested.size()) != rank)
        return op.emitOpError("has a 'shape' of the wrong length");
      Value zero = createIndex(rewriter, loc, 0);
      Value one = createIndex(rewriter, loc, 1);
      Value minusOne = createIndex(rewriter, loc, -1);
      SmallVector<Value> isInferred;
      for (Value v : requested)
        isInferred.push_back(
            foldedCmp(rewriter, loc, arith::CmpIPredicate::eq, v, minusOne));
      // 0 copies the input dim.
      if (op.getAllowzero() == 0) {
        for (int64_t i = 0; i < rank && i < xType.getRank(); ++i) {
          Value isZero = foldedCmp(rewriter, loc, arith::CmpIPredicate::eq,
                                   requested[i], zero);
          requested[i] = foldedSelect(
              rewriter, loc, isZero,
              toValue(rewriter, loc, getDimSize(rewriter, loc, x, i)),
              requested[i]);
        }
      }
      // -1 is the element count over the product of the other dims.
      Value known = one;
      for (auto [v, inferred] : llvm::zip(requested, isInferred))
        known = foldedMul(rewriter, loc, known,
                          foldedSelect(rewriter, loc, inferred, one, v));
      Value total = createProduct(rewriter, loc, getDimSizes(rewriter, loc, x));
      Value inferred =
          foldedDiv(rewriter, loc, total, foldedMax(rewriter, loc, known, one));
      for (int64_t i = 0; i < rank; ++i) {
        if (!resultType.isDynamicDim(i)) {
          sizes.push_back(rewriter.getIndexAttr(resultType.getDimSize(i)));
          continue;
        }
        sizes.push_back(getAsOpFoldResult(foldedSelect(
            rewriter, loc, isInferred[i], inferred, requested[i])));
      }
    }
    rewriter.replaceOp(op,
                       reshapeThroughFlat(rewriter, loc, x, resultType, sizes));
    return success();
  }
};

struct FlattenLowering : public OpConversionPattern<onnx::FlattenOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::FlattenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    int64_t axis = op.getAxis();
    if (axis < -rank || axis > rank)
      return op.emitOpError("has 'axis' out of range");
    if (axis < 0)
      axis += rank;
    if (axis > 0 && axis < rank) {
      SmallVector<ReassociationIndices> reassociation(2);
      for (int64_t i = 0; i < rank; ++i)
        reassociation[i < axis ? 0 : 1].push_back(i);
      auto collapsedType = RankedTensorType::get(
          {onnx::detail::productOfDims(xType.getShape().take_front(axis)),
           onnx::detail::productOfDims(xType.getShape().drop_front(axis))},
          xType.getElementType());
      Value collapsed = rewriter.create<tensor::CollapseShapeOp>(
          loc, collapsedType, x, reassociation);
      rewriter.replaceOp(op, castTo(rewriter, loc, collapsed, resultType));
      return success();
    }
    SmallVector<OpFoldResult> dims = getDimSizes(rewriter, loc, x);
    SmallVector<OpFoldResult> sizes{
        getAsOpFoldResult(
            createProduct(rewriter, loc, ArrayRef(dims).take_front(axis))),
        getAsOpFoldResult(
            createProduct(rewriter, loc, ArrayRef(dims).drop_front(axis)))};
    rewriter.replaceOp(op,
                       reshapeThroughFlat(rewriter, loc, x, resultType, sizes));
    return success();
  }
};

struct TransposeLowering : public OpConversionPattern<onnx::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    int64_t rank = resultType.getRank();
    SmallVector<int64_t> perm;
    if (std::optional<ArrayRef<int64_t>> attr = op.getPerm())
      perm.assign(attr->begin(), attr->end());
    else
      for (int64_t i = rank - 1; i >= 0; --i)
        perm.push_back(i);
    if (static_cast<int64_t>(perm.size()) != rank)
      return op.emitOpError("has a 'perm' of the wrong length");
    SmallVector<OpFoldResult> dims = getDimSizes(rewriter, loc, x);
    SmallVector<OpFoldResult> sizes;
    for (int64_t p : perm)
      sizes.push_back(dims[p]);
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    rewriter.replaceOp(op,
                       rewriter.create<linalg::TransposeOp>(loc, x, init, perm)
                           .getResult()
                           .front());
    return success();
  }
};

struct ConcatLowering : public OpConversionPattern<onnx::ConcatOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    ValueRange inputs = adaptor.getInputs();
    // Sizes: the other dims from the input that knows them, the axis summed.
    SmallVector<OpFoldResult> sizes;
    for (int64_t i = 0; i < rank; ++i) {
      if (i == *axis) {
        SmallVector<OpFoldResult> parts;
        for (Value input : inputs)
          parts.push_back(getDimSize(rewriter, loc, input, i));
        Value sum = createIndex(rewriter, loc, 0);
        for (OpFoldResult part : parts)
          sum = foldedAdd(rewriter, loc, sum, toValue(rewriter, loc, part));
        sizes.push_back(getAsOpFoldResult(sum));
        continue;
      }
      OpFoldResult size = getDimSize(rewriter, loc, inputs.front(), i);
      for (Value input : inputs)
        if (!cast<RankedTensorType>(input.getType()).isDynamicDim(i))
          size = getDimSize(rewriter, loc, input, i);
      sizes.push_back(size);
    }
    Value result = createEmpty(rewriter, loc, resultType, sizes);
    Value offset = createIndex(rewriter, loc, 0);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    for (Value input : inputs) {
      SmallVector<OpFoldResult> inputSizes = getDimSizes(rewriter, loc, input);
      std::optional<int64_t> length = getConstantIntValue(inputSizes[*axis]);
      if (length && *length == 0)
        continue;
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = getAsOpFoldResult(offset);
      // The slice is the input with the result's known dims.
      for (int64_t i = 0; i < rank; ++i)
        if (i != *axis && !resultType.isDynamicDim(i))
          inputSizes[i] = rewriter.getIndexAttr(resultType.getDimSize(i));
      SmallVector<int64_t> sliceShape;
      for (OpFoldResult s : inputSizes)
        sliceShape.push_back(
            getConstantIntValue(s).value_or(ShapedType::kDynamic));
      Value slice = castTo(
          rewriter, loc, input,
          RankedTensorType::get(sliceShape, resultType.getElementType()));
      result = rewriter.create<tensor::InsertSliceOp>(
          loc, slice, result, offsets, inputSizes, strides);
      offset = foldedAdd(rewriter, loc, offset,
                         toValue(rewriter, loc, inputSizes[*axis]));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SliceLowering : public OpConversionPattern<onnx::SliceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> count = getStaticLength(op.getStarts());
    if (!count || getStaticLength(op.getEnds()) != count)
      return op.emitOpError("needs 'starts' and 'ends' of one static length");

    SmallVector<int64_t> axes, steps;
    if (onnx::isNoValue(op.getAxes())) {
      for (int64_t i = 0; i < *count; ++i)
        axes.push_back(i);
    } else if (auto constant = onnx::getConstantIntValues(op.getAxes())) {
      axes = *constant;
    } else {
      return op.emitOpError("needs constant 'axes' to be lowered");
    }
    if (onnx::isNoValue(op.getSteps()))
      steps.assign(*count, 1);
    else if (auto constant = onnx::getConstantIntValues(op.getSteps()))
      steps = *constant;
    else
      return op.emitOpError("needs constant 'steps' to be lowered");
    if (static_cast<int64_t>(axes.size()) != *count ||
        static_cast<int64_t>(steps.size()) != *count)
      return op.emitOpError("needs 'axes' and 'steps' as long as 'starts'");
    for (int64_t &axis : axes) {
      std::optional<int64_t> norm = onnx::normalizeAxis(axis, rank);
      if (!norm)
        return op.emitOpError("has an axis out of range");
      axis = *norm;
    }
    if (llvm::is_contained(steps, 0))
      return op.emitOpError("has a zero step");

    SmallVector<Value> starts = getIndexValues(
        rewriter, loc, adaptor.getStarts(), op.getStarts(), *count);
    SmallVector<Value> ends =
        getIndexValues(rewriter, loc, adaptor.getEnds(), op.getEnds(), *count);
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    SmallVector<int64_t> strides(rank, 1);
    Value zero = createIndex(rewriter, loc, 0);
    Value minusOne = createIndex(rewriter, loc, -1);
    for (int64_t i = 0; i < *count; ++i) {
      int64_t axis = axes[i], step = steps[i];
      strides[axis] = step;
      Value dim = toValue(rewriter, loc, sizes[axis]);
      auto normalize = [&](Value v, Value lo, Value hi) {
        Value negative =
            foldedCmp(rewriter, loc, arith::CmpIPredicate::slt, v, zero);
        v = foldedSelect(rewriter, loc, negative,
                         foldedAdd(rewriter, loc, v, dim), v);
        return foldedMin(rewriter, loc, foldedMax(rewriter, loc, v, lo), hi);
      };
      Value start, end, span;
      if (step > 0) {
        start = normalize(starts[i], zero, dim);
        end = normalize(ends[i], zero, dim);
        span = foldedSub(rewriter, loc, end, start);
      } else {
        Value last =
            foldedSub(rewriter, loc, dim, createIndex(rewriter, loc, 1));
        start = normalize(starts[i], zero, last);
        end = normalize(ends[i], minusOne, last);
        span = foldedSub(rewriter, loc, start, end);
      }
      int64_t magnitude = std::abs(step);
      span = foldedMax(rewriter, loc, span, zero);
      Value size =
          foldedDiv(rewriter, loc,
                    foldedAdd(rewriter, loc, span,
                              createIndex(rewriter, loc, magnitude - 1)),
                    createIndex(rewriter, loc, magnitude));
      offsets[axis] = getAsOpFoldResult(start);
      sizes[axis] = getAsOpFoldResult(size);
    }

    if (llvm::all_of(strides, [](int64_t s) { return s > 0; })) {
      SmallVector<int64_t> shape;
      for (OpFoldResult s : sizes)
        shape.push_back(getConstantIntValue(s).value_or(ShapedType::kDynamic));
      auto sliceType =
          RankedTensorType::get(shape, resultType.getElementType());
      SmallVector<OpFoldResult> strideValues;
      for (int64_t s : strides)
        strideValues.push_back(rewriter.getIndexAttr(s));
      Value slice = rewriter.create<tensor::ExtractSliceOp>(
          loc, sliceType, x, offsets, sizes, strideValues);
      rewriter.replaceOp(op, castTo(rewriter, loc, slice, resultType));
      return success();
    }

    // Negative steps: read x[offset + i * stride] for each output index.
    SmallVector<Value> offsetValues;
    for (OpFoldResult o : offsets)
      offsetValues.push_back(toValue(rewriter, loc, o));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            Value index = b.create<linalg::IndexOp>(l, d);
            if (strides[d] != 1)
              index = b.create<arith::MulIOp>(l, index,
                                              createIndex(b, l, strides[d]));
            indices.push_back(
                b.create<arith::AddIOp>(l, offsetValues[d], index));
          }
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, x, indices).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct GatherLowering : public OpConversionPattern<onnx::GatherOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t indexRank = cast<RankedTensorType>(indices.getType()).getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    SmallVector<OpFoldResult> dataSizes = getDimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> sizes(ArrayRef(dataSizes).take_front(*axis));
    llvm::append_range(sizes, getDimSizes(rewriter, loc, indices));
    llvm::append_range(sizes, ArrayRef(dataSizes).drop_front(*axis + 1));
    int64_t outRank = sizes.size();
    Value axisSize = toValue(rewriter, loc, dataSizes[*axis]);

    SmallVector<AffineExpr> indexExprs;
    for (int64_t i = 0; i < indexRank; ++i)
      indexExprs.push_back(getAffineDimExpr(*axis + i, ctx));
    SmallVector<AffineMap> maps{AffineMap::get(outRank, 0, indexExprs, ctx),
                                rewriter.getMultiDimIdentityMap(outRank)};
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{indices}, ValueRange{init}, maps,
        getParallel(outRank), [&](OpBuilder &b, Location l, ValueRange args) {
          Value index =
              b.create<arith::IndexCastOp>(l, b.getIndexType(), args[0]);
          Value negative = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt,
                                                   index, createIndex(b, l, 0));
          index = b.create<arith::SelectOp>(
              l, negative, b.create<arith::AddIOp>(l, index, axisSize), index);
          SmallVector<Value> position;
          for (int64_t d = 0; d < *axis; ++d)
            position.push_back(b.create<linalg::IndexOp>(l, d));
          position.push_back(index);
          for (int64_t d = *axis + indexRank; d < outRank; ++d)
            position.push_back(b.create<linalg::IndexOp>(l, d));
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, data, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct SqueezeLowering : public OpConversionPattern<onnx::SqueezeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::SqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Value x = adaptor.getData();
    auto xType = cast<RankedTensorType>(x.getType());
    SmallVector<int64_t> axes;
    if (onnx::isNoValue(op.getAxes())) {
      for (int64_t i = 0; i < xType.getRank(); ++i)
        if (xType.getDimSize(i) == 1)
          axes.push_back(i);
    } else if (auto constant =
                   onnx::getNormalizedAxes(op.getAxes(), xType.getRank())) {
      axes = *constant;
    } else {
      return op.emitOpError("needs constant, valid 'axes' to be lowered");
    }
    if (xType.getRank() - static_cast<int64_t>(axes.size()) !=
        resultType.getRank())
      return op.emitOpError("has a result rank that does not match 'axes'");
    rewriter.replaceOp(
        op, collapseUnitDims(rewriter, op.getLoc(), x, axes, resultType));
    return success();
  }
};

struct UnsqueezeLowering : public OpConversionPattern<onnx::UnsqueezeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::UnsqueezeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Value x = adaptor.getData();
    auto xType = cast<RankedTensorType>(x.getType());
    std::optional<SmallVector<int64_t>> axes =
        onnx::getNormalizedAxes(op.getAxes(), resultType.getRank());
    if (!axes)
      return op.emitOpError("needs constant, valid 'axes' to be lowered");
    if (xType.getRank() + static_cast<int64_t>(axes->size()) !=
        resultType.getRank())
      return op.emitOpError("has a result rank that does not match 'axes'");
    rewriter.replaceOp(
        op, expandUnitDims(rewriter, op.getLoc(), x, *axes, resultType));
    return success();
  }
};

struct ExpandLowering : public OpConversionPattern<onnx::ExpandOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ExpandOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = resultType.getRank();
    if (xType.getRank() > rank)
      return op.emitOpError("has a result of lower rank than its input");
    SmallVector<OpFoldResult> sizes;
    SmallVector<Value> requested;
    if (!resultType.hasStaticShape()) {
      std::optional<int64_t> length = getStaticLength(op.getShape());
      if (!length || *length > rank)
        return op.emitOpError("needs a 'shape' of static length");
      requested = getIndexValues(rewriter, loc, adaptor.getShape(),
                                 op.getShape(), *length);
    }
    Value one = createIndex(rewriter, loc, 1);
    for (int64_t j = 0; j < rank; ++j) {
      if (!resultType.isDynamicDim(j)) {
        sizes.push_back(rewriter.getIndexAttr(resultType.getDimSize(j)));
        continue;
      }
      int64_t s = j - (rank - static_cast<int64_t>(requested.size()));
      int64_t i = j - (rank - xType.getRank());
      if (i >= 0 && xType.getDimSize(i) != 1) {
        // numpy: a requested 1 keeps the input dim.
        Value in = toValue(rewriter, loc, getDimSize(rewriter, loc, x, i));
        if (s < 0) {
          sizes.push_back(getAsOpFoldResult(in));
          continue;
        }
        Value isOne = foldedCmp(rewriter, loc, arith::CmpIPredicate::eq,
                                requested[s], one);
        sizes.push_back(getAsOpFoldResult(
            foldedSelect(rewriter, loc, isOne, in, requested[s])));
        continue;
      }
      sizes.push_back(s >= 0 ? getAsOpFoldResult(requested[s])
                             : OpFoldResult(rewriter.getIndexAttr(1)));
    }
    rewriter.replaceOp(
        op, createElementwise(rewriter, loc, ValueRange{x}, resultType, sizes,
                              [](OpBuilder &, Location, ValueRange args) {
                                return args[0];
                              }));
    return success();
  }
};

struct ConstantOfShapeLowering
    : public OpConversionPattern<onnx::ConstantOfShapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ConstantOfShapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    TypedAttr scalar = rewriter.getZeroAttr(element);
    if (std::optional<ElementsAttr> value = op.getValue()) {
      auto dense = dyn_cast<DenseElementsAttr>(*value);
      if (!dense || dense.getNumElements() != 1)
        return op.emitOpError("needs a dense one-element 'value'");
      scalar = cast<TypedAttr>(*dense.getValues<Attribute>().begin());
    }
    SmallVector<OpFoldResult> sizes;
    SmallVector<Value> requested;
    if (!resultType.hasStaticShape())
      requested = getIndexValues(rewriter, loc, adaptor.getInput(),
                                 op.getInput(), resultType.getRank());
    for (int64_t i = 0; i < resultType.getRank(); ++i)
      sizes.push_back(resultType.isDynamicDim(i)
                          ? OpFoldResult(requested[i])
                          : rewriter.getIndexAttr(resultType.getDimSize(i)));
    Value fill = rewriter.create<arith::ConstantOp>(loc, scalar);
    rewriter.replaceOp(op,
                       createFilled(rewriter, loc, resultType, sizes, fill));
    return success();
  }
};
} // namespace

void onnxc::populateONNXTensorToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<ConstantLowering, NoValueLowering, IdentityLowering, DropoutLowering,
           ShapeLowering, ReshapeLowering, FlattenLowering, TransposeLowering,
           ConcatLowering, SliceLowering, GatherLowering, SqueezeLowering,
           UnsqueezeLowering, ExpandLowering, ConstantOfShapeLowering>(
          patterns.getContext());
}

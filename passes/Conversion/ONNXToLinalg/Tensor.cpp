//===- Tensor.cpp - onnx shape and data-movement ops to tensor/linalg -----===//
//
// Constants become arith.constant; Identity forwards its input (Dropout is
// in Random.cpp); reshapes become tensor.collapse_shape/expand_shape (through a
// flat 1-D tensor when the dims do not group); Transpose is linalg.transpose,
// Concat a chain of tensor.insert_slice, Slice a tensor.extract_slice (a gather
// generic for negative steps or axes/steps known at run time), Split one
// extract_slice per part, Gather and Expand linalg.generic ops. Squeeze and
// Unsqueeze of axes known at run time reshape to sizes selected at run time.
// Tile, Pad (a fill and insert_slice for constant non-negative pads, else a
// generic resolving each position by the mode), DepthToSpace/SpaceToDepth,
// Trilu, EyeLike and Range are generics over the result that compute their
// element or source position from linalg.index. Sizes that depend on
// runtime shapes are computed with arith on index values.
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
    if (auto strings = dyn_cast<DenseStringElementsAttr>(op.getValue())) {
      rewriter.replaceOp(op,
                         createStringConstant(rewriter, op.getLoc(), strings));
      return success();
    }
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

struct ShapeLowering : public ONNXToLinalgPattern<onnx::ShapeOp> {
  explicit ShapeLowering(MLIRContext *ctx)
      : ONNXToLinalgPattern(ctx, RankCheck::Operands) {}

  LogicalResult lower(onnx::ShapeOp op, OpAdaptor adaptor, RankedTensorType,
                      Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct ReshapeLowering : public ONNXToLinalgPattern<onnx::ReshapeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ReshapeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct FlattenLowering : public ONNXToLinalgPattern<onnx::FlattenOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::FlattenOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct TransposeLowering : public ONNXToLinalgPattern<onnx::TransposeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::TransposeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct ConcatLowering : public ONNXToLinalgPattern<onnx::ConcatOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ConcatOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct SliceLowering : public ONNXToLinalgPattern<onnx::SliceOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::SliceOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getData();
    int64_t rank = resultType.getRank();
    std::optional<int64_t> count = getStaticLength(op.getStarts());
    if (!count || getStaticLength(op.getEnds()) != count)
      return lowerRuntime(op, adaptor, resultType, std::nullopt, rewriter);

    SmallVector<int64_t> axes, steps;
    if (onnx::isNoValue(op.getAxes())) {
      for (int64_t i = 0; i < *count; ++i)
        axes.push_back(i);
    } else if (auto constant = onnx::getConstantIntValues(op.getAxes())) {
      axes = *constant;
    } else {
      return lowerRuntime(op, adaptor, resultType, *count, rewriter);
    }
    if (onnx::isNoValue(op.getSteps()))
      steps.assign(*count, 1);
    else if (auto constant = onnx::getConstantIntValues(op.getSteps()))
      steps = *constant;
    else
      return lowerRuntime(op, adaptor, resultType, *count, rewriter);
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
    SmallVector<Value> offsetValues, strideValues;
    for (OpFoldResult o : offsets)
      offsetValues.push_back(toValue(rewriter, loc, o));
    for (int64_t st : strides)
      strideValues.push_back(createIndex(rewriter, loc, st));
    rewriter.replaceOp(op,
                       createStridedGather(rewriter, loc, x, resultType, sizes,
                                           offsetValues, strideValues));
    return success();
  }

  /// A new tensor of `type` (sizes `sizes`) holding
  /// x[offsets + index * strides].
  static Value createStridedGather(OpBuilder &rewriter, Location loc, Value x,
                                   RankedTensorType type,
                                   ArrayRef<OpFoldResult> sizes,
                                   ArrayRef<Value> offsets,
                                   ArrayRef<Value> strides) {
    int64_t rank = type.getRank();
    Value init = createEmpty(rewriter, loc, type, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{type}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d) {
            Value index = b.create<linalg::IndexOp>(l, d);
            if (getConstantIntValue(strides[d]) != std::optional<int64_t>(1))
              index = b.create<arith::MulIOp>(l, index, strides[d]);
            indices.push_back(b.create<arith::AddIOp>(l, offsets[d], index));
          }
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, x, indices).getResult());
        });
    return generic.getResult(0);
  }

  /// Axes or steps known only at run time, or entries of unknown count: each
  /// dim takes the offset, size and stride of the entry naming it (the last
  /// one), computed for either sign of the step, and the result is gathered.
  /// An unknown count of entries is walked in an scf.for.
  LogicalResult lowerRuntime(onnx::SliceOp op, OpAdaptor adaptor,
                             RankedTensorType resultType,
                             std::optional<int64_t> count,
                             ConversionPatternRewriter &rewriter) const {
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    int64_t rank = resultType.getRank();
    bool defaultAxes = onnx::isNoValue(op.getAxes());
    bool defaultSteps = onnx::isNoValue(op.getSteps());
    if (count && ((!defaultAxes && getStaticLength(op.getAxes()) != count) ||
                  (!defaultSteps && getStaticLength(op.getSteps()) != count)))
      return op.emitOpError("needs 'axes' and 'steps' as long as 'starts'");
    Value zero = createIndex(rewriter, loc, 0);
    Value one = createIndex(rewriter, loc, 1);
    SmallVector<Value> dims;
    for (OpFoldResult d : getDimSizes(rewriter, loc, x))
      dims.push_back(toValue(rewriter, loc, d));
    // The state: offsets, sizes and strides of every dim.
    SmallVector<Value> state(rank, zero);
    state.append(dims);
    state.append(rank, one);
    auto apply = [&](OpBuilder &b, Location l, Value start, Value end,
                     Value axis, Value step, MutableArrayRef<Value> state) {
      Value zero = createIndex(b, l, 0), one = createIndex(b, l, 1);
      axis = normalizeIndex(b, l, axis, createIndex(b, l, rank));
      Value positive = foldedCmp(b, l, arith::CmpIPredicate::sgt, step, zero);
      Value magnitude =
          foldedSelect(b, l, positive, step, foldedSub(b, l, zero, step));
      for (int64_t d = 0; d < rank; ++d) {
        Value dim = dims[d];
        Value last = foldedSub(b, l, dim, one);
        auto clamp = [&](Value v, Value lo, Value hi) {
          v = normalizeIndex(b, l, v, dim);
          return foldedMin(b, l, foldedMax(b, l, v, lo), hi);
        };
        Value first = foldedSelect(b, l, positive, clamp(start, zero, dim),
                                   clamp(start, zero, last));
        Value stop = foldedSelect(b, l, positive, clamp(end, zero, dim),
                                  clamp(end, createIndex(b, l, -1), last));
        Value span = foldedSelect(b, l, positive, foldedSub(b, l, stop, first),
                                  foldedSub(b, l, first, stop));
        span = foldedMax(b, l, span, zero);
        Value size = foldedDiv(
            b, l, foldedAdd(b, l, span, foldedSub(b, l, magnitude, one)),
            magnitude);
        Value hit = foldedCmp(b, l, arith::CmpIPredicate::eq, axis,
                              createIndex(b, l, d));
        state[d] = foldedSelect(b, l, hit, first, state[d]);
        state[rank + d] = foldedSelect(b, l, hit, size, state[rank + d]);
        state[2 * rank + d] =
            foldedSelect(b, l, hit, step, state[2 * rank + d]);
      }
    };
    if (count) {
      auto read = [&](Value tensor, Value original) {
        return getIndexValues(rewriter, loc, tensor, original, *count);
      };
      SmallVector<Value> starts = read(adaptor.getStarts(), op.getStarts());
      SmallVector<Value> ends = read(adaptor.getEnds(), op.getEnds());
      SmallVector<Value> axes = defaultAxes
                                    ? SmallVector<Value>()
                                    : read(adaptor.getAxes(), op.getAxes());
      SmallVector<Value> steps = defaultSteps
                                     ? SmallVector<Value>()
                                     : read(adaptor.getSteps(), op.getSteps());
      for (int64_t i = 0; i < *count; ++i)
        apply(rewriter, loc, starts[i], ends[i],
              defaultAxes ? createIndex(rewriter, loc, i) : axes[i],
              defaultSteps ? one : steps[i], state);
    } else {
      Value length =
          rewriter.create<tensor::DimOp>(loc, adaptor.getStarts(), 0);
      auto loop = rewriter.create<scf::ForOp>(
          loc, zero, length, one, state,
          [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
            auto read = [&](Value tensor) -> Value {
              Value element = b.create<tensor::ExtractOp>(l, tensor, i);
              return b.create<arith::IndexCastOp>(l, b.getIndexType(), element);
            };
            SmallVector<Value> next(iter);
            apply(b, l, read(adaptor.getStarts()), read(adaptor.getEnds()),
                  defaultAxes ? i : read(adaptor.getAxes()),
                  defaultSteps ? createIndex(b, l, 1)
                               : read(adaptor.getSteps()),
                  next);
            b.create<scf::YieldOp>(l, next);
          });
      state.assign(loop.getResults().begin(), loop.getResults().end());
    }
    ArrayRef<Value> all(state);
    rewriter.replaceOp(
        op, createStridedGather(rewriter, loc, x, resultType,
                                getAsOpFoldResult(all.slice(rank, rank)),
                                all.take_front(rank), all.take_back(rank)));
    return success();
  }
};

struct GatherLowering : public ONNXToLinalgPattern<onnx::GatherOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GatherOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct SqueezeLowering : public ONNXToLinalgPattern<onnx::SqueezeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::SqueezeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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
    } else if (onnx::getConstantIntValues(op.getAxes())) {
      return op.emitOpError("has invalid 'axes' for rank ") << xType.getRank();
    } else {
      // Axes known at run time: keep the other dims' sizes, in order.
      SmallVector<Value> keep;
      Value trueValue =
          rewriter.create<arith::ConstantOp>(loc, rewriter.getBoolAttr(true));
      for (Value bit :
           getAxesMask(rewriter, loc, adaptor.getAxes(), xType.getRank()))
        keep.push_back(rewriter.create<arith::XOrIOp>(loc, bit, trueValue));
      SmallVector<OpFoldResult> sizes =
          compactSizes(rewriter, loc, keep, getDimSizes(rewriter, loc, x),
                       resultType.getRank());
      rewriter.replaceOp(
          op, reshapeThroughFlat(rewriter, loc, x, resultType, sizes));
      return success();
    }
    if (xType.getRank() - static_cast<int64_t>(axes.size()) !=
        resultType.getRank())
      return op.emitOpError("has a result rank that does not match 'axes'");
    rewriter.replaceOp(op,
                       collapseUnitDims(rewriter, loc, x, axes, resultType));
    return success();
  }
};

struct UnsqueezeLowering : public ONNXToLinalgPattern<onnx::UnsqueezeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::UnsqueezeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getData();
    auto xType = cast<RankedTensorType>(x.getType());
    std::optional<SmallVector<int64_t>> axes =
        onnx::getNormalizedAxes(op.getAxes(), resultType.getRank());
    if (!axes && onnx::getConstantIntValues(op.getAxes()))
      return op.emitOpError("has invalid 'axes' for output rank ")
             << resultType.getRank();
    if (!axes) {
      // Axes known at run time: output dim j is 1 where named, else the
      // next input dim.
      int64_t rank = resultType.getRank();
      SmallVector<Value> mask =
          getAxesMask(rewriter, loc, adaptor.getAxes(), rank);
      SmallVector<OpFoldResult> dims = getDimSizes(rewriter, loc, x);
      Value zero = createIndex(rewriter, loc, 0);
      Value one = createIndex(rewriter, loc, 1);
      Value next = zero;
      SmallVector<OpFoldResult> sizes;
      for (int64_t j = 0; j < rank; ++j) {
        Value size = one;
        for (auto [i, dim] : llvm::enumerate(dims)) {
          Value here = foldedCmp(rewriter, loc, arith::CmpIPredicate::eq, next,
                                 createIndex(rewriter, loc, i));
          size = foldedSelect(rewriter, loc, here, toValue(rewriter, loc, dim),
                              size);
        }
        sizes.push_back(
            getAsOpFoldResult(foldedSelect(rewriter, loc, mask[j], one, size)));
        next = foldedAdd(rewriter, loc, next,
                         foldedSelect(rewriter, loc, mask[j], zero, one));
      }
      rewriter.replaceOp(
          op, reshapeThroughFlat(rewriter, loc, x, resultType, sizes));
      return success();
    }
    if (xType.getRank() + static_cast<int64_t>(axes->size()) !=
        resultType.getRank())
      return op.emitOpError("has a result rank that does not match 'axes'");
    rewriter.replaceOp(op, expandUnitDims(rewriter, loc, x, *axes, resultType));
    return success();
  }
};

struct ExpandLowering : public ONNXToLinalgPattern<onnx::ExpandOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ExpandOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = resultType.getRank();
    if (xType.getRank() > rank)
      return op.emitOpError("has a result of lower rank than its input");
    SmallVector<OpFoldResult> sizes;
    SmallVector<Value> requested;
    if (!resultType.hasStaticShape()) {
      std::optional<int64_t> length = getStaticLength(op.getShape());
      if (length && *length > rank)
        return op.emitOpError("has a 'shape' longer than its result rank");
      if (length) {
        requested = getIndexValues(rewriter, loc, adaptor.getShape(),
                                   op.getShape(), *length);
      } else {
        // A 'shape' of unknown length aligns with the result's trailing dims;
        // the dims before it are requested as 1.
        Value shape = adaptor.getShape();
        Value len = rewriter.create<tensor::DimOp>(loc, shape, 0);
        for (int64_t j = 0; j < rank; ++j) {
          Value s = rewriter.create<arith::SubIOp>(
              loc,
              rewriter.create<arith::AddIOp>(loc, len,
                                             createIndex(rewriter, loc, j)),
              createIndex(rewriter, loc, rank));
          Value valid = rewriter.create<arith::CmpIOp>(
              loc, arith::CmpIPredicate::sge, s, createIndex(rewriter, loc, 0));
          auto ifOp = rewriter.create<scf::IfOp>(
              loc, valid,
              [&](OpBuilder &b, Location l) {
                Value v = b.create<tensor::ExtractOp>(l, shape, s);
                b.create<scf::YieldOp>(
                    l, b.create<arith::IndexCastOp>(l, b.getIndexType(), v)
                           .getResult());
              },
              [&](OpBuilder &b, Location l) {
                b.create<scf::YieldOp>(l, createIndex(b, l, 1));
              });
          requested.push_back(ifOp.getResult(0));
        }
      }
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
    : public ONNXToLinalgPattern<onnx::ConstantOfShapeOp> {
  explicit ConstantOfShapeLowering(MLIRContext *ctx)
      : ONNXToLinalgPattern(ctx, RankCheck::Result) {}

  LogicalResult lower(onnx::ConstantOfShapeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
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

struct SizeLowering : public ONNXToLinalgPattern<onnx::SizeOp> {
  explicit SizeLowering(MLIRContext *ctx)
      : ONNXToLinalgPattern(ctx, RankCheck::Operands) {}

  LogicalResult lower(onnx::SizeOp op, OpAdaptor adaptor, RankedTensorType,
                      Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value count = createProduct(rewriter, loc,
                                getDimSizes(rewriter, loc, adaptor.getData()));
    Value size =
        rewriter.create<arith::IndexCastOp>(loc, rewriter.getI64Type(), count);
    rewriter.replaceOpWithNewOp<tensor::FromElementsOp>(
        op, RankedTensorType::get({}, rewriter.getI64Type()), size);
    return success();
  }
};

struct SplitLowering : public ONNXToLinalgMultiResultPattern<onnx::SplitOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::SplitOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    std::optional<int64_t> axis = onnx::normalizeAxis(op.getAxis(), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    int64_t n = resultTypes.size();
    SmallVector<OpFoldResult> dims = getDimSizes(rewriter, loc, x);
    Value dim = toValue(rewriter, loc, dims[*axis]);
    SmallVector<Value> parts;
    if (!onnx::isNoValue(op.getSplit())) {
      parts =
          getIndexValues(rewriter, loc, adaptor.getSplit(), op.getSplit(), n);
    } else {
      // Parts of ceil(dim / n), the last ones smaller.
      Value chunk = foldedDiv(
          rewriter, loc,
          foldedAdd(rewriter, loc, dim, createIndex(rewriter, loc, n - 1)),
          createIndex(rewriter, loc, n));
      for (int64_t i = 0; i < n; ++i) {
        Value rest = foldedSub(
            rewriter, loc, dim,
            foldedMul(rewriter, loc, chunk, createIndex(rewriter, loc, i)));
        parts.push_back(foldedMax(rewriter, loc,
                                  foldedMin(rewriter, loc, chunk, rest),
                                  createIndex(rewriter, loc, 0)));
      }
    }
    SmallVector<Value> results;
    Value offset = createIndex(rewriter, loc, 0);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    for (auto [part, type] : llvm::zip(parts, resultTypes)) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      offsets[*axis] = getAsOpFoldResult(offset);
      SmallVector<OpFoldResult> sizes(dims);
      sizes[*axis] = getAsOpFoldResult(part);
      SmallVector<int64_t> shape;
      for (OpFoldResult size : sizes)
        shape.push_back(
            getConstantIntValue(size).value_or(ShapedType::kDynamic));
      Value slice = rewriter.create<tensor::ExtractSliceOp>(
          loc, RankedTensorType::get(shape, xType.getElementType()), x, offsets,
          sizes, strides);
      results.push_back(castTo(rewriter, loc, slice, type));
      offset = foldedAdd(rewriter, loc, offset, part);
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct TileLowering : public ONNXToLinalgPattern<onnx::TileOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::TileOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getInput();
    int64_t rank = resultType.getRank();
    SmallVector<Value> repeats = getIndexValues(
        rewriter, loc, adaptor.getRepeats(), op.getRepeats(), rank);
    if (static_cast<int64_t>(repeats.size()) != rank)
      return op.emitOpError("needs one repeat per dim");
    SmallVector<Value> dims;
    SmallVector<OpFoldResult> sizes;
    for (auto [d, size] : llvm::enumerate(getDimSizes(rewriter, loc, x))) {
      dims.push_back(toValue(rewriter, loc, size));
      sizes.push_back(
          getAsOpFoldResult(foldedMul(rewriter, loc, dims.back(), repeats[d])));
    }
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(b.create<arith::RemUIOp>(
                l, b.create<linalg::IndexOp>(l, d), dims[d]));
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, x, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct PadLowering : public ONNXToLinalgPattern<onnx::PadOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::PadOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getData();
    int64_t rank = resultType.getRank();
    Type element = resultType.getElementType();
    StringRef mode = op.getMode();
    // The padded axes and their begin/end counts, spread over the dims.
    Value zero = createIndex(rewriter, loc, 0);
    Value rankValue = createIndex(rewriter, loc, rank);
    SmallVector<Value> low(rank, zero), high(rank, zero), dims;
    for (int64_t d = 0; d < rank; ++d)
      dims.push_back(toValue(rewriter, loc, getDimSize(rewriter, loc, x, d)));
    auto spread = [&](OpBuilder &b, Location l, Value axis, Value begin,
                      Value end, MutableArrayRef<Value> lowHigh) {
      axis = normalizeIndex(b, l, axis, rankValue);
      for (int64_t d = 0; d < rank; ++d) {
        Value hit = foldedCmp(b, l, arith::CmpIPredicate::eq, axis,
                              createIndex(b, l, d));
        lowHigh[d] = foldedSelect(b, l, hit, begin, lowHigh[d]);
        lowHigh[rank + d] = foldedSelect(b, l, hit, end, lowHigh[rank + d]);
      }
    };
    SmallVector<Value> lowHigh(2 * rank, zero);
    std::optional<int64_t> numAxes = onnx::isNoValue(op.getAxes())
                                         ? std::optional<int64_t>(rank)
                                         : getStaticLength(op.getAxes());
    std::optional<int64_t> numPads = getStaticLength(op.getPads());
    if (!numAxes && numPads)
      numAxes = *numPads / 2;
    if (numAxes && numPads && *numPads != 2 * *numAxes)
      return op.emitOpError("needs 2 pads per padded axis");
    if (numAxes) {
      SmallVector<Value> pads = getIndexValues(rewriter, loc, adaptor.getPads(),
                                               op.getPads(), 2 * *numAxes);
      SmallVector<Value> axes;
      if (onnx::isNoValue(op.getAxes())) {
        for (int64_t d = 0; d < rank; ++d)
          axes.push_back(createIndex(rewriter, loc, d));
      } else {
        axes = getIndexValues(rewriter, loc, adaptor.getAxes(), op.getAxes(),
                              *numAxes);
      }
      for (int64_t i = 0; i < *numAxes; ++i)
        spread(rewriter, loc, axes[i], pads[i], pads[i + *numAxes], lowHigh);
    } else {
      // Axes of unknown count: walk them.
      Value count = rewriter.create<tensor::DimOp>(loc, adaptor.getAxes(), 0);
      auto loop = rewriter.create<scf::ForOp>(
          loc, zero, count, createIndex(rewriter, loc, 1), lowHigh,
          [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
            auto read = [&](Value tensor, Value at) -> Value {
              Value element = b.create<tensor::ExtractOp>(l, tensor, at);
              return b.create<arith::IndexCastOp>(l, b.getIndexType(), element);
            };
            SmallVector<Value> next(iter);
            spread(
                b, l, read(adaptor.getAxes(), i), read(adaptor.getPads(), i),
                read(adaptor.getPads(), b.create<arith::AddIOp>(l, i, count)),
                next);
            b.create<scf::YieldOp>(l, next);
          });
      lowHigh.assign(loop.getResults().begin(), loop.getResults().end());
    }
    for (int64_t d = 0; d < rank; ++d) {
      low[d] = lowHigh[d];
      high[d] = lowHigh[rank + d];
    }
    Value padValue =
        onnx::isNoValue(op.getConstantValue())
            ? createScalar(rewriter, loc, element, 0)
            : extractScalar(rewriter, loc, adaptor.getConstantValue());
    auto isNonNegativeConstant = [](Value v) {
      std::optional<int64_t> c = getConstantIntValue(v);
      return c && *c >= 0;
    };
    if (mode == "constant" && llvm::all_of(low, isNonNegativeConstant) &&
        llvm::all_of(high, isNonNegativeConstant)) {
      Value padded = createPad(rewriter, loc, x, getAsOpFoldResult(low),
                               getAsOpFoldResult(high), padValue);
      rewriter.replaceOp(op, castTo(rewriter, loc, padded, resultType));
      return success();
    }
    // Each output element reads the input at its position minus the begin
    // padding, resolved by the mode when outside.
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(getAsOpFoldResult(foldedAdd(
          rewriter, loc, foldedAdd(rewriter, loc, dims[d], low[d]), high[d])));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
          Value c0 = createIndex(b, l, 0), c1 = createIndex(b, l, 1);
          Value inside = b.create<arith::ConstantOp>(l, b.getBoolAttr(true));
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d) {
            Value src = b.create<arith::SubIOp>(
                l, b.create<linalg::IndexOp>(l, d), low[d]);
            Value last = b.create<arith::SubIOp>(l, dims[d], c1);
            if (mode == "constant") {
              Value ge = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge,
                                                 src, c0);
              Value lt = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt,
                                                 src, dims[d]);
              inside = b.create<arith::AndIOp>(
                  l, inside, b.create<arith::AndIOp>(l, ge, lt));
            } else if (mode == "edge") {
              src = b.create<arith::MaxSIOp>(
                  l, b.create<arith::MinSIOp>(l, src, last), c0);
            } else if (mode == "wrap") {
              // The position modulo the dim, made non-negative.
              src = normalizeIndex(
                  b, l, b.create<arith::RemSIOp>(l, src, dims[d]), dims[d]);
            } else {
              // reflect: fold into [0, 2 * (dim - 1)), then mirror.
              Value period = b.create<arith::MaxSIOp>(
                  l, b.create<arith::AddIOp>(l, last, last), c1);
              Value m = normalizeIndex(
                  b, l, b.create<arith::RemSIOp>(l, src, period), period);
              Value beyond = b.create<arith::CmpIOp>(
                  l, arith::CmpIPredicate::sgt, m, last);
              src = b.create<arith::SelectOp>(
                  l, beyond, b.create<arith::SubIOp>(l, period, m), m);
              Value single = b.create<arith::CmpIOp>(
                  l, arith::CmpIPredicate::eq, dims[d], c1);
              src = b.create<arith::SelectOp>(l, single, c0, src);
            }
            position.push_back(src);
          }
          if (mode != "constant") {
            b.create<linalg::YieldOp>(
                l, b.create<tensor::ExtractOp>(l, x, position).getResult());
            return;
          }
          auto ifOp = b.create<scf::IfOp>(
              l, inside,
              [&](OpBuilder &tb, Location tl) {
                tb.create<scf::YieldOp>(
                    tl,
                    tb.create<tensor::ExtractOp>(tl, x, position).getResult());
              },
              [&](OpBuilder &eb, Location el) {
                eb.create<scf::YieldOp>(el, padValue);
              });
          b.create<linalg::YieldOp>(l, ifOp.getResult(0));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// DepthToSpace and SpaceToDepth: a gather of the moved blocks.
template <typename OpT>
struct BlockMoveLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (resultType.getRank() != 4)
      return op.emitOpError("needs a 4-D result to be lowered");
    constexpr bool toSpace = std::is_same_v<OpT, onnx::DepthToSpaceOp>;
    bool crd = false;
    if constexpr (toSpace)
      crd = op.getMode() == "CRD";
    Value x = adaptor.getInput();
    int64_t bs = op.getBlocksize();
    SmallVector<OpFoldResult> in = getDimSizes(rewriter, loc, x);
    Value blocksize = createIndex(rewriter, loc, bs);
    Value area = createIndex(rewriter, loc, bs * bs);
    Value c = toValue(rewriter, loc, in[1]);
    Value h = toValue(rewriter, loc, in[2]), w = toValue(rewriter, loc, in[3]);
    // Output channels: C / b^2 (to space) or C * b^2.
    Value outC = toSpace ? foldedDiv(rewriter, loc, c, area)
                         : foldedMul(rewriter, loc, c, area);
    SmallVector<OpFoldResult> sizes{
        in[0], getAsOpFoldResult(outC),
        getAsOpFoldResult(toSpace ? foldedMul(rewriter, loc, h, blocksize)
                                  : foldedDiv(rewriter, loc, h, blocksize)),
        getAsOpFoldResult(toSpace ? foldedMul(rewriter, loc, w, blocksize)
                                  : foldedDiv(rewriter, loc, w, blocksize))};
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(4)}, getParallel(4),
        [&](OpBuilder &b, Location l, ValueRange) {
          Value n = b.create<linalg::IndexOp>(l, 0);
          Value oc = b.create<linalg::IndexOp>(l, 1);
          Value oh = b.create<linalg::IndexOp>(l, 2);
          Value ow = b.create<linalg::IndexOp>(l, 3);
          SmallVector<Value> position{n};
          if (toSpace) {
            // The block offset (bh, bw) of the output position picks the
            // input channel.
            Value bh = b.create<arith::RemUIOp>(l, oh, blocksize);
            Value bw = b.create<arith::RemUIOp>(l, ow, blocksize);
            Value block = b.create<arith::AddIOp>(
                l, b.create<arith::MulIOp>(l, bh, blocksize), bw);
            Value ic =
                crd ? b.create<arith::AddIOp>(
                          l, b.create<arith::MulIOp>(l, oc, area), block)
                    : b.create<arith::AddIOp>(
                          l, b.create<arith::MulIOp>(l, block, outC), oc);
            position.append({ic, b.create<arith::DivUIOp>(l, oh, blocksize),
                             b.create<arith::DivUIOp>(l, ow, blocksize)});
          } else {
            // Output channel = block * C + input channel.
            Value block = b.create<arith::DivUIOp>(l, oc, c);
            Value ic = b.create<arith::RemUIOp>(l, oc, c);
            Value bh = b.create<arith::DivUIOp>(l, block, blocksize);
            Value bw = b.create<arith::RemUIOp>(l, block, blocksize);
            position.append(
                {ic,
                 b.create<arith::AddIOp>(
                     l, b.create<arith::MulIOp>(l, oh, blocksize), bh),
                 b.create<arith::AddIOp>(
                     l, b.create<arith::MulIOp>(l, ow, blocksize), bw)});
          }
          b.create<linalg::YieldOp>(
              l, b.create<tensor::ExtractOp>(l, x, position).getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct TriluLowering : public ONNXToLinalgPattern<onnx::TriluOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::TriluOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Value x = adaptor.getInput();
    int64_t rank = resultType.getRank();
    Value k = onnx::isNoValue(op.getK())
                  ? createIndex(rewriter, loc, 0)
                  : getIndexScalar(rewriter, loc, adaptor.getK(), op.getK());
    bool upper = op.getUpper() != 0;
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{x}, ValueRange{init},
        ArrayRef<AffineMap>{identity, identity}, getParallel(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          // Keep j - i >= k (upper) or j - i <= k (lower).
          Value i = b.create<linalg::IndexOp>(l, rank - 2);
          Value j = b.create<linalg::IndexOp>(l, rank - 1);
          Value diagonal = b.create<arith::SubIOp>(l, j, i);
          Value keep = b.create<arith::CmpIOp>(
              l, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
              diagonal, k);
          b.create<linalg::YieldOp>(
              l, b.create<arith::SelectOp>(l, keep, args[0],
                                           createScalar(b, l, element, 0))
                     .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct EyeLikeLowering : public ONNXToLinalgPattern<onnx::EyeLikeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::EyeLikeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (resultType.getRank() != 2)
      return op.emitOpError("needs a 2-D result to be lowered");
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Value k = createIndex(rewriter, loc, static_cast<int64_t>(op.getK()));
    Value init = createEmpty(rewriter, loc, resultType,
                             getDimSizes(rewriter, loc, adaptor.getInput()));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(2)}, getParallel(2),
        [&](OpBuilder &b, Location l, ValueRange) {
          Value diagonal =
              b.create<arith::SubIOp>(l, b.create<linalg::IndexOp>(l, 1),
                                      b.create<linalg::IndexOp>(l, 0));
          Value on =
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::eq, diagonal, k);
          b.create<linalg::YieldOp>(
              l,
              b.create<arith::SelectOp>(l, on, createScalar(b, l, element, 1),
                                        createScalar(b, l, element, 0))
                  .getResult());
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct RangeLowering : public ONNXToLinalgPattern<onnx::RangeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::RangeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Value start = extractScalar(rewriter, loc, adaptor.getStart());
    Value limit = extractScalar(rewriter, loc, adaptor.getLimit());
    Value delta = extractScalar(rewriter, loc, adaptor.getDelta());
    // max(ceil((limit - start) / delta), 0) elements.
    Value span = createSub(rewriter, loc, limit, start);
    Value count;
    if (isa<FloatType>(element)) {
      Value steps = rewriter.create<math::CeilOp>(
          loc, rewriter.create<arith::DivFOp>(loc, span, delta));
      count = rewriter.create<arith::IndexCastOp>(
          loc, rewriter.getIndexType(),
          rewriter.create<arith::FPToSIOp>(loc, rewriter.getI64Type(), steps));
    } else {
      // The quotient rounded toward zero, plus one when a remainder of the
      // quotient's sign is left (arith.ceildivsi needs arith-expand).
      Value quotient = rewriter.create<arith::DivSIOp>(loc, span, delta);
      Value remainder = rewriter.create<arith::RemSIOp>(loc, span, delta);
      Value zero = createScalar(rewriter, loc, element, 0);
      Value inexact = rewriter.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::ne, remainder, zero);
      Value sameSign = rewriter.create<arith::CmpIOp>(
          loc, arith::CmpIPredicate::eq,
          rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt,
                                         remainder, zero),
          rewriter.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, delta,
                                         zero));
      Value up = rewriter.create<arith::AndIOp>(loc, inexact, sameSign);
      quotient = rewriter.create<arith::AddIOp>(
          loc, quotient, rewriter.create<arith::ExtUIOp>(loc, element, up));
      count = rewriter.create<arith::IndexCastOp>(loc, rewriter.getIndexType(),
                                                  quotient);
    }
    count = foldedMax(rewriter, loc, count, createIndex(rewriter, loc, 0));
    SmallVector<OpFoldResult> sizes{getAsOpFoldResult(count)};
    if (!resultType.isDynamicDim(0))
      sizes[0] = rewriter.getIndexAttr(resultType.getDimSize(0));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(1)}, getParallel(1),
        [&](OpBuilder &b, Location l, ValueRange) {
          Value i =
              indexToElement(b, l, b.create<linalg::IndexOp>(l, 0), element);
          b.create<linalg::YieldOp>(
              l, createAdd(b, l, start, createMul(b, l, i, delta)));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void onnxc::populateONNXTensorToLinalgPatterns(RewritePatternSet &patterns) {
  patterns
      .add<ConstantLowering, NoValueLowering, IdentityLowering, ShapeLowering,
           ReshapeLowering, FlattenLowering, TransposeLowering, ConcatLowering,
           SliceLowering, GatherLowering, SqueezeLowering, UnsqueezeLowering,
           ExpandLowering, ConstantOfShapeLowering, SizeLowering, SplitLowering,
           TileLowering, PadLowering, BlockMoveLowering<onnx::DepthToSpaceOp>,
           BlockMoveLowering<onnx::SpaceToDepthOp>, TriluLowering,
           EyeLikeLowering, RangeLowering>(patterns.getContext());
}

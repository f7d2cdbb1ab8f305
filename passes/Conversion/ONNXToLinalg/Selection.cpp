//===- Selection.cpp - onnx ops with data-dependent result sizes ----------===//
//
// NonZero, Compress, NonMaxSuppression and Unique produce as many elements
// as the data selects. Each counts (or bounds) the selection first,
// allocates a result of that run-time size, and fills it in an scf.for walk
// that threads the result tensor and the next free position through its
// iterations. Unique compares items (elements, or slices moved to rows of a
// [items, slice] matrix) pairwise: quadratic, without sorting.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// An scf.for nest over every position of `tensor` threading `inits`
/// through `body` (the nest is the body alone for a 0-D tensor).
static SmallVector<Value>
walkPositions(OpBuilder &b, Location loc, Value tensor, ValueRange inits,
              llvm::function_ref<SmallVector<Value>(OpBuilder &, Location,
                                                    ValueRange, ValueRange)>
                  body) {
  SmallVector<Value> lbs, ubs, steps;
  for (OpFoldResult size : getDimSizes(b, loc, tensor)) {
    lbs.push_back(createIndex(b, loc, 0));
    ubs.push_back(toValue(b, loc, size));
    steps.push_back(createIndex(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, inits,
      [&](OpBuilder &nb, Location l, ValueRange ivs, ValueRange iter) {
        return scf::ValueVector(body(nb, l, ivs, iter));
      });
  return SmallVector<Value>(nest.results);
}

/// An scf.for over `[lb, ub)` threading `inits` through `body`.
static SmallVector<Value>
forLoop(OpBuilder &b, Location loc, Value lb, Value ub, ValueRange inits,
        llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, Value,
                                              ValueRange)>
            body) {
  auto loop = b.create<scf::ForOp>(
      loc, lb, ub, createIndex(b, loc, 1), inits,
      [&](OpBuilder &nb, Location l, Value iv, ValueRange iter) {
        nb.create<scf::YieldOp>(l, body(nb, l, iv, iter));
      });
  return SmallVector<Value>(loop.getResults());
}

/// An scf.if on `cond` yielding `then()` or `orElse` (values of the same
/// types).
static SmallVector<Value>
ifThen(OpBuilder &b, Location loc, Value cond, ValueRange orElse,
       llvm::function_ref<SmallVector<Value>(OpBuilder &, Location)> then) {
  auto ifOp = b.create<scf::IfOp>(
      loc, cond,
      [&](OpBuilder &tb, Location l) {
        tb.create<scf::YieldOp>(l, then(tb, l));
      },
      [&](OpBuilder &eb, Location l) { eb.create<scf::YieldOp>(l, orElse); });
  return SmallVector<Value>(ifOp.getResults());
}

/// True (i1) where the scalar `value` is not zero.
static Value isNonZero(OpBuilder &b, Location loc, Value value) {
  value = toSignless(b, loc, value);
  Type type = value.getType();
  if (isa<FloatType>(type))
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, value,
                                   createScalar(b, loc, type, 0));
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value,
                                 createScalar(b, loc, type, 0));
}

static Value addOne(OpBuilder &b, Location loc, Value index) {
  return b.create<arith::AddIOp>(loc, index, createIndex(b, loc, 1));
}

namespace {
struct NonZeroLowering : public ONNXToLinalgPattern<onnx::NonZeroOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::NonZeroOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    Value zero = createIndex(rewriter, loc, 0);
    // Count, then write the coordinates of each non-zero element.
    Value count = walkPositions(
        rewriter, loc, x, ValueRange{zero},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          Value nz = isNonZero(b, l, b.create<tensor::ExtractOp>(l, x, ivs));
          Value next =
              b.create<arith::SelectOp>(l, nz, addOne(b, l, iter[0]), iter[0]);
          return SmallVector<Value>{next};
        })[0];
    SmallVector<OpFoldResult> sizes{rewriter.getIndexAttr(rank),
                                    getAsOpFoldResult(count)};
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    Value result = walkPositions(
        rewriter, loc, x, ValueRange{init, zero},
        [&](OpBuilder &b, Location l, ValueRange ivs, ValueRange iter) {
          Value nz = isNonZero(b, l, b.create<tensor::ExtractOp>(l, x, ivs));
          return ifThen(b, l, nz, iter, [&](OpBuilder &tb, Location tl) {
            Value out = iter[0];
            for (int64_t d = 0; d < rank; ++d) {
              Value coord =
                  tb.create<arith::IndexCastOp>(tl, tb.getI64Type(), ivs[d]);
              out = tb.create<tensor::InsertOp>(
                  tl, coord, out, ValueRange{createIndex(tb, tl, d), iter[1]});
            }
            return SmallVector<Value>{out, addOne(tb, tl, iter[1])};
          });
        })[0];
    rewriter.replaceOp(op, castTo(rewriter, loc, result, op.getType()));
    return success();
  }
};

struct CompressLowering : public ONNXToLinalgPattern<onnx::CompressOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::CompressOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput(), cond = adaptor.getCondition();
    auto inputType = cast<RankedTensorType>(input.getType());
    int64_t axis = 0;
    if (std::optional<uint64_t> rawAxis = op.getAxis()) {
      std::optional<int64_t> norm = onnx::normalizeAxis(
          static_cast<int64_t>(*rawAxis), inputType.getRank());
      if (!norm)
        return op.emitOpError("has 'axis' out of range");
      axis = *norm;
    } else {
      // Without an axis the flattened input is compressed.
      auto flatType = RankedTensorType::get(
          {onnx::detail::productOfDims(inputType.getShape())},
          inputType.getElementType());
      input = reshapeThroughFlat(
          rewriter, loc, input, flatType,
          {getAsOpFoldResult(createProduct(
              rewriter, loc, getDimSizes(rewriter, loc, input)))});
      inputType = flatType;
    }
    int64_t rank = inputType.getRank();
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, input);
    // Only the slices that `condition` reaches can be selected.
    Value length = rewriter.create<arith::MinSIOp>(
        loc, toValue(rewriter, loc, sizes[axis]),
        toValue(rewriter, loc, getDimSize(rewriter, loc, cond, 0)));
    Value zero = createIndex(rewriter, loc, 0);
    Value count =
        forLoop(rewriter, loc, zero, length, ValueRange{zero},
                [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
                  Value c = b.create<tensor::ExtractOp>(l, cond, ValueRange{i});
                  return SmallVector<Value>{b.create<arith::SelectOp>(
                      l, c, addOne(b, l, iter[0]), iter[0])};
                })[0];
    SmallVector<OpFoldResult> outSizes(sizes);
    outSizes[axis] = getAsOpFoldResult(count);
    auto outType =
        RankedTensorType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                              inputType.getElementType());
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && !inputType.isDynamicDim(d))
        outType = RankedTensorType::get(
            [&] {
              SmallVector<int64_t> s(outType.getShape());
              s[d] = inputType.getDimSize(d);
              return s;
            }(),
            inputType.getElementType());
    Value init = createEmpty(rewriter, loc, outType, outSizes);
    SmallVector<OpFoldResult> sliceSizes(sizes);
    sliceSizes[axis] = rewriter.getIndexAttr(1);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    Value result =
        forLoop(rewriter, loc, zero, length, ValueRange{init, zero},
                [&](OpBuilder &b, Location l, Value i, ValueRange iter) {
                  Value c = b.create<tensor::ExtractOp>(l, cond, ValueRange{i});
                  return ifThen(b, l, c, iter, [&](OpBuilder &tb, Location tl) {
                    SmallVector<OpFoldResult> from(rank, tb.getIndexAttr(0)),
                        to(rank, tb.getIndexAttr(0));
                    from[axis] = i;
                    to[axis] = iter[1];
                    Value slice = tb.create<tensor::ExtractSliceOp>(
                        tl, input, from, sliceSizes, strides);
                    Value out = tb.create<tensor::InsertSliceOp>(
                        tl, slice, iter[0], to, sliceSizes, strides);
                    return SmallVector<Value>{out, addOne(tb, tl, iter[1])};
                  });
                })[0];
    rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
    return success();
  }
};

/// The corners (ymin, xmin, ymax, xmax) of box `box` of batch `batch`.
static SmallVector<Value, 4> readBoxCorners(ImplicitLocOpBuilder &b,
                                            Value boxes, Value batch, Value box,
                                            bool centerPoint) {
  SmallVector<Value, 4> v;
  for (int64_t k = 0; k < 4; ++k)
    v.push_back(b.create<tensor::ExtractOp>(
        boxes, ValueRange{batch, box, b.create<arith::ConstantIndexOp>(k)}));
  if (centerPoint) {
    // [x_center, y_center, width, height].
    Value half = createScalar(b, b.getLoc(), v[0].getType(), 0.5);
    Value hw = b.create<arith::MulFOp>(v[2], half);
    Value hh = b.create<arith::MulFOp>(v[3], half);
    return {
        b.create<arith::SubFOp>(v[1], hh), b.create<arith::SubFOp>(v[0], hw),
        b.create<arith::AddFOp>(v[1], hh), b.create<arith::AddFOp>(v[0], hw)};
  }
  // [y1, x1, y2, x2] with the corners in either order.
  return {b.create<arith::MinimumFOp>(v[0], v[2]),
          b.create<arith::MinimumFOp>(v[1], v[3]),
          b.create<arith::MaximumFOp>(v[0], v[2]),
          b.create<arith::MaximumFOp>(v[1], v[3])};
}

/// True (i1) when the intersection over union of boxes `a` and `c` exceeds
/// `threshold`; boxes without area never do.
static Value overlapsTooMuch(ImplicitLocOpBuilder &b, ArrayRef<Value> a,
                             ArrayRef<Value> c, Value threshold) {
  Type type = a[0].getType();
  Value zero = createScalar(b, b.getLoc(), type, 0);
  auto extent = [&](Value lo, Value hi) {
    return b.create<arith::MaximumFOp>(b.create<arith::SubFOp>(hi, lo), zero);
  };
  Value ih = extent(b.create<arith::MaximumFOp>(a[0], c[0]),
                    b.create<arith::MinimumFOp>(a[2], c[2]));
  Value iw = extent(b.create<arith::MaximumFOp>(a[1], c[1]),
                    b.create<arith::MinimumFOp>(a[3], c[3]));
  Value inter = b.create<arith::MulFOp>(ih, iw);
  Value areaA = b.create<arith::MulFOp>(b.create<arith::SubFOp>(a[2], a[0]),
                                        b.create<arith::SubFOp>(a[3], a[1]));
  Value areaC = b.create<arith::MulFOp>(b.create<arith::SubFOp>(c[2], c[0]),
                                        b.create<arith::SubFOp>(c[3], c[1]));
  Value uni =
      b.create<arith::SubFOp>(b.create<arith::AddFOp>(areaA, areaC), inter);
  Value iou = b.create<arith::DivFOp>(inter, uni);
  Value hasArea = b.create<arith::AndIOp>(
      b.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, areaA, zero),
      b.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, areaC, zero));
  return b.create<arith::AndIOp>(
      hasArea,
      b.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, iou, threshold));
}

struct NonMaxSuppressionLowering
    : public ONNXToLinalgPattern<onnx::NonMaxSuppressionOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::NonMaxSuppressionOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value boxes = adaptor.getBoxes(), scores = adaptor.getScores();
    Type boxType = cast<RankedTensorType>(boxes.getType()).getElementType();
    Type scoreType = cast<RankedTensorType>(scores.getType()).getElementType();
    bool centerPoint = op.getCenterPointBox() == 1;
    // Optional scalars: no boxes, a zero IoU threshold, no score threshold.
    Value maxOut = createIndex(b, loc, 0);
    if (!onnx::isNoValue(op.getMaxOutputBoxesPerClass()))
      maxOut = b.create<arith::MaxSIOp>(
          b.create<arith::IndexCastOp>(
              b.getIndexType(),
              extractScalar(b, loc, adaptor.getMaxOutputBoxesPerClass())),
          createIndex(b, loc, 0));
    Value iouThreshold = createScalar(b, loc, boxType, 0);
    if (!onnx::isNoValue(op.getIouThreshold()))
      iouThreshold = extractScalar(b, loc, adaptor.getIouThreshold());
    iouThreshold = convertFloat(b, iouThreshold, boxType);
    Value scoreThreshold = createLowest(b, loc, scoreType);
    Value hasScoreThreshold = b.create<arith::ConstantOp>(b.getBoolAttr(false));
    if (!onnx::isNoValue(op.getScoreThreshold())) {
      scoreThreshold = convertFloat(
          b, extractScalar(b, loc, adaptor.getScoreThreshold()), scoreType);
      hasScoreThreshold = b.create<arith::ConstantOp>(b.getBoolAttr(true));
    }
    Value numBatches = toValue(b, loc, getDimSize(b, loc, scores, 0));
    Value numClasses = toValue(b, loc, getDimSize(b, loc, scores, 1));
    Value numBoxes = toValue(b, loc, getDimSize(b, loc, scores, 2));
    Value zero = createIndex(b, loc, 0);
    // At most min(boxes, max_output) per batch and class.
    Value perClass = b.create<arith::MinSIOp>(numBoxes, maxOut);
    Value capacity = b.create<arith::MulIOp>(
        b.create<arith::MulIOp>(numBatches, numClasses), perClass);
    auto i64 = b.getI64Type();
    auto bufferType = RankedTensorType::get({ShapedType::kDynamic, 3}, i64);
    Value buffer = createEmpty(
        b, loc, bufferType, {getAsOpFoldResult(capacity), b.getIndexAttr(3)});
    auto listType =
        RankedTensorType::get({ShapedType::kDynamic}, b.getIndexType());
    auto maskType =
        RankedTensorType::get({ShapedType::kDynamic}, b.getI1Type());
    SmallVector<Value> filled = forLoop(
        b, loc, zero, numBatches, ValueRange{buffer, zero},
        [&](OpBuilder &ob, Location, Value batch, ValueRange outer) {
          return forLoop(
              ob, loc, zero, numClasses, outer,
              [&](OpBuilder &cb, Location, Value cls, ValueRange state) {
                ImplicitLocOpBuilder c(loc, cb);
                // The boxes taken so far for this class, and which boxes
                // were looked at.
                Value kept = createEmpty(c, loc, listType,
                                         {getAsOpFoldResult(perClass)});
                Value seen = createFilled(
                    c, loc, maskType, {getAsOpFoldResult(numBoxes)},
                    c.create<arith::ConstantOp>(c.getBoolAttr(false)));
                SmallVector<Value> inits{state[0], state[1], kept, seen, zero};
                return SmallVector<Value>(
                    ArrayRef<Value>(
                        forLoop(
                            c, loc, zero, numBoxes, inits,
                            [&](OpBuilder &sb, Location, Value, ValueRange s) {
                              ImplicitLocOpBuilder st(loc, sb);
                              Value room = st.create<arith::CmpIOp>(
                                  arith::CmpIPredicate::slt, s[4], perClass);
                              return ifThen(st, loc, room, s,
                                            [&](OpBuilder &rb, Location) {
                                              return selectNext(
                                                  rb, loc, boxes, scores, batch,
                                                  cls, numBoxes, scoreThreshold,
                                                  hasScoreThreshold,
                                                  iouThreshold, centerPoint, s);
                                            });
                            }))
                        .take_front(2));
              });
        });
    Value result = b.create<tensor::ExtractSliceOp>(
        filled[0], ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{getAsOpFoldResult(filled[1]), b.getIndexAttr(3)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    rewriter.replaceOp(op, castTo(rewriter, loc, result, resultType));
    return success();
  }

private:
  static Value convertFloat(ImplicitLocOpBuilder &b, Value v, Type type) {
    unsigned from = v.getType().getIntOrFloatBitWidth();
    unsigned to = type.getIntOrFloatBitWidth();
    if (v.getType() == type)
      return v;
    if (from < to)
      return b.create<arith::ExtFOp>(type, v);
    return b.create<arith::TruncFOp>(type, v);
  }

  /// One greedy step for (batch, cls): picks the unseen box of the highest
  /// score above the threshold (the lowest index among equals) and keeps it
  /// unless it overlaps a kept box too much. `s` is (result, count, kept,
  /// seen, keptCount).
  static SmallVector<Value> selectNext(OpBuilder &ob, Location loc, Value boxes,
                                       Value scores, Value batch, Value cls,
                                       Value numBoxes, Value scoreThreshold,
                                       Value hasScoreThreshold,
                                       Value iouThreshold, bool centerPoint,
                                       ValueRange s) {
    ImplicitLocOpBuilder b(loc, ob);
    Value zero = createIndex(b, loc, 0);
    Value none = createIndex(b, loc, -1);
    Type scoreType = scoreThreshold.getType();
    SmallVector<Value> best = forLoop(
        b, loc, zero, numBoxes,
        ValueRange{none, createLowest(b, loc, scoreType)},
        [&](OpBuilder &lb, Location, Value j, ValueRange it) {
          ImplicitLocOpBuilder l(loc, lb);
          Value score =
              l.create<tensor::ExtractOp>(scores, ValueRange{batch, cls, j});
          Value unseen = l.create<arith::XOrIOp>(
              l.create<tensor::ExtractOp>(s[3], ValueRange{j}),
              l.create<arith::ConstantOp>(l.getBoolAttr(true)));
          Value above = l.create<arith::OrIOp>(
              l.create<arith::XOrIOp>(
                  hasScoreThreshold,
                  l.create<arith::ConstantOp>(l.getBoolAttr(true))),
              l.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, score,
                                      scoreThreshold));
          Value better = l.create<arith::OrIOp>(
              l.create<arith::CmpIOp>(arith::CmpIPredicate::eq, it[0], none),
              l.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, score, it[1]));
          Value take = l.create<arith::AndIOp>(
              l.create<arith::AndIOp>(unseen, above), better);
          return SmallVector<Value>{
              l.create<arith::SelectOp>(take, j, it[0]),
              l.create<arith::SelectOp>(take, score, it[1])};
        });
    Value found =
        b.create<arith::CmpIOp>(arith::CmpIPredicate::ne, best[0], none);
    return ifThen(b, loc, found, s, [&](OpBuilder &fb, Location) {
      ImplicitLocOpBuilder f(loc, fb);
      Value seen = f.create<tensor::InsertOp>(
          f.create<arith::ConstantOp>(f.getBoolAttr(true)), s[3],
          ValueRange{best[0]});
      SmallVector<Value, 4> candidate =
          readBoxCorners(f, boxes, batch, best[0], centerPoint);
      Value suppressed = forLoop(
          f, loc, zero, s[4],
          ValueRange{f.create<arith::ConstantOp>(f.getBoolAttr(false))},
          [&](OpBuilder &kb, Location, Value k, ValueRange it) {
            ImplicitLocOpBuilder kk(loc, kb);
            Value other = kk.create<tensor::ExtractOp>(s[2], ValueRange{k});
            SmallVector<Value, 4> corners =
                readBoxCorners(kk, boxes, batch, other, centerPoint);
            return SmallVector<Value>{kk.create<arith::OrIOp>(
                it[0], overlapsTooMuch(kk, corners, candidate, iouThreshold))};
          })[0];
      Value keep = f.create<arith::XOrIOp>(
          suppressed, f.create<arith::ConstantOp>(f.getBoolAttr(true)));
      SmallVector<Value> skipped{s[0], s[1], s[2], seen, s[4]};
      return ifThen(f, loc, keep, skipped, [&](OpBuilder &kb, Location) {
        ImplicitLocOpBuilder k(loc, kb);
        Value out = s[0];
        Value triple[3] = {batch, cls, best[0]};
        for (int64_t d = 0; d < 3; ++d)
          out = k.create<tensor::InsertOp>(
              k.create<arith::IndexCastOp>(k.getI64Type(), triple[d]), out,
              ValueRange{s[1], k.create<arith::ConstantIndexOp>(d)});
        Value kept =
            k.create<tensor::InsertOp>(best[0], s[2], ValueRange{s[4]});
        return SmallVector<Value>{out, addOne(k, loc, s[1]), kept, seen,
                                  addOne(k, loc, s[4])};
      });
    });
  }
};
/// Compares rows `a` and `b` of the [items, size] matrix `m`: (equal, less)
/// as i1 values, `less` lexicographic.
static std::pair<Value, Value> compareRows(ImplicitLocOpBuilder &b, Value m,
                                           Value size, Value a, Value c,
                                           bool isUnsigned) {
  Value zero = b.create<arith::ConstantIndexOp>(0);
  Value f = b.create<arith::ConstantOp>(b.getBoolAttr(false));
  // (decided, less) over the elements in order.
  SmallVector<Value> state = forLoop(
      b, b.getLoc(), zero, size, ValueRange{f, f},
      [&](OpBuilder &nb, Location l, Value k, ValueRange it) {
        ImplicitLocOpBuilder e(l, nb);
        Value x =
            toSignless(e, l, e.create<tensor::ExtractOp>(m, ValueRange{a, k}));
        Value y =
            toSignless(e, l, e.create<tensor::ExtractOp>(m, ValueRange{c, k}));
        Value lt, ne;
        if (isa<FloatType>(x.getType())) {
          lt = e.create<arith::CmpFOp>(arith::CmpFPredicate::OLT, x, y);
          ne = e.create<arith::CmpFOp>(arith::CmpFPredicate::UNE, x, y);
        } else {
          lt = e.create<arith::CmpIOp>(isUnsigned ? arith::CmpIPredicate::ult
                                                  : arith::CmpIPredicate::slt,
                                       x, y);
          ne = e.create<arith::CmpIOp>(arith::CmpIPredicate::ne, x, y);
        }
        Value decided = e.create<arith::OrIOp>(it[0], ne);
        Value less = e.create<arith::SelectOp>(it[0], it[1], lt);
        return SmallVector<Value>{decided, less};
      });
  Value t = b.create<arith::ConstantOp>(b.getBoolAttr(true));
  return {b.create<arith::XOrIOp>(state[0], t), state[1]};
}

struct UniqueLowering : public ONNXToLinalgMultiResultPattern<onnx::UniqueOp> {
  using ONNXToLinalgMultiResultPattern::ONNXToLinalgMultiResultPattern;

  LogicalResult lower(onnx::UniqueOp op, OpAdaptor adaptor,
                      ArrayRef<RankedTensorType> resultTypes, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    Type element = xType.getElementType();
    bool isUnsigned = element.isUnsignedInteger();
    int64_t rank = xType.getRank();
    std::optional<int64_t> axis;
    if (op.getAxis()) {
      axis = onnx::normalizeAxis(static_cast<int64_t>(*op.getAxis()), rank);
      if (!axis)
        return op.emitOpError("has 'axis' out of range");
    }
    // The items as rows of a [items, size] matrix: the elements, or the
    // slices along `axis` moved to the front.
    SmallVector<int64_t> perm;
    Value moved = x;
    SmallVector<OpFoldResult> dims = getDimSizes(b, loc, x);
    SmallVector<OpFoldResult> movedDims = dims;
    SmallVector<int64_t> movedShape(xType.getShape());
    if (axis && *axis != 0) {
      perm.push_back(*axis);
      for (int64_t d = 0; d < rank; ++d)
        if (d != *axis)
          perm.push_back(d);
      movedDims.clear();
      movedShape.clear();
      for (int64_t p : perm) {
        movedDims.push_back(dims[p]);
        movedShape.push_back(xType.getDimSize(p));
      }
      Value init = createEmpty(
          b, loc, RankedTensorType::get(movedShape, element), movedDims);
      moved = b.create<linalg::TransposeOp>(x, init, perm).getResult().front();
    }
    Value items, size;
    int64_t staticItems, staticSize;
    if (axis) {
      items = toValue(b, loc, movedDims[0]);
      size = createProduct(b, loc, ArrayRef(movedDims).drop_front());
      staticItems = movedShape[0];
      staticSize =
          onnx::detail::productOfDims(ArrayRef(movedShape).drop_front());
    } else {
      items = createProduct(b, loc, dims);
      size = createIndex(b, loc, 1);
      staticItems = onnx::detail::productOfDims(movedShape);
      staticSize = 1;
    }
    auto matrixType = RankedTensorType::get({staticItems, staticSize}, element);
    Value matrix =
        reshapeThroughFlat(b, loc, moved, matrixType,
                           {getAsOpFoldResult(items), getAsOpFoldResult(size)});
    Value zero = createIndex(b, loc, 0);
    auto indexVector = RankedTensorType::get({staticItems}, b.getIndexType());
    // first[i]: the first item equal to item i.
    Value first = createEmpty(b, loc, indexVector, {getAsOpFoldResult(items)});
    first = forLoop(
        b, loc, zero, items, ValueRange{first},
        [&](OpBuilder &nb, Location l, Value i, ValueRange it) {
          ImplicitLocOpBuilder e(l, nb);
          Value found = forLoop(
              e, l, zero, i, ValueRange{i},
              [&](OpBuilder &jb, Location jl, Value j, ValueRange jt) {
                ImplicitLocOpBuilder je(jl, jb);
                Value same =
                    compareRows(je, matrix, size, j, i, isUnsigned).first;
                Value unset = je.create<arith::CmpIOp>(arith::CmpIPredicate::eq,
                                                       jt[0], i);
                Value take = je.create<arith::AndIOp>(same, unset);
                return SmallVector<Value>{
                    je.create<arith::SelectOp>(take, j, jt[0])};
              })[0];
          return SmallVector<Value>{
              e.create<tensor::InsertOp>(found, it[0], i)};
        })[0];
    auto isFirstAt = [&](ImplicitLocOpBuilder &e, Value i) -> Value {
      return e.create<arith::CmpIOp>(arith::CmpIPredicate::eq,
                                     e.create<tensor::ExtractOp>(first, i), i);
    };
    // rank[i] of each first item: the unique items before it, in value
    // order when sorted, else in order of first occurrence.
    bool sorted = op.getSorted() != 0;
    Value ranks = createEmpty(b, loc, indexVector, {getAsOpFoldResult(items)});
    SmallVector<Value> counted = forLoop(
        b, loc, zero, items, ValueRange{ranks, zero},
        [&](OpBuilder &nb, Location l, Value i, ValueRange it) {
          ImplicitLocOpBuilder e(l, nb);
          Value before = forLoop(
              e, l, zero, sorted ? items : i, ValueRange{zero},
              [&](OpBuilder &jb, Location jl, Value j, ValueRange jt) {
                ImplicitLocOpBuilder je(jl, jb);
                Value counts = isFirstAt(je, j);
                if (sorted)
                  counts = je.create<arith::AndIOp>(
                      counts,
                      compareRows(je, matrix, size, j, i, isUnsigned).second);
                return SmallVector<Value>{je.create<arith::SelectOp>(
                    counts, addOne(je, jl, jt[0]), jt[0])};
              })[0];
          Value unique = isFirstAt(e, i);
          return SmallVector<Value>{
              e.create<tensor::InsertOp>(before, it[0], i),
              e.create<arith::SelectOp>(unique, addOne(e, l, it[1]), it[1])};
        });
    ranks = counted[0];
    Value numUnique = counted[1];
    OpFoldResult u = getAsOpFoldResult(numUnique);
    auto i64 = b.getI64Type();
    auto dynVector = RankedTensorType::get({ShapedType::kDynamic}, i64);
    Value values = createEmpty(
        b, loc,
        RankedTensorType::get({ShapedType::kDynamic, staticSize}, element),
        {u, getAsOpFoldResult(size)});
    Value indices = createEmpty(b, loc, dynVector, {u});
    Value counts =
        createFilled(b, loc, dynVector, {u}, createScalar(b, loc, i64, 0));
    Value inverse =
        createEmpty(b, loc, RankedTensorType::get({staticItems}, i64),
                    {getAsOpFoldResult(items)});
    SmallVector<OpFoldResult> sliceSizes{b.getIndexAttr(1),
                                         getAsOpFoldResult(size)};
    SmallVector<OpFoldResult> strides{b.getIndexAttr(1), b.getIndexAttr(1)};
    SmallVector<Value> filled = forLoop(
        b, loc, zero, items, ValueRange{values, indices, counts, inverse},
        [&](OpBuilder &nb, Location l, Value i, ValueRange it) {
          ImplicitLocOpBuilder e(l, nb);
          Value r = e.create<tensor::ExtractOp>(
              ranks, ValueRange{e.create<tensor::ExtractOp>(first, i)});
          Value r64 = e.create<arith::IndexCastOp>(i64, r);
          Value inv = e.create<tensor::InsertOp>(r64, it[3], i);
          Value c = e.create<tensor::ExtractOp>(it[2], r);
          Value cnt = e.create<tensor::InsertOp>(
              e.create<arith::AddIOp>(
                  c, e.create<arith::ConstantOp>(e.getI64IntegerAttr(1))),
              it[2], r);
          SmallVector<Value> kept{it[0], it[1]};
          SmallVector<Value> written = ifThen(
              e, l, isFirstAt(e, i), kept, [&](OpBuilder &tb, Location tl) {
                ImplicitLocOpBuilder t(tl, tb);
                Value row = t.create<tensor::ExtractSliceOp>(
                    matrix, ArrayRef<OpFoldResult>{i, t.getIndexAttr(0)},
                    sliceSizes, strides);
                Value vals = t.create<tensor::InsertSliceOp>(
                    row, it[0], ArrayRef<OpFoldResult>{r, t.getIndexAttr(0)},
                    sliceSizes, strides);
                Value idx = t.create<tensor::InsertOp>(
                    t.create<arith::IndexCastOp>(i64, i), it[1], r);
                return SmallVector<Value>{vals, idx};
              });
          return SmallVector<Value>{written[0], written[1], cnt, inv};
        });
    // Y in the input's layout.
    Value y;
    if (!axis) {
      y = b.create<tensor::CollapseShapeOp>(
          filled[0], ArrayRef<ReassociationIndices>{{0, 1}});
    } else {
      SmallVector<OpFoldResult> yDims(movedDims);
      yDims[0] = u;
      SmallVector<int64_t> yShape(movedShape);
      yShape[0] = ShapedType::kDynamic;
      y = reshapeThroughFlat(b, loc, filled[0],
                             RankedTensorType::get(yShape, element), yDims);
      if (!perm.empty()) {
        SmallVector<int64_t> inversePerm(rank);
        SmallVector<OpFoldResult> outDims(rank);
        SmallVector<int64_t> outShape(rank);
        for (int64_t d = 0; d < rank; ++d) {
          inversePerm[perm[d]] = d;
          outDims[perm[d]] = yDims[d];
          outShape[perm[d]] = yShape[d];
        }
        Value init = createEmpty(
            b, loc, RankedTensorType::get(outShape, element), outDims);
        y = b.create<linalg::TransposeOp>(y, init, inversePerm)
                .getResult()
                .front();
      }
    }
    rewriter.replaceOp(op, {castTo(b, loc, y, resultTypes[0]),
                            castTo(b, loc, filled[1], resultTypes[1]),
                            castTo(b, loc, filled[3], resultTypes[2]),
                            castTo(b, loc, filled[2], resultTypes[3])});
    return success();
  }
};
} // namespace

void onnxc::populateONNXSelectionToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<NonZeroLowering, CompressLowering, NonMaxSuppressionLowering,
               UniqueLowering>(patterns.getContext());
}

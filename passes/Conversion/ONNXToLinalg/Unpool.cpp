//===- Unpool.cpp - onnx MaxUnpool, MelWeightMatrix, RoiAlign to linalg ---===//
//
// MaxUnpool fills a flat tensor with zeros and scatters X into it with an
// scf.for over X's elements (an index outside it is skipped), then reshapes
// it to the unpooled dims; with output_shape, that tensor is then placed at
// the start of zeros of output_shape. MelWeightMatrix is one linalg.generic
// over the matrix that computes each filter's three band edges in its body.
// RoiAlign is one linalg.generic over the output whose body loops over the
// bin's grid of bilinear samples.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

namespace {

struct MaxUnpoolLowering : public ONNXToLinalgPattern<onnx::MaxUnpoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::MaxUnpoolOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value x = adaptor.getX();
    int64_t rank = resultType.getRank();
    bool hasOutputShape = !onnx::isNoValue(op.getOutputShape());
    // The unpooled dims: (in - 1) * stride - pad_begin - pad_end + kernel,
    // without the pads when output_shape is given (which ignores them).
    ArrayRef<int64_t> kernel = op.getKernelShape();
    std::optional<ArrayRef<int64_t>> strides = op.getStrides();
    std::optional<ArrayRef<int64_t>> pads = op.getPads();
    int64_t spatial = rank - 2;
    SmallVector<OpFoldResult> sizes = {getDimSize(b, loc, x, 0),
                                       getDimSize(b, loc, x, 1)};
    SmallVector<int64_t> unpooledShape(rank, ShapedType::kDynamic);
    auto xType = cast<RankedTensorType>(x.getType());
    for (int64_t d = 0; d < 2; ++d)
      unpooledShape[d] = xType.getDimSize(d);
    for (int64_t d = 0; d < spatial; ++d) {
      int64_t stride = strides ? (*strides)[d] : 1;
      int64_t padding =
          pads && !hasOutputShape ? (*pads)[d] + (*pads)[d + spatial] : 0;
      int64_t in = xType.getDimSize(d + 2);
      if (!ShapedType::isDynamic(in)) {
        unpooledShape[d + 2] = (in - 1) * stride - padding + kernel[d];
        sizes.push_back(b.getIndexAttr(unpooledShape[d + 2]));
        continue;
      }
      Value inValue = toValue(b, loc, getDimSize(b, loc, x, d + 2));
      Value size = b.create<arith::MulIOp>(
          b.create<arith::SubIOp>(inValue, createIndex(b, loc, 1)),
          createIndex(b, loc, stride));
      size = b.create<arith::AddIOp>(size,
                                     createIndex(b, loc, kernel[d] - padding));
      sizes.push_back(size);
    }
    auto unpooledType =
        RankedTensorType::get(unpooledShape, resultType.getElementType());
    if (!hasOutputShape) {
      // Static dims of the result win over the computed ones.
      for (int64_t d = 0; d < rank; ++d)
        if (!resultType.isDynamicDim(d))
          sizes[d] = b.getIndexAttr(resultType.getDimSize(d));
      unpooledType = resultType;
    }

    Type elementType = resultType.getElementType();
    Value total = createProduct(b, loc, sizes);
    int64_t flatSize = unpooledType.hasStaticShape()
                           ? unpooledType.getNumElements()
                           : ShapedType::kDynamic;
    auto flatType = RankedTensorType::get({flatSize}, elementType);
    Value zeros = createFilled(b, loc, flatType, {OpFoldResult(total)},
                               createScalar(b, loc, elementType, 0.0));

    Value xFlat =
        b.create<tensor::CollapseShapeOp>(x, collapseAll(xType.getRank()));
    Value indices = adaptor.getI();
    Value indicesFlat = b.create<tensor::CollapseShapeOp>(
        indices,
        collapseAll(cast<RankedTensorType>(indices.getType()).getRank()));
    Value count = createProduct(b, loc, getDimSizes(b, loc, x));
    Value zero = createIndex(b, loc, 0);
    auto loop = b.create<scf::ForOp>(
        zero, count, createIndex(b, loc, 1), ValueRange{zeros},
        [&](OpBuilder &nb, Location l, Value k, ValueRange acc) {
          Value value = nb.create<tensor::ExtractOp>(l, xFlat, k);
          Value index = nb.create<arith::IndexCastOp>(
              l, nb.getIndexType(),
              nb.create<tensor::ExtractOp>(l, indicesFlat, k));
          Value inRange = nb.create<arith::AndIOp>(
              l,
              nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, index,
                                       zero),
              nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, index,
                                       total));
          auto ifOp = nb.create<scf::IfOp>(
              l, inRange,
              [&](OpBuilder &tb, Location tl) {
                Value inserted = tb.create<tensor::InsertOp>(
                    tl, value, acc.front(), ValueRange{index});
                tb.create<scf::YieldOp>(tl, inserted);
              },
              [&](OpBuilder &eb, Location el) {
                eb.create<scf::YieldOp>(el, acc.front());
              });
          nb.create<scf::YieldOp>(l, ifOp.getResults());
        });
    Value result =
        reshapeThroughFlat(b, loc, loop.getResult(0), unpooledType, sizes);
    if (hasOutputShape) {
      // The unpooled tensor at the start of zeros of output_shape, cut where
      // output_shape is smaller (as the ONNX backend tests expect).
      SmallVector<OpFoldResult> outSizes;
      for (Value size : getIndexValues(b, loc, adaptor.getOutputShape(),
                                       op.getOutputShape(), rank))
        outSizes.push_back(size);
      for (int64_t d = 0; d < rank; ++d)
        if (!resultType.isDynamicDim(d))
          outSizes[d] = b.getIndexAttr(resultType.getDimSize(d));
      Value out = createFilled(b, loc, resultType, outSizes,
                               createScalar(b, loc, elementType, 0.0));
      SmallVector<OpFoldResult> common, offsets(rank, b.getIndexAttr(0)),
          steps(rank, b.getIndexAttr(1));
      for (int64_t d = 0; d < rank; ++d)
        common.push_back(b.createOrFold<arith::MinSIOp>(
            toValue(b, loc, sizes[d]), toValue(b, loc, outSizes[d])));
      Value part =
          b.create<tensor::ExtractSliceOp>(result, offsets, common, steps);
      result =
          b.create<tensor::InsertSliceOp>(part, out, offsets, common, steps);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `value` (a float scalar) converted to the float type `type`.
static Value convertFloat(ImplicitLocOpBuilder &b, Value value, Type type) {
  unsigned from = value.getType().getIntOrFloatBitWidth();
  unsigned to = type.getIntOrFloatBitWidth();
  if (value.getType() == type)
    return value;
  if (from < to)
    return b.create<arith::ExtFOp>(type, value);
  if (from > to)
    return b.create<arith::TruncFOp>(type, value);
  // f16 <-> bf16: through f32.
  return b.create<arith::TruncFOp>(
      type, b.create<arith::ExtFOp>(b.getF32Type(), value));
}

struct MelWeightMatrixLowering
    : public ONNXToLinalgPattern<onnx::MelWeightMatrixOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::MelWeightMatrixOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Type f64 = b.getF64Type();
    Value numBins =
        getIndexScalar(b, loc, adaptor.getNumMelBins(), op.getNumMelBins());
    Value dftLength =
        getIndexScalar(b, loc, adaptor.getDftLength(), op.getDftLength());
    Value sampleRate = b.create<arith::SIToFPOp>(
        f64, extractScalar(b, loc, adaptor.getSampleRate()));
    // The edges in mel and the mel step are computed in the type of the
    // edges (at least f32), the rest in f64, as the reference does.
    Value lower = extractScalar(b, loc, adaptor.getLowerEdgeHertz());
    Value upper = extractScalar(b, loc, adaptor.getUpperEdgeHertz());
    Type edgeType = lower.getType().getIntOrFloatBitWidth() < 32
                        ? Type(b.getF32Type())
                        : lower.getType();
    auto edgeConstant = [&](double value) {
      return createScalar(b, loc, edgeType, value);
    };
    auto toMel = [&](Value hz) {
      hz = convertFloat(b, hz, edgeType);
      Value ratio = b.create<arith::AddFOp>(
          edgeConstant(1.0), b.create<arith::DivFOp>(hz, edgeConstant(700.0)));
      return b.create<arith::MulFOp>(edgeConstant(2595.0),
                                     b.create<math::Log10Op>(ratio));
    };
    Value lowMel = toMel(lower);
    Value highMel = toMel(upper);
    Value points = b.create<arith::AddIOp>(numBins, createIndex(b, loc, 2));
    Value melStep =
        b.create<arith::DivFOp>(b.create<arith::SubFOp>(highMel, lowMel),
                                indexToElement(b, loc, points, edgeType));
    melStep = convertFloat(b, melStep, f64);
    lowMel = convertFloat(b, lowMel, f64);
    Value lengthPlusOne = indexToElement(
        b, loc, b.create<arith::AddIOp>(dftLength, createIndex(b, loc, 1)),
        f64);

    SmallVector<OpFoldResult> sizes = {
        OpFoldResult(b.create<arith::AddIOp>(
            b.create<arith::DivUIOp>(dftLength, createIndex(b, loc, 2)),
            createIndex(b, loc, 1))),
        OpFoldResult(numBins)};
    for (int64_t d = 0; d < 2; ++d)
      if (!resultType.isDynamicDim(d))
        sizes[d] = b.getIndexAttr(resultType.getDimSize(d));
    Value init = createEmpty(b, loc, resultType, sizes);
    Type elementType = resultType.getElementType();
    auto generic = b.create<linalg::GenericOp>(
        TypeRange{resultType}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{b.getMultiDimIdentityMap(2)}, getParallel(2),
        [&](OpBuilder &nb, Location l, ValueRange) {
          ImplicitLocOpBuilder bb(l, nb);
          auto constant = [&](double value) {
            return createScalar(bb, l, f64, value);
          };
          Value j = indexToElement(bb, l, bb.create<linalg::IndexOp>(0), f64);
          Value i = indexToElement(bb, l, bb.create<linalg::IndexOp>(1), f64);
          // The spectrogram bin of band edge `point`.
          auto bin = [&](Value point) {
            Value mel = bb.create<arith::AddFOp>(
                bb.create<arith::MulFOp>(point, melStep), lowMel);
            Value hz = bb.create<arith::MulFOp>(
                constant(700.0),
                bb.create<arith::SubFOp>(
                    bb.create<math::PowFOp>(
                        constant(10.0),
                        bb.create<arith::DivFOp>(mel, constant(2595.0))),
                    constant(1.0)));
            return bb.create<math::FloorOp>(bb.create<arith::DivFOp>(
                bb.create<arith::MulFOp>(lengthPlusOne, hz), sampleRate));
          };
          Value left = bin(i);
          Value center = bin(bb.create<arith::AddFOp>(i, constant(1.0)));
          Value right = bin(bb.create<arith::AddFOp>(i, constant(2.0)));
          auto cmp = [&](arith::CmpFPredicate pred, Value lhs, Value rhs) {
            return bb.create<arith::CmpFOp>(pred, lhs, rhs);
          };
          // Rising edge, left <= j <= center (1 at j == center == left).
          Value rising = bb.create<arith::AndIOp>(
              cmp(arith::CmpFPredicate::OLE, left, j),
              cmp(arith::CmpFPredicate::OLE, j, center));
          Value riseWidth = bb.create<arith::SubFOp>(center, left);
          Value riseValue = bb.create<arith::SelectOp>(
              cmp(arith::CmpFPredicate::OEQ, riseWidth, constant(0.0)),
              constant(1.0),
              bb.create<arith::DivFOp>(bb.create<arith::SubFOp>(j, left),
                                       riseWidth));
          // Falling edge, center < j < right.
          Value falling = bb.create<arith::AndIOp>(
              cmp(arith::CmpFPredicate::OLT, center, j),
              cmp(arith::CmpFPredicate::OLT, j, right));
          Value fallValue =
              bb.create<arith::DivFOp>(bb.create<arith::SubFOp>(right, j),
                                       bb.create<arith::SubFOp>(right, center));
          Value value = bb.create<arith::SelectOp>(
              rising, riseValue,
              bb.create<arith::SelectOp>(falling, fallValue, constant(0.0)));
          bb.create<linalg::YieldOp>(convertFloat(bb, value, elementType));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// The bilinear sample of X[batch, channel] at (y, x), as RoiAlign takes it:
/// the four weighted corner values, or zeros outside [-1, H] x [-1, W].
static SmallVector<Value> sampleCorners(ImplicitLocOpBuilder &b, Value x,
                                        Value batch, Value channel, Value y,
                                        Value xPos, Value height, Value width) {
  Type type = y.getType();
  Location loc = b.getLoc();
  auto constant = [&](double value) {
    return createScalar(b, loc, type, value);
  };
  Value heightF = indexToElement(b, loc, height, type);
  Value widthF = indexToElement(b, loc, width, type);
  Value outside = b.create<arith::OrIOp>(
      b.create<arith::OrIOp>(
          b.create<arith::CmpFOp>(arith::CmpFPredicate::OLT, y, constant(-1.0)),
          b.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, y, heightF)),
      b.create<arith::OrIOp>(
          b.create<arith::CmpFOp>(arith::CmpFPredicate::OLT, xPos,
                                  constant(-1.0)),
          b.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, xPos, widthF)));
  Value one = createIndex(b, loc, 1);
  // The low and high corner and the fraction past the low one on one axis.
  auto corners = [&](Value pos, Value size) -> std::array<Value, 3> {
    pos = b.create<arith::MaximumFOp>(pos, constant(0.0));
    Value last = b.create<arith::SubIOp>(size, one);
    // Clamp before converting so that far-out positions stay in range.
    pos = b.create<arith::MinimumFOp>(pos, indexToElement(b, loc, size, type));
    Value low = b.create<arith::IndexCastOp>(
        b.getIndexType(), b.create<arith::FPToSIOp>(b.getI64Type(), pos));
    Value atEnd = b.create<arith::CmpIOp>(arith::CmpIPredicate::sge, low, last);
    Value high = b.create<arith::SelectOp>(atEnd, last,
                                           b.create<arith::AddIOp>(low, one));
    low = b.create<arith::SelectOp>(atEnd, last, low);
    Value fraction =
        b.create<arith::SubFOp>(pos, indexToElement(b, loc, low, type));
    fraction = b.create<arith::SelectOp>(atEnd, constant(0.0), fraction);
    return {low, high, fraction};
  };
  auto [yLow, yHigh, ly] = corners(y, height);
  auto [xLow, xHigh, lx] = corners(xPos, width);
  Value hy = b.create<arith::SubFOp>(constant(1.0), ly);
  Value hx = b.create<arith::SubFOp>(constant(1.0), lx);
  auto weighted = [&](Value weightY, Value weightX, Value row, Value col) {
    Value value =
        b.create<tensor::ExtractOp>(x, ValueRange{batch, channel, row, col});
    Value weight = b.create<arith::MulFOp>(weightY, weightX);
    return b.create<arith::SelectOp>(outside, constant(0.0),
                                     b.create<arith::MulFOp>(weight, value));
  };
  return {weighted(hy, hx, yLow, xLow), weighted(hy, lx, yLow, xHigh),
          weighted(ly, hx, yHigh, xLow), weighted(ly, lx, yHigh, xHigh)};
}

struct RoiAlignLowering : public ONNXToLinalgPattern<onnx::RoiAlignOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::RoiAlignOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value x = adaptor.getX(), rois = adaptor.getRois();
    Value batchIndices = adaptor.getBatchIndices();
    Type type = resultType.getElementType();
    bool halfPixel = op.getCoordinateTransformationMode() == "half_pixel";
    bool isMax = op.getMode() == "max";
    auto outH = static_cast<int64_t>(op.getOutputHeight());
    auto outW = static_cast<int64_t>(op.getOutputWidth());
    auto samplingRatio = static_cast<int64_t>(op.getSamplingRatio());
    double scale = op.getSpatialScale().convertToDouble();
    Value height = toValue(b, loc, getDimSize(b, loc, x, 2));
    Value width = toValue(b, loc, getDimSize(b, loc, x, 3));
    SmallVector<OpFoldResult> sizes = {
        getDimSize(b, loc, rois, 0), getDimSize(b, loc, x, 1),
        b.getIndexAttr(outH), b.getIndexAttr(outW)};
    if (!resultType.isDynamicDim(0))
      sizes[0] = b.getIndexAttr(resultType.getDimSize(0));
    Value init = createEmpty(b, loc, resultType, sizes);
    auto generic = b.create<linalg::GenericOp>(
        TypeRange{resultType}, ValueRange{}, ValueRange{init},
        SmallVector<AffineMap>{b.getMultiDimIdentityMap(4)}, getParallel(4),
        [&](OpBuilder &nb, Location l, ValueRange) {
          ImplicitLocOpBuilder bb(l, nb);
          auto constant = [&](double value) {
            return createScalar(bb, l, type, value);
          };
          Value roi = bb.create<linalg::IndexOp>(0);
          Value channel = bb.create<linalg::IndexOp>(1);
          Value ph = indexToElement(bb, l, bb.create<linalg::IndexOp>(2), type);
          Value pw = indexToElement(bb, l, bb.create<linalg::IndexOp>(3), type);
          Value batch = bb.create<arith::IndexCastOp>(
              bb.getIndexType(),
              bb.create<tensor::ExtractOp>(batchIndices, ValueRange{roi}));
          auto coordinate = [&](int64_t column) {
            Value value = bb.create<tensor::ExtractOp>(
                rois, ValueRange{roi, createIndex(bb, l, column)});
            value = convertFloat(bb, value, type);
            value = bb.create<arith::MulFOp>(value, constant(scale));
            return halfPixel
                       ? Value(bb.create<arith::SubFOp>(value, constant(0.5)))
                       : value;
          };
          Value startW = coordinate(0), startH = coordinate(1);
          Value roiW = bb.create<arith::SubFOp>(coordinate(2), startW);
          Value roiH = bb.create<arith::SubFOp>(coordinate(3), startH);
          if (!halfPixel) {
            roiW = bb.create<arith::MaximumFOp>(roiW, constant(1.0));
            roiH = bb.create<arith::MaximumFOp>(roiH, constant(1.0));
          }
          Value binH = bb.create<arith::DivFOp>(roiH, constant(outH));
          Value binW = bb.create<arith::DivFOp>(roiW, constant(outW));
          auto gridOf = [&](Value bin) -> Value {
            if (samplingRatio > 0)
              return createIndex(bb, l, samplingRatio);
            Value grid = bb.create<math::CeilOp>(bin);
            grid = bb.create<arith::MaximumFOp>(grid, constant(0.0));
            return bb.create<arith::IndexCastOp>(
                bb.getIndexType(),
                bb.create<arith::FPToSIOp>(bb.getI64Type(), grid));
          };
          Value gridH = gridOf(binH), gridW = gridOf(binW);
          Value gridHF = indexToElement(bb, l, gridH, type);
          Value gridWF = indexToElement(bb, l, gridW, type);
          Value count = bb.create<arith::MulIOp>(gridH, gridW);
          Value zero = createIndex(bb, l, 0), one = createIndex(bb, l, 1);
          Value start = isMax ? createLowest(bb, l, type) : constant(0.0);
          // First sample position of the bin and the step between samples.
          Value y0 = bb.create<arith::AddFOp>(
              startH, bb.create<arith::MulFOp>(ph, binH));
          Value x0 = bb.create<arith::AddFOp>(
              startW, bb.create<arith::MulFOp>(pw, binW));
          auto rows = bb.create<scf::ForOp>(
              zero, gridH, one, ValueRange{start},
              [&](OpBuilder &rb, Location rl, Value iy, ValueRange rowAcc) {
                ImplicitLocOpBuilder r(rl, rb);
                Value fy = r.create<arith::AddFOp>(
                    indexToElement(r, rl, iy, type), constant(0.5));
                Value y = r.create<arith::AddFOp>(
                    y0, r.create<arith::DivFOp>(
                            r.create<arith::MulFOp>(fy, binH), gridHF));
                auto cols = r.create<scf::ForOp>(
                    zero, gridW, one, rowAcc,
                    [&](OpBuilder &cb, Location cl, Value ix, ValueRange acc) {
                      ImplicitLocOpBuilder c(cl, cb);
                      Value fx = c.create<arith::AddFOp>(
                          indexToElement(c, cl, ix, type), constant(0.5));
                      Value xPos = c.create<arith::AddFOp>(
                          x0, c.create<arith::DivFOp>(
                                  c.create<arith::MulFOp>(fx, binW), gridWF));
                      SmallVector<Value> parts = sampleCorners(
                          c, x, batch, channel, y, xPos, height, width);
                      Value next = acc.front();
                      if (isMax) {
                        Value sample = parts[0];
                        for (Value part : ArrayRef(parts).drop_front())
                          sample = c.create<arith::MaximumFOp>(sample, part);
                        next = c.create<arith::MaximumFOp>(next, sample);
                      } else {
                        for (Value part : parts)
                          next = c.create<arith::AddFOp>(next, part);
                      }
                      c.create<scf::YieldOp>(next);
                    });
                r.create<scf::YieldOp>(cols.getResults());
              });
          Value value = rows.getResult(0);
          Value empty =
              bb.create<arith::CmpIOp>(arith::CmpIPredicate::eq, count, zero);
          if (!isMax) {
            Value countF = indexToElement(bb, l, count, type);
            value = bb.create<arith::DivFOp>(
                value, bb.create<arith::MaximumFOp>(countF, constant(1.0)));
          }
          value = bb.create<arith::SelectOp>(empty, constant(0.0), value);
          bb.create<linalg::YieldOp>(value);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void onnxc::populateONNXUnpoolToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxUnpoolLowering, MelWeightMatrixLowering, RoiAlignLowering>(
      patterns.getContext());
}

//===- Resize.cpp - onnx Resize and GridSample to linalg.generic gathers --===//
//
// The output size of each dim is `sizes[d]` or `floor(in * scales[d])`,
// computed at run time unless constant; with both, the size is `sizes[d]`
// and the coordinates map by `scales[d]`. Each output coordinate maps to a
// source coordinate along each dim (in f64, as the ONNX reference computes
// it). Nearest is one linalg.generic over the output that rounds the source
// coordinates and gathers with tensor.extract. Linear and cubic are separable:
// one linalg.generic per resized dim, each a weighted sum of the 2 or 4
// clamped neighbours along that dim; when the dim's sizes and scale are
// constant, the neighbours' indices and weights are constant tables computed
// here (read along that dim), not coordinate math per element. Dims whose
// scale is a constant 1 are left alone. With antialias, a downsampled dim's
// filter is stretched by 1 / scale: each element loops over the taps the
// scale asks for (scf.for) and normalizes their weights.
//
// GridSample is one linalg.generic over the output: each element reads its
// grid coordinates, maps them to pixel coordinates (with the padding mode's
// clipping or reflection) and gathers 1, 2^r or 4^r neighbours (r = 2 or 3
// spatial dims), as PyTorch's grid_sample does.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The source coordinate of output index `i` along a dim of `in` elements
/// resized to `out` elements, `outWidth` (= scale * in) before rounding, by
/// `scale`, as the ONNX reference computes it (tf_crop_and_resize excepted).
static double sourceCoordinateOf(StringRef coordinates, double i, double in,
                                 double out, double scale, double outWidth) {
  double halfPixel = (i + 0.5) / scale - 0.5;
  if (coordinates == "half_pixel")
    return halfPixel;
  if (coordinates == "half_pixel_symmetric")
    return in / 2 * (1 - out / outWidth) + halfPixel;
  if (coordinates == "pytorch_half_pixel")
    return outWidth == 1.0 ? -0.5 : halfPixel;
  if (coordinates == "asymmetric")
    return i / scale;
  assert(coordinates == "align_corners" && "no table for the coordinate mode");
  return outWidth == 1.0 ? 0.0 : i * (in - 1.0) / (outWidth - 1.0);
}

namespace {
/// The taps of a linear or cubic resize along one dim, computed at compile
/// time: for tap t and output index o, the (clamped) source index
/// `index[t][o]` and its weight `weight[t][o]`.
struct ResizeTable {
  SmallVector<SmallVector<int64_t>> index;
  SmallVector<SmallVector<double>> weight;
};
} // namespace

/// The table of a dim of `in` elements resized to `out` by `scale` (and
/// `outWidth`), with the weights the lowering would compute per element.
static ResizeTable buildResizeTable(StringRef coordinates, bool cubic, double a,
                                    bool excludeOutside, int64_t in,
                                    int64_t out, double scale,
                                    double outWidth) {
  int64_t taps = cubic ? 4 : 2;
  ResizeTable table;
  table.index.assign(taps, SmallVector<int64_t>(out));
  table.weight.assign(taps, SmallVector<double>(out));
  for (int64_t o = 0; o < out; ++o) {
    double coord = sourceCoordinateOf(coordinates, double(o), double(in),
                                      double(out), scale, outWidth);
    double floorF = std::floor(coord);
    double r = coord - floorF;
    int64_t base = static_cast<int64_t>(floorF);
    SmallVector<double> weights;
    if (!cubic) {
      weights = {1.0 - r, r};
    } else {
      auto outer = [&](double t) {
        return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
      };
      auto inner = [&](double t) {
        return ((a + 2) * t - (a + 3)) * t * t + 1;
      };
      weights = {outer(r + 1), inner(r), inner(1 - r), outer(1 - r + 1)};
    }
    double weightSum = 0;
    for (int64_t t = 0; t < taps; ++t) {
      int64_t tap = base + t - (cubic ? 1 : 0);
      if (excludeOutside && (tap < 0 || tap >= in))
        weights[t] = 0;
      weightSum += weights[t];
      table.index[t][o] = std::clamp<int64_t>(tap, 0, in - 1);
    }
    for (int64_t t = 0; t < taps; ++t)
      table.weight[t][o] = excludeOutside ? weights[t] / weightSum : weights[t];
  }
  return table;
}

namespace {
/// What the mapping of one dim needs, as values computed before the loops.
struct ResizeAxis {
  Value inSize, outSize;  // index
  Value scale;            // f64
  Value outWidth;         // f64: scale * in (the reference's output_width)
  Value roiStart, roiEnd; // f64, for tf_crop_and_resize
  bool identity = false;
  /// The scale and output width when constant.
  std::optional<double> constScale, constOutWidth;
};

struct ResizeLowering : public ONNXToLinalgPattern<onnx::ResizeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ResizeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    Type element = resultType.getElementType();
    StringRef mode = op.getMode();
    if (mode != "nearest" && !isa<FloatType>(element))
      return op.emitOpError("with mode '")
             << mode << "' needs a floating-point input (got " << element
             << ")";
    bool hasSizes = !onnx::isNoValue(op.getSizes());
    bool hasScales = !onnx::isNoValue(op.getScales());
    for (auto [param, has, name] :
         {std::make_tuple(adaptor.getSizes(), hasSizes, "sizes"),
          std::make_tuple(adaptor.getScales(), hasScales, "scales")}) {
      std::optional<int64_t> length =
          has ? getStaticLength(param) : std::nullopt;
      if (length && *length != rank)
        return op.emitOpError("expects ") << name << " to hold " << rank
                                          << " values (got " << *length << ")";
    }
    StringRef coordinates = op.getCoordinateTransformationMode();
    bool crop = coordinates == "tf_crop_and_resize";

    Type f64 = rewriter.getF64Type();
    auto toF64 = [&](OpBuilder &b, Location l, Value v) -> Value {
      if (v.getType() == f64)
        return v;
      return b.create<arith::ExtFOp>(l, f64, v);
    };
    auto extractF64 = [&](Value tensor, int64_t i) {
      return toF64(rewriter, loc,
                   rewriter.create<tensor::ExtractOp>(
                       loc, tensor, ValueRange{createIndex(rewriter, loc, i)}));
    };

    // Per-dim sizes and scales.
    SmallVector<ResizeAxis> axes(rank);
    SmallVector<Value> sizeValues;
    if (hasSizes)
      sizeValues = getIndexValues(rewriter, loc, adaptor.getSizes(),
                                  op.getSizes(), rank);
    std::optional<SmallVector<int64_t>> constSizes =
        hasSizes ? onnx::getConstantIntValues(op.getSizes()) : std::nullopt;
    std::optional<SmallVector<double>> constScales =
        hasScales ? onnx::getConstantFloatValues(op.getScales()) : std::nullopt;
    for (int64_t d = 0; d < rank; ++d) {
      ResizeAxis &axis = axes[d];
      axis.inSize = toValue(rewriter, loc, getDimSize(rewriter, loc, x, d));
      Value inF = indexToElement(rewriter, loc, axis.inSize, f64);
      if (hasSizes && hasScales) {
        // The size given, the coordinates mapped by the scale given.
        axis.outSize = sizeValues[d];
        axis.scale = extractF64(adaptor.getScales(), d);
        axis.outWidth = rewriter.create<arith::MulFOp>(loc, axis.scale, inF);
        axis.identity = constSizes && constScales && !xType.isDynamicDim(d) &&
                        (*constScales)[d] == 1.0 &&
                        (*constSizes)[d] == xType.getDimSize(d);
        if (constScales && !xType.isDynamicDim(d)) {
          axis.constScale = (*constScales)[d];
          if (getElementTypeOrSelf(op.getScales()) != f64)
            axis.constScale = double(float(*axis.constScale));
          axis.constOutWidth = *axis.constScale * double(xType.getDimSize(d));
        }
      } else if (hasSizes) {
        axis.outSize = sizeValues[d];
        axis.outWidth = indexToElement(rewriter, loc, axis.outSize, f64);
        axis.scale = rewriter.create<arith::DivFOp>(loc, axis.outWidth, inF);
        axis.identity = constSizes && !xType.isDynamicDim(d) &&
                        (*constSizes)[d] == xType.getDimSize(d);
        if (constSizes && !xType.isDynamicDim(d)) {
          axis.constOutWidth = double((*constSizes)[d]);
          axis.constScale = *axis.constOutWidth / double(xType.getDimSize(d));
        }
      } else {
        axis.scale = extractF64(adaptor.getScales(), d);
        axis.outWidth = rewriter.create<arith::MulFOp>(loc, axis.scale, inF);
        Value floored = rewriter.create<math::FloorOp>(loc, axis.outWidth);
        Value asInt = rewriter.create<arith::FPToSIOp>(
            loc, rewriter.getI64Type(), floored);
        axis.outSize = rewriter.create<arith::IndexCastOp>(
            loc, rewriter.getIndexType(), asInt);
        axis.identity = constScales && (*constScales)[d] == 1.0;
        if (constScales && !xType.isDynamicDim(d)) {
          // The f32 scale, extended to f64 as the IR does.
          axis.constScale = double(float((*constScales)[d]));
          axis.constOutWidth = *axis.constScale * double(xType.getDimSize(d));
        }
      }
      if (!resultType.isDynamicDim(d))
        axis.outSize = createIndex(rewriter, loc, resultType.getDimSize(d));
      if (crop) {
        axis.identity = false;
        axis.roiStart = extractF64(adaptor.getRoi(), d);
        axis.roiEnd = extractF64(adaptor.getRoi(), rank + d);
      }
    }

    // The source coordinate of output index `i` along `axis`.
    auto sourceCoordinate = [&](OpBuilder &b, Location l, Value i,
                                const ResizeAxis &axis) -> Value {
      Value iF = indexToElement(b, l, i, f64);
      auto c = [&](double v) { return createScalar(b, l, f64, v); };
      Value one = c(1.0), half = c(0.5);
      Value inF = indexToElement(b, l, axis.inSize, f64);
      Value widthIsOne = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ,
                                                 axis.outWidth, one);
      auto halfPixel = [&]() -> Value {
        Value shifted = b.create<arith::AddFOp>(l, iF, half);
        Value scaled = b.create<arith::DivFOp>(l, shifted, axis.scale);
        return b.create<arith::SubFOp>(l, scaled, half);
      };
      if (coordinates == "half_pixel")
        return halfPixel();
      if (coordinates == "half_pixel_symmetric") {
        // Centred: shifted by in / 2 * (1 - out / outWidth), where out is
        // the rounded output size.
        Value outF = indexToElement(b, l, axis.outSize, f64);
        Value shrink = b.create<arith::SubFOp>(
            l, one, b.create<arith::DivFOp>(l, outF, axis.outWidth));
        Value offset = b.create<arith::MulFOp>(
            l, b.create<arith::DivFOp>(l, inF, c(2.0)), shrink);
        return b.create<arith::AddFOp>(l, offset, halfPixel());
      }
      if (coordinates == "pytorch_half_pixel")
        return b.create<arith::SelectOp>(l, widthIsOne, c(-0.5), halfPixel());
      if (coordinates == "asymmetric")
        return b.create<arith::DivFOp>(l, iF, axis.scale);
      Value inLast = b.create<arith::SubFOp>(l, inF, one);
      Value outLast = b.create<arith::SubFOp>(l, axis.outWidth, one);
      if (coordinates == "align_corners") {
        Value mapped = b.create<arith::DivFOp>(
            l, b.create<arith::MulFOp>(l, iF, inLast), outLast);
        return b.create<arith::SelectOp>(l, widthIsOne, c(0.0), mapped);
      }
      // tf_crop_and_resize.
      Value extent = b.create<arith::MulFOp>(
          l, b.create<arith::SubFOp>(l, axis.roiEnd, axis.roiStart), inLast);
      Value centered = b.create<arith::DivFOp>(l, extent, c(2.0));
      Value mapped = b.create<arith::DivFOp>(
          l, b.create<arith::MulFOp>(l, iF, extent), outLast);
      Value offset = b.create<arith::MulFOp>(l, axis.roiStart, inLast);
      return b.create<arith::AddFOp>(
          l, b.create<arith::SelectOp>(l, widthIsOne, centered, mapped),
          offset);
    };
    // True where a tf_crop_and_resize coordinate falls outside the input.
    auto outside = [&](OpBuilder &b, Location l, Value coord,
                       const ResizeAxis &axis) -> Value {
      Value inLast =
          b.create<arith::SubFOp>(l, indexToElement(b, l, axis.inSize, f64),
                                  createScalar(b, l, f64, 1));
      Value below = b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLT, coord,
                                            createScalar(b, l, f64, 0));
      Value above =
          b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OGT, coord, inLast);
      return b.create<arith::OrIOp>(l, below, above);
    };
    auto clampIndex = [](OpBuilder &b, Location l, Value index, Value size) {
      Value zero = createIndex(b, l, 0);
      Value last = b.create<arith::SubIOp>(l, size, createIndex(b, l, 1));
      return b.create<arith::MinSIOp>(
          l, b.create<arith::MaxSIOp>(l, index, zero), last);
    };
    auto floorToIndex = [](OpBuilder &b, Location l, Value v) -> Value {
      Value i64 = b.create<arith::FPToSIOp>(l, b.getI64Type(),
                                            b.create<math::FloorOp>(l, v));
      return b.create<arith::IndexCastOp>(l, b.getIndexType(), i64);
    };
    Value extrapolation =
        crop ? createScalar(rewriter, loc, getSignlessType(element),
                            op.getExtrapolationValue().convertToDouble())
             : Value();

    SmallVector<OpFoldResult> resultSizes;
    for (const ResizeAxis &axis : axes)
      resultSizes.push_back(axis.outSize);

    if (mode == "nearest") {
      StringRef rounding = op.getNearestMode();
      Value empty = createEmpty(rewriter, loc, resultType, resultSizes);
      auto generic = rewriter.create<linalg::GenericOp>(
          loc, TypeRange{resultType}, ValueRange{}, ValueRange{empty},
          ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
          getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
            SmallVector<Value> indices;
            Value anyOutside;
            for (int64_t d = 0; d < rank; ++d) {
              Value i = b.create<linalg::IndexOp>(l, d);
              const ResizeAxis &axis = axes[d];
              if (axis.identity) {
                indices.push_back(i);
                continue;
              }
              Value coord = sourceCoordinate(b, l, i, axis);
              if (crop) {
                Value out = outside(b, l, coord, axis);
                anyOutside = anyOutside
                                 ? b.create<arith::OrIOp>(l, anyOutside, out)
                                 : out;
              }
              Value floorF = b.create<math::FloorOp>(l, coord);
              Value ratio = b.create<arith::SubFOp>(l, coord, floorF);
              Value index = floorToIndex(b, l, coord);
              Value up;
              auto cmp = [&](arith::CmpFPredicate p, double v) -> Value {
                return b.create<arith::CmpFOp>(l, p, ratio,
                                               createScalar(b, l, f64, v));
              };
              if (rounding == "round_prefer_floor")
                up = cmp(arith::CmpFPredicate::OGT, 0.5);
              else if (rounding == "round_prefer_ceil")
                up = cmp(arith::CmpFPredicate::OGE, 0.5);
              else if (rounding == "ceil")
                up = cmp(arith::CmpFPredicate::OGT, 0.0);
              if (up)
                index = b.create<arith::AddIOp>(
                    l, index,
                    b.create<arith::IndexCastOp>(
                        l, b.getIndexType(),
                        b.create<arith::ExtUIOp>(l, b.getI64Type(), up)));
              indices.push_back(clampIndex(b, l, index, axis.inSize));
            }
            Value v = b.create<tensor::ExtractOp>(l, x, indices);
            if (anyOutside) {
              Value signless = toSignless(b, l, v);
              v = fromSignless(b, l,
                               b.create<arith::SelectOp>(
                                   l, anyOutside, extrapolation, signless),
                               element);
            }
            b.create<linalg::YieldOp>(l, v);
          });
      rewriter.replaceOp(op, generic.getResult(0));
      return success();
    }

    // Linear and cubic: one pass per resized dim.
    bool cubic = mode == "cubic";
    int64_t taps = cubic ? 4 : 2;
    double a = op.getCubicCoeffA().convertToDouble();
    bool excludeOutside = op.getExcludeOutside() != 0;
    bool antialias = op.getAntialias() != 0;
    // With antialias, the filter stretched by 1 / min(scale, 1) (so that
    // downsampling averages every input element it covers): a loop over its
    // taps, as many as the scale asks for (perhaps known only at run time),
    // their weights normalized by their sum. Tap i lies at base + i, its
    // distance from the coordinate i - ratio with ratio in (0, 1], as the
    // ONNX reference places it.
    auto antialiasedTaps = [&](OpBuilder &b, Location l, Value source,
                               ArrayRef<Value> indices, int64_t d,
                               const ResizeAxis &axis, Value coord) -> Value {
      auto c = [&](double v) { return createScalar(b, l, f64, v); };
      Value stretch = b.create<arith::MinimumFOp>(l, axis.scale, c(1));
      Value floorF = b.create<math::FloorOp>(l, coord);
      Value ratio = b.create<arith::SubFOp>(l, coord, floorF);
      Value integral =
          b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OEQ, ratio, c(0));
      ratio = b.create<arith::SelectOp>(l, integral, c(1), ratio);
      Value base = floorToIndex(
          b, l,
          b.create<arith::SelectOp>(
              l, integral, b.create<arith::SubFOp>(l, floorF, c(1)), floorF));
      // Taps start .. 1 - start, start = floor(-support / stretch) + 1.
      Value startF = b.create<arith::AddFOp>(
          l,
          b.create<math::FloorOp>(
              l, b.create<arith::DivFOp>(l, c(cubic ? -2 : -1), stretch)),
          c(1));
      Value start = floorToIndex(b, l, startF);
      Value end = b.create<arith::SubIOp>(l, createIndex(b, l, 2), start);
      auto loop = b.create<scf::ForOp>(
          l, start, end, createIndex(b, l, 1), ValueRange{c(0), c(0)},
          [&](OpBuilder &lb, Location ll, Value i, ValueRange acc) {
            auto lc = [&](double v) { return createScalar(lb, ll, f64, v); };
            Value dist = lb.create<math::AbsFOp>(
                ll, lb.create<arith::MulFOp>(
                        ll,
                        lb.create<arith::SubFOp>(
                            ll, indexToElement(lb, ll, i, f64), ratio),
                        stretch));
            Value w;
            if (!cubic) {
              w = lb.create<arith::MaximumFOp>(
                  ll, lb.create<arith::SubFOp>(ll, lc(1), dist), lc(0));
            } else {
              // ((A + 2) t - (A + 3)) t t + 1 within 1, then
              // ((A t - 5A) t + 8A) t - 4A within 2, 0 beyond.
              Value near = lb.create<arith::SubFOp>(
                  ll, lb.create<arith::MulFOp>(ll, lc(a + 2), dist), lc(a + 3));
              near = lb.create<arith::AddFOp>(
                  ll,
                  lb.create<arith::MulFOp>(
                      ll, lb.create<arith::MulFOp>(ll, near, dist), dist),
                  lc(1));
              Value far = lb.create<arith::SubFOp>(
                  ll, lb.create<arith::MulFOp>(ll, lc(a), dist), lc(5 * a));
              far = lb.create<arith::AddFOp>(
                  ll, lb.create<arith::MulFOp>(ll, far, dist), lc(8 * a));
              far = lb.create<arith::SubFOp>(
                  ll, lb.create<arith::MulFOp>(ll, far, dist), lc(4 * a));
              Value withinOne = lb.create<arith::CmpFOp>(
                  ll, arith::CmpFPredicate::OLE, dist, lc(1));
              Value withinTwo = lb.create<arith::CmpFOp>(
                  ll, arith::CmpFPredicate::OLT, dist, lc(2));
              w = lb.create<arith::SelectOp>(
                  ll, withinOne, near,
                  lb.create<arith::SelectOp>(ll, withinTwo, far, lc(0)));
            }
            Value tap = lb.create<arith::AddIOp>(ll, base, i);
            if (excludeOutside) {
              Value inside = lb.create<arith::AndIOp>(
                  ll,
                  lb.create<arith::CmpIOp>(ll, arith::CmpIPredicate::sge, tap,
                                           createIndex(lb, ll, 0)),
                  lb.create<arith::CmpIOp>(ll, arith::CmpIPredicate::slt, tap,
                                           axis.inSize));
              w = lb.create<arith::SelectOp>(ll, inside, w, lc(0));
            }
            SmallVector<Value> at(indices);
            at[d] = clampIndex(lb, ll, tap, axis.inSize);
            Value v =
                toF64(lb, ll, lb.create<tensor::ExtractOp>(ll, source, at));
            lb.create<scf::YieldOp>(
                ll,
                ValueRange{lb.create<arith::AddFOp>(
                               ll, acc[0], lb.create<arith::MulFOp>(ll, w, v)),
                           lb.create<arith::AddFOp>(ll, acc[1], w)});
          });
      return b.create<arith::DivFOp>(l, loop.getResult(0), loop.getResult(1));
    };
    Value current = x;
    SmallVector<int64_t> shape(xType.getShape());
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, x);
    for (int64_t d = 0; d < rank; ++d) {
      const ResizeAxis &axis = axes[d];
      if (axis.identity)
        continue;
      shape[d] = resultType.getDimSize(d);
      sizes[d] = axis.outSize;
      auto passType = RankedTensorType::get(shape, element);
      Value empty = createEmpty(rewriter, loc, passType, sizes);
      Value source = current;
      if (antialias) {
        current =
            rewriter
                .create<linalg::GenericOp>(
                    loc, TypeRange{passType}, ValueRange{}, ValueRange{empty},
                    ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
                    getParallel(rank),
                    [&](OpBuilder &b, Location l, ValueRange) {
                      SmallVector<Value> indices;
                      for (int64_t k = 0; k < rank; ++k)
                        indices.push_back(b.create<linalg::IndexOp>(l, k));
                      Value result = antialiasedTaps(
                          b, l, source, indices, d, axis,
                          sourceCoordinate(b, l, indices[d], axis));
                      if (element != f64)
                        result = b.create<arith::TruncFOp>(l, element, result);
                      if (crop)
                        result = b.create<arith::SelectOp>(
                            l,
                            outside(b, l,
                                    sourceCoordinate(b, l, indices[d], axis),
                                    axis),
                            extrapolation, result);
                      b.create<linalg::YieldOp>(l, result);
                    })
                .getResult(0);
        continue;
      }
      if (!crop && axis.constScale && !resultType.isDynamicDim(d)) {
        // Static geometry: the taps' indices and weights are constants,
        // read along dim d (no coordinate math per element).
        ResizeTable table = buildResizeTable(
            coordinates, cubic, a, excludeOutside, xType.getDimSize(d),
            resultType.getDimSize(d), *axis.constScale, *axis.constOutWidth);
        SmallVector<Value> inputs;
        MLIRContext *ctx = rewriter.getContext();
        AffineMap along =
            AffineMap::get(rank, 0, getAffineDimExpr(d, ctx), ctx);
        int64_t out = resultType.getDimSize(d);
        auto indexType = RankedTensorType::get({out}, rewriter.getI64Type());
        auto weightType = RankedTensorType::get({out}, f64);
        for (int64_t t = 0; t < taps; ++t) {
          inputs.push_back(rewriter.create<arith::ConstantOp>(
              loc, DenseElementsAttr::get(indexType,
                                          ArrayRef<int64_t>(table.index[t]))));
          inputs.push_back(rewriter.create<arith::ConstantOp>(
              loc, DenseElementsAttr::get(weightType,
                                          ArrayRef<double>(table.weight[t]))));
        }
        SmallVector<AffineMap> maps(2 * taps, along);
        maps.push_back(rewriter.getMultiDimIdentityMap(rank));
        current =
            rewriter
                .create<linalg::GenericOp>(
                    loc, TypeRange{passType}, inputs, ValueRange{empty}, maps,
                    getParallel(rank),
                    [&](OpBuilder &b, Location l, ValueRange args) {
                      SmallVector<Value> at;
                      for (int64_t k = 0; k < rank; ++k)
                        at.push_back(b.create<linalg::IndexOp>(l, k));
                      Value sum;
                      for (int64_t t = 0; t < taps; ++t) {
                        at[d] = b.create<arith::IndexCastOp>(
                            l, b.getIndexType(), args[2 * t]);
                        Value v = toF64(
                            b, l, b.create<tensor::ExtractOp>(l, source, at));
                        Value term =
                            b.create<arith::MulFOp>(l, args[2 * t + 1], v);
                        sum =
                            sum ? b.create<arith::AddFOp>(l, sum, term) : term;
                      }
                      Value result = sum;
                      if (element != f64)
                        result = b.create<arith::TruncFOp>(l, element, sum);
                      b.create<linalg::YieldOp>(l, result);
                    })
                .getResult(0);
        continue;
      }
      auto generic = rewriter.create<linalg::GenericOp>(
          loc, TypeRange{passType}, ValueRange{}, ValueRange{empty},
          ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
          getParallel(rank), [&](OpBuilder &b, Location l, ValueRange) {
            auto c = [&](double v) { return createScalar(b, l, f64, v); };
            SmallVector<Value> indices;
            for (int64_t k = 0; k < rank; ++k)
              indices.push_back(b.create<linalg::IndexOp>(l, k));
            Value coord = sourceCoordinate(b, l, indices[d], axis);
            Value floorF = b.create<math::FloorOp>(l, coord);
            Value r = b.create<arith::SubFOp>(l, coord, floorF);
            Value base = floorToIndex(b, l, coord);
            SmallVector<Value> weights;
            if (!cubic) {
              weights = {b.create<arith::SubFOp>(l, c(1), r), r};
            } else {
              // The reference's cubic coefficients at distances 1 + r, r,
              // 1 - r and 2 - r.
              Value ca = c(a);
              auto outer = [&](Value t) -> Value {
                // ((A t - 5A) t + 8A) t - 4A
                Value v = b.create<arith::SubFOp>(
                    l, b.create<arith::MulFOp>(l, ca, t), c(5 * a));
                v = b.create<arith::AddFOp>(l, b.create<arith::MulFOp>(l, v, t),
                                            c(8 * a));
                return b.create<arith::SubFOp>(
                    l, b.create<arith::MulFOp>(l, v, t), c(4 * a));
              };
              auto inner = [&](Value t) -> Value {
                // ((A + 2) t - (A + 3)) t t + 1
                Value v = b.create<arith::SubFOp>(
                    l, b.create<arith::MulFOp>(l, c(a + 2), t), c(a + 3));
                v = b.create<arith::MulFOp>(l, b.create<arith::MulFOp>(l, v, t),
                                            t);
                return b.create<arith::AddFOp>(l, v, c(1));
              };
              Value oneMinus = b.create<arith::SubFOp>(l, c(1), r);
              weights = {outer(b.create<arith::AddFOp>(l, r, c(1))), inner(r),
                         inner(oneMinus),
                         outer(b.create<arith::AddFOp>(l, oneMinus, c(1)))};
            }
            Value sum = c(0), weightSum = c(0);
            for (int64_t t = 0; t < taps; ++t) {
              Value tap = b.create<arith::AddIOp>(
                  l, base, createIndex(b, l, t - (cubic ? 1 : 0)));
              Value w = weights[t];
              if (excludeOutside) {
                Value inside = b.create<arith::AndIOp>(
                    l,
                    b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, tap,
                                            createIndex(b, l, 0)),
                    b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, tap,
                                            axis.inSize));
                w = b.create<arith::SelectOp>(l, inside, w, c(0));
                weightSum = b.create<arith::AddFOp>(l, weightSum, w);
              }
              SmallVector<Value> at(indices);
              at[d] = clampIndex(b, l, tap, axis.inSize);
              Value v = toF64(b, l, b.create<tensor::ExtractOp>(l, source, at));
              sum = b.create<arith::AddFOp>(l, sum,
                                            b.create<arith::MulFOp>(l, w, v));
            }
            if (excludeOutside)
              sum = b.create<arith::DivFOp>(l, sum, weightSum);
            Value result = sum;
            if (element != f64)
              result = b.create<arith::TruncFOp>(l, element, sum);
            if (crop)
              result = b.create<arith::SelectOp>(l, outside(b, l, coord, axis),
                                                 extrapolation, result);
            b.create<linalg::YieldOp>(l, result);
          });
      current = generic.getResult(0);
    }
    rewriter.replaceOp(op, castTo(rewriter, loc, current, resultType));
    return success();
  }
};
} // namespace

namespace {
struct GridSampleLowering : public ONNXToLinalgPattern<onnx::GridSampleOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GridSampleOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX(), grid = adaptor.getGrid();
    Type element = resultType.getElementType();
    Type f64 = rewriter.getF64Type();
    bool alignCorners = op.getAlignCorners() != 0;
    StringRef mode = op.getMode(), padding = op.getPaddingMode();

    int64_t rank = resultType.getRank();
    int64_t spatial = rank - 2;
    // [N, C, grid's spatial dims].
    SmallVector<OpFoldResult> sizes{getDimSize(rewriter, loc, x, 0),
                                    getDimSize(rewriter, loc, x, 1)};
    for (int64_t d = 1; d <= spatial; ++d)
      sizes.push_back(getDimSize(rewriter, loc, grid, d));
    // Input sizes along the grid's coordinates: the first coordinate (x)
    // runs along the last dim (W), the second (y) along H, the third (z)
    // along D.
    SmallVector<Value> inSizes;
    for (int64_t k = 0; k < spatial; ++k)
      inSizes.push_back(
          toValue(rewriter, loc, getDimSize(rewriter, loc, x, rank - 1 - k)));
    Value empty = createEmpty(rewriter, loc, resultType, sizes);

    auto body = [&](OpBuilder &b, Location l, ValueRange) {
      auto c = [&](double v) { return createScalar(b, l, f64, v); };
      auto toF64 = [&](Value v) -> Value {
        return v.getType() == f64 ? v : b.create<arith::ExtFOp>(l, f64, v);
      };
      SmallVector<Value> indices;
      for (int64_t d = 0; d < rank; ++d)
        indices.push_back(b.create<linalg::IndexOp>(l, d));
      Value n = indices[0], ch = indices[1];
      auto gridAt = [&](int64_t k) {
        SmallVector<Value> at{n};
        at.append(indices.begin() + 2, indices.end());
        at.push_back(createIndex(b, l, k));
        return toF64(b.create<tensor::ExtractOp>(l, grid, at));
      };
      // Pixel coordinates from [-1, 1].
      auto unnormalize = [&](Value g, Value size) -> Value {
        Value sizeF = indexToElement(b, l, size, f64);
        Value shifted = b.create<arith::AddFOp>(l, g, c(1));
        if (alignCorners)
          return b.create<arith::MulFOp>(
              l, b.create<arith::DivFOp>(l, shifted, c(2)),
              b.create<arith::SubFOp>(l, sizeF, c(1)));
        return b.create<arith::DivFOp>(
            l,
            b.create<arith::SubFOp>(
                l, b.create<arith::MulFOp>(l, shifted, sizeF), c(1)),
            c(2));
      };
      auto clip = [&](Value v, Value size) -> Value {
        Value last =
            b.create<arith::SubFOp>(l, indexToElement(b, l, size, f64), c(1));
        return b.create<arith::MinimumFOp>(
            l, b.create<arith::MaximumFOp>(l, v, c(0)), last);
      };
      // Mirrors `v` into [low, high] = [0, size - 1] with align_corners,
      // [-0.5, size - 0.5] without, then clips.
      auto reflect = [&](Value v, Value size) -> Value {
        Value sizeF = indexToElement(b, l, size, f64);
        Value low = c(alignCorners ? 0 : -0.5);
        Value span =
            alignCorners ? b.create<arith::SubFOp>(l, sizeF, c(1)) : sizeF;
        Value dist =
            b.create<math::AbsFOp>(l, b.create<arith::SubFOp>(l, v, low));
        Value extra = b.create<arith::RemFOp>(l, dist, span);
        Value flips =
            b.create<math::FloorOp>(l, b.create<arith::DivFOp>(l, dist, span));
        Value even = b.create<arith::CmpFOp>(
            l, arith::CmpFPredicate::OEQ,
            b.create<arith::RemFOp>(l, flips, c(2)), c(0));
        Value mirrored = b.create<arith::SelectOp>(
            l, even, b.create<arith::AddFOp>(l, extra, low),
            b.create<arith::AddFOp>(l, b.create<arith::SubFOp>(l, span, extra),
                                    low));
        Value degenerate =
            b.create<arith::CmpFOp>(l, arith::CmpFPredicate::OLE, span, c(0));
        return clip(b.create<arith::SelectOp>(l, degenerate, c(0), mirrored),
                    size);
      };
      auto pad = [&](Value v, Value size) -> Value {
        if (padding == "border")
          return clip(v, size);
        if (padding == "reflection")
          return reflect(v, size);
        return v;
      };
      auto toIndex = [&](Value v) -> Value {
        return b.create<arith::IndexCastOp>(
            l, b.getIndexType(),
            b.create<arith::FPToSIOp>(l, b.getI64Type(), v).getResult());
      };
      // The pixel at integral coordinates `coords` (grid order: x first),
      // 0 outside the input.
      auto pixel = [&](ArrayRef<Value> coords) -> Value {
        auto inside = [&](Value i, Value size) -> Value {
          return b.create<arith::AndIOp>(
              l,
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, i,
                                      createIndex(b, l, 0)),
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, i, size));
        };
        auto clamp = [&](Value i, Value size) -> Value {
          Value last = b.create<arith::SubIOp>(l, size, createIndex(b, l, 1));
          return b.create<arith::MinSIOp>(
              l, b.create<arith::MaxSIOp>(l, i, createIndex(b, l, 0)), last);
        };
        SmallVector<Value> at(spatial + 2);
        at[0] = n;
        at[1] = ch;
        Value ok;
        for (int64_t k = 0; k < spatial; ++k) {
          Value i = toIndex(coords[k]);
          Value in = inside(i, inSizes[k]);
          ok = ok ? b.create<arith::AndIOp>(l, ok, in).getResult() : in;
          at[rank - 1 - k] = clamp(i, inSizes[k]);
        }
        Value v = toF64(b.create<tensor::ExtractOp>(l, x, at));
        return b.create<arith::SelectOp>(l, ok, v, c(0));
      };
      // Sums, over every combination of one tap per coordinate, the product
      // of the taps' weights times the pixel at the taps' coordinates.
      auto interpolate = [&](ArrayRef<SmallVector<Value>> taps,
                             ArrayRef<SmallVector<Value>> weights) -> Value {
        Value sum = c(0);
        SmallVector<int64_t> pick(spatial, 0);
        int64_t count = taps[0].size();
        int64_t total = 1;
        for (int64_t k = 0; k < spatial; ++k)
          total *= count;
        for (int64_t t = 0; t < total; ++t) {
          SmallVector<Value> coords;
          Value weight;
          for (int64_t k = 0, rest = t; k < spatial; ++k, rest /= count) {
            int64_t j = rest % count;
            coords.push_back(taps[k][j]);
            weight = weight ? b.create<arith::MulFOp>(l, weight, weights[k][j])
                                  .getResult()
                            : weights[k][j];
          }
          sum = b.create<arith::AddFOp>(
              l, sum, b.create<arith::MulFOp>(l, weight, pixel(coords)));
        }
        return sum;
      };

      SmallVector<Value> coords;
      for (int64_t k = 0; k < spatial; ++k)
        coords.push_back(unnormalize(gridAt(k), inSizes[k]));
      Value result;
      if (mode == "nearest") {
        SmallVector<Value> rounded;
        for (int64_t k = 0; k < spatial; ++k)
          rounded.push_back(
              b.create<math::RoundEvenOp>(l, pad(coords[k], inSizes[k])));
        result = pixel(rounded);
      } else if (mode == "bilinear") {
        // Linear along each coordinate: 2 taps each (bilinear, trilinear).
        SmallVector<SmallVector<Value>> taps, weights;
        for (int64_t k = 0; k < spatial; ++k) {
          Value v = pad(coords[k], inSizes[k]);
          Value v0 = b.create<math::FloorOp>(l, v);
          Value w1 = b.create<arith::SubFOp>(l, v, v0);
          taps.push_back({v0, b.create<arith::AddFOp>(l, v0, c(1))});
          weights.push_back({b.create<arith::SubFOp>(l, c(1), w1), w1});
        }
        result = interpolate(taps, weights);
      } else {
        // Bicubic: 4 taps around floor(v) along each coordinate, each padded.
        auto coefficients = [&](Value t) {
          double a = -0.75;
          auto outer = [&](Value d) -> Value {
            Value v = b.create<arith::SubFOp>(
                l, b.create<arith::MulFOp>(l, c(a), d), c(5 * a));
            v = b.create<arith::AddFOp>(l, b.create<arith::MulFOp>(l, v, d),
                                        c(8 * a));
            return b.create<arith::SubFOp>(l, b.create<arith::MulFOp>(l, v, d),
                                           c(4 * a));
          };
          auto inner = [&](Value d) -> Value {
            Value v = b.create<arith::SubFOp>(
                l, b.create<arith::MulFOp>(l, c(a + 2), d), c(a + 3));
            v = b.create<arith::MulFOp>(l, b.create<arith::MulFOp>(l, v, d), d);
            return b.create<arith::AddFOp>(l, v, c(1));
          };
          Value oneMinus = b.create<arith::SubFOp>(l, c(1), t);
          return SmallVector<Value>{
              outer(b.create<arith::AddFOp>(l, t, c(1))), inner(t),
              inner(oneMinus),
              outer(b.create<arith::AddFOp>(l, oneMinus, c(1)))};
        };
        SmallVector<SmallVector<Value>> taps, weights;
        for (int64_t k = 0; k < spatial; ++k) {
          Value v0 = b.create<math::FloorOp>(l, coords[k]);
          weights.push_back(
              coefficients(b.create<arith::SubFOp>(l, coords[k], v0)));
          SmallVector<Value> around;
          for (int64_t j = 0; j < 4; ++j)
            around.push_back(
                pad(b.create<arith::AddFOp>(l, v0, c(j - 1)), inSizes[k]));
          taps.push_back(around);
        }
        result = interpolate(taps, weights);
      }
      if (element != f64)
        result = b.create<arith::TruncFOp>(l, element, result);
      b.create<linalg::YieldOp>(l, result);
    };
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{empty},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
        getParallel(rank), body);
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void onnxc::populateONNXResizeToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ResizeLowering, GridSampleLowering>(patterns.getContext());
}

//===- Conv.cpp - onnx Conv and ConvTranspose to linalg convolutions ------===//
//
// Conv: the input is zero padded (fill + insert_slice), the init holds the
// bias broadcast over [N, M, spatial...] (or zeros), and a convolution
// accumulates onto it. 2-D uses conv_2d_nchw_fchw for group 1,
// depthwise_conv_2d_nchw_chw when every channel is its own group, and
// conv_2d_ngchw_gfchw on channel dims split into [group, channels / group]
// otherwise; 1-D and 3-D use conv_1d_ncw_fcw / conv_3d_ncdhw_fcdhw for group
// 1 and a linalg.generic over the split channel dims for other groups.
// Kernel and channel dims may be `?` (a weight that is a graph input): the
// kernel extent, SAME pads and output sizes are then computed at run time,
// and the channel dims are split at their run-time sizes.
//
// ConvTranspose is a stride-1 Conv of the input spread out by the strides
// (inserted into zeros with a strided insert_slice) and padded by the
// dilated kernel extent less one less the pads, with the kernel flipped along
// its spatial dims and its channel dims swapped within each group.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// A grouped convolution over any number of spatial dims as a
/// linalg.generic: `input` [N, G, C/G, spatial...] (padded), `filter`
/// [G, M/G, C/G, k...], `init` [N, G, M/G, out...].
static Value createGroupedConvGeneric(OpBuilder &b, Location loc, Value input,
                                      Value filter, Value init,
                                      ArrayRef<int64_t> strides,
                                      ArrayRef<int64_t> dilations) {
  MLIRContext *ctx = b.getContext();
  int64_t n = strides.size();
  // Loops: n, g, m, out_0..out_{n-1}, c, k_0..k_{n-1}.
  unsigned numLoops = 4 + 2 * n;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inputExprs{d(0), d(1), d(3 + n)};
  SmallVector<AffineExpr> filterExprs{d(1), d(2), d(3 + n)};
  SmallVector<AffineExpr> outputExprs{d(0), d(1), d(2)};
  for (int64_t i = 0; i < n; ++i) {
    inputExprs.push_back(d(3 + i) * strides[i] + d(4 + n + i) * dilations[i]);
    filterExprs.push_back(d(4 + n + i));
    outputExprs.push_back(d(3 + i));
  }
  SmallVector<AffineMap> maps{AffineMap::get(numLoops, 0, inputExprs, ctx),
                              AffineMap::get(numLoops, 0, filterExprs, ctx),
                              AffineMap::get(numLoops, 0, outputExprs, ctx)};
  SmallVector<utils::IteratorType> iterators = getParallel(3 + n);
  iterators.append(1 + n, utils::IteratorType::reduction);
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{init.getType()}, ValueRange{input, filter},
          ValueRange{init}, maps, iterators,
          [](OpBuilder &nested, Location l, ValueRange args) {
            Value product = nested.create<arith::MulFOp>(l, args[0], args[1]);
            nested.create<linalg::YieldOp>(
                l,
                nested.create<arith::AddFOp>(l, args[2], product).getResult());
          })
      .getResult(0);
}

/// The convolution of the padded input `padded` [N, C, ...] with `w`
/// [M, C/group, k...] accumulated onto `init` [N, M, out...].
static Value createConv(OpBuilder &b, Location loc, Value padded, Value w,
                        Value init, ArrayRef<int64_t> strideValues,
                        ArrayRef<int64_t> dilationValues, int64_t group,
                        RankedTensorType resultType) {
  auto xType = cast<RankedTensorType>(padded.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type element = resultType.getElementType();
  int64_t rank = xType.getRank();
  DenseIntElementsAttr strides = getI64Pair(b, strideValues);
  DenseIntElementsAttr dilations = getI64Pair(b, dilationValues);
  auto named = [&](auto tag) -> Value {
    using OpT = decltype(tag);
    return b
        .create<OpT>(loc, TypeRange{resultType}, ValueRange{padded, w},
                     ValueRange{init}, strides, dilations)
        .getResult(0);
  };
  if (group == 1) {
    if (rank == 3)
      return named(linalg::Conv1DNcwFcwOp());
    if (rank == 4)
      return named(linalg::Conv2DNchwFchwOp());
    if (rank == 5)
      return named(linalg::Conv3DNcdhwFcdhwOp());
  }

  int64_t channels = xType.getDimSize(1), filters = wType.getDimSize(0);
  // A channel dim that shape inference lost (ShuffleNet's channel shuffle
  // reshapes through Shape -> Gather -> Concat with dynamic H and W) is
  // fixed by the weight: C = group x (C / group).
  if (ShapedType::isDynamic(channels) && !wType.isDynamicDim(1)) {
    channels = wType.getDimSize(1) * group;
    SmallVector<int64_t> shape(xType.getShape());
    shape[1] = channels;
    padded = b.create<tensor::CastOp>(loc, xType.clone(shape), padded);
    xType = cast<RankedTensorType>(padded.getType());
  }
  if (rank == 4 && channels == group && filters == group) {
    // Depthwise: W [C, 1, kH, kW] -> [C, kH, kW].
    auto filterType = RankedTensorType::get(
        {filters, wType.getDimSize(2), wType.getDimSize(3)}, element);
    Value filter = b.create<tensor::CollapseShapeOp>(
        loc, filterType, w, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
    return b
        .create<linalg::DepthwiseConv2DNchwChwOp>(
            loc, TypeRange{resultType}, ValueRange{padded, filter},
            ValueRange{init}, strides, dilations)
        .getResult(0);
  }

  // Grouped: input [N, G, C/G, ...], filter [G, M/G, C/G, k...], output
  // [N, G, M/G, ...] (channel dims may be `?`).
  Value input = splitDim(b, loc, padded, 1, group);
  Value filter = splitDim(b, loc, w, 0, group);
  Value output = splitDim(b, loc, init, 1, group);
  Value conv;
  if (rank == 4)
    conv = b.create<linalg::Conv2DNgchwGfchwOp>(
                loc, TypeRange{output.getType()}, ValueRange{input, filter},
                ValueRange{output}, strides, dilations)
               .getResult(0);
  else
    conv = createGroupedConvGeneric(b, loc, input, filter, output, strideValues,
                                    dilationValues);
  return castTo(b, loc, mergeDims(b, loc, conv, 1), resultType);
}

/// The init of a convolution: `bias` broadcast along dim 1, or zeros.
static Value createConvInit(OpBuilder &b, Location loc, Value bias,
                            RankedTensorType resultType,
                            ArrayRef<OpFoldResult> sizes) {
  if (onnx::isNoValue(bias))
    return createFilled(b, loc, resultType, sizes,
                        createScalar(b, loc, resultType.getElementType(), 0));
  return createBroadcastInDims(b, loc, bias, resultType, sizes, {1});
}

/// Index arithmetic on OpFoldResults: constants fold, the rest become arith
/// ops on index values.
namespace {
struct IndexMath {
  OpBuilder &b;
  Location loc;

  OpFoldResult cst(int64_t v) { return b.getIndexAttr(v); }
  template <typename OpT, typename Fn>
  OpFoldResult binary(OpFoldResult lhs, OpFoldResult rhs, Fn fold) {
    std::optional<int64_t> l = getConstantIntValue(lhs);
    std::optional<int64_t> r = getConstantIntValue(rhs);
    if (l && r)
      return cst(fold(*l, *r));
    return b.create<OpT>(loc, toValue(b, loc, lhs), toValue(b, loc, rhs))
        .getResult();
  }
  OpFoldResult add(OpFoldResult l, OpFoldResult r) {
    return binary<arith::AddIOp>(l, r,
                                 [](int64_t a, int64_t c) { return a + c; });
  }
  OpFoldResult sub(OpFoldResult l, OpFoldResult r) {
    return binary<arith::SubIOp>(l, r,
                                 [](int64_t a, int64_t c) { return a - c; });
  }
  OpFoldResult mul(OpFoldResult l, OpFoldResult r) {
    return binary<arith::MulIOp>(l, r,
                                 [](int64_t a, int64_t c) { return a * c; });
  }
  OpFoldResult max(OpFoldResult l, OpFoldResult r) {
    return binary<arith::MaxSIOp>(
        l, r, [](int64_t a, int64_t c) { return std::max(a, c); });
  }
  OpFoldResult min(OpFoldResult l, OpFoldResult r) {
    return binary<arith::MinSIOp>(
        l, r, [](int64_t a, int64_t c) { return std::min(a, c); });
  }
  /// Division of a non-negative value by a positive one.
  OpFoldResult div(OpFoldResult l, OpFoldResult r) {
    return binary<arith::DivSIOp>(l, r,
                                  [](int64_t a, int64_t c) { return a / c; });
  }
  static int64_t staticOr(OpFoldResult v) {
    return getConstantIntValue(v).value_or(ShapedType::kDynamic);
  }
};

struct ConvLowering : public ONNXToLinalgPattern<onnx::ConvOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ConvOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX(), w = adaptor.getW();
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    int64_t rank = xType.getRank();
    if (rank < 3 || rank > 5 || wType.getRank() != rank)
      return op.emitOpError("supports 1-D to 3-D convolutions (got input ")
             << xType << ")";
    int64_t numSpatial = rank - 2;
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    if (auto attr = op.getKernelShape())
      kernel.assign(attr->begin(), attr->end());
    ArrayRef<int64_t> spatial = xType.getShape().drop_front(2);
    onnx::WindowGeometry g;
    if (failed(onnx::resolveWindow(loc, "Conv", spatial, kernel,
                                   op.getStrides(), op.getDilations(),
                                   op.getPads(), op.getAutoPad(),
                                   /*ceilMode=*/false, g)))
      return failure();
    bool same = op.getAutoPad().starts_with("SAME");

    Type element = resultType.getElementType();
    Value zero = createScalar(rewriter, loc, element, 0);
    SmallVector<OpFoldResult> low(2, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> high(low);
    SmallVector<OpFoldResult> sizes{getDimSize(rewriter, loc, x, 0),
                                    getDimSize(rewriter, loc, w, 0)};
    IndexMath m{rewriter, loc};
    for (int64_t i = 0; i < numSpatial; ++i) {
      // The dilated kernel extent; at run time for a `?` kernel dim.
      OpFoldResult extent =
          ShapedType::isDynamic(g.kernel[i])
              ? m.add(
                    m.mul(m.sub(getDimSize(rewriter, loc, w, i + 2), m.cst(1)),
                          m.cst(g.dilations[i])),
                    m.cst(1))
              : m.cst((g.kernel[i] - 1) * g.dilations[i] + 1);
      if (same && (ShapedType::isDynamic(spatial[i]) ||
                   ShapedType::isDynamic(g.kernel[i]))) {
        // SAME over a `?` dim or kernel dim: pads and output size at run
        // time.
        SameWindow window = createSameWindow(
            rewriter, loc,
            toValue(rewriter, loc, getDimSize(rewriter, loc, x, i + 2)), extent,
            g.strides[i], op.getAutoPad() == "SAME_UPPER");
        low.push_back(window.padBegin);
        high.push_back(window.padEnd);
        sizes.push_back(window.outSize);
        continue;
      }
      low.push_back(rewriter.getIndexAttr(g.padsBegin[i]));
      high.push_back(rewriter.getIndexAttr(g.padsEnd[i]));
      if (!ShapedType::isDynamic(g.outputSpatial[i])) {
        sizes.push_back(rewriter.getIndexAttr(g.outputSpatial[i]));
        continue;
      }
      sizes.push_back(createWindowOutputSize(
          rewriter, loc,
          toValue(rewriter, loc, getDimSize(rewriter, loc, x, i + 2)),
          g.padsBegin[i], g.padsEnd[i], extent, g.strides[i],
          /*ceilMode=*/false));
    }
    Value padded = createPad(rewriter, loc, x, low, high, zero);
    Value init =
        createConvInit(rewriter, loc, adaptor.getB(), resultType, sizes);
    rewriter.replaceOp(op, createConv(rewriter, loc, padded, w, init, g.strides,
                                      g.dilations, op.getGroup(), resultType));
    return success();
  }
};

struct ConvTransposeLowering
    : public ONNXToLinalgPattern<onnx::ConvTransposeOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::ConvTransposeOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX(), w = adaptor.getW();
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    int64_t rank = xType.getRank();
    if (rank < 3 || rank > 5 || wType.getRank() != rank)
      return op.emitOpError("supports 1-D to 3-D convolutions (got input ")
             << xType << ")";
    int64_t numSpatial = rank - 2;
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    if (auto attr = op.getKernelShape())
      kernel.assign(attr->begin(), attr->end());
    ArrayRef<int64_t> spatial = xType.getShape().drop_front(2);
    onnx::TransposedWindow g;
    if (failed(onnx::resolveTransposedWindow(
            loc, spatial, kernel, op.getStrides(), op.getDilations(),
            op.getPads(), op.getOutputPadding(), op.getOutputShape(),
            op.getAutoPad(), g)))
      return failure();
    int64_t group = op.getGroup();
    Type element = resultType.getElementType();
    Value zero = createScalar(rewriter, loc, element, 0);
    IndexMath m{rewriter, loc};
    StringRef autoPad = op.getAutoPad();

    // Along each spatial dim, the input spread out by the strides and
    // padded: `extent - 1 - padBegin` zeros, the input with `stride - 1`
    // zeros between elements, then `extent - 1 - padEnd + output_padding`
    // zeros. Negative counts cut the spread input instead. Sizes that
    // depend on `?` dims (the kernel's too) are computed at run time.
    SmallVector<OpFoldResult> kernelSizes, extents;
    SmallVector<OpFoldResult> spreadSizes{getDimSize(rewriter, loc, x, 0),
                                          getDimSize(rewriter, loc, x, 1)};
    SmallVector<OpFoldResult> offsets(2, m.cst(0)), strides(2, m.cst(1));
    SmallVector<OpFoldResult> cutOffsets(offsets), cutSizes(spreadSizes);
    bool cut = false;
    for (int64_t i = 0; i < numSpatial; ++i) {
      OpFoldResult k = ShapedType::isDynamic(kernel[i])
                           ? getDimSize(rewriter, loc, w, i + 2)
                           : m.cst(kernel[i]);
      kernelSizes.push_back(k);
      OpFoldResult extent =
          m.add(m.mul(m.sub(k, m.cst(1)), m.cst(g.dilations[i])), m.cst(1));
      extents.push_back(extent);
      OpFoldResult in = getDimSize(rewriter, loc, x, i + 2);
      OpFoldResult spread =
          m.add(m.mul(m.sub(in, m.cst(1)), m.cst(g.strides[i])), m.cst(1));
      OpFoldResult padBegin, padEnd;
      if (!ShapedType::isDynamic(g.padsBegin[i])) {
        padBegin = m.cst(g.padsBegin[i]);
        padEnd = m.cst(g.padsEnd[i]);
      } else {
        // The pads follow from output_shape or SAME at run time: the total
        // is split as resolveTransposedWindow does.
        OpFoldResult total;
        if (auto shape = op.getOutputShape()) {
          ArrayRef<int64_t> spatialShape = *shape;
          if (static_cast<int64_t>(spatialShape.size()) == numSpatial + 2)
            spatialShape = spatialShape.drop_front(2);
          OpFoldResult full =
              m.add(m.add(m.sub(spread, m.cst(1)), m.cst(g.outputPadding[i])),
                    extent);
          total = m.sub(full, m.cst(spatialShape[i]));
        } else {
          total = m.sub(m.add(m.cst(g.outputPadding[i]), extent),
                        m.cst(g.strides[i]));
        }
        OpFoldResult nonNegative = m.max(total, m.cst(0));
        OpFoldResult half = m.div(nonNegative, m.cst(2));
        padBegin = autoPad == "SAME_LOWER" ? m.sub(nonNegative, half) : half;
        // A negative total appends zeros at the end.
        padEnd = m.add(m.sub(nonNegative, padBegin), m.min(total, m.cst(0)));
      }
      OpFoldResult low = m.sub(m.sub(extent, m.cst(1)), padBegin);
      OpFoldResult high = m.add(m.sub(m.sub(extent, m.cst(1)), padEnd),
                                m.cst(g.outputPadding[i]));
      OpFoldResult keptLow = m.max(low, m.cst(0));
      OpFoldResult keptHigh = m.max(high, m.cst(0));
      std::optional<int64_t> lowConst = getConstantIntValue(low);
      std::optional<int64_t> highConst = getConstantIntValue(high);
      cut |= !lowConst || !highConst || *lowConst < 0 || *highConst < 0;
      offsets.push_back(keptLow);
      strides.push_back(m.cst(g.strides[i]));
      spreadSizes.push_back(m.add(m.add(spread, keptLow), keptHigh));
      cutOffsets.push_back(m.sub(keptLow, low));
      cutSizes.push_back(m.add(m.add(spread, low), high));
    }
    auto shapeOf = [&](ArrayRef<OpFoldResult> sizes) {
      SmallVector<int64_t> shape;
      for (OpFoldResult size : sizes)
        shape.push_back(IndexMath::staticOr(size));
      return RankedTensorType::get(shape, element);
    };
    Value zeros =
        createFilled(rewriter, loc, shapeOf(spreadSizes), spreadSizes, zero);
    Value spread = rewriter.create<tensor::InsertSliceOp>(
        loc, x, zeros, offsets, getDimSizes(rewriter, loc, x), strides);
    if (cut) {
      SmallVector<OpFoldResult> ones(rank, m.cst(1));
      spread = rewriter.create<tensor::ExtractSliceOp>(
          loc, shapeOf(cutSizes), spread, cutOffsets, cutSizes, ones);
    }

    // The kernel [C, M/G, k...] as a Conv kernel [M, C/G, k...]: flipped
    // along the spatial dims and with the channel dims swapped per group.
    // With groups, the sizes M / G and C / G index W; `?` ones are read
    // before the body.
    int64_t channels = wType.getDimSize(0), perGroup = wType.getDimSize(1);
    OpFoldResult perGroupSize = getDimSize(rewriter, loc, w, 1);
    SmallVector<OpFoldResult> flippedSizes{perGroupSize,
                                           getDimSize(rewriter, loc, w, 0)};
    OpFoldResult channelsPerGroup;
    if (group != 1) {
      channelsPerGroup = m.div(flippedSizes[1], m.cst(group));
      flippedSizes = {m.mul(perGroupSize, m.cst(group)), channelsPerGroup};
    }
    flippedSizes.append(kernelSizes);
    RankedTensorType flippedType = shapeOf(flippedSizes);
    SmallVector<Value> kernelLast;
    for (OpFoldResult k : kernelSizes)
      kernelLast.push_back(toValue(rewriter, loc, m.sub(k, m.cst(1))));
    Value flippedInit = createEmpty(rewriter, loc, flippedType, flippedSizes);
    Value flipped =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{flippedType}, ValueRange{},
                ValueRange{flippedInit},
                ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(rank)},
                getParallel(rank),
                [&](OpBuilder &b, Location l, ValueRange) {
                  Value mIndex = b.create<linalg::IndexOp>(l, 0);
                  Value c = b.create<linalg::IndexOp>(l, 1);
                  SmallVector<Value> at(2);
                  if (group == 1) {
                    at = {c, mIndex};
                  } else {
                    // m = g * (M/G) + mm reads W[g * (C/G) + c, mm].
                    Value mPerGroup = ShapedType::isDynamic(perGroup)
                                          ? cast<Value>(perGroupSize)
                                          : createIndex(b, l, perGroup);
                    Value gi = b.create<arith::DivUIOp>(l, mIndex, mPerGroup);
                    Value mm = b.create<arith::RemUIOp>(l, mIndex, mPerGroup);
                    Value cPerGroup = ShapedType::isDynamic(channels)
                                          ? cast<Value>(channelsPerGroup)
                                          : createIndex(b, l, channels / group);
                    Value base = b.create<arith::MulIOp>(l, gi, cPerGroup);
                    at = {b.create<arith::AddIOp>(l, base, c), mm};
                  }
                  for (int64_t i = 0; i < numSpatial; ++i)
                    at.push_back(b.create<arith::SubIOp>(
                        l, kernelLast[i], b.create<linalg::IndexOp>(l, i + 2)));
                  b.create<linalg::YieldOp>(
                      l, b.create<tensor::ExtractOp>(l, w, at).getResult());
                })
            .getResult(0);

    // Result sizes: static ones from the type, dynamic ones from the spread
    // input less the kernel extent.
    SmallVector<OpFoldResult> sizes{getDimSize(rewriter, loc, x, 0),
                                    flippedSizes[0]};
    for (int64_t i = 0; i < numSpatial; ++i) {
      if (!resultType.isDynamicDim(i + 2))
        sizes.push_back(m.cst(resultType.getDimSize(i + 2)));
      else
        sizes.push_back(m.add(m.sub(cutSizes[i + 2], extents[i]), m.cst(1)));
    }
    Value init =
        createConvInit(rewriter, loc, adaptor.getB(), resultType, sizes);
    SmallVector<int64_t> unitStrides(numSpatial, 1);
    rewriter.replaceOp(op,
                       createConv(rewriter, loc, spread, flipped, init,
                                  unitStrides, g.dilations, group, resultType));
    return success();
  }
};
} // namespace

void onnxc::populateONNXConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvLowering, ConvTransposeLowering>(patterns.getContext());
}

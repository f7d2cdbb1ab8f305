//===- ConvTranspose.cpp - ConvTranspose whose windows do not overlap -----===//
//
// A 2-D f32 ConvTranspose with constant weights whose output windows tile
// the output without overlapping (strides equal to the kernel, no dilation,
// no pads or output padding, one group), as U-Net's upsampling has: each
// output pixel takes exactly one tap, so the op is a 1x1 convolution of the
// input with the weights rearranged into [M * kH * kW, C] filters (computed
// at compile time), then one linalg.generic that moves each of its channels
// to its place in the kH x kW blocks of the output and adds the bias. The
// general lowering (Conv.cpp) convolves the input spread out with zeros,
// kH * kW times the multiply-adds; this pattern is tried before it.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The f32 elements of the constant `value`, or nullopt.
static std::optional<SmallVector<float>> readF32Constant(Value value) {
  ElementsAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    if (!dense.getElementType().isF32())
      return std::nullopt;
    auto values = dense.getValues<float>();
    return SmallVector<float>(values.begin(), values.end());
  }
  if (auto resource = dyn_cast<DenseF32ResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<float>> values = resource.tryGetAsArrayRef();
    if (!values || static_cast<int64_t>(values->size()) !=
                       resource.getType().getNumElements())
      return std::nullopt;
    return SmallVector<float>(values->begin(), values->end());
  }
  return std::nullopt;
}

namespace {
struct TiledConvTransposeLowering
    : public OpConversionPattern<onnx::ConvTransposeOp> {
  TiledConvTransposeLowering(MLIRContext *ctx)
      : OpConversionPattern(ctx, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(onnx::ConvTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    auto wType = dyn_cast<RankedTensorType>(op.getW().getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    if (!xType || !wType || !resultType || xType.getRank() != 4 ||
        !xType.getElementType().isF32() ||
        !resultType.getElementType().isF32() || !wType.hasStaticShape() ||
        wType.getRank() != 4 || op.getGroup() != 1 ||
        ShapedType::isDynamic(xType.getDimSize(2)) ||
        ShapedType::isDynamic(xType.getDimSize(3)))
      return failure();
    int64_t channels = wType.getDimSize(0), filters = wType.getDimSize(1);
    int64_t kh = wType.getDimSize(2), kw = wType.getDimSize(3);
    int64_t h = xType.getDimSize(2), w = xType.getDimSize(3);
    onnx::TransposedWindow g;
    if (failed(onnx::resolveTransposedWindow(
            std::nullopt, xType.getShape().drop_front(2), {kh, kw},
            op.getStrides(), op.getDilations(), op.getPads(),
            op.getOutputPadding(), op.getOutputShape(), op.getAutoPad(), g)))
      return failure();
    auto zero = [](int64_t v) { return v == 0; };
    auto one = [](int64_t v) { return v == 1; };
    if (g.kernel != SmallVector<int64_t>{kh, kw} ||
        g.strides != SmallVector<int64_t>{kh, kw} ||
        !llvm::all_of(g.dilations, one) || !llvm::all_of(g.padsBegin, zero) ||
        !llvm::all_of(g.padsEnd, zero) ||
        !llvm::all_of(g.outputPadding, zero) ||
        resultType.getDimSize(2) != h * kh ||
        resultType.getDimSize(3) != w * kw)
      return failure();
    std::optional<SmallVector<float>> weights = readF32Constant(op.getW());
    if (!weights)
      return failure();
    Value bias = adaptor.getB();
    bool hasBias = !onnx::isNoValue(op.getB());
    auto biasType = dyn_cast<RankedTensorType>(bias.getType());
    if (hasBias &&
        (!biasType || biasType.getShape() != ArrayRef<int64_t>{filters}))
      return failure();

    // Filter (m, r, s) of the 1x1 convolution: W[:, m, r, s].
    int64_t taps = kh * kw, outChannels = filters * taps;
    SmallVector<float> filter(outChannels * channels);
    for (int64_t c = 0; c < channels; ++c)
      for (int64_t m = 0; m < filters; ++m)
        for (int64_t t = 0; t < taps; ++t)
          filter[(m * taps + t) * channels + c] =
              (*weights)[(c * filters + m) * taps + t];
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    auto filterType = RankedTensorType::get({outChannels, channels, 1, 1}, f32);
    Value filterValue = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(filterType, ArrayRef<float>(filter)));

    OpFoldResult batch = getDimSize(rewriter, loc, x, 0);
    auto convType =
        RankedTensorType::get({xType.getDimSize(0), outChannels, h, w}, f32);
    Value init =
        createFilled(rewriter, loc, convType,
                     {batch, rewriter.getIndexAttr(outChannels),
                      rewriter.getIndexAttr(h), rewriter.getIndexAttr(w)},
                     createScalar(rewriter, loc, f32, 0));
    Value conv = rewriter
                     .create<linalg::Conv2DNchwFchwOp>(
                         loc, TypeRange{convType}, ValueRange{x, filterValue},
                         ValueRange{init}, getI64Pair(rewriter, {1, 1}),
                         getI64Pair(rewriter, {1, 1}))
                     .getResult(0);

    // [N, M, kH, kW, H, W] -> [N, M, H, kH, W, kW], plus the bias.
    auto spreadType = RankedTensorType::get(
        {xType.getDimSize(0), filters, kh, kw, h, w}, f32);
    Value spread = rewriter.create<tensor::ExpandShapeOp>(
        loc, spreadType, conv,
        SmallVector<ReassociationIndices>{{0}, {1, 2, 3}, {4}, {5}},
        SmallVector<OpFoldResult>{
            batch, rewriter.getIndexAttr(filters), rewriter.getIndexAttr(kh),
            rewriter.getIndexAttr(kw), rewriter.getIndexAttr(h),
            rewriter.getIndexAttr(w)});
    auto blocksType = RankedTensorType::get(
        {xType.getDimSize(0), filters, h, kh, w, kw}, f32);
    SmallVector<OpFoldResult> blockSizes{batch,
                                         rewriter.getIndexAttr(filters),
                                         rewriter.getIndexAttr(h),
                                         rewriter.getIndexAttr(kh),
                                         rewriter.getIndexAttr(w),
                                         rewriter.getIndexAttr(kw)};
    MLIRContext *ctx = rewriter.getContext();
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<Value> inputs{spread};
    SmallVector<AffineMap> maps{
        AffineMap::get(6, 0, {d(0), d(1), d(3), d(5), d(2), d(4)}, ctx)};
    if (hasBias) {
      inputs.push_back(bias);
      maps.push_back(AffineMap::get(6, 0, {d(1)}, ctx));
    }
    maps.push_back(rewriter.getMultiDimIdentityMap(6));
    Value blocks =
        rewriter
            .create<linalg::GenericOp>(
                loc, TypeRange{blocksType}, inputs,
                ValueRange{createEmpty(rewriter, loc, blocksType, blockSizes)},
                maps, getParallel(6),
                [&](OpBuilder &b, Location l, ValueRange args) {
                  Value v = args[0];
                  if (hasBias)
                    v = b.create<arith::AddFOp>(l, v, args[1]);
                  b.create<linalg::YieldOp>(l, v);
                })
            .getResult(0);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, blocks,
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}, {4, 5}});
    return success();
  }
};
} // namespace

void onnxc::populateONNXConvTransposeToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TiledConvTransposeLowering>(patterns.getContext());
}

//===- Conv.cpp - onnx Conv to the linalg 2-D convolution ops -------------===//
//
// The input is zero padded with tensor.pad, the init holds the bias
// broadcast over [N, M, OH, OW] (or zeros), and a named convolution
// accumulates onto it: conv_2d_nchw_fchw for group 1,
// depthwise_conv_2d_nchw_chw when every channel is its own group, and
// conv_2d_ngchw_gfchw on channel dims split into [group, channels / group]
// otherwise.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

namespace {
struct ConvLowering : public OpConversionPattern<onnx::ConvOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::ConvOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Location loc = op.getLoc();
    Value x = adaptor.getX(), w = adaptor.getW();
    auto xType = cast<RankedTensorType>(x.getType());
    auto wType = cast<RankedTensorType>(w.getType());
    if (xType.getRank() != 4 || wType.getRank() != 4)
      return op.emitOpError("only 2-D Conv is supported (got input ")
             << xType << ")";
    SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
    if (auto attr = op.getKernelShape())
      kernel.assign(attr->begin(), attr->end());
    if (llvm::any_of(kernel, ShapedType::isDynamic))
      return op.emitOpError("needs static kernel dims to be lowered");
    ArrayRef<int64_t> spatial = xType.getShape().drop_front(2);
    onnx::WindowGeometry g;
    if (failed(onnx::resolveWindow(loc, "Conv", spatial, kernel,
                                   op.getStrides(), op.getDilations(),
                                   op.getPads(), op.getAutoPad(),
                                   /*ceilMode=*/false, g)))
      return failure();
    if (op.getAutoPad().starts_with("SAME") &&
        llvm::any_of(spatial, ShapedType::isDynamic))
      return op.emitOpError("with auto_pad ")
             << op.getAutoPad() << " needs static spatial dims";

    Type element = resultType.getElementType();
    Value zero = createScalar(rewriter, loc, element, 0);
    SmallVector<OpFoldResult> low(2, rewriter.getIndexAttr(0));
    SmallVector<OpFoldResult> high(low);
    SmallVector<OpFoldResult> sizes{getDimSize(rewriter, loc, x, 0),
                                    getDimSize(rewriter, loc, w, 0)};
    for (int64_t i = 0; i < 2; ++i) {
      low.push_back(rewriter.getIndexAttr(g.padsBegin[i]));
      high.push_back(rewriter.getIndexAttr(g.padsEnd[i]));
      if (!ShapedType::isDynamic(g.outputSpatial[i])) {
        sizes.push_back(rewriter.getIndexAttr(g.outputSpatial[i]));
        continue;
      }
      int64_t extent = (g.kernel[i] - 1) * g.dilations[i] + 1;
      sizes.push_back(createWindowOutputSize(
          rewriter, loc,
          toValue(rewriter, loc, getDimSize(rewriter, loc, x, i + 2)),
          g.padsBegin[i], g.padsEnd[i], extent, g.strides[i],
          /*ceilMode=*/false));
    }
    Value padded = createPad(rewriter, loc, x, low, high, zero);

    Value init;
    if (onnx::isNoValue(op.getB()))
      init = createFilled(rewriter, loc, resultType, sizes, zero);
    else
      init = createBroadcastInDims(rewriter, loc, adaptor.getB(), resultType,
                                   sizes, {1});

    DenseIntElementsAttr strides = getI64Pair(rewriter, g.strides);
    DenseIntElementsAttr dilations = getI64Pair(rewriter, g.dilations);
    int64_t group = op.getGroup();
    if (group == 1) {
      rewriter.replaceOp(op, rewriter
                                 .create<linalg::Conv2DNchwFchwOp>(
                                     loc, TypeRange{resultType},
                                     ValueRange{padded, w}, ValueRange{init},
                                     strides, dilations)
                                 .getResult(0));
      return success();
    }

    int64_t channels = xType.getDimSize(1), filters = wType.getDimSize(0);
    if (ShapedType::isDynamic(channels) || ShapedType::isDynamic(filters))
      return op.emitOpError("with group ")
             << group << " needs static channel dims to be lowered";
    if (channels == group && filters == group) {
      // Depthwise: W [C, 1, kH, kW] -> [C, kH, kW].
      auto filterType = RankedTensorType::get(
          {filters, wType.getDimSize(2), wType.getDimSize(3)}, element);
      Value filter = rewriter.create<tensor::CollapseShapeOp>(
          loc, filterType, w, ArrayRef<ReassociationIndices>{{0, 1}, {2}, {3}});
      rewriter.replaceOp(op, rewriter
                                 .create<linalg::DepthwiseConv2DNchwChwOp>(
                                     loc, TypeRange{resultType},
                                     ValueRange{padded, filter},
                                     ValueRange{init}, strides, dilations)
                                 .getResult(0));
      return success();
    }

    // Grouped: input [N, G, C/G, H, W], filter [G, M/G, C/G, kH, kW],
    // output [N, G, M/G, OH, OW].
    Value input = splitDim(rewriter, loc, padded, 1, group);
    Value filter = splitDim(rewriter, loc, w, 0, group);
    Value output = splitDim(rewriter, loc, init, 1, group);
    Value conv =
        rewriter
            .create<linalg::Conv2DNgchwGfchwOp>(
                loc, TypeRange{output.getType()}, ValueRange{input, filter},
                ValueRange{output}, strides, dilations)
            .getResult(0);
    rewriter.replaceOp(
        op,
        castTo(rewriter, loc, mergeDims(rewriter, loc, conv, 1), resultType));
    return success();
  }
};
} // namespace

void onnxc::populateONNXConvToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ConvLowering>(patterns.getContext());
}

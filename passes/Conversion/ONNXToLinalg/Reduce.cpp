//===- Reduce.cpp - onnx reductions to linalg.generic ---------------------===//
//
// ReduceSum, ReduceMean and ReduceMax over constant axes: one reduction
// generic into the shape without the reduced dims (Mean then divides by the
// reduced element count), expanded back when keepdims is set.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

static Value createInit(onnx::ReduceMaxOp, OpBuilder &b, Location loc,
                        Type type) {
  return createLowest(b, loc, type);
}

template <typename OpT>
static Value createInit(OpT, OpBuilder &b, Location loc, Type type) {
  return createScalar(b, loc, type, 0);
}

static Value combine(onnx::ReduceMaxOp, OpBuilder &b, Location loc, Value in,
                     Value acc) {
  return createMax(b, loc, in, acc);
}

template <typename OpT>
static Value combine(OpT, OpBuilder &b, Location loc, Value in, Value acc) {
  return createAdd(b, loc, in, acc);
}

namespace {
template <typename OpT>
struct ReduceLowering : public OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(checkRankedOperands(op)))
      return failure();
    RankedTensorType resultType = getRankedResultType(op);
    if (!resultType)
      return failure();
    Type element = resultType.getElementType();
    if (!isArithType(element))
      return unsupportedElementType(op, element);
    Location loc = op.getLoc();
    Value x = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();

    SmallVector<int64_t> axes;
    if (!onnx::isNoValue(op.getAxes())) {
      std::optional<SmallVector<int64_t>> constant =
          onnx::getNormalizedAxes(op.getAxes(), rank);
      if (!constant)
        return op.emitOpError("needs constant, valid 'axes' to be lowered");
      axes = std::move(*constant);
    }
    if (axes.empty()) {
      if (op.getNoopWithEmptyAxes() != 0) {
        rewriter.replaceOp(op, castTo(rewriter, loc, x, resultType));
        return success();
      }
      for (int64_t i = 0; i < rank; ++i)
        axes.push_back(i);
    }

    Value reduced = createReduction(
        rewriter, loc, x, axes, createInit(op, rewriter, loc, element),
        [&](OpBuilder &b, Location l, Value in, Value acc) {
          return combine(op, b, l, in, acc);
        });
    if (std::is_same_v<OpT, onnx::ReduceMeanOp>) {
      SmallVector<OpFoldResult> sizes;
      for (int64_t i : axes)
        sizes.push_back(getDimSize(rewriter, loc, x, i));
      Value count = indexToElement(
          rewriter, loc, createProduct(rewriter, loc, sizes), element);
      reduced =
          createElementwise(rewriter, loc, ValueRange{reduced},
                            cast<RankedTensorType>(reduced.getType()),
                            [&](OpBuilder &b, Location l, ValueRange args) {
                              return createDiv(b, l, args[0], count);
                            });
    }
    if (op.getKeepdims() != 0)
      reduced = expandUnitDims(rewriter, loc, reduced, axes, resultType);
    rewriter.replaceOp(op, castTo(rewriter, loc, reduced, resultType));
    return success();
  }
};
} // namespace

void onnxc::populateONNXReduceToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<ReduceLowering<onnx::ReduceMeanOp>,
               ReduceLowering<onnx::ReduceSumOp>,
               ReduceLowering<onnx::ReduceMaxOp>>(patterns.getContext());
}

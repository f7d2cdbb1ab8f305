//===- FuseConvBN.cpp - The onnx-fuse-conv-bn pass ------------------------===//
//
// Folds inference BatchNormalization, and Mul or Add by a per-channel
// constant, into the weights and bias of the Conv that feeds it.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace onnxc {
#define GEN_PASS_DEF_ONNXFUSECONVBNPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// Weights read in full, whatever their size.
constexpr int64_t kAnySize = int64_t(1) << 40;

/// The constant weights of a Conv that has no other reader, and its bias
/// (zeros when absent), or nullopt.
struct ConvWeights {
  ConstantTensor w, b;
  int64_t outChannels;
};
static std::optional<ConvWeights> readConvWeights(ConvOp conv) {
  if (!conv || !conv.getY().hasOneUse())
    return std::nullopt;
  auto w = readConstant(conv.getW(), kAnySize);
  if (!w || !w->isFloat() || w->type.getRank() < 3)
    return std::nullopt;
  ConvWeights weights;
  weights.w = std::move(*w);
  weights.outChannels = weights.w.type.getDimSize(0);
  auto biasType = RankedTensorType::get({weights.outChannels},
                                        weights.w.type.getElementType());
  if (isNoValue(conv.getB())) {
    weights.b = ConstantTensor::zeros(biasType);
  } else {
    auto b = readConstant(conv.getB(), kAnySize);
    if (!b || b->size() != weights.outChannels || !b->isFloat())
      return std::nullopt;
    weights.b = std::move(*b);
    weights.b.type = biasType;
  }
  return weights;
}

/// The per-channel values of a constant that broadcasts against a Conv
/// result of rank `rank` only along the channel dim: a scalar, `[M]`-like
/// trailing-ones shapes (`[M, 1, 1]`, `[1, M, 1, 1]`), one value per channel.
static std::optional<SmallVector<double>>
readPerChannel(Value value, int64_t channels, int64_t rank) {
  auto t = readConstant(value, channels);
  if (!t || !t->isFloat())
    return std::nullopt;
  SmallVector<double> values;
  if (t->size() == 1) {
    values.assign(channels, t->floats[0]);
    return values;
  }
  ArrayRef<int64_t> shape = t->shape();
  // Right-aligned against [N, M, spatial...]: the channel dim is at
  // rank - 1 - k of the constant's trailing k dims.
  int64_t r = shape.size();
  if (r > rank || r < rank - 1 || t->size() != channels)
    return std::nullopt;
  int64_t channelDim = r - (rank - 1);
  for (int64_t d = 0; d < r; ++d)
    if (d != channelDim && shape[d] != 1)
      return std::nullopt;
  values.assign(t->floats.begin(), t->floats.end());
  return values;
}

/// Replaces `op` by a copy of `conv` with weights `w` and bias `b`.
static void replaceWithConv(PatternRewriter &rewriter, Operation *op,
                            ConvOp conv, const ConvWeights &weights) {
  Value w = createConstant(rewriter, conv.getW().getLoc(), weights.w);
  Value b = createConstant(rewriter, conv.getLoc(), weights.b);
  auto fused =
      rewriter.create<ConvOp>(conv.getLoc(), op->getResult(0).getType(),
                              ValueRange{conv.getX(), w, b}, conv->getAttrs());
  rewriter.replaceOp(op, fused.getY());
}

/// Scales output channel `m` of the weights and bias by `scale[m]`.
static void scaleChannels(ConvWeights &weights, ArrayRef<double> scale) {
  int64_t perChannel = weights.w.size() / weights.outChannels;
  for (int64_t m = 0; m < weights.outChannels; ++m) {
    for (int64_t k = 0; k < perChannel; ++k)
      weights.w.floats[m * perChannel + k] *= scale[m];
    weights.b.floats[m] *= scale[m];
  }
}

struct FuseConvBatchNorm : public OpRewritePattern<BatchNormalizationOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchNormalizationOp bn,
                                PatternRewriter &rewriter) const override {
    auto conv = bn.getX().getDefiningOp<ConvOp>();
    std::optional<ConvWeights> weights = readConvWeights(conv);
    if (!weights || bn.getTrainingMode() != 0)
      return failure();
    int64_t m = weights->outChannels;
    auto scale = readConstant(bn.getScale(), m);
    auto beta = readConstant(bn.getB(), m);
    auto mean = readConstant(bn.getInputMean(), m);
    auto var = readConstant(bn.getInputVar(), m);
    if (!scale || !beta || !mean || !var || scale->size() != m ||
        beta->size() != m || mean->size() != m || var->size() != m ||
        !scale->isFloat())
      return failure();
    double epsilon = bn.getEpsilon().convertToDouble();
    SmallVector<double> factor(m);
    for (int64_t c = 0; c < m; ++c)
      factor[c] = scale->floats[c] / std::sqrt(var->floats[c] + epsilon);
    // (W x + b - mean) * s + beta = (s W) x + (b - mean) * s + beta.
    for (int64_t c = 0; c < m; ++c)
      weights->b.floats[c] -= mean->floats[c];
    scaleChannels(*weights, factor);
    for (int64_t c = 0; c < m; ++c)
      weights->b.floats[c] += beta->floats[c];
    replaceWithConv(rewriter, bn, conv, *weights);
    return success();
  }
};

/// Conv followed by a Mul or an Add of a per-channel constant.
template <typename OpT>
struct FuseConvChannelOp : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    auto conv = lhs.getDefiningOp<ConvOp>();
    if (!conv) {
      std::swap(lhs, rhs);
      conv = lhs.getDefiningOp<ConvOp>();
    }
    if (!conv || op->getResult(0).getType() != conv.getY().getType())
      return failure();
    std::optional<ConvWeights> weights = readConvWeights(conv);
    if (!weights)
      return failure();
    auto rank = cast<ShapedType>(conv.getY().getType()).getRank();
    auto values = readPerChannel(rhs, weights->outChannels, rank);
    if (!values)
      return failure();
    if constexpr (std::is_same_v<OpT, MulOp>) {
      scaleChannels(*weights, *values);
    } else {
      for (int64_t c = 0; c < weights->outChannels; ++c)
        weights->b.floats[c] += (*values)[c];
    }
    replaceWithConv(rewriter, op, conv, *weights);
    return success();
  }
};

struct ONNXFuseConvBNPass
    : GreedyPatternPass<ONNXFuseConvBNPass, onnxc::impl::ONNXFuseConvBNPassBase,
                        populateONNXFuseConvBNPatterns> {};

} // namespace

void onnxc::populateONNXFuseConvBNPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseConvBatchNorm, FuseConvChannelOp<MulOp>,
               FuseConvChannelOp<AddOp>>(patterns.getContext());
}

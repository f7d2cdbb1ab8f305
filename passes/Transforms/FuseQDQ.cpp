//===- FuseQDQ.cpp - The onnx-fuse-qdq pass -------------------------------===//
//
// The QDQ format of ONNX Runtime's quantizer computes in float between
// DequantizeLinear and QuantizeLinear; this pass turns those islands into
// integer ops that the lowering maps to the int8 kernels:
//
//   Q(Relu?(Conv(DQ(x), DQ(w), DQ(b)?)))  -> QLinearConv (+ Max(y, y_zp))
//   Q(Relu?(MatMul(DQ(a), DQ(w))))        -> QLinearMatMul (+ Max(y, y_zp))
//   Gemm/MatMul(DQ(a), DQ(w), c?)          -> Mul(Cast(MatMulInteger(a, w)),
//                                             a_scale * w_scale) (+ c)
//
// with per-tensor activations and constant, per-tensor or per-channel
// weights. A Relu before the QuantizeLinear is dropped when the output zero
// point is the type's minimum (the quantization clamps there already) and
// becomes Max with the zero point otherwise. Biases are requantized to the
// accumulator's scale x_scale * w_scale[c] (unchanged when ONNX Runtime
// wrote them at that scale).
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace onnxc {
#define GEN_PASS_DEF_ONNXFUSEQDQPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// The most elements of a constant read here (weights and their scales).
constexpr int64_t kMaxElements = int64_t(1) << 26;

/// A DequantizeLinear's operands.
struct Dequantized {
  DequantizeLinearOp op;
  Value x, scale, zeroPoint; // zeroPoint may be none
};

/// `value` as the output of a DequantizeLinear of an 8-bit tensor.
static std::optional<Dequantized> getDequantized(Value value) {
  auto dq = value.getDefiningOp<DequantizeLinearOp>();
  if (!dq)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(dq.getX().getType());
  if (!type || !type.getElementType().isInteger(8))
    return std::nullopt;
  return Dequantized{dq, dq.getX(), dq.getXScale(), dq.getXZeroPoint()};
}

/// True when `value` is a constant with one element (any rank).
static bool isScalarConstant(Value value) {
  std::optional<int64_t> size = constantSize(value);
  return size && *size == 1;
}

/// True when `dq` dequantizes per tensor with a constant scale and zero
/// point (or none).
static bool isPerTensor(const Dequantized &dq) {
  return isScalarConstant(dq.scale) &&
         (isNoValue(dq.zeroPoint) || isScalarConstant(dq.zeroPoint));
}

/// True when `dq` dequantizes constant weights per tensor or along `axis`
/// (of a rank `rank` tensor) with constant scales and zero points.
static bool isConstantWeight(const Dequantized &dq, int64_t axis) {
  auto type = dyn_cast<RankedTensorType>(dq.x.getType());
  if (!type || !type.hasStaticShape() || !constantSize(dq.x))
    return false;
  std::optional<int64_t> scales = constantSize(dq.scale);
  if (!scales)
    return false;
  if (*scales == 1)
    return isNoValue(dq.zeroPoint) || isScalarConstant(dq.zeroPoint);
  int64_t rank = type.getRank();
  DequantizeLinearOp op = dq.op;
  int64_t dqAxis = static_cast<int64_t>(op.getAxis());
  if (dqAxis < 0)
    dqAxis += rank;
  if (dqAxis != axis || *scales != type.getDimSize(axis))
    return false;
  std::optional<int64_t> zeros =
      isNoValue(dq.zeroPoint) ? scales : constantSize(dq.zeroPoint);
  return zeros && (*zeros == 1 || *zeros == *scales);
}

/// The zero point of `dq`, or a zero of its x's element type when it has
/// none (the QLinear ops require one).
static Value getZeroPoint(PatternRewriter &rewriter, const Dequantized &dq) {
  if (!isNoValue(dq.zeroPoint))
    return dq.zeroPoint;
  auto type = RankedTensorType::get(
      {}, cast<RankedTensorType>(dq.x.getType()).getElementType());
  DequantizeLinearOp op = dq.op;
  return createConstant(rewriter, op.getLoc(), ConstantTensor::zeros(type));
}

/// The single user of `value`, if it has one.
static Operation *getSingleUser(Value value) {
  return value.hasOneUse() ? *value.user_begin() : nullptr;
}

/// The end of a float island: `op`'s result, through a Relu if one follows,
/// into a per-tensor QuantizeLinear to 8-bit integers; sets `relu` when there
/// is one.
static QuantizeLinearOp getQuantizeAfter(Operation *op, ReluOp &relu) {
  Operation *user = getSingleUser(op->getResult(0));
  relu = dyn_cast_or_null<ReluOp>(user);
  if (relu)
    user = getSingleUser(relu.getResult());
  auto q = dyn_cast_or_null<QuantizeLinearOp>(user);
  if (!q || !getElementTypeOrSelf(q.getY()).isInteger(8) ||
      !isScalarConstant(q.getYScale()) || isNoValue(q.getYZeroPoint()) ||
      !isScalarConstant(q.getYZeroPoint()))
    return nullptr;
  return q;
}

/// A float island `q(relu?(op(DQ(x), DQ(w))))`.
struct Island {
  Dequantized x, w;
  ReluOp relu;
  QuantizeLinearOp q;
};

/// The island `op` (a Conv or MatMul) ends, with a per-tensor x and constant
/// weights per tensor or along `axis`.
static std::optional<Island> matchIsland(Operation *op, int64_t axis) {
  std::optional<Dequantized> x = getDequantized(op->getOperand(0));
  std::optional<Dequantized> w = getDequantized(op->getOperand(1));
  ReluOp relu;
  QuantizeLinearOp q = getQuantizeAfter(op, relu);
  if (!x || !w || !q || !isPerTensor(*x) || !isConstantWeight(*w, axis))
    return std::nullopt;
  return Island{*x, *w, relu, q};
}

/// The operands of the QLinear op of `island`, from x to y's zero point.
static SmallVector<Value> getQLinearOperands(PatternRewriter &rewriter,
                                             Island island) {
  return {island.x.x,
          island.x.scale,
          getZeroPoint(rewriter, island.x),
          island.w.x,
          island.w.scale,
          getZeroPoint(rewriter, island.w),
          island.q.getYScale(),
          island.q.getYZeroPoint()};
}

/// Replaces `q` by `y`, the integer op's result, applying a Relu in the
/// quantized domain: nothing when the zero point is the type's minimum,
/// Max(y, zero point) otherwise.
static void replaceQuantize(PatternRewriter &rewriter, QuantizeLinearOp q,
                            ReluOp relu, Value y) {
  if (relu) {
    std::optional<ConstantTensor> zero =
        readConstant(q.getYZeroPoint(), kMaxElements);
    Type element = getElementTypeOrSelf(y.getType());
    int64_t lowest = element.isUnsignedInteger() ? 0 : -128;
    if (!zero || zero->getInt(0) != lowest)
      y = rewriter.create<MaxOp>(q.getLoc(), y.getType(),
                                 ValueRange{y, q.getYZeroPoint()});
  }
  rewriter.replaceOp(q, y);
}

/// The scale of the product of a per-tensor scale `x` and the scales `w`
/// (per tensor or per channel), element by element, in double.
static std::vector<double> productScales(Value x, Value w) {
  std::optional<ConstantTensor> xs = readConstant(x, 1);
  std::optional<ConstantTensor> ws = readConstant(w, kMaxElements);
  std::vector<double> scales;
  for (int64_t i = 0; i < ws->size(); ++i)
    scales.push_back(static_cast<double>(
        static_cast<float>(static_cast<float>(xs->getDouble(0)) *
                           static_cast<float>(ws->getDouble(i)))));
  return scales;
}

/// The bias `bias` of a Conv over `channels` output channels as int32 at
/// scale x_scale * w_scale[c], or null when it is not a constant (or a
/// DequantizeLinear of one).
static Value quantizeBias(PatternRewriter &rewriter, Location loc, Value bias,
                          ArrayRef<double> scales, int64_t channels) {
  std::vector<double> real;
  if (auto dq = bias.getDefiningOp<DequantizeLinearOp>()) {
    std::optional<ConstantTensor> v = readConstant(dq.getX(), kMaxElements);
    std::optional<ConstantTensor> s =
        readConstant(dq.getXScale(), kMaxElements);
    bool hasZero = !isNoValue(dq.getXZeroPoint());
    std::optional<ConstantTensor> z =
        hasZero ? readConstant(dq.getXZeroPoint(), kMaxElements) : std::nullopt;
    if (!v || !s || (hasZero && !z))
      return Value();
    for (int64_t c = 0; c < v->size(); ++c) {
      double zero = z ? z->getDouble(z->size() > 1 ? c : 0) : 0.0;
      real.push_back((v->getDouble(c) - zero) *
                     s->getDouble(s->size() > 1 ? c : 0));
    }
  } else {
    std::optional<ConstantTensor> v = readConstant(bias, kMaxElements);
    if (!v || !v->isFloat())
      return Value();
    real = v->floats;
  }
  if (static_cast<int64_t>(real.size()) != channels)
    return Value();
  ConstantTensor result = ConstantTensor::zeros(
      RankedTensorType::get({channels}, rewriter.getI32Type()));
  for (int64_t c = 0; c < channels; ++c) {
    double q = std::nearbyint(real[c] / scales[scales.size() > 1 ? c : 0]);
    result.ints[c] =
        static_cast<int64_t>(std::clamp(q, -2147483648.0, 2147483647.0));
  }
  return createConstant(rewriter, loc, result);
}

/// Q(Relu?(Conv(DQ(x), DQ(w), bias?))) -> QLinearConv.
struct FuseQDQConv : public OpRewritePattern<ConvOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvOp conv,
                                PatternRewriter &rewriter) const override {
    std::optional<Island> island = matchIsland(conv, 0);
    if (!island)
      return failure();
    Dequantized *x = &island->x, *w = &island->w;
    QuantizeLinearOp q = island->q;
    auto wType = cast<RankedTensorType>(w->x.getType());
    int64_t channels = wType.getDimSize(0);
    Location loc = conv.getLoc();
    Value bias = conv.getB();
    if (!isNoValue(bias)) {
      bias = quantizeBias(rewriter, loc, bias,
                          productScales(x->scale, w->scale), channels);
      if (!bias)
        return failure();
    }
    SmallVector<Value> operands = getQLinearOperands(rewriter, *island);
    operands.push_back(bias);
    auto qconv = rewriter.create<QLinearConvOp>(loc, q.getType(), operands,
                                                conv->getAttrs());
    replaceQuantize(rewriter, q, island->relu, qconv.getResult());
    return success();
  }
};

/// Q(Relu?(MatMul(DQ(a), DQ(w)))) with a 2-D constant w -> QLinearMatMul.
struct FuseQDQMatMul : public OpRewritePattern<MatMulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MatMulOp matmul,
                                PatternRewriter &rewriter) const override {
    auto wType = dyn_cast<RankedTensorType>(matmul.getB().getType());
    if (!wType || wType.getRank() != 2)
      return failure();
    std::optional<Island> island = matchIsland(matmul, 1);
    if (!island)
      return failure();
    QuantizeLinearOp q = island->q;
    SmallVector<Value> operands = getQLinearOperands(rewriter, *island);
    auto qmatmul = rewriter.create<QLinearMatMulOp>(
        matmul.getLoc(), q.getType(), operands, ArrayRef<NamedAttribute>{});
    replaceQuantize(rewriter, q, island->relu, qmatmul.getResult());
    return success();
  }
};

/// Gemm(DQ(a), DQ(w), c?) (alpha = beta = 1, no transA) or a MatMul not
/// followed by a QuantizeLinear -> MatMulInteger, Cast, Mul by the product
/// of the scales (+ c).
template <typename OpT> struct FuseQDQRescale : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Value aValue = op->getOperand(0), wValue = op->getOperand(1);
    bool transB = false;
    Value bias;
    if constexpr (std::is_same_v<OpT, GemmOp>) {
      if (op.getTransA() || op.getAlpha().convertToFloat() != 1.0f ||
          op.getBeta().convertToFloat() != 1.0f)
        return failure();
      transB = op.getTransB();
      if (!isNoValue(op.getC()))
        bias = op.getC();
    } else {
      ReluOp relu;
      if (getQuantizeAfter(op, relu))
        return failure(); // FuseQDQMatMul's
    }
    std::optional<Dequantized> a = getDequantized(aValue);
    std::optional<Dequantized> w = getDequantized(wValue);
    auto wType = dyn_cast<RankedTensorType>(wValue.getType());
    auto yType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!a || !w || !wType || !yType || wType.getRank() != 2 ||
        !yType.getElementType().isF32() || !isPerTensor(*a) ||
        !isConstantWeight(*w, transB ? 0 : 1))
      return failure();
    int64_t n = wType.getDimSize(transB ? 0 : 1);
    if (bias) {
      auto cType = dyn_cast<RankedTensorType>(bias.getType());
      if (!cType || cType.getRank() > 1 ||
          (cType.getRank() == 1 && cType.getDimSize(0) != n &&
           cType.getDimSize(0) != 1))
        return failure();
    }
    Location loc = op.getLoc();
    Value weights = w->x;
    if (transB) {
      std::optional<ConstantTensor> values = readConstant(w->x, kMaxElements);
      if (!values)
        return failure();
      int64_t k = wType.getDimSize(1);
      ConstantTensor t = ConstantTensor::zeros(
          RankedTensorType::get({k, n}, getElementTypeOrSelf(w->x)));
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < k; ++j)
          t.ints[j * n + i] = values->ints[i * k + j];
      weights = createConstant(rewriter, loc, t);
    }
    std::vector<double> scales = productScales(a->scale, w->scale);
    ConstantTensor scale = ConstantTensor::zeros(RankedTensorType::get(
        {static_cast<int64_t>(scales.size())}, rewriter.getF32Type()));
    scale.floats = scales;
    auto accType =
        RankedTensorType::get(yType.getShape(), rewriter.getIntegerType(32));
    Value acc = rewriter.create<MatMulIntegerOp>(
        loc, accType,
        ValueRange{a->x, weights, getZeroPoint(rewriter, *a),
                   getZeroPoint(rewriter, *w)},
        ArrayRef<NamedAttribute>{});
    Value y = rewriter.create<CastOp>(
        loc, yType, ValueRange{acc},
        ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
            "to", rewriter.getI64IntegerAttr(1))}); // FLOAT
    y = rewriter.create<MulOp>(
        loc, yType, ValueRange{y, createConstant(rewriter, loc, scale)},
        ArrayRef<NamedAttribute>{});
    if (bias)
      y = rewriter.create<AddOp>(loc, yType, ValueRange{y, bias},
                                 ArrayRef<NamedAttribute>{});
    rewriter.replaceOp(op, y);
    return success();
  }
};

struct ONNXFuseQDQPass
    : public onnxc::impl::ONNXFuseQDQPassBase<ONNXFuseQDQPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateONNXFuseQDQPatterns(patterns);
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void onnxc::populateONNXFuseQDQPatterns(RewritePatternSet &patterns) {
  patterns.add<FuseQDQConv, FuseQDQMatMul, FuseQDQRescale<GemmOp>,
               FuseQDQRescale<MatMulOp>>(patterns.getContext());
}

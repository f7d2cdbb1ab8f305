//===- QuantizeQDQ.cpp - The onnx-quantize-qdq pass -----------------------===//
//
// Static post-training quantization in the QDQ format of ONNX Runtime's
// quantization tool: every calibrated float activation read by Conv, Gemm,
// MatMul, Add, Mul, Concat or a pooling op goes through QuantizeLinear ->
// DequantizeLinear; constant Conv, Gemm and MatMul weights become symmetric
// int8 initializers (per channel) read through DequantizeLinear, and their
// biases int32 with scale `x_scale * w_scale`.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"
#include "passes/Transforms/QuantizeCommon.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace onnxc {
#define GEN_PASS_DEF_ONNXQUANTIZEQDQPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

/// The attribute that carries a calibrated `[lo, hi]`: on the op for its
/// first result, on the function argument for an argument.
static constexpr StringLiteral kRangeAttr = "onnxc.range";

/// A float constant of static shape: what is quantized as a weight.
static bool isFloatConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return false;
  auto type = dyn_cast<RankedTensorType>(constant.getType());
  return type && type.hasStaticShape() && type.getElementType().isF32();
}

static bool isF32Tensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.getElementType().isF32();
}

/// The operands of `op` read as quantized activations, by position.
static SmallVector<unsigned> activationOperands(Operation *op) {
  SmallVector<unsigned> positions;
  if (isa<ConvOp, MaxPoolOp, AveragePoolOp, GlobalAveragePoolOp>(op)) {
    positions.push_back(0);
  } else if (isa<GemmOp, MatMulOp>(op)) {
    positions.push_back(0);
    if (!isFloatConstant(op->getOperand(1)))
      positions.push_back(1);
  } else if (isa<AddOp, MulOp, ConcatOp>(op)) {
    for (unsigned i = 0; i < op->getNumOperands(); ++i)
      if (!op->getOperand(i).getDefiningOp<ConstantOp>())
        positions.push_back(i);
  }
  llvm::erase_if(positions,
                 [&](unsigned i) { return !isF32Tensor(op->getOperand(i)); });
  return positions;
}

/// Values carry ranges on their op's first result or their argument.
static bool canCarryRange(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isa<func::FuncOp>(arg.getOwner()->getParentOp());
  return cast<OpResult>(value).getResultNumber() == 0;
}

SmallVector<Value> onnxc::getQuantizableActivations(func::FuncOp func) {
  llvm::SetVector<Value> values;
  func.walk([&](Operation *op) {
    for (unsigned i : activationOperands(op))
      if (canCarryRange(op->getOperand(i)))
        values.insert(op->getOperand(i));
  });
  return values.takeVector();
}

void onnxc::setActivationRange(Value value, double lo, double hi) {
  assert(canCarryRange(value) && "a value that cannot carry a range");
  auto range = DenseF64ArrayAttr::get(value.getContext(), {lo, hi});
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = cast<func::FuncOp>(arg.getOwner()->getParentOp());
    func.setArgAttr(arg.getArgNumber(), kRangeAttr, range);
    return;
  }
  value.getDefiningOp()->setAttr(kRangeAttr, range);
}

/// The calibrated range of `value`, if any.
static std::optional<std::pair<double, double>> getRange(Value value) {
  DenseF64ArrayAttr range;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp()))
      range = func.getArgAttrOfType<DenseF64ArrayAttr>(arg.getArgNumber(),
                                                       kRangeAttr);
  } else if (cast<OpResult>(value).getResultNumber() == 0) {
    range = value.getDefiningOp()->getAttrOfType<DenseF64ArrayAttr>(kRangeAttr);
  }
  if (!range || range.size() != 2 || !std::isfinite(range[0]) ||
      !std::isfinite(range[1]) || range[0] > range[1])
    return std::nullopt;
  return std::make_pair(range[0], range[1]);
}

/// Erases the constant defining `value` once nothing reads it.
static void eraseIfDead(Value value) {
  if (value.use_empty())
    value.getDefiningOp()->erase();
}

namespace {

/// Rewrites one function into the QDQ form.
class QDQRewriter {
public:
  QDQRewriter(func::FuncOp func, bool int8Activations, bool perChannel)
      : func(func), builder(func.getContext()), perChannel(perChannel) {
    MLIRContext *ctx = func.getContext();
    activationType = int8Activations
                         ? IntegerType::get(ctx, 8)
                         : IntegerType::get(ctx, 8, IntegerType::Unsigned);
    qmin = int8Activations ? -128 : 0;
    qmax = int8Activations ? 127 : 255;
  }

  void run() {
    absorbRelus();
    SmallVector<Operation *> ops;
    func.walk([&](Operation *op) {
      if (!activationOperands(op).empty() || isa<ConvOp, GemmOp, MatMulOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      rewrite(op);
    // The ranges are consumed.
    func.walk([](Operation *op) { op->removeAttr(kRangeAttr); });
    for (unsigned i = 0; i < func.getNumArguments(); ++i)
      func.removeArgAttr(i, kRangeAttr);
  }

private:
  /// The DequantizeLinear of `value` through a QuantizeLinear (one pair per
  /// value), and its scale; nothing without a range.
  std::optional<std::pair<Value, double>> quantizeActivation(Value value) {
    auto it = activations.find(value);
    if (it != activations.end())
      return it->second;
    std::optional<std::pair<double, double>> range = getRange(value);
    if (!range)
      return std::nullopt;
    return quantizeWithRange(value, range->first, range->second);
  }

  /// The QuantizeLinear -> DequantizeLinear pair of `value` over `[lo, hi]`.
  std::pair<Value, double> quantizeWithRange(Value value, double lo,
                                             double hi) {
    QuantParams params = computeQuantParams(lo, hi, qmin, qmax);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointAfterValue(value);
    Location loc = value.getLoc();
    Value scale = createQuantConstant(builder, loc, builder.getF32Type(),
                                      {params.scale}, /*scalar=*/true);
    Value zeroPoint = createQuantConstant(builder, loc, activationType,
                                          {double(params.zeroPoint)},
                                          /*scalar=*/true);
    Value q = builder.create<QuantizeLinearOp>(loc, value, scale, zeroPoint,
                                               uint64_t(1));
    Value dq = builder.create<DequantizeLinearOp>(loc, q, scale, zeroPoint,
                                                  uint64_t(1));
    auto result = std::make_pair(dq, params.scale);
    activations[value] = result;
    // A reader of the pair reads a quantized value of this scale.
    activations[dq] = result;
    return result;
  }

  /// Removes each calibrated Relu of a Conv, Gemm, MatMul or Add that nothing
  /// else reads, as ONNX Runtime's quantizer does: the result is quantized
  /// with the Relu's range, whose zero point is the lowest value, so the
  /// QuantizeLinear clamps what the Relu did and DequantizeLinear -> Conv
  /// -> QuantizeLinear is one quantized op.
  void absorbRelus() {
    SmallVector<ReluOp> relus;
    func.walk([&](ReluOp relu) { relus.push_back(relu); });
    for (ReluOp relu : relus) {
      Value x = relu.getX();
      Operation *producer = x.getDefiningOp();
      std::optional<std::pair<double, double>> range = getRange(relu.getY());
      if (!producer || !isa<ConvOp, GemmOp, MatMulOp, AddOp>(producer) ||
          !x.hasOneUse() || !range || !isF32Tensor(x))
        continue;
      Value dq = quantizeWithRange(x, 0.0, range->second).first;
      relu.getY().replaceAllUsesWith(dq);
      relu.erase();
    }
  }

  /// Replaces constant weight operand `index` of `op` by int8 values read
  /// through DequantizeLinear; returns the scales.
  std::optional<SmallVector<double>>
  quantizeWeightOperand(Operation *op, unsigned index, int64_t axis) {
    Value weight = op->getOperand(index);
    if (!isFloatConstant(weight))
      return std::nullopt;
    std::optional<ConstantTensor> w = readConstant(weight, INT64_MAX);
    if (!w)
      return std::nullopt;
    std::optional<int64_t> channelAxis;
    if (perChannel)
      channelAxis = axis;
    QuantizedWeight q = quantizeWeight(*w, channelAxis);
    builder.setInsertionPoint(op);
    Location loc = weight.getLoc();
    bool scalar = !channelAxis;
    Value values = createConstant(builder, loc, q.values);
    Value scale = createQuantConstant(builder, loc, builder.getF32Type(),
                                      q.scales, scalar);
    SmallVector<double> zeros(q.scales.size(), 0.0);
    Value zeroPoint = createQuantConstant(
        builder, loc, q.values.type.getElementType(), zeros, scalar);
    Value dq = builder.create<DequantizeLinearOp>(loc, values, scale, zeroPoint,
                                                  uint64_t(axis));
    op->setOperand(index, dq);
    eraseIfDead(weight);
    return q.scales;
  }

  /// Replaces the constant 1-D bias operand `index` of `op` (`channels`
  /// long) by int32 values of scale `xScale * wScales` read through
  /// DequantizeLinear.
  void quantizeBias(Operation *op, unsigned index, int64_t channels,
                    double xScale, ArrayRef<double> wScales) {
    Value bias = op->getOperand(index);
    if (!isFloatConstant(bias))
      return;
    auto type = cast<RankedTensorType>(bias.getType());
    if (type.getRank() != 1 || type.getDimSize(0) != channels)
      return;
    std::optional<ConstantTensor> b = readConstant(bias, INT64_MAX);
    if (!b)
      return;
    SmallVector<double> scales;
    for (double w : wScales)
      scales.push_back(static_cast<float>(float(xScale) * float(w)));
    ConstantTensor q = ConstantTensor::zeros(
        RankedTensorType::get(type.getShape(), builder.getI32Type()));
    for (int64_t i = 0; i < channels; ++i) {
      double s = scales[scales.size() == 1 ? 0 : i];
      q.ints[i] = quantizeValue(b->floats[i], s, 0, INT32_MIN, INT32_MAX);
    }
    builder.setInsertionPoint(op);
    Location loc = bias.getLoc();
    bool scalar = scales.size() == 1;
    Value values = createConstant(builder, loc, q);
    Value scale =
        createQuantConstant(builder, loc, builder.getF32Type(), scales, scalar);
    Value none = builder.create<NoValueOp>(loc, builder.getNoneType());
    Value dq = builder.create<DequantizeLinearOp>(loc, values, scale, none,
                                                  uint64_t(0));
    op->setOperand(index, dq);
    eraseIfDead(bias);
  }

  void rewrite(Operation *op) {
    std::optional<double> xScale;
    for (unsigned i : activationOperands(op)) {
      std::optional<std::pair<Value, double>> dq =
          quantizeActivation(op->getOperand(i));
      if (!dq)
        continue;
      op->setOperand(i, dq->first);
      if (i == 0)
        xScale = dq->second;
    }
    if (auto conv = dyn_cast<ConvOp>(op)) {
      auto w = dyn_cast<RankedTensorType>(conv.getW().getType());
      if (!w || w.getRank() < 3)
        return;
      auto scales = quantizeWeightOperand(op, 1, 0);
      if (scales && xScale && !isNoValue(conv.getB()))
        quantizeBias(op, 2, w.getDimSize(0), *xScale, *scales);
      return;
    }
    if (auto gemm = dyn_cast<GemmOp>(op)) {
      auto b = dyn_cast<RankedTensorType>(gemm.getB().getType());
      if (!b || b.getRank() != 2)
        return;
      int64_t axis = gemm.getTransB() ? 0 : 1;
      auto scales = quantizeWeightOperand(op, 1, axis);
      if (scales && xScale && !isNoValue(gemm.getC()) &&
          gemm.getAlpha().convertToDouble() == 1.0 &&
          gemm.getBeta().convertToDouble() == 1.0)
        quantizeBias(op, 2, b.getDimSize(axis), *xScale, *scales);
      return;
    }
    if (auto matmul = dyn_cast<MatMulOp>(op)) {
      auto b = dyn_cast<RankedTensorType>(matmul.getB().getType());
      if (b && b.getRank() >= 2)
        quantizeWeightOperand(op, 1, b.getRank() - 1);
    }
  }

  func::FuncOp func;
  OpBuilder builder;
  bool perChannel;
  Type activationType;
  int64_t qmin, qmax;
  llvm::MapVector<Value, std::pair<Value, double>> activations;
};

struct ONNXQuantizeQDQPass
    : public onnxc::impl::ONNXQuantizeQDQPassBase<ONNXQuantizeQDQPass> {
  using ONNXQuantizeQDQPassBase::ONNXQuantizeQDQPassBase;
  void runOnOperation() override {
    if (activationType != "uint8" && activationType != "int8") {
      getOperation().emitError()
          << "onnx-quantize-qdq: activation-type must be uint8 or int8 (got '"
          << activationType << "')";
      return signalPassFailure();
    }
    quantizeQDQ(getOperation(), activationType == "int8", perChannel);
  }
};

} // namespace

void onnxc::quantizeQDQ(ModuleOp module, bool int8Activations,
                        bool perChannel) {
  // Per-axis QuantizeLinear and DequantizeLinear are opset 13.
  requireOpset(module, 13);
  for (auto func : module.getOps<func::FuncOp>())
    QDQRewriter(func, int8Activations, perChannel).run();
}

//===- RecognizePatterns.cpp - The onnx-recognize-patterns pass -----------===//
//
// Decomposed LayerNormalization, GELU and Softmax (what exporters write for
// older opsets, or for models written op by op) into the one op, where the
// model's opset has it.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/ConstantTensor.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace onnxc {
#define GEN_PASS_DEF_ONNXRECOGNIZEPATTERNSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

namespace {

/// The value of a one-element constant.
static std::optional<double> scalarOf(Value value) {
  auto t = readConstant(value, 1);
  if (!t || t->size() != 1)
    return std::nullopt;
  return t->getDouble(0);
}

static bool near(std::optional<double> v, double expected, double tol = 1e-4) {
  return v &&
         std::fabs(*v - expected) <= tol * std::max(1.0, std::fabs(expected));
}

/// The other operand of a binary op when one of them is `value`.
static Value otherOperand(Operation *op, Value value) {
  if (op->getOperand(0) == value)
    return op->getOperand(1);
  if (op->getOperand(1) == value)
    return op->getOperand(0);
  return nullptr;
}

/// The normalized axes of a keepdims reduction over the trailing dims of a
/// rank-`rank` input: the first such axis.
template <typename ReduceOpT>
static std::optional<int64_t> trailingReduction(ReduceOpT op, int64_t rank) {
  if (!op || op.getKeepdims() != 1 || isNoValue(op.getAxes()))
    return std::nullopt;
  auto axes = getNormalizedAxes(op.getAxes(), rank);
  if (!axes || axes->empty() || axes->back() != rank - 1)
    return std::nullopt;
  for (size_t i = 1; i < axes->size(); ++i)
    if ((*axes)[i] != (*axes)[i - 1] + 1)
      return std::nullopt;
  return axes->front();
}

/// `d * d` or `d ^ 2`.
static bool isSquareOf(Value value, Value d) {
  if (auto mul = value.getDefiningOp<MulOp>())
    return mul.getA() == d && mul.getB() == d;
  if (auto pow = value.getDefiningOp<PowOp>())
    return pow.getX() == d && near(scalarOf(pow.getY()), 2.0, 0);
  return false;
}

/// Div(Sub(x, mean(x)), Sqrt(mean(Sub(..)^2) + eps)) [* gamma] [+ beta].
struct RecognizeLayerNorm : public OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp div,
                                PatternRewriter &rewriter) const override {
    auto sub = div.getA().getDefiningOp<SubOp>();
    auto sqrt = div.getB().getDefiningOp<SqrtOp>();
    if (!sub || !sqrt)
      return failure();
    Value x = sub.getA();
    auto xType = dyn_cast<RankedTensorType>(x.getType());
    if (!xType || xType != div.getType() ||
        !isa<FloatType>(xType.getElementType()))
      return failure();
    int64_t rank = xType.getRank();
    auto mean = sub.getB().getDefiningOp<ReduceMeanOp>();
    if (!mean || mean.getData() != x)
      return failure();
    auto axis = trailingReduction(mean, rank);
    auto add = sqrt.getX().getDefiningOp<AddOp>();
    if (!axis || !add)
      return failure();
    Value varValue = add.getA();
    std::optional<double> epsilon = scalarOf(add.getB());
    if (!epsilon) {
      varValue = add.getB();
      epsilon = scalarOf(add.getA());
    }
    auto var = varValue.getDefiningOp<ReduceMeanOp>();
    if (!epsilon || !var || trailingReduction(var, rank) != axis ||
        !isSquareOf(var.getData(), sub.getResult()))
      return failure();
    // The normalized shape; gamma and beta must have it exactly.
    ArrayRef<int64_t> normShape = xType.getShape().drop_front(*axis);
    if (llvm::any_of(normShape, ShapedType::isDynamic))
      return failure();
    auto paramType = RankedTensorType::get(normShape, xType.getElementType());
    auto isParam = [&](Value v) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      return v.getDefiningOp<ConstantOp>() && t && t.getShape() == normShape;
    };
    Operation *root = div;
    Value scale, bias;
    if (div->hasOneUse()) {
      if (auto mul = dyn_cast<MulOp>(*div->user_begin())) {
        Value g = otherOperand(mul, div);
        if (g && isParam(g) && mul.getType() == xType) {
          scale = g;
          root = mul;
          if (mul->hasOneUse())
            if (auto addB = dyn_cast<AddOp>(*mul->user_begin())) {
              Value b = otherOperand(addB, mul);
              if (b && isParam(b) && addB.getType() == xType) {
                bias = b;
                root = addB;
              }
            }
        }
      }
    }
    // Without a Scale, one of ones is built: not for absurd widths (a fuzzed
    // model's 2^44 of them would be allocated here).
    int64_t width = onnx::detail::productOfDims(normShape);
    if (!scale && (ShapedType::isDynamic(width) || width > (int64_t(1) << 24)))
      return rewriter.notifyMatchFailure(div, "too wide to build a Scale");
    if (!scale) {
      ConstantTensor ones = ConstantTensor::zeros(paramType);
      std::fill(ones.floats.begin(), ones.floats.end(), 1.0);
      scale = createConstant(rewriter, div.getLoc(), ones);
    }
    if (!bias)
      bias = rewriter.create<NoValueOp>(div.getLoc(), rewriter.getNoneType());
    auto ln = rewriter.create<LayerNormalizationOp>(
        root->getLoc(), ValueRange{x, scale, bias},
        ArrayRef<NamedAttribute>{
            rewriter.getNamedAttr("axis", rewriter.getI64IntegerAttr(*axis)),
            rewriter.getNamedAttr("epsilon",
                                  rewriter.getF32FloatAttr(*epsilon)),
            rewriter.getNamedAttr("stash_type",
                                  rewriter.getI64IntegerAttr(1))});
    rewriter.replaceOp(root, ln.getY());
    return success();
  }
};

/// The factors of a product of at most three factors rooted at `mul`,
/// looking through inner Muls that have no other reader.
static SmallVector<Value> productFactors(MulOp mul) {
  SmallVector<Value> factors;
  for (Value operand : {mul.getA(), mul.getB()}) {
    auto inner = operand.getDefiningOp<MulOp>();
    if (inner && inner->hasOneUse()) {
      factors.push_back(inner.getA());
      factors.push_back(inner.getB());
    } else {
      factors.push_back(operand);
    }
  }
  return factors;
}

/// `1 + erf(x / sqrt(2))` (or `x * (1 / sqrt(2))`): its `x`.
static Value geluErfInput(Value value) {
  auto add = value.getDefiningOp<AddOp>();
  if (!add)
    return nullptr;
  Value erfValue = add.getA();
  if (!near(scalarOf(add.getB()), 1.0)) {
    erfValue = add.getB();
    if (!near(scalarOf(add.getA()), 1.0))
      return nullptr;
  }
  auto erf = erfValue.getDefiningOp<ErfOp>();
  if (!erf)
    return nullptr;
  if (auto div = erf.getX().getDefiningOp<DivOp>())
    return near(scalarOf(div.getB()), std::sqrt(2.0)) ? div.getA() : nullptr;
  if (auto mul = erf.getX().getDefiningOp<MulOp>()) {
    if (near(scalarOf(mul.getB()), 1.0 / std::sqrt(2.0)))
      return mul.getA();
    if (near(scalarOf(mul.getA()), 1.0 / std::sqrt(2.0)))
      return mul.getB();
  }
  return nullptr;
}

/// The `x` of `x^3` (Pow by 3, or x * x * x).
static Value cubeInput(Value value) {
  if (auto pow = value.getDefiningOp<PowOp>())
    return near(scalarOf(pow.getY()), 3.0, 0) ? pow.getX() : nullptr;
  auto mul = value.getDefiningOp<MulOp>();
  if (!mul)
    return nullptr;
  for (auto [a, b] :
       {std::pair(mul.getA(), mul.getB()), std::pair(mul.getB(), mul.getA())})
    if (auto square = b.getDefiningOp<MulOp>())
      if (square.getA() == a && square.getB() == a)
        return a;
  return nullptr;
}

/// The non-constant operand of a binary op whose other operand is the
/// scalar `expected`.
static Value scaledBy(Operation *op, double expected, double tol = 1e-4) {
  if (!op || op->getNumOperands() != 2)
    return nullptr;
  if (near(scalarOf(op->getOperand(1)), expected, tol))
    return op->getOperand(0);
  if (near(scalarOf(op->getOperand(0)), expected, tol))
    return op->getOperand(1);
  return nullptr;
}

/// `1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))`: its `x`.
static Value geluTanhInput(Value value) {
  auto add = value.getDefiningOp<AddOp>();
  Value tanhValue = add ? scaledBy(add, 1.0) : nullptr;
  auto tanh = tanhValue ? tanhValue.getDefiningOp<TanhOp>() : nullptr;
  if (!tanh)
    return nullptr;
  Value inner =
      scaledBy(tanh.getX().getDefiningOp<MulOp>(), std::sqrt(2.0 / M_PI));
  auto sum = inner ? inner.getDefiningOp<AddOp>() : nullptr;
  if (!sum)
    return nullptr;
  for (auto [x, cubic] :
       {std::pair(sum.getA(), sum.getB()), std::pair(sum.getB(), sum.getA())}) {
    Value cube = scaledBy(cubic.getDefiningOp<MulOp>(), 0.044715);
    if (cube && cubeInput(cube) == x)
      return x;
  }
  return nullptr;
}

/// x * 0.5 * (1 + erf(x / sqrt(2))) in any association into Gelu, and the
/// tanh approximation x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x^3)))
/// into Gelu with `approximate = "tanh"`.
struct RecognizeGelu : public OpRewritePattern<MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MulOp mul,
                                PatternRewriter &rewriter) const override {
    SmallVector<Value> factors = productFactors(mul);
    if (factors.size() != 3)
      return failure();
    // Find (1 + erf(x/√2)), then x and 0.5 among the other two.
    for (int i = 0; i < 3; ++i) {
      Value x = geluErfInput(factors[i]);
      bool approximate = false;
      if (!x) {
        x = geluTanhInput(factors[i]);
        approximate = true;
      }
      if (!x)
        continue;
      Value a = factors[(i + 1) % 3], b = factors[(i + 2) % 3];
      if (!((a == x && near(scalarOf(b), 0.5)) ||
            (b == x && near(scalarOf(a), 0.5))))
        continue;
      if (x.getType() != mul.getType())
        return failure();
      auto gelu = rewriter.create<GeluOp>(mul.getLoc(), mul.getType(), x);
      if (approximate)
        gelu->setAttr("approximate", rewriter.getStringAttr("tanh"));
      rewriter.replaceOp(mul, gelu.getResult());
      return success();
    }
    return failure();
  }
};

/// Exp(x [- ReduceMax(x)]) / ReduceSum(that) over one axis into Softmax.
struct RecognizeSoftmax : public OpRewritePattern<DivOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivOp div,
                                PatternRewriter &rewriter) const override {
    auto exp = div.getA().getDefiningOp<ExpOp>();
    auto sum = div.getB().getDefiningOp<ReduceSumOp>();
    if (!exp || !sum || sum.getData() != exp.getResult() ||
        sum.getKeepdims() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(div.getType());
    if (!type || type != exp.getType())
      return failure();
    auto axes = getNormalizedAxes(sum.getAxes(), type.getRank());
    if (!axes || axes->size() != 1)
      return failure();
    Value x = exp.getX();
    if (auto sub = x.getDefiningOp<SubOp>()) {
      auto max = sub.getB().getDefiningOp<ReduceMaxOp>();
      if (max && max.getData() == sub.getA() && max.getKeepdims() == 1 &&
          getNormalizedAxes(max.getAxes(), type.getRank()) == axes)
        x = sub.getA();
    }
    auto softmax = rewriter.create<SoftmaxOp>(
        div.getLoc(), type, x, rewriter.getI64IntegerAttr(axes->front()));
    rewriter.replaceOp(div, softmax.getResult());
    return success();
  }
};

/// The ai.onnx opset of `module`, 0 if unknown.
static int64_t moduleOpset(ModuleOp module) {
  auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  auto version = opsets ? opsets.getAs<IntegerAttr>("ai.onnx") : nullptr;
  return version ? version.getInt() : 0;
}

/// Sets the ai.onnx opset of `module` to `opset`.
static void setModuleOpset(ModuleOp module, int64_t opset) {
  auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  NamedAttrList entries(opsets ? opsets
                               : DictionaryAttr::get(module.getContext()));
  entries.set("ai.onnx", IntegerAttr::get(
                             IntegerType::get(module.getContext(), 64), opset));
  module->setAttr("onnx.opset_import",
                  entries.getDictionary(module.getContext()));
}

struct ONNXRecognizePatternsPass
    : public onnxc::impl::ONNXRecognizePatternsPassBase<
          ONNXRecognizePatternsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t opset = moduleOpset(module);
    RewritePatternSet patterns(&getContext());
    populateONNXRecognizePatterns(
        patterns, upgradeOpset ? std::max<int64_t>(opset, 20) : opset);
    FrozenRewritePatternSet frozen(std::move(patterns));
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(applyPatternsAndFoldGreedily(func, frozen)))
        return signalPassFailure();
    if (!upgradeOpset || opset == 0)
      return;
    // The model now needs the opset of the newest op created.
    int64_t needed = opset;
    module.walk([&](Operation *op) {
      if (isa<GeluOp>(op))
        needed = std::max<int64_t>(needed, 20);
      else if (isa<LayerNormalizationOp>(op))
        needed = std::max<int64_t>(needed, 17);
      else if (isa<SoftmaxOp>(op))
        needed = std::max<int64_t>(needed, 13);
    });
    if (needed != opset)
      setModuleOpset(module, needed);
  }
};

} // namespace

void onnxc::populateONNXRecognizePatterns(RewritePatternSet &patterns,
                                          int64_t opset) {
  MLIRContext *context = patterns.getContext();
  if (opset >= 13)
    patterns.add<RecognizeSoftmax>(context);
  if (opset >= 17)
    patterns.add<RecognizeLayerNorm>(context);
  if (opset >= 20)
    patterns.add<RecognizeGelu>(context);
}

//===- Random.cpp - onnx random generators and training Dropout to linalg -===//
//
// The generators are counter based: element `i` (its row-major position) of
// an op with key `k` draws the 64 bits splitmix64(mix(k) + i), so every
// element is computed independently in a parallel generic and a seeded op
// gives the same values on every run. The key is the `seed` attribute's
// bits, or without one a hash of the op's location (stable across builds).
// Uniform values take the top 53 bits; normal values come from two uniform
// draws by the Box-Muller transform. Bernoulli compares a uniform draw with
// its probability; Dropout in training mode keeps an element when its draw
// is at least the ratio and scales the kept ones by 1 / (1 - ratio).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/Support/xxhash.h"

#include "llvm/Support/MathExtras.h"
#include <cstring>

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The generator key of an op: its seed's bits, or a hash of its location.
static uint64_t getKey(Operation *op, std::optional<double> seed) {
  if (seed) {
    uint64_t bits;
    std::memcpy(&bits, &*seed, sizeof(bits));
    return bits;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  op->getLoc().print(os);
  return llvm::xxh3_64bits(os.str());
}

/// splitmix64's output function (Steele, Lea and Flood) on i64 `x`.
static Value mix(ImplicitLocOpBuilder &b, Value x) {
  auto c = [&](uint64_t v) {
    return b.create<arith::ConstantOp>(
        b.getIntegerAttr(b.getI64Type(), static_cast<int64_t>(v)));
  };
  x = b.create<arith::AddIOp>(x, c(0x9E3779B97F4A7C15ULL));
  x = b.create<arith::MulIOp>(
      b.create<arith::XOrIOp>(x, b.create<arith::ShRUIOp>(x, c(30))),
      c(0xBF58476D1CE4E5B9ULL));
  x = b.create<arith::MulIOp>(
      b.create<arith::XOrIOp>(x, b.create<arith::ShRUIOp>(x, c(27))),
      c(0x94D049BB133111EBULL));
  return b.create<arith::XOrIOp>(x, b.create<arith::ShRUIOp>(x, c(31)));
}

/// A uniform f64 in [0, 1) drawn for counter `counter` (i64) of key `key`.
static Value uniformAt(ImplicitLocOpBuilder &b, uint64_t key, Value counter) {
  Value base = b.create<arith::ConstantOp>(
      b.getIntegerAttr(b.getI64Type(), static_cast<int64_t>(key)));
  Value bits = mix(b, b.create<arith::AddIOp>(mix(b, base), counter));
  Value top = b.create<arith::ShRUIOp>(
      bits, b.create<arith::ConstantOp>(b.getI64IntegerAttr(11)));
  Value f = b.create<arith::UIToFPOp>(b.getF64Type(), top);
  return b.create<arith::MulFOp>(
      f, b.create<arith::ConstantOp>(b.getF64FloatAttr(0x1.0p-53)));
}

/// The row-major position of the current element of a generic over `sizes`.
static Value linearIndex(ImplicitLocOpBuilder &b, ArrayRef<Value> sizes) {
  Value index = b.create<arith::ConstantIndexOp>(0);
  for (auto [d, size] : llvm::enumerate(sizes))
    index = b.create<arith::AddIOp>(b.create<arith::MulIOp>(index, size),
                                    b.create<linalg::IndexOp>(d));
  return b.create<arith::IndexCastOp>(b.getI64Type(), index);
}

/// An f64 `value` as the float `type`.
static Value fromF64(ImplicitLocOpBuilder &b, Value value, Type type) {
  if (type.isF64())
    return value;
  return b.create<arith::TruncFOp>(type, value);
}

/// A float `value` as f64.
static Value toF64(ImplicitLocOpBuilder &b, Value value) {
  if (value.getType().isF64())
    return value;
  return b.create<arith::ExtFOp>(b.getF64Type(), value);
}

/// Draws for every element of a new tensor of `type` (sizes `sizes`): `body`
/// gets the element's i64 position and the input elements of `inputs`
/// (tensors of the result's shape) and yields the element.
static Value createDraws(
    OpBuilder &rewriter, Location loc, RankedTensorType type,
    ArrayRef<OpFoldResult> sizes, ValueRange inputs,
    llvm::function_ref<Value(ImplicitLocOpBuilder &, Value, ValueRange)> body) {
  SmallVector<Value> sizeValues;
  for (OpFoldResult size : sizes)
    sizeValues.push_back(toValue(rewriter, loc, size));
  Value init = createEmpty(rewriter, loc, type, sizes);
  int64_t rank = type.getRank();
  SmallVector<AffineMap> maps(inputs.size() + 1,
                              rewriter.getMultiDimIdentityMap(rank));
  auto generic = rewriter.create<linalg::GenericOp>(
      loc, TypeRange{type}, inputs, ValueRange{init}, maps, getParallel(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        ImplicitLocOpBuilder b(l, nb);
        Value position = linearIndex(b, sizeValues);
        b.create<linalg::YieldOp>(
            body(b, position, args.take_front(inputs.size())));
      });
  return generic.getResult(0);
}

/// A uniform value in [low, high) of the float `type`.
static Value drawUniform(ImplicitLocOpBuilder &b, uint64_t key, Value position,
                         double low, double high, Type type) {
  Value u = uniformAt(b, key, position);
  Value v = b.create<arith::AddFOp>(
      b.create<arith::ConstantOp>(b.getF64FloatAttr(low)),
      b.create<arith::MulFOp>(
          u, b.create<arith::ConstantOp>(b.getF64FloatAttr(high - low))));
  return fromF64(b, v, type);
}

/// A normal value of `mean` and standard deviation `scale` of `type`.
static Value drawNormal(ImplicitLocOpBuilder &b, uint64_t key, Value position,
                        double mean, double scale, Type type) {
  Value two = b.create<arith::ConstantOp>(b.getI64IntegerAttr(2));
  Value first = b.create<arith::MulIOp>(position, two);
  Value second = b.create<arith::AddIOp>(
      first, b.create<arith::ConstantOp>(b.getI64IntegerAttr(1)));
  auto f = [&](double v) {
    return b.create<arith::ConstantOp>(b.getF64FloatAttr(v));
  };
  // u1 in (0, 1] keeps the logarithm finite.
  Value u1 = b.create<arith::SubFOp>(f(1.0), uniformAt(b, key, first));
  Value u2 = uniformAt(b, key, second);
  Value radius = b.create<math::SqrtOp>(
      b.create<arith::MulFOp>(f(-2.0), b.create<math::LogOp>(u1)));
  Value z = b.create<arith::MulFOp>(
      radius, b.create<math::CosOp>(
                  b.create<arith::MulFOp>(f(2 * llvm::numbers::pi), u2)));
  return fromF64(
      b, b.create<arith::AddFOp>(f(mean), b.create<arith::MulFOp>(f(scale), z)),
      type);
}

static std::optional<double> getSeed(std::optional<APFloat> seed) {
  if (!seed)
    return std::nullopt;
  return seed->convertToDouble();
}

namespace {
template <typename OpT>
struct RandomLowering : public ONNXToLinalgPattern<OpT> {
  using ONNXToLinalgPattern<OpT>::ONNXToLinalgPattern;

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    SmallVector<OpFoldResult> sizes;
    constexpr bool isLike = std::is_same_v<OpT, onnx::RandomUniformLikeOp> ||
                            std::is_same_v<OpT, onnx::RandomNormalLikeOp>;
    if constexpr (isLike) {
      sizes = getDimSizes(rewriter, loc, adaptor.getInput());
    } else {
      for (int64_t d : resultType.getShape())
        sizes.push_back(rewriter.getIndexAttr(d));
    }
    uint64_t key = getKey(op, getSeed(op.getSeed()));
    Type element = resultType.getElementType();
    constexpr bool isUniform = std::is_same_v<OpT, onnx::RandomUniformOp> ||
                               std::is_same_v<OpT, onnx::RandomUniformLikeOp>;
    Value result = createDraws(
        rewriter, loc, resultType, sizes, ValueRange{},
        [&](ImplicitLocOpBuilder &b, Value position, ValueRange) -> Value {
          if constexpr (isUniform)
            return drawUniform(b, key, position, op.getLow().convertToDouble(),
                               op.getHigh().convertToDouble(), element);
          else
            return drawNormal(b, key, position, op.getMean().convertToDouble(),
                              op.getScale().convertToDouble(), element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct BernoulliLowering : public ONNXToLinalgPattern<onnx::BernoulliOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::BernoulliOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value input = adaptor.getInput();
    uint64_t key = getKey(op, getSeed(op.getSeed()));
    Type element = resultType.getElementType();
    Type signless = getSignlessType(element);
    Value result = createDraws(
        rewriter, loc, resultType, getDimSizes(rewriter, loc, input),
        ValueRange{input},
        [&](ImplicitLocOpBuilder &b, Value position, ValueRange args) {
          Value u = uniformAt(b, key, position);
          Value one = b.create<arith::CmpFOp>(arith::CmpFPredicate::OLT, u,
                                              toF64(b, args[0]));
          Value v = b.create<arith::SelectOp>(
              one, createScalar(b, b.getLoc(), signless, 1),
              createScalar(b, b.getLoc(), signless, 0));
          return fromSignless(b, b.getLoc(), v, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// Dropout: the identity in inference mode (no `training_mode`, or a false
/// one); in training mode each element is kept with probability
/// `1 - ratio` (0.5 by default) and scaled by `1 / (1 - ratio)`.
struct DropoutLowering : public OpConversionPattern<onnx::DropoutOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(onnx::DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    bool inference = onnx::isNoValue(op.getTrainingMode());
    if (!inference) {
      std::optional<SmallVector<int64_t>> mode =
          onnx::getConstantIntValues(op.getTrainingMode());
      inference = mode && mode->size() == 1 && (*mode)[0] == 0;
    }
    auto dataType = dyn_cast<RankedTensorType>(data.getType());
    auto maskType = dyn_cast<RankedTensorType>(op.getMask().getType());
    if (inference) {
      Value output = castTo(rewriter, loc, data, op.getOutput().getType());
      Value mask;
      if (!op.getMask().use_empty()) {
        if (!maskType || !dataType)
          return op.emitOpError("needs ranked tensors to lower its mask");
        Value one =
            rewriter.create<arith::ConstantOp>(loc, rewriter.getBoolAttr(true));
        mask = createFilled(rewriter, loc, maskType,
                            getDimSizes(rewriter, loc, data), one);
      }
      rewriter.replaceOp(op, {output, mask});
      return success();
    }
    if (failed(checkRankedOperands(op)))
      return failure();
    auto outputType = dyn_cast<RankedTensorType>(op.getOutput().getType());
    if (!outputType || !maskType)
      return op.emitOpError("needs ranked tensors to lower training mode");
    Type element = outputType.getElementType();
    if (!isa<FloatType>(element))
      return op.emitOpError("supports training mode on float data only (got ")
             << element << ")";
    ImplicitLocOpBuilder b(loc, rewriter);
    Value training = extractScalar(b, loc, adaptor.getTrainingMode());
    Value ratio = onnx::isNoValue(op.getRatio())
                      ? b.create<arith::ConstantOp>(b.getF64FloatAttr(0.5))
                      : toF64(b, extractScalar(b, loc, adaptor.getRatio()));
    Value one = b.create<arith::ConstantOp>(b.getF64FloatAttr(1.0));
    Value scale = b.create<arith::SelectOp>(
        training,
        b.create<arith::DivFOp>(one, b.create<arith::SubFOp>(one, ratio)), one);
    std::optional<double> seed;
    if (std::optional<uint64_t> s = op.getSeed())
      seed = static_cast<double>(static_cast<int64_t>(*s));
    uint64_t key = getKey(op, seed);
    SmallVector<OpFoldResult> sizes = getDimSizes(rewriter, loc, data);
    auto keepAt = [&](ImplicitLocOpBuilder &nb, Value position) {
      Value u = uniformAt(nb, key, position);
      Value kept =
          nb.create<arith::CmpFOp>(arith::CmpFPredicate::OGE, u, ratio);
      return nb.create<arith::OrIOp>(
          nb.create<arith::XOrIOp>(
              training, nb.create<arith::ConstantOp>(nb.getBoolAttr(true))),
          kept);
    };
    Value output = createDraws(
        rewriter, loc, outputType, sizes, ValueRange{data},
        [&](ImplicitLocOpBuilder &nb, Value position, ValueRange args) {
          Value scaled = fromF64(
              nb, nb.create<arith::MulFOp>(toF64(nb, args[0]), scale), element);
          return nb.create<arith::SelectOp>(
              keepAt(nb, position), scaled,
              createScalar(nb, nb.getLoc(), element, 0));
        });
    Value mask;
    if (!op.getMask().use_empty())
      mask = createDraws(rewriter, loc, maskType, sizes, ValueRange{},
                         [&](ImplicitLocOpBuilder &nb, Value position,
                             ValueRange) { return keepAt(nb, position); });
    rewriter.replaceOp(op, {output, mask});
    return success();
  }
};
} // namespace

void onnxc::populateONNXRandomToLinalgPatterns(RewritePatternSet &patterns) {
  patterns.add<RandomLowering<onnx::RandomUniformOp>,
               RandomLowering<onnx::RandomNormalOp>,
               RandomLowering<onnx::RandomUniformLikeOp>,
               RandomLowering<onnx::RandomNormalLikeOp>, BernoulliLowering,
               DropoutLowering>(patterns.getContext());
}

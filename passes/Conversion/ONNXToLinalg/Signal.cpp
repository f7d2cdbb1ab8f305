//===- Signal.cpp - onnx window functions and Fourier transforms to linalg ===//
//
// HannWindow, HammingWindow and BlackmanWindow are 1-D generics over a
// result of the run-time `size`: a short cosine series of the element's
// index computed in f64, then converted to the result's element type.
// DFT and STFT are generics over the result whose elements sum their signal
// in an scf.for (a direct, quadratic transform) in f64; the angle of each
// term is taken from `k * n mod N` so that it stays exact. The inverse of a
// onesided DFT reads its half spectrum as the whole Hermitian one, mirrored
// and conjugated, and keeps the real part.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// A double `value` converted to the float or integer `type`.
static Value fromF64(OpBuilder &b, Location loc, Value value, Type type) {
  if (type.isF64())
    return value;
  if (isa<FloatType>(type))
    return b.create<arith::TruncFOp>(loc, type, value);
  return b.create<arith::FPToSIOp>(loc, type, value);
}

namespace {
/// The cosine series `a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N)`.
template <typename OpT>
struct WindowLowering : public ONNXToLinalgPattern<OpT> {
  WindowLowering(MLIRContext *ctx, double a0, double a1, double a2)
      : ONNXToLinalgPattern<OpT>(ctx), a0(a0), a1(a1), a2(a2) {}

  LogicalResult lower(OpT op, typename OpT::Adaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    Type signless = getSignlessType(element);
    Value size = rewriter.create<arith::IndexCastOp>(
        loc, rewriter.getIndexType(),
        extractScalar(rewriter, loc, adaptor.getSize()));
    size = rewriter.create<arith::MaxSIOp>(loc, size,
                                           createIndex(rewriter, loc, 0));
    SmallVector<OpFoldResult> sizes{getAsOpFoldResult(size)};
    if (!resultType.isDynamicDim(0))
      sizes[0] = rewriter.getIndexAttr(resultType.getDimSize(0));
    Type f64 = rewriter.getF64Type();
    // N is the size for a periodic window, one less for a symmetric one.
    Value n = indexToElement(rewriter, loc, size, f64);
    if (op.getPeriodic() == 0)
      n = rewriter.create<arith::SubFOp>(loc, n,
                                         createScalar(rewriter, loc, f64, 1));
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{rewriter.getMultiDimIdentityMap(1)}, getParallel(1),
        [&](OpBuilder &b, Location l, ValueRange) {
          Value i = indexToElement(b, l, b.create<linalg::IndexOp>(l, 0), f64);
          Value angle = b.create<arith::DivFOp>(
              l,
              b.create<arith::MulFOp>(
                  l, createScalar(b, l, f64, 2 * llvm::numbers::pi), i),
              n);
          Value w = b.create<arith::SubFOp>(
              l, createScalar(b, l, f64, a0),
              b.create<arith::MulFOp>(l, createScalar(b, l, f64, a1),
                                      b.create<math::CosOp>(l, angle)));
          if (a2 != 0)
            w = b.create<arith::AddFOp>(
                l, w,
                b.create<arith::MulFOp>(
                    l, createScalar(b, l, f64, a2),
                    b.create<math::CosOp>(
                        l, b.create<arith::AddFOp>(l, angle, angle))));
          b.create<linalg::YieldOp>(
              l, fromSignless(b, l, fromF64(b, l, w, signless), element));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }

  double a0, a1, a2;
};
/// The real and imaginary parts of the frequency `k` of an `n`-point
/// transform of the `count` first samples that `read` gives (real,
/// imaginary or null), in f64; `inverse` flips the sign of the exponent and
/// scales by 1 / n.
static std::pair<Value, Value> createDFTSum(
    ImplicitLocOpBuilder &b, Value count, Value n, Value k, bool inverse,
    llvm::function_ref<std::pair<Value, Value>(ImplicitLocOpBuilder &, Value)>
        read) {
  Type f64 = b.getF64Type();
  Value zero = b.create<arith::ConstantOp>(b.getF64FloatAttr(0));
  Value twoPiOverN = b.create<arith::DivFOp>(
      b.create<arith::ConstantOp>(b.getF64FloatAttr(2 * llvm::numbers::pi)),
      indexToElement(b, b.getLoc(), n, f64));
  auto loop = b.create<scf::ForOp>(
      b.create<arith::ConstantIndexOp>(0), count,
      b.create<arith::ConstantIndexOp>(1), ValueRange{zero, zero},
      [&](OpBuilder &nb, Location l, Value i, ValueRange acc) {
        ImplicitLocOpBuilder e(l, nb);
        auto [re, im] = read(e, i);
        Value phase =
            e.create<arith::RemUIOp>(e.create<arith::MulIOp>(k, i), n);
        Value angle = e.create<arith::MulFOp>(twoPiOverN,
                                              indexToElement(e, l, phase, f64));
        Value c = e.create<math::CosOp>(angle);
        Value s = e.create<math::SinOp>(angle);
        if (!inverse)
          s = e.create<arith::NegFOp>(s);
        // (re + i im)(c + i s)
        Value outRe = e.create<arith::MulFOp>(re, c);
        Value outIm = e.create<arith::MulFOp>(re, s);
        if (im) {
          outRe =
              e.create<arith::SubFOp>(outRe, e.create<arith::MulFOp>(im, s));
          outIm =
              e.create<arith::AddFOp>(outIm, e.create<arith::MulFOp>(im, c));
        }
        e.create<scf::YieldOp>(
            ValueRange{e.create<arith::AddFOp>(acc[0], outRe),
                       e.create<arith::AddFOp>(acc[1], outIm)});
      });
  Value re = loop.getResult(0), im = loop.getResult(1);
  if (inverse) {
    Value scale = indexToElement(b, b.getLoc(), n, f64);
    re = b.create<arith::DivFOp>(re, scale);
    im = b.create<arith::DivFOp>(im, scale);
  }
  return {re, im};
}

/// A float scalar as f64.
static Value extendToF64(ImplicitLocOpBuilder &b, Value value) {
  if (value.getType().isF64())
    return value;
  return b.create<arith::ExtFOp>(b.getF64Type(), value);
}

/// Whether the last dim of `x` (1 for a real, 2 for a complex signal) is 2:
/// a constant when static, else an i1 computed at run time; and where the
/// imaginary part is read (clamped into the dim).
static std::pair<Value, Value> getComplexity(ImplicitLocOpBuilder &b, Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t last = type.getRank() - 1;
  Value dim = toValue(b, b.getLoc(), getDimSize(b, b.getLoc(), x, last));
  Value one = b.create<arith::ConstantIndexOp>(1);
  Value isComplex = b.create<arith::CmpIOp>(
      arith::CmpIPredicate::eq, dim, b.create<arith::ConstantIndexOp>(2));
  Value imIndex =
      b.create<arith::MinSIOp>(one, b.create<arith::SubIOp>(dim, one));
  return {isComplex, imIndex};
}

/// The imaginary part read at `at` (whose last index is `imIndex`), or 0
/// when the signal is real.
static Value readImaginary(ImplicitLocOpBuilder &b, Value x,
                           SmallVector<Value> at, Value isComplex,
                           Value imIndex) {
  at.back() = imIndex;
  Value v = extendToF64(b, b.create<tensor::ExtractOp>(x, at));
  return b.create<arith::SelectOp>(
      isComplex, v, b.create<arith::ConstantOp>(b.getF64FloatAttr(0)));
}

/// Frequency `at[axis]` of an `n`-point Hermitian spectrum of which `x`
/// holds the first `length` along `axis`: X[k] for k <= n / 2 (`half`), else
/// the conjugate of X[n - k]; 0 past the input.
static std::pair<Value, Value> readHermitian(ImplicitLocOpBuilder &b, Value x,
                                             SmallVector<Value> at,
                                             int64_t axis, Value n, Value half,
                                             Value length, bool real,
                                             Value isComplex, Value imIndex) {
  Value k = at[axis];
  Value mirrored = b.create<arith::CmpIOp>(arith::CmpIPredicate::ugt, k, half);
  Value source =
      b.create<arith::SelectOp>(mirrored, b.create<arith::SubIOp>(n, k), k);
  Value inside =
      b.create<arith::CmpIOp>(arith::CmpIPredicate::ult, source, length);
  // Read at a clamped position; the select drops what lies past the input.
  at[axis] = b.create<arith::MinUIOp>(
      source,
      b.create<arith::SubIOp>(length, b.create<arith::ConstantIndexOp>(1)));
  Value zero = b.create<arith::ConstantOp>(b.getF64FloatAttr(0));
  Value re = b.create<arith::SelectOp>(
      inside, extendToF64(b, b.create<tensor::ExtractOp>(x, at)), zero);
  if (real)
    return {re, Value()};
  Value im = readImaginary(b, x, at, isComplex, imIndex);
  im = b.create<arith::SelectOp>(
      inside,
      b.create<arith::SelectOp>(mirrored, b.create<arith::NegFOp>(im), im),
      zero);
  return {re, im};
}

/// The one element of an integer tensor as an index.
static Value readIndexScalar(ImplicitLocOpBuilder &b, Value tensor) {
  return b.create<arith::IndexCastOp>(b.getIndexType(),
                                      extractScalar(b, b.getLoc(), tensor));
}

struct DFTLowering : public ONNXToLinalgPattern<onnx::DFTOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::DFTOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value x = adaptor.getInput();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    std::optional<int64_t> axis =
        onnx::normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
    if (!axis)
      return op.emitOpError("has 'axis' out of range");
    bool real = xType.getDimSize(rank - 1) == 1;
    Value isComplex, imIndex;
    std::tie(isComplex, imIndex) = getComplexity(b, x);
    bool inverse = op.getInverse() != 0, onesided = op.getOnesided() != 0;
    // The inverse of a onesided transform: a real signal from the first
    // half of its Hermitian spectrum.
    bool hermitian = inverse && onesided;
    SmallVector<OpFoldResult> sizes = getDimSizes(b, loc, x);
    Value length = toValue(b, loc, sizes[*axis]);
    Value one = createIndex(b, loc, 1), two = createIndex(b, loc, 2);
    Value n = length;
    if (!onnx::isNoValue(op.getDftLength()))
      n = readIndexScalar(b, adaptor.getDftLength());
    else if (hermitian)
      n = b.create<arith::MulIOp>(two, b.create<arith::SubIOp>(length, one));
    Value bins = n;
    if (onesided && !inverse)
      bins = b.create<arith::AddIOp>(b.create<arith::DivUIOp>(n, two), one);
    Value count = hermitian ? n : b.create<arith::MinSIOp>(n, length);
    Value half = b.create<arith::DivUIOp>(n, two);
    sizes[*axis] = getAsOpFoldResult(bins);
    sizes[rank - 1] = b.getIndexAttr(hermitian ? 1 : 2);
    Type element = resultType.getElementType();
    Value init = createEmpty(b, loc, resultType, sizes);
    auto generic = b.create<linalg::GenericOp>(
        TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank)}, getParallel(rank),
        [&](OpBuilder &nb, Location l, ValueRange) {
          ImplicitLocOpBuilder e(l, nb);
          SmallVector<Value> position;
          for (int64_t d = 0; d < rank; ++d)
            position.push_back(e.create<linalg::IndexOp>(d));
          auto [re, im] = createDFTSum(
              e, count, n, position[*axis], inverse,
              [&](ImplicitLocOpBuilder &rb,
                  Value i) -> std::pair<Value, Value> {
                SmallVector<Value> at(position);
                at[*axis] = i;
                at[rank - 1] = rb.create<arith::ConstantIndexOp>(0);
                if (hermitian)
                  return readHermitian(rb, x, at, *axis, n, half, length, real,
                                       isComplex, imIndex);
                Value re = extendToF64(rb, rb.create<tensor::ExtractOp>(x, at));
                if (real)
                  return {re, Value()};
                return {re, readImaginary(rb, x, at, isComplex, imIndex)};
              });
          if (hermitian) {
            e.create<linalg::YieldOp>(fromF64(e, l, re, element));
            return;
          }
          Value isReal = e.create<arith::CmpIOp>(
              arith::CmpIPredicate::eq, position[rank - 1],
              e.create<arith::ConstantIndexOp>(0));
          e.create<linalg::YieldOp>(fromF64(
              e, l, e.create<arith::SelectOp>(isReal, re, im), element));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct STFTLowering : public ONNXToLinalgPattern<onnx::STFTOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::STFTOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    ImplicitLocOpBuilder b(loc, rewriter);
    Value x = adaptor.getSignal();
    auto xType = cast<RankedTensorType>(x.getType());
    bool real = xType.getDimSize(2) == 1;
    Value isComplex, imIndex;
    std::tie(isComplex, imIndex) = getComplexity(b, x);
    bool hasWindow = !onnx::isNoValue(op.getWindow());
    Value window = adaptor.getWindow();
    Value step = readIndexScalar(b, adaptor.getFrameStep());
    Value frameLength = onnx::isNoValue(op.getFrameLength())
                            ? toValue(b, loc, getDimSize(b, loc, window, 0))
                            : readIndexScalar(b, adaptor.getFrameLength());
    Value length = toValue(b, loc, getDimSize(b, loc, x, 1));
    // max((length - frame_length) / step + 1, 0) frames.
    Value frames = b.create<arith::MaxSIOp>(
        b.create<arith::AddIOp>(
            b.create<arith::DivSIOp>(
                b.create<arith::SubIOp>(length, frameLength), step),
            createIndex(b, loc, 1)),
        createIndex(b, loc, 0));
    Value bins = frameLength;
    if (op.getOnesided() != 0)
      bins = b.create<arith::AddIOp>(
          b.create<arith::DivUIOp>(frameLength, createIndex(b, loc, 2)),
          createIndex(b, loc, 1));
    SmallVector<OpFoldResult> sizes{getDimSize(b, loc, x, 0),
                                    getAsOpFoldResult(frames),
                                    getAsOpFoldResult(bins), b.getIndexAttr(2)};
    Type element = resultType.getElementType();
    Value init = createEmpty(b, loc, resultType, sizes);
    auto generic = b.create<linalg::GenericOp>(
        TypeRange{resultType}, ValueRange{}, ValueRange{init},
        ArrayRef<AffineMap>{b.getMultiDimIdentityMap(4)}, getParallel(4),
        [&](OpBuilder &nb, Location l, ValueRange) {
          ImplicitLocOpBuilder e(l, nb);
          Value batch = e.create<linalg::IndexOp>(0);
          Value frame = e.create<linalg::IndexOp>(1);
          Value bin = e.create<linalg::IndexOp>(2);
          Value part = e.create<linalg::IndexOp>(3);
          Value start = e.create<arith::MulIOp>(frame, step);
          auto [re, im] = createDFTSum(
              e, frameLength, frameLength, bin, /*inverse=*/false,
              [&](ImplicitLocOpBuilder &rb,
                  Value i) -> std::pair<Value, Value> {
                Value t = rb.create<arith::AddIOp>(start, i);
                Value w;
                if (hasWindow)
                  w = extendToF64(
                      rb, rb.create<tensor::ExtractOp>(window, ValueRange{i}));
                SmallVector<Value> at{batch, t,
                                      rb.create<arith::ConstantIndexOp>(0)};
                auto windowed = [&](Value v) -> Value {
                  return w ? rb.create<arith::MulFOp>(v, w).getResult() : v;
                };
                Value re = windowed(
                    extendToF64(rb, rb.create<tensor::ExtractOp>(x, at)));
                if (real)
                  return {re, Value()};
                return {re,
                        windowed(readImaginary(rb, x, at, isComplex, imIndex))};
              });
          Value isReal =
              e.create<arith::CmpIOp>(arith::CmpIPredicate::eq, part,
                                      e.create<arith::ConstantIndexOp>(0));
          e.create<linalg::YieldOp>(fromF64(
              e, l, e.create<arith::SelectOp>(isReal, re, im), element));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

void onnxc::populateONNXSignalToLinalgPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<WindowLowering<onnx::HannWindowOp>>(ctx, 0.5, 0.5, 0.0);
  patterns.add<WindowLowering<onnx::HammingWindowOp>>(ctx, 25.0 / 46.0,
                                                      21.0 / 46.0, 0.0);
  patterns.add<WindowLowering<onnx::BlackmanWindowOp>>(ctx, 0.42, 0.5, 0.08);
  patterns.add<DFTLowering, STFTLowering>(ctx);
}

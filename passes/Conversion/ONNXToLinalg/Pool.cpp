//===- Pool.cpp - onnx pooling ops to the linalg pooling ops --------------===//
//
// 2-D f32 MaxPool (without Indices) and AveragePool call the runtime's
// pooling kernel, which pads implicitly. Otherwise MaxPool and AveragePool
// pad the input (with -inf or 0, including the extra end padding that
// ceil_mode needs for the last window) and run pooling_nchw_max or
// pooling_nchw_sum (pooling_ncw_* in 1-D; a linalg.generic over the window in
// 3-D and for unsigned integers). AveragePool then divides by the kernel
// area, or by the number of counted elements of each window when padding
// must not count.
// GlobalAveragePool and GlobalMaxPool are reductions over the spatial dims.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The runtime's 2-D pooling kernel (lib/Kernels/pool/Pool.c).
static constexpr llvm::StringLiteral kPoolKernel = "onnxc_kernel_pool2d_f32";

namespace {
/// A padded pooling input and the geometry of its windows.
struct PoolSetup {
  onnx::WindowGeometry g;
  Value padded;
  /// Sizes of the result [N, C, out...].
  SmallVector<OpFoldResult> sizes;
  /// Input spatial sizes.
  SmallVector<OpFoldResult> inSizes;
  /// The pads of each spatial dim (without ceil_mode's extra end padding);
  /// run-time values for auto_pad SAME over `?` dims.
  SmallVector<OpFoldResult> padsBegin, padsEnd;
  /// True when ceil_mode may add end padding beyond `pads`.
  bool overhang = false;
  /// True when some pads are known only at run time.
  bool dynamicPads = false;
};
} // namespace

/// Resolves the window of a pooling op and, unless `padValue` is null, pads
/// its input with `padValue`.
template <typename OpT>
static FailureOr<PoolSetup> setUpPool(OpT op, Value x, Value padValue,
                                      OpBuilder &b) {
  Location loc = op.getLoc();
  StringRef name = op->getName().getStringRef().drop_front(5);
  auto xType = cast<RankedTensorType>(x.getType());
  if (xType.getRank() < 3)
    return op.emitOpError("expects an input of rank 3 or more (got ")
           << xType << ")";
  int64_t numSpatial = xType.getRank() - 2;
  PoolSetup setup;
  onnx::WindowGeometry &g = setup.g;
  ArrayRef<int64_t> spatial = xType.getShape().drop_front(2);
  if (failed(onnx::resolveWindow(loc, name, spatial, op.getKernelShape(),
                                 op.getStrides(), op.getDilations(),
                                 op.getPads(), op.getAutoPad(),
                                 op.getCeilMode() != 0, g)))
    return failure();
  bool same = op.getAutoPad().starts_with("SAME");

  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(low);
  setup.sizes = {getDimSize(b, loc, x, 0), getDimSize(b, loc, x, 1)};
  for (int64_t i = 0; i < numSpatial; ++i) {
    int64_t extent = (g.kernel[i] - 1) * g.dilations[i] + 1;
    int64_t padBegin = g.padsBegin[i], padEnd = g.padsEnd[i];
    OpFoldResult inSize = getDimSize(b, loc, x, i + 2);
    setup.inSizes.push_back(inSize);
    if (same && ShapedType::isDynamic(spatial[i])) {
      // SAME over a `?` dim: pads and output size at run time (ceil_mode
      // does not apply).
      SameWindow window = createSameWindow(b, loc, toValue(b, loc, inSize),
                                           b.getIndexAttr(extent), g.strides[i],
                                           op.getAutoPad() == "SAME_UPPER");
      low.push_back(window.padBegin);
      high.push_back(window.padEnd);
      setup.padsBegin.push_back(window.padBegin);
      setup.padsEnd.push_back(window.padEnd);
      setup.sizes.push_back(window.outSize);
      setup.dynamicPads = true;
      continue;
    }
    low.push_back(b.getIndexAttr(padBegin));
    setup.padsBegin.push_back(b.getIndexAttr(padBegin));
    setup.padsEnd.push_back(b.getIndexAttr(padEnd));
    if (!ShapedType::isDynamic(spatial[i])) {
      int64_t out = g.outputSpatial[i];
      int64_t extra =
          std::max<int64_t>(0, (out - 1) * g.strides[i] + extent -
                                   (spatial[i] + padBegin + padEnd));
      setup.overhang |= extra > 0;
      setup.sizes.push_back(b.getIndexAttr(out));
      high.push_back(b.getIndexAttr(padEnd + extra));
      continue;
    }
    Value in = toValue(b, loc, inSize);
    bool ceilMode = op.getCeilMode() != 0;
    Value out =
        createWindowOutputSize(b, loc, in, padBegin, padEnd,
                               b.getIndexAttr(extent), g.strides[i], ceilMode);
    setup.sizes.push_back(out);
    if (!ceilMode) {
      high.push_back(b.getIndexAttr(padEnd));
      continue;
    }
    // extra = max(0, (out - 1) * stride + extent - (in + pads)).
    setup.overhang = true;
    Value lastStart = b.create<arith::MulIOp>(
        loc, b.create<arith::SubIOp>(loc, out, createIndex(b, loc, 1)),
        createIndex(b, loc, g.strides[i]));
    Value needed = b.create<arith::AddIOp>(
        loc, lastStart, createIndex(b, loc, extent - padBegin));
    Value extra =
        b.create<arith::MaxSIOp>(loc, b.create<arith::SubIOp>(loc, needed, in),
                                 createIndex(b, loc, padEnd));
    high.push_back(extra);
  }
  if (padValue)
    setup.padded = createPad(b, loc, x, low, high, padValue);
  return setup;
}

/// Bits of the pooling kernel's flags.
enum PoolKernelFlags : int64_t { kPoolAverage = 1, kPoolCountPad = 2 };

/// True when the runtime's pooling kernel computes a pooling op on `x`: 2-D
/// windows over f32.
static bool poolKernelApplies(Value x) {
  auto xType = cast<RankedTensorType>(x.getType());
  return xType.getRank() == 4 && xType.getElementType().isF32();
}

/// A 2-D f32 MaxPool (without Indices) or AveragePool (`flags`) of `x` as a
/// call of the runtime's pooling kernel, which skips the taps outside the
/// input instead of reading a padded copy, and writes the result without a
/// fill. `setup` has no padded input.
template <typename OpT>
static void lowerPoolToKernel(OpT op, Value x, RankedTensorType resultType,
                              const PoolSetup &setup, int64_t flags,
                              ConversionPatternRewriter &rewriter) {
  Location loc = op.getLoc();
  const onnx::WindowGeometry &g = setup.g;
  SmallVector<Value> dynamicSizes;
  for (auto [i, size] : llvm::enumerate(setup.sizes))
    if (resultType.isDynamicDim(i))
      dynamicSizes.push_back(toValue(rewriter, loc, size));
  Value result = allocBuffer(rewriter, loc, resultType, dynamicSizes);
  SmallVector<Value> args = {readBuffer(rewriter, loc, x),
                             castToDynamic(rewriter, loc, result)};
  auto i64 = [&](int64_t v) -> Value {
    return rewriter.create<arith::ConstantIntOp>(loc, v, 64);
  };
  auto i64Of = [&](OpFoldResult v) -> Value {
    return rewriter.create<arith::IndexCastOp>(loc, rewriter.getI64Type(),
                                               toValue(rewriter, loc, v));
  };
  for (int64_t v : {g.kernel[0], g.kernel[1], g.strides[0], g.strides[1],
                    g.dilations[0], g.dilations[1]})
    args.push_back(i64(v));
  for (OpFoldResult pad : {setup.padsBegin[0], setup.padsBegin[1],
                           setup.padsEnd[0], setup.padsEnd[1]})
    args.push_back(i64Of(pad));
  args.push_back(i64(flags));
  callKernel(rewriter, loc, kPoolKernel, args);
  Value y = filledTensor(rewriter, loc, resultType, result);
  if constexpr (std::is_same_v<OpT, onnx::MaxPoolOp>) {
    // Indices is unused.
    Value indices = rewriter.create<tensor::EmptyOp>(loc, setup.sizes,
                                                     rewriter.getI64Type());
    rewriter.replaceOp(op, ValueRange{y, indices});
  } else {
    rewriter.replaceOp(op, y);
  }
}

/// The number of taps of a window (kernel `k`, dilation `d`) starting at
/// `start` that fall in [lo, hi).
static int64_t countTaps(int64_t start, int64_t k, int64_t d, int64_t lo,
                         int64_t hi) {
  int64_t count = 0;
  for (int64_t t = 0; t < k; ++t) {
    int64_t pos = start + t * d;
    count += pos >= lo && pos < hi;
  }
  return count;
}

/// countTaps at run time: the taps `start + t * d` (t in [0, k)) in [lo,
/// hi) are those from ceil((lo - start) / d) to ceil((hi - start) / d),
/// clamped to [0, k]; with non-negative operands only, so that plain
/// divisions round the right way.
static Value createDilatedTapCount(OpBuilder &b, Location loc, Value start,
                                   Value lo, Value hi, int64_t k, int64_t d) {
  Value zero = createIndex(b, loc, 0);
  Value dilation = createIndex(b, loc, d);
  Value roundUp = createIndex(b, loc, d - 1);
  // max(ceil((bound - start) / d), 0).
  auto ceilTaps = [&](Value bound) {
    Value v = b.create<arith::AddIOp>(
        loc, b.create<arith::SubIOp>(loc, bound, start), roundUp);
    return b.create<arith::DivSIOp>(loc, b.create<arith::MaxSIOp>(loc, v, zero),
                                    dilation);
  };
  Value first = ceilTaps(lo);
  Value last =
      b.create<arith::MinSIOp>(loc, ceilTaps(hi), createIndex(b, loc, k));
  return b.create<arith::MaxSIOp>(
      loc, b.create<arith::SubIOp>(loc, last, first), zero);
}

/// A pooling op as a linalg.generic over the window (any number of spatial
/// dims): `padded` [N, C, ...], `window` [k...], `init` [N, C, out...];
/// `combine` folds an input element into the running value (signless).
static Value createPoolGeneric(OpBuilder &b, Location loc, Value padded,
                               Value window, Value init,
                               const onnx::WindowGeometry &g,
                               Combiner combine) {
  MLIRContext *ctx = b.getContext();
  int64_t n = g.kernel.size();
  // Loops (n, c, out_0.., k_0..).
  unsigned numLoops = 2 + 2 * n;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inputExprs{d(0), d(1)}, windowExprs,
      outputExprs{d(0), d(1)};
  for (int64_t i = 0; i < n; ++i) {
    inputExprs.push_back(d(2 + i) * g.strides[i] +
                         d(2 + n + i) * g.dilations[i]);
    windowExprs.push_back(d(2 + n + i));
    outputExprs.push_back(d(2 + i));
  }
  SmallVector<AffineMap> maps{AffineMap::get(numLoops, 0, inputExprs, ctx),
                              AffineMap::get(numLoops, 0, windowExprs, ctx),
                              AffineMap::get(numLoops, 0, outputExprs, ctx)};
  SmallVector<utils::IteratorType> iterators = getParallel(2 + n);
  iterators.append(n, utils::IteratorType::reduction);
  Type element = cast<RankedTensorType>(init.getType()).getElementType();
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{init.getType()}, ValueRange{padded, window},
          ValueRange{init}, maps, iterators,
          [&](OpBuilder &nested, Location l, ValueRange args) {
            Value result = combine(nested, l, toSignless(nested, l, args[0]),
                                   toSignless(nested, l, args[2]));
            nested.create<linalg::YieldOp>(
                l, fromSignless(nested, l, result, element));
          })
      .getResult(0);
}

/// The named pooling op `Op1D` or `Op2D` for a 1-D or 2-D window, else
/// createPoolGeneric with `combine`.
template <typename Op1D, typename Op2D>
static Value createPool(OpBuilder &b, Location loc, Value padded, Value window,
                        Value init, const onnx::WindowGeometry &g, bool named,
                        Combiner combine) {
  int64_t n = g.kernel.size();
  if (named && (n == 1 || n == 2)) {
    SmallVector<Value> inputs{padded, window};
    DenseIntElementsAttr strides = getI64Pair(b, g.strides);
    DenseIntElementsAttr dilations = getI64Pair(b, g.dilations);
    if (n == 1)
      return b
          .create<Op1D>(loc, TypeRange{init.getType()}, inputs,
                        ValueRange{init}, strides, dilations)
          .getResult(0);
    return b
        .create<Op2D>(loc, TypeRange{init.getType()}, inputs, ValueRange{init},
                      strides, dilations)
        .getResult(0);
  }
  return createPoolGeneric(b, loc, padded, window, init, g, combine);
}

/// MaxPool with its Indices: one generic over (n, c, out..., k...) that
/// keeps the running maximum and the flat index into `x` (whose spatial dims
/// are in column-major order when `columnMajor`) of its first occurrence.
static SmallVector<Value> createArgMaxPool(OpBuilder &b, Location loc, Value x,
                                           const PoolSetup &setup, Value window,
                                           Value init,
                                           RankedTensorType indicesType,
                                           bool columnMajor) {
  MLIRContext *ctx = b.getContext();
  const onnx::WindowGeometry &g = setup.g;
  int64_t n = g.kernel.size();
  unsigned numLoops = 2 + 2 * n;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inputExprs{d(0), d(1)}, windowExprs,
      outputExprs{d(0), d(1)};
  for (int64_t i = 0; i < n; ++i) {
    inputExprs.push_back(d(2 + i) * g.strides[i] +
                         d(2 + n + i) * g.dilations[i]);
    windowExprs.push_back(d(2 + n + i));
    outputExprs.push_back(d(2 + i));
  }
  AffineMap outputMap = AffineMap::get(numLoops, 0, outputExprs, ctx);
  SmallVector<AffineMap> maps{AffineMap::get(numLoops, 0, inputExprs, ctx),
                              AffineMap::get(numLoops, 0, windowExprs, ctx),
                              outputMap, outputMap};
  SmallVector<utils::IteratorType> iterators = getParallel(2 + n);
  iterators.append(n, utils::IteratorType::reduction);
  Type element = cast<RankedTensorType>(init.getType()).getElementType();
  bool isUnsigned = element.isUnsignedInteger();
  Value channels = toValue(b, loc, getDimSize(b, loc, x, 1));
  SmallVector<Value> inSizes, padsBegin;
  for (int64_t i = 0; i < n; ++i) {
    inSizes.push_back(toValue(b, loc, setup.inSizes[i]));
    padsBegin.push_back(toValue(b, loc, setup.padsBegin[i]));
  }
  Value indicesInit = createFilled(b, loc, indicesType, setup.sizes,
                                   createScalar(b, loc, b.getI64Type(), 0));
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{init.getType(), indicesType},
      ValueRange{setup.padded, window}, ValueRange{init, indicesInit}, maps,
      iterators, [&](OpBuilder &nested, Location l, ValueRange args) {
        ImplicitLocOpBuilder ib(l, nested);
        Value in = toSignless(nested, l, args[0]);
        Value acc = toSignless(nested, l, args[2]);
        Value greater =
            isa<FloatType>(element)
                ? ib.create<arith::CmpFOp>(arith::CmpFPredicate::OGT, in, acc)
                      .getResult()
                : ib.create<arith::CmpIOp>(isUnsigned
                                               ? arith::CmpIPredicate::ugt
                                               : arith::CmpIPredicate::sgt,
                                           in, acc)
                      .getResult();
        // The tap's position in x: out * stride + k * dilation - pad.
        SmallVector<Value> position;
        for (int64_t i = 0; i < n; ++i) {
          Value out = ib.create<linalg::IndexOp>(2 + i);
          Value k = ib.create<linalg::IndexOp>(2 + n + i);
          Value pos = ib.create<arith::AddIOp>(
              ib.create<arith::MulIOp>(out, createIndex(ib, l, g.strides[i])),
              ib.create<arith::MulIOp>(k, createIndex(ib, l, g.dilations[i])));
          position.push_back(ib.create<arith::SubIOp>(pos, padsBegin[i]));
        }
        Value flat = ib.create<arith::AddIOp>(
            ib.create<arith::MulIOp>(ib.create<linalg::IndexOp>(0), channels),
            ib.create<linalg::IndexOp>(1));
        for (int64_t j = 0; j < n; ++j) {
          int64_t i = columnMajor ? n - 1 - j : j;
          flat = ib.create<arith::AddIOp>(
              ib.create<arith::MulIOp>(flat, inSizes[i]), position[i]);
        }
        Value index = ib.create<arith::IndexCastOp>(ib.getI64Type(), flat);
        Value newMax = ib.create<arith::SelectOp>(greater, in, acc);
        Value newIndex = ib.create<arith::SelectOp>(greater, index, args[3]);
        ib.create<linalg::YieldOp>(
            ValueRange{fromSignless(nested, l, newMax, element), newIndex});
      });
  return {generic.getResult(0), generic.getResult(1)};
}

namespace {
struct MaxPoolLowering : public ONNXToLinalgPattern<onnx::MaxPoolOp> {
  MaxPoolLowering(MLIRContext *ctx, bool cpuKernels)
      : ONNXToLinalgPattern(ctx), cpuKernels(cpuKernels) {}
  bool cpuKernels;

  LogicalResult lower(onnx::MaxPoolOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Type element = resultType.getElementType();
    bool isUnsigned = element.isUnsignedInteger();
    bool kernel = cpuKernels && op.getIndices().use_empty() &&
                  poolKernelApplies(adaptor.getX());
    // The smallest element pads; 0 for unsigned integers.
    Value lowest = fromSignless(
        rewriter, loc,
        isUnsigned ? createScalar(rewriter, loc, getSignlessType(element), 0)
                   : createLowest(rewriter, loc, element),
        element);
    FailureOr<PoolSetup> setup =
        setUpPool(op, adaptor.getX(), kernel ? Value() : lowest, rewriter);
    if (failed(setup))
      return failure();
    if (kernel) {
      lowerPoolToKernel(op, adaptor.getX(), resultType, *setup, 0, rewriter);
      return success();
    }
    Value init = createFilled(rewriter, loc, resultType, setup->sizes, lowest);
    Value window =
        rewriter.create<tensor::EmptyOp>(loc, setup->g.kernel, element);
    if (!op.getIndices().use_empty()) {
      RankedTensorType indicesType = getRankedResultType(op, 1);
      if (!indicesType)
        return failure();
      rewriter.replaceOp(op, createArgMaxPool(rewriter, loc, adaptor.getX(),
                                              *setup, window, init, indicesType,
                                              op.getStorageOrder() == 1));
      return success();
    }
    rewriter.replaceOp(
        op,
        ValueRange{
            createPool<linalg::PoolingNcwMaxOp, linalg::PoolingNchwMaxOp>(
                rewriter, loc, setup->padded, window, init, setup->g,
                /*named=*/!isUnsigned,
                [&](OpBuilder &b, Location l, Value in, Value acc) -> Value {
                  if (isUnsigned)
                    return b.create<arith::MaxUIOp>(l, in, acc);
                  return createMax(b, l, in, acc);
                }),
            // Indices is unused.
            rewriter
                .create<tensor::EmptyOp>(loc, getDimSizes(rewriter, loc, init),
                                         rewriter.getI64Type())
                .getResult()});
    return success();
  }
};

struct AveragePoolLowering : public ONNXToLinalgPattern<onnx::AveragePoolOp> {
  AveragePoolLowering(MLIRContext *ctx, bool cpuKernels)
      : ONNXToLinalgPattern(ctx), cpuKernels(cpuKernels) {}
  bool cpuKernels;

  LogicalResult lower(onnx::AveragePoolOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    Type element = resultType.getElementType();
    Value zero = createScalar(rewriter, loc, element, 0);
    bool kernel = cpuKernels && poolKernelApplies(adaptor.getX());
    FailureOr<PoolSetup> setup =
        setUpPool(op, adaptor.getX(), kernel ? Value() : zero, rewriter);
    if (failed(setup))
      return failure();
    if (kernel) {
      int64_t flags = kPoolAverage;
      if (op.getCountIncludePad() != 0)
        flags |= kPoolCountPad;
      lowerPoolToKernel(op, adaptor.getX(), resultType, *setup, flags,
                        rewriter);
      return success();
    }
    const onnx::WindowGeometry &g = setup->g;
    Value init = createFilled(rewriter, loc, resultType, setup->sizes, zero);
    Value window = rewriter.create<tensor::EmptyOp>(loc, g.kernel, element);
    Value sum = createPool<linalg::PoolingNcwSumOp, linalg::PoolingNchwSumOp>(
        rewriter, loc, setup->padded, window, init, g, /*named=*/true,
        [](OpBuilder &b, Location l, Value in, Value acc) -> Value {
          return b.create<arith::AddFOp>(l, in, acc);
        });
    int64_t rank = resultType.getRank(), numSpatial = rank - 2;

    bool countPad = op.getCountIncludePad() != 0;
    bool padded = setup->dynamicPads ||
                  llvm::any_of(g.padsBegin, [](int64_t p) { return p; }) ||
                  llvm::any_of(g.padsEnd, [](int64_t p) { return p; });
    if (!setup->overhang && (countPad || !padded)) {
      int64_t kernelArea = 1;
      for (int64_t k : g.kernel)
        kernelArea *= k;
      Value area = createScalar(rewriter, loc, element, kernelArea);
      rewriter.replaceOp(
          op, createElementwiseMap(
                  rewriter, loc, ValueRange{sum}, resultType, setup->sizes,
                  [&](OpBuilder &b, Location l, ValueRange args) {
                    return b.create<arith::DivFOp>(l, args[0], area);
                  }));
      return success();
    }

    // Taps of window `o` along dim `i` count in [lo, hi).
    auto bounds = [&](int64_t i, int64_t in) {
      if (countPad)
        return std::pair<int64_t, int64_t>(-g.padsBegin[i], in + g.padsEnd[i]);
      return std::pair<int64_t, int64_t>(0, in);
    };
    auto xType = cast<RankedTensorType>(adaptor.getX().getType());
    if (xType.hasStaticShape()) {
      // A constant [out...] tensor of divisors.
      SmallVector<SmallVector<int64_t>> counts(numSpatial);
      for (int64_t i = 0; i < numSpatial; ++i) {
        auto [lo, hi] = bounds(i, xType.getDimSize(i + 2));
        for (int64_t o = 0; o < g.outputSpatial[i]; ++o)
          counts[i].push_back(countTaps(o * g.strides[i] - g.padsBegin[i],
                                        g.kernel[i], g.dilations[i], lo, hi));
      }
      SmallVector<APFloat> divisors;
      const llvm::fltSemantics &semantics =
          cast<FloatType>(element).getFloatSemantics();
      int64_t numDivisors = 1;
      for (int64_t o : g.outputSpatial)
        numDivisors *= o;
      for (int64_t flat = 0; flat < numDivisors; ++flat) {
        // Row-major position of `flat` in [out...].
        int64_t rest = flat, product = 1;
        for (int64_t i = numSpatial - 1; i >= 0; --i) {
          product *= counts[i][rest % g.outputSpatial[i]];
          rest /= g.outputSpatial[i];
        }
        APFloat value(static_cast<double>(product));
        bool lost;
        value.convert(semantics, APFloat::rmNearestTiesToEven, &lost);
        divisors.push_back(value);
      }
      auto divisorType = RankedTensorType::get(g.outputSpatial, element);
      Value divisor = rewriter.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(divisorType, divisors));
      Value result =
          rewriter.create<tensor::EmptyOp>(loc, resultType, ValueRange{});
      SmallVector<AffineExpr> spatialDims;
      for (int64_t i = 0; i < numSpatial; ++i)
        spatialDims.push_back(getAffineDimExpr(i + 2, ctx));
      SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank),
                                  AffineMap::get(rank, 0, spatialDims, ctx),
                                  rewriter.getMultiDimIdentityMap(rank)};
      rewriter.replaceOp(
          op, rewriter
                  .create<linalg::GenericOp>(
                      loc, TypeRange{resultType}, ValueRange{sum, divisor},
                      ValueRange{result}, maps, getParallel(rank),
                      [](OpBuilder &b, Location l, ValueRange args) {
                        b.create<linalg::YieldOp>(
                            l, b.create<arith::DivFOp>(l, args[0], args[1])
                                   .getResult());
                      })
                  .getResult(0));
      return success();
    }

    // Dynamic sizes: count the taps of each window at runtime.
    SmallVector<Value> inSizes, padsBegin, padsEnd;
    for (OpFoldResult size : setup->inSizes)
      inSizes.push_back(toValue(rewriter, loc, size));
    for (int64_t i = 0; i < numSpatial; ++i) {
      padsBegin.push_back(toValue(rewriter, loc, setup->padsBegin[i]));
      padsEnd.push_back(toValue(rewriter, loc, setup->padsEnd[i]));
    }
    Value result = createElementwiseMap(
        rewriter, loc, ValueRange{sum}, resultType, setup->sizes,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value total;
          for (int64_t i = 0; i < numSpatial; ++i) {
            Value o = b.create<linalg::IndexOp>(l, i + 2);
            Value start = b.create<arith::SubIOp>(
                l,
                b.create<arith::MulIOp>(l, o, createIndex(b, l, g.strides[i])),
                padsBegin[i]);
            Value lo = countPad ? b.create<arith::SubIOp>(
                                      l, createIndex(b, l, 0), padsBegin[i])
                                : createIndex(b, l, 0);
            Value hi = countPad
                           ? b.create<arith::AddIOp>(l, inSizes[i], padsEnd[i])
                           : inSizes[i];
            Value count;
            if (g.dilations[i] == 1) {
              Value end = b.create<arith::AddIOp>(
                  l, start, createIndex(b, l, g.kernel[i]));
              count = b.create<arith::SubIOp>(
                  l, b.create<arith::MinSIOp>(l, end, hi),
                  b.create<arith::MaxSIOp>(l, start, lo));
            } else {
              count = createDilatedTapCount(b, l, start, lo, hi, g.kernel[i],
                                            g.dilations[i]);
            }
            total = total ? b.create<arith::MulIOp>(l, total, count) : count;
          }
          return b.create<arith::DivFOp>(l, args[0],
                                         indexToElement(b, l, total, element));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GlobalAveragePoolLowering
    : public ONNXToLinalgPattern<onnx::GlobalAveragePoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GlobalAveragePoolOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    if (rank < 3)
      return op.emitOpError("expects an input of rank 3 or more");
    Type element = resultType.getElementType();
    SmallVector<int64_t> axes;
    SmallVector<OpFoldResult> spatialSizes;
    for (int64_t i = 2; i < rank; ++i) {
      axes.push_back(i);
      spatialSizes.push_back(getDimSize(rewriter, loc, x, i));
    }
    Value sum = createReduction(
        rewriter, loc, x, axes, createScalar(rewriter, loc, element, 0),
        [](OpBuilder &b, Location l, Value in, Value acc) {
          return b.create<arith::AddFOp>(l, in, acc).getResult();
        });
    Value count = indexToElement(
        rewriter, loc, createProduct(rewriter, loc, spatialSizes), element);
    auto sumType = cast<RankedTensorType>(sum.getType());
    Value mean =
        createElementwise(rewriter, loc, ValueRange{sum}, sumType,
                          [&](OpBuilder &b, Location l, ValueRange args) {
                            return b.create<arith::DivFOp>(l, args[0], count);
                          });
    rewriter.replaceOp(op,
                       expandUnitDims(rewriter, loc, mean, axes, resultType));
    return success();
  }
};

struct GlobalMaxPoolLowering
    : public ONNXToLinalgPattern<onnx::GlobalMaxPoolOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::GlobalMaxPoolOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
    if (rank < 3)
      return op.emitOpError("expects an input of rank 3 or more");
    SmallVector<int64_t> axes;
    for (int64_t i = 2; i < rank; ++i)
      axes.push_back(i);
    Value max = createReduction(
        rewriter, loc, x, axes,
        createLowest(rewriter, loc, resultType.getElementType()),
        [](OpBuilder &b, Location l, Value in, Value acc) {
          return b.create<arith::MaximumFOp>(l, in, acc).getResult();
        });
    rewriter.replaceOp(op,
                       expandUnitDims(rewriter, loc, max, axes, resultType));
    return success();
  }
};
} // namespace

void onnxc::populateONNXPoolToLinalgPatterns(RewritePatternSet &patterns,
                                             bool cpuKernels) {
  patterns.add<MaxPoolLowering, AveragePoolLowering>(patterns.getContext(),
                                                     cpuKernels);
  patterns.add<GlobalAveragePoolLowering, GlobalMaxPoolLowering>(
      patterns.getContext());
}

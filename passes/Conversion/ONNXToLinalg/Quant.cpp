//===- Quant.cpp - onnx quantization ops to linalg ------------------------===//
//
// QuantizeLinear, DequantizeLinear and DynamicQuantizeLinear are elementwise
// generics (round half to even with math.roundeven, saturation by clamping
// before the conversion). MatMulInteger and ConvInteger stay integer: one
// contraction generic whose body extends the 8-bit operands (extui for
// uint8, extsi for int8), subtracts the zero points and accumulates in i32.
// QLinearMatMul and QLinearConv are that contraction followed by an
// elementwise requantization. A per-axis scale or zero point is first
// broadcast to a 1-D tensor of the axis' size (a one-element one may be `?`
// under dynamic shapes), so the bodies read it through an indexing map; a
// blocked one (`block_size`) is read with tensor.extract at the element's
// index along the axis divided by the block size.
//
// With int8 kernels (the default), the four integer ops become instead
// fused.qmatmul / fused.qconv, which call the runtime's packed int8 GEMM: a
// 2-D B (batch dims of A folded into M), group 1, per-tensor activation
// parameters and f32 scales. A MatMulInteger followed by Cast to f32, Mul by
// a scale [, Add of a bias] [, Relu] (dynamic quantization's rescale) is one
// qmatmul with an f32 result; a QLinear op followed by Max with its output
// zero point (a quantized Relu) gets the kernel's Relu.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/LowPrecision.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Pattern.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The signless scalar `value` of the integer type `type` (its unsigned twin
/// or itself) extended to i32.
static Value extendToI32(OpBuilder &b, Location loc, Value value, Type type) {
  value = toSignless(b, loc, value);
  Type i32 = b.getI32Type();
  if (value.getType() == i32)
    return value;
  if (type.isUnsignedInteger())
    return b.create<arith::ExtUIOp>(loc, i32, value);
  return b.create<arith::ExtSIOp>(loc, i32, value);
}

/// The scalar integer `value` of type `type` as the float `floatType`.
static Value intToFloat(OpBuilder &b, Location loc, Value value, Type type,
                        Type floatType) {
  value = toSignless(b, loc, value);
  if (type.isUnsignedInteger())
    return b.create<arith::UIToFPOp>(loc, floatType, value);
  return b.create<arith::SIToFPOp>(loc, floatType, value);
}

/// The scalar float `value` as the float type `type`.
static Value convertFloat(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  if (value.getType().getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return b.create<arith::ExtFOp>(loc, type, value);
  return b.create<arith::TruncFOp>(loc, type, value);
}

/// The scalar `value` of the float8 or float4 type `type` as the float type
/// `floatType` (exact for f16, bf16, f32 and f64).
static Value lowPrecisionToFloat(OpBuilder &b, Location loc, Value value,
                                 Type type, Type floatType) {
  value = decodeLowPrecisionFloat(b, loc, toSignless(b, loc, value), type);
  return convertFloat(b, loc, value, floatType);
}

/// The first element of the one-element `param` as a float of `floatType`.
static Value getScalarScale(OpBuilder &b, Location loc, Value param,
                            Type floatType) {
  Value v = extractScalar(b, loc, param);
  return v.getType() == floatType ? v : convertFloat(b, loc, v, floatType);
}

/// The range of the 8-bit (or 32-bit) integer type `type`.
static std::pair<double, double> getIntegerRange(Type type) {
  unsigned width = type.getIntOrFloatBitWidth();
  if (type.isUnsignedInteger())
    return {0.0, std::ldexp(1.0, width) - 1};
  return {-std::ldexp(1.0, width - 1), std::ldexp(1.0, width - 1) - 1};
}

/// saturate(round(value) + zeroPoint) as an element of the integer type
/// `type`: `value` is a float, `zeroPoint` a float or null.
static Value roundAndSaturate(OpBuilder &b, Location loc, Value value,
                              Value zeroPoint, Type type) {
  Type floatType = value.getType();
  value = b.create<math::RoundEvenOp>(loc, value);
  if (zeroPoint)
    value = b.create<arith::AddFOp>(loc, value, zeroPoint);
  auto [lo, hi] = getIntegerRange(type);
  value = b.create<arith::MaximumFOp>(loc, value,
                                      createScalar(b, loc, floatType, lo));
  value = b.create<arith::MinimumFOp>(loc, value,
                                      createScalar(b, loc, floatType, hi));
  Type signless = getSignlessType(type);
  Value result =
      type.isUnsignedInteger()
          ? b.create<arith::FPToUIOp>(loc, signless, value).getResult()
          : b.create<arith::FPToSIOp>(loc, signless, value).getResult();
  return fromSignless(b, loc, result, type);
}

namespace {
/// A scale or zero point: one scalar for the whole tensor, or a 1-D tensor
/// with one element per index of an axis.
struct QuantParam {
  Value scalar;
  Value tensor;

  explicit operator bool() const { return scalar || tensor; }
};
} // namespace

/// `param` (0-D, or 1-D of one element or of `size` elements) as a
/// QuantParam whose elements are converted by `convert` (element and its
/// type in, the converted element out). A 1-D param whose length is not a
/// static 1 is broadcast to `size` elements, reading index 0 when its
/// length is 1 at run time. A `none` param gives an empty QuantParam.
static QuantParam
getQuantParam(OpBuilder &b, Location loc, Value param, OpFoldResult size,
              Type convertedType,
              function_ref<Value(OpBuilder &, Location, Value)> convert) {
  if (!param || isa<NoneType>(param.getType()))
    return {};
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getRank() == 0 || type.getDimSize(0) == 1)
    return {convert(b, loc, extractScalar(b, loc, param)), Value()};
  auto resultType = RankedTensorType::get(
      {getConstantIntValue(size).value_or(ShapedType::kDynamic)},
      convertedType);
  Value length = b.create<tensor::DimOp>(loc, param, 0);
  Value zero = createIndex(b, loc, 0);
  Value isOne = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, length,
                                        createIndex(b, loc, 1));
  Value init = createEmpty(b, loc, resultType, {size});
  auto generic = b.create<linalg::GenericOp>(
      loc, TypeRange{resultType}, ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{b.getMultiDimIdentityMap(1)}, getParallel(1),
      [&](OpBuilder &nested, Location nestedLoc, ValueRange) {
        Value i = nested.create<linalg::IndexOp>(nestedLoc, 0);
        Value index = nested.create<arith::SelectOp>(nestedLoc, isOne, zero, i);
        Value element =
            nested.create<tensor::ExtractOp>(nestedLoc, param, index);
        nested.create<linalg::YieldOp>(nestedLoc,
                                       convert(nested, nestedLoc, element));
      });
  return {Value(), generic.getResult(0)};
}

/// A zero point as i32 values (see getQuantParam).
static QuantParam getZeroPoint(OpBuilder &b, Location loc, Value param,
                               OpFoldResult size) {
  if (!param || isa<NoneType>(param.getType()))
    return {};
  Type element = getElementTypeOrSelf(param);
  return getQuantParam(b, loc, param, size, b.getI32Type(),
                       [&](OpBuilder &nested, Location l, Value v) {
                         return extendToI32(nested, l, v, element);
                       });
}

/// A scale as values of `floatType` (see getQuantParam).
static QuantParam getScale(OpBuilder &b, Location loc, Value param,
                           OpFoldResult size, Type floatType) {
  return getQuantParam(b, loc, param, size, floatType,
                       [&](OpBuilder &nested, Location l, Value v) {
                         if (v.getType() == floatType)
                           return v;
                         return convertFloat(nested, l, v, floatType);
                       });
}

/// Adds `param` to the inputs of a generic over `rank` loops that reads it
/// along loop `dim`; returns its position among the inputs, or -1 for a
/// scalar (or absent) param.
static int64_t addParamInput(const QuantParam &param, int64_t dim, int64_t rank,
                             SmallVectorImpl<Value> &inputs,
                             SmallVectorImpl<AffineMap> &maps,
                             MLIRContext *ctx) {
  if (!param.tensor)
    return -1;
  inputs.push_back(param.tensor);
  maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(dim, ctx)));
  return inputs.size() - 1;
}

/// The element of `param` in a generic body: its scalar, or the block
/// argument at `position`.
static Value readParam(const QuantParam &param, int64_t position,
                       ValueRange args) {
  if (!param)
    return Value();
  return param.scalar ? param.scalar : args[position];
}

/// The normalized axis of a per-axis parameter of `x`, or 0 for a per-tensor
/// one.
static int64_t getParamAxis(Value param, RankedTensorType xType, int64_t axis) {
  auto type = cast<RankedTensorType>(param.getType());
  if (type.getRank() == 0 || type.getDimSize(0) == 1)
    return 0;
  return onnx::normalizeAxis(axis, xType.getRank()).value_or(0);
}

/// In a generic body over `rank` loops, the element of a blocked parameter
/// (x's shape but ceil(d / blockSize) along `axis`) for the current element
/// of x: its index along `axis` divided by `blockSize`.
static Value readBlocked(OpBuilder &b, Location l, Value param, int64_t axis,
                         int64_t blockSize, int64_t rank) {
  SmallVector<Value> at;
  for (int64_t d = 0; d < rank; ++d)
    at.push_back(b.create<linalg::IndexOp>(l, d));
  at[axis] =
      b.create<arith::DivUIOp>(l, at[axis], createIndex(b, l, blockSize));
  return b.create<tensor::ExtractOp>(l, param, at);
}

namespace {
struct QuantizeLinearLowering
    : public ONNXToLinalgPattern<onnx::QuantizeLinearOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::QuantizeLinearOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    Type floatType = getElementTypeOrSelf(adaptor.getYScale());
    auto blockSize = static_cast<int64_t>(op.getBlockSize());
    int64_t axis = blockSize
                       ? onnx::normalizeAxis(op.getAxis(), rank).value_or(0)
                       : getParamAxis(adaptor.getYScale(), xType,
                                      static_cast<int64_t>(op.getAxis()));
    OpFoldResult axisSize = rank ? getDimSize(rewriter, loc, x, axis)
                                 : OpFoldResult(rewriter.getIndexAttr(1));
    auto convertScale = [&](OpBuilder &b, Location l, Value v) -> Value {
      return v.getType() == floatType ? v : convertFloat(b, l, v, floatType);
    };
    Type yElement = resultType.getElementType();
    bool toFloat = onnx::isLowPrecisionFloat(yElement);
    auto convertZeroPoint = [&](OpBuilder &b, Location l, Value v) -> Value {
      if (toFloat)
        return lowPrecisionToFloat(b, l, v, yElement, floatType);
      return intToFloat(b, l, v, yElement, floatType);
    };
    // A float8 zero point is zero (ONNX's reference ignores it); FLOAT4E2M1
    // adds its own.
    bool hasZeroPoint = !onnx::isNoValue(op.getYZeroPoint()) &&
                        (!toFloat || isa<onnx::Float4E2M1Type>(yElement));
    QuantParam scale, zeroPoint;
    if (!blockSize) {
      scale = getScale(rewriter, loc, adaptor.getYScale(), axisSize, floatType);
      if (hasZeroPoint)
        zeroPoint = getQuantParam(rewriter, loc, adaptor.getYZeroPoint(),
                                  axisSize, floatType, convertZeroPoint);
    }
    SmallVector<Value> inputs{x};
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank)};
    int64_t scalePos = addParamInput(scale, axis, rank, inputs, maps, ctx);
    int64_t zeroPos = addParamInput(zeroPoint, axis, rank, inputs, maps, ctx);
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Type xElement = xType.getElementType();
    bool saturate = op.getSaturate() != 0;
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = args[0];
          if (isa<IntegerType>(xElement))
            v = intToFloat(b, l, v, xElement, floatType);
          else if (xElement != floatType)
            v = convertFloat(b, l, v, floatType);
          Value s = readParam(scale, scalePos, args);
          Value zp = readParam(zeroPoint, zeroPos, args);
          if (blockSize) {
            s = convertScale(
                b, l,
                readBlocked(b, l, adaptor.getYScale(), axis, blockSize, rank));
            if (hasZeroPoint)
              zp = convertZeroPoint(b, l,
                                    readBlocked(b, l, adaptor.getYZeroPoint(),
                                                axis, blockSize, rank));
          }
          v = b.create<arith::DivFOp>(l, v, s);
          if (!toFloat) {
            b.create<linalg::YieldOp>(l,
                                      roundAndSaturate(b, l, v, zp, yElement));
            return;
          }
          if (zp)
            v = b.create<arith::AddFOp>(l, v, zp);
          Value code = encodeLowPrecisionFloat(
              b, l, convertFloat(b, l, v, b.getF32Type()), yElement, saturate,
              "up");
          b.create<linalg::YieldOp>(l, fromSignless(b, l, code, yElement));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct DequantizeLinearLowering
    : public ONNXToLinalgPattern<onnx::DequantizeLinearOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::DequantizeLinearOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    int64_t rank = xType.getRank();
    Type floatType = resultType.getElementType();
    Type xElement = xType.getElementType();
    auto blockSize = static_cast<int64_t>(op.getBlockSize());
    int64_t axis = blockSize
                       ? onnx::normalizeAxis(op.getAxis(), rank).value_or(0)
                       : getParamAxis(adaptor.getXScale(), xType,
                                      static_cast<int64_t>(op.getAxis()));
    OpFoldResult axisSize = rank ? getDimSize(rewriter, loc, x, axis)
                                 : OpFoldResult(rewriter.getIndexAttr(1));
    bool fromFloat = onnx::isLowPrecisionFloat(xElement);
    Type f32 = rewriter.getF32Type();
    bool hasZeroPoint = !onnx::isNoValue(op.getXZeroPoint());
    QuantParam scale, zeroPoint;
    if (!blockSize) {
      scale = getScale(rewriter, loc, adaptor.getXScale(), axisSize, floatType);
      zeroPoint =
          fromFloat
              ? getQuantParam(
                    rewriter, loc, adaptor.getXZeroPoint(), axisSize, f32,
                    [&](OpBuilder &b, Location l, Value v) {
                      return lowPrecisionToFloat(b, l, v, xElement, f32);
                    })
              : getZeroPoint(rewriter, loc, adaptor.getXZeroPoint(), axisSize);
    }
    SmallVector<Value> inputs{x};
    SmallVector<AffineMap> maps{rewriter.getMultiDimIdentityMap(rank)};
    int64_t scalePos = addParamInput(scale, axis, rank, inputs, maps, ctx);
    int64_t zeroPos = addParamInput(zeroPoint, axis, rank, inputs, maps, ctx);
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value init =
        createEmpty(rewriter, loc, resultType, getDimSizes(rewriter, loc, x));
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
        getParallel(rank), [&](OpBuilder &b, Location l, ValueRange args) {
          // (x - zero point) exactly in i32 (in f32 for float8 and
          // float4), then scaled.
          Value s = readParam(scale, scalePos, args);
          Value zp = readParam(zeroPoint, zeroPos, args);
          if (blockSize) {
            s = readBlocked(b, l, adaptor.getXScale(), axis, blockSize, rank);
            if (s.getType() != floatType)
              s = convertFloat(b, l, s, floatType);
            if (hasZeroPoint) {
              zp = readBlocked(b, l, adaptor.getXZeroPoint(), axis, blockSize,
                               rank);
              zp = fromFloat ? lowPrecisionToFloat(b, l, zp, xElement, f32)
                             : extendToI32(b, l, zp, xElement);
            }
          }
          Value v;
          if (fromFloat) {
            v = lowPrecisionToFloat(b, l, args[0], xElement, f32);
            if (zp)
              v = b.create<arith::SubFOp>(l, v, zp);
            v = convertFloat(b, l, v, floatType);
          } else {
            v = extendToI32(b, l, args[0], xElement);
            if (zp)
              v = b.create<arith::SubIOp>(l, v, zp);
            v = b.create<arith::SIToFPOp>(l, floatType, v);
          }
          Value scaled = b.create<arith::MulFOp>(l, v, s);
          b.create<linalg::YieldOp>(l, scaled);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct DynamicQuantizeLinearLowering
    : public ONNXToLinalgPattern<onnx::DynamicQuantizeLinearOp> {
  using ONNXToLinalgPattern::ONNXToLinalgPattern;

  LogicalResult lower(onnx::DynamicQuantizeLinearOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    Value x = adaptor.getX();
    auto xType = cast<RankedTensorType>(x.getType());
    Type f32 = xType.getElementType();
    Type u8 = resultType.getElementType();
    SmallVector<int64_t> all;
    for (int64_t i = 0; i < xType.getRank(); ++i)
      all.push_back(i);
    // The range of x, widened to include 0.
    Value zero = createScalar(rewriter, loc, f32, 0);
    Value lo = extractScalar(
        rewriter, loc,
        createReduction(rewriter, loc, x, all, zero,
                        [](OpBuilder &b, Location l, Value in, Value acc) {
                          return b.create<arith::MinimumFOp>(l, in, acc);
                        }));
    Value hi = extractScalar(
        rewriter, loc,
        createReduction(rewriter, loc, x, all, zero,
                        [](OpBuilder &b, Location l, Value in, Value acc) {
                          return b.create<arith::MaximumFOp>(l, in, acc);
                        }));
    Value scale = rewriter.create<arith::DivFOp>(
        loc, rewriter.create<arith::SubFOp>(loc, hi, lo),
        createScalar(rewriter, loc, f32, 255));
    Value zeroPointFloat = rewriter.create<arith::SubFOp>(
        loc, zero, rewriter.create<arith::DivFOp>(loc, lo, scale));
    Value zeroPoint =
        roundAndSaturate(rewriter, loc, zeroPointFloat, Value(), u8);
    // The zero point again as a float, to add after rounding.
    Value zeroPointAsFloat = intToFloat(rewriter, loc, zeroPoint, u8, f32);
    Value y = createElementwiseMap(
        rewriter, loc, ValueRange{x}, resultType, getDimSizes(rewriter, loc, x),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value v = b.create<arith::DivFOp>(l, args[0], scale);
          return roundAndSaturate(b, l, v, zeroPointAsFloat, u8);
        });
    Value scaleTensor = rewriter.create<tensor::FromElementsOp>(
        loc, RankedTensorType::get({}, f32), ValueRange{scale});
    Value zeroPointTensor = rewriter.create<tensor::FromElementsOp>(
        loc, RankedTensorType::get({}, u8), ValueRange{zeroPoint});
    rewriter.replaceOp(op, {y, scaleTensor, zeroPointTensor});
    return success();
  }
};
} // namespace

/// The i32 product of `a - aZeroPoint` and `b - bZeroPoint` (zero points as
/// the onnx operands, or `none`) with batch dims broadcast statically, of
/// type `resultType` ([batch..., M, N]). A contraction generic whose body
/// extends the 8-bit elements to i32.
static Value createIntegerMatMul(OpBuilder &b, Location loc, Value a, Value bv,
                                 Value aZeroPoint, Value bZeroPoint,
                                 RankedTensorType resultType) {
  MLIRContext *ctx = b.getContext();
  auto aType = cast<RankedTensorType>(a.getType());
  auto bType = cast<RankedTensorType>(bv.getType());
  int64_t outRank = resultType.getRank();
  int64_t batchRank = outRank - 2;
  ArrayRef<int64_t> batch = resultType.getShape().drop_back(2);
  ArrayRef<int64_t> aBatch = aType.getShape().drop_back(2);
  ArrayRef<int64_t> bBatch = bType.getShape().drop_back(2);
  // The output sizes: batch dims from an operand whose dim is not 1.
  SmallVector<OpFoldResult> sizes;
  for (int64_t j = 0; j < batchRank; ++j) {
    OpFoldResult size = b.getIndexAttr(batch[j]);
    if (ShapedType::isDynamic(batch[j])) {
      size = b.getIndexAttr(1);
      for (auto [value, dims] :
           {std::make_pair(a, aBatch), std::make_pair(bv, bBatch)}) {
        int64_t i = j - (batchRank - static_cast<int64_t>(dims.size()));
        if (i >= 0 && dims[i] != 1) {
          size = getDimSize(b, loc, value, i);
          break;
        }
      }
    }
    sizes.push_back(size);
  }
  OpFoldResult m = getDimSize(b, loc, a, aType.getRank() - 2);
  OpFoldResult n = getDimSize(b, loc, bv, bType.getRank() - 1);
  sizes.append({m, n});
  Value init = createFilled(b, loc, resultType, sizes,
                            createScalar(b, loc, b.getI32Type(), 0));

  // Loops: batch..., m, n, k.
  int64_t loops = outRank + 1;
  AffineExpr mExpr = getAffineDimExpr(batchRank, ctx);
  AffineExpr nExpr = getAffineDimExpr(batchRank + 1, ctx);
  AffineExpr kExpr = getAffineDimExpr(batchRank + 2, ctx);
  auto operandMap = [&](ArrayRef<int64_t> dims, AffineExpr row,
                        AffineExpr col) {
    AffineMap batchMap = getBroadcastMap(ctx, dims, batch);
    SmallVector<AffineExpr> exprs(batchMap.getResults());
    exprs.append({row, col});
    return AffineMap::get(loops, 0, exprs, ctx);
  };
  SmallVector<Value> inputs{a, bv};
  SmallVector<AffineMap> maps{operandMap(aBatch, mExpr, kExpr),
                              operandMap(bBatch, kExpr, nExpr)};
  QuantParam aZero = getZeroPoint(b, loc, aZeroPoint, m);
  QuantParam bZero = getZeroPoint(b, loc, bZeroPoint, n);
  int64_t aPos = addParamInput(aZero, batchRank, loops, inputs, maps, ctx);
  int64_t bPos = addParamInput(bZero, batchRank + 1, loops, inputs, maps, ctx);
  SmallVector<AffineExpr> outExprs;
  for (int64_t j = 0; j < outRank; ++j)
    outExprs.push_back(getAffineDimExpr(j, ctx));
  maps.push_back(AffineMap::get(loops, 0, outExprs, ctx));
  SmallVector<utils::IteratorType> iterators = getParallel(loops);
  iterators.back() = utils::IteratorType::reduction;
  Type aElement = aType.getElementType(), bElement = bType.getElementType();
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{resultType}, inputs, ValueRange{init}, maps, iterators,
          [&](OpBuilder &nested, Location l, ValueRange args) {
            Value lhs = extendToI32(nested, l, args[0], aElement);
            Value rhs = extendToI32(nested, l, args[1], bElement);
            if (Value zp = readParam(aZero, aPos, args))
              lhs = nested.create<arith::SubIOp>(l, lhs, zp);
            if (Value zp = readParam(bZero, bPos, args))
              rhs = nested.create<arith::SubIOp>(l, rhs, zp);
            Value product = nested.create<arith::MulIOp>(l, lhs, rhs);
            Value sum = nested.create<arith::AddIOp>(l, args.back(), product);
            nested.create<linalg::YieldOp>(l, sum);
          })
      .getResult(0);
}

/// Requantizes the i32 `acc` (plus `bias`, an i32 QuantParam along loop
/// `colDim`, if any): saturate(round(acc * rowScale * colScale / outScale)
/// + outZeroPoint) into `resultType`. The scales and the zero point (a
/// float QuantParam) are per tensor, or along loop `rowDim` (`rowScale`) or
/// `colDim` (the others).
static Value createRequantize(OpBuilder &b, Location loc, Value acc,
                              RankedTensorType resultType,
                              const QuantParam &bias,
                              const QuantParam &rowScale, int64_t rowDim,
                              const QuantParam &colScale, int64_t colDim,
                              const QuantParam &outScale,
                              const QuantParam &outZeroPoint) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = resultType.getRank();
  SmallVector<Value> inputs{acc};
  SmallVector<AffineMap> maps{b.getMultiDimIdentityMap(rank)};
  int64_t biasPos = addParamInput(bias, colDim, rank, inputs, maps, ctx);
  int64_t rowPos = addParamInput(rowScale, rowDim, rank, inputs, maps, ctx);
  int64_t colPos = addParamInput(colScale, colDim, rank, inputs, maps, ctx);
  int64_t outPos = addParamInput(outScale, colDim, rank, inputs, maps, ctx);
  int64_t zeroPos =
      addParamInput(outZeroPoint, colDim, rank, inputs, maps, ctx);
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Type yElement = resultType.getElementType();
  Value init = createEmpty(b, loc, resultType, getDimSizes(b, loc, acc));
  return b
      .create<linalg::GenericOp>(
          loc, TypeRange{resultType}, inputs, ValueRange{init}, maps,
          getParallel(rank),
          [&](OpBuilder &nested, Location l, ValueRange args) {
            Value v = args[0];
            if (Value bv = readParam(bias, biasPos, args))
              v = nested.create<arith::AddIOp>(l, v, bv);
            Value scale = readParam(outScale, outPos, args);
            v = nested.create<arith::SIToFPOp>(l, scale.getType(), v);
            Value multiplier = nested.create<arith::MulFOp>(
                l, readParam(rowScale, rowPos, args),
                readParam(colScale, colPos, args));
            multiplier = nested.create<arith::DivFOp>(l, multiplier, scale);
            v = nested.create<arith::MulFOp>(l, v, multiplier);
            nested.create<linalg::YieldOp>(
                l, roundAndSaturate(nested, l, v,
                                    readParam(outZeroPoint, zeroPos, args),
                                    yElement));
          })
      .getResult(0);
}

/// A zero point of the integer type of `param`'s elements as floats of
/// `floatType` (see getQuantParam).
static QuantParam getFloatZeroPoint(OpBuilder &b, Location loc, Value param,
                                    OpFoldResult size, Type floatType) {
  Type element = getElementTypeOrSelf(param);
  return getQuantParam(b, loc, param, size, floatType,
                       [&](OpBuilder &nested, Location l, Value v) {
                         return intToFloat(nested, l, v, element, floatType);
                       });
}

//===----------------------------------------------------------------------===//
// The int8 kernels: fused.qmatmul and fused.qconv
//===----------------------------------------------------------------------===//

/// True when the onnx operand `param` has one element.
static bool isOneElement(Value param) {
  auto type = dyn_cast<RankedTensorType>(param.getType());
  return type && type.hasStaticShape() && type.getNumElements() == 1;
}

/// True when the onnx operand `param` is none, one element or 1-D.
static bool isNoneOrVector(Value param) {
  if (onnx::isNoValue(param))
    return true;
  auto type = dyn_cast<RankedTensorType>(param.getType());
  return type && type.getRank() <= 1;
}

/// True when `param` is none or has one element.
static bool isNoneOrOneElement(Value param) {
  return onnx::isNoValue(param) || isOneElement(param);
}

/// True when the onnx operand `param` holds f32 elements.
static bool isF32Param(Value param) {
  return getElementTypeOrSelf(param.getType()).isF32();
}

/// `param` as the 1-D tensor of `elementType` that the kernels read: [1] for
/// a scalar, its tensor for a per-channel one, [0] for none.
static Value toParamTensor(OpBuilder &b, Location loc, const QuantParam &param,
                           Type elementType) {
  if (param.tensor)
    return param.tensor;
  if (param.scalar)
    return b.create<tensor::FromElementsOp>(
        loc, RankedTensorType::get({1}, elementType), ValueRange{param.scalar});
  return b.create<tensor::EmptyOp>(loc, ArrayRef<int64_t>{0}, elementType);
}

/// The multiplier `xScale * wScale[c] / yScale` of the requantization (in
/// the order createRequantize computes it) over `channels`, as a 1-D f32
/// tensor.
static Value createMultiplier(OpBuilder &b, Location loc, Value xScale,
                              Value wScale, Value yScale,
                              OpFoldResult channels) {
  Type f32 = b.getF32Type();
  Value xs = getScalarScale(b, loc, xScale, f32);
  Value ys = getScalarScale(b, loc, yScale, f32);
  QuantParam ws = getScale(b, loc, wScale, channels, f32);
  auto combine = [&](OpBuilder &nested, Location l, Value w) -> Value {
    Value v = nested.create<arith::MulFOp>(l, xs, w);
    return nested.create<arith::DivFOp>(l, v, ys);
  };
  if (ws.scalar)
    return toParamTensor(b, loc, {combine(b, loc, ws.scalar), Value()}, f32);
  auto type = cast<RankedTensorType>(ws.tensor.getType());
  return createElementwiseMap(
      b, loc, ValueRange{ws.tensor}, type, getDimSizes(b, loc, ws.tensor),
      [&](OpBuilder &nested, Location l, ValueRange args) {
        return combine(nested, l, args[0]);
      });
}

namespace {
/// The operands of a fused.qmatmul or fused.qconv beside x and w, as 1-D
/// tensors, and its flags.
struct KernelParams {
  Value xZero, wZero, bias, scale, yZero;
  bool relu = false;
};
} // namespace

/// The attributes of a kernel op whose operands have the onnx element types
/// `x`, `w` and `y`.
static SmallVector<NamedAttribute> kernelAttrs(OpBuilder &b, Type x, Type w,
                                               Type y, bool relu) {
  SmallVector<NamedAttribute> attrs;
  auto flag = [&](StringRef name, bool set) {
    if (set)
      attrs.push_back(b.getNamedAttr(name, b.getUnitAttr()));
  };
  flag("x_signed", !x.isUnsignedInteger());
  flag("w_signed", !w.isUnsignedInteger());
  flag("y_signed", y.isInteger(8) && !y.isUnsignedInteger());
  flag("relu", relu);
  return attrs;
}

/// fused.qmatmul of `x` [..., M, K] (batch dims folded into M) and `w`
/// [K, N], reshaped to `resultType` [..., M, N].
static Value createQMatMul(OpBuilder &b, Location loc, Value x, Value w,
                           const KernelParams &p, RankedTensorType resultType) {
  auto xType = cast<RankedTensorType>(x.getType());
  int64_t rank = xType.getRank();
  SmallVector<OpFoldResult> outSizes;
  for (int64_t i = 0; i + 1 < rank; ++i)
    outSizes.push_back(getDimSize(b, loc, x, i));
  outSizes.push_back(getDimSize(b, loc, w, 1));
  SmallVector<ReassociationIndices> reassociation(2);
  for (int64_t i = 0; i + 1 < rank; ++i)
    reassociation[0].push_back(i);
  reassociation[1].push_back(rank - 1);
  Value x2 = x;
  if (rank > 2)
    x2 = b.create<tensor::CollapseShapeOp>(loc, x, reassociation);
  auto x2Type = cast<RankedTensorType>(x2.getType());
  auto type = RankedTensorType::get(
      {x2Type.getDimSize(0), resultType.getDimSize(rank - 1)},
      resultType.getElementType());
  Value init = createEmpty(
      b, loc, type, {getDimSize(b, loc, x2, 0), getDimSize(b, loc, w, 1)});
  SmallVector<Value> operands{x2,     w,       p.xZero, p.wZero,
                              p.bias, p.scale, p.yZero, init};
  Value y = b.create<fused::QMatMulOp>(
                 loc, TypeRange{type}, operands,
                 kernelAttrs(b, xType.getElementType(),
                             getElementTypeOrSelf(w.getType()),
                             resultType.getElementType(), p.relu))
                .getResult();
  if (rank > 2)
    y = createExpandShape(b, loc, y, resultType, reassociation, outSizes);
  return castTo(b, loc, y, resultType);
}

/// True when a MatMulInteger or QLinearMatMul of `a` and `b` fits
/// fused.qmatmul (the parameters are checked by the callers).
static bool fitsQMatMul(Value a, Value b) {
  auto aType = dyn_cast<RankedTensorType>(a.getType());
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  return aType && bType && aType.getRank() >= 2 && bType.getRank() == 2;
}

namespace {
/// A MatMulInteger's rescale to f32: Cast, Mul by `scale` [, Add of `bias`]
/// [, Relu], each the only user of the one before; `ops` from the Cast on.
struct Rescale {
  SmallVector<Operation *> ops;
  Value scale, bias;
  bool relu = false;
};
} // namespace

/// The other operand of the binary `op` than `value`, if it is a scalar or
/// a vector over the last dim (`n` elements) and `op` does not broadcast
/// `value`.
static Value getChannelOperand(Operation *op, Value value, int64_t n) {
  if (op->getNumOperands() != 2 ||
      op->getResult(0).getType() != value.getType())
    return Value();
  Value other =
      op->getOperand(0) == value ? op->getOperand(1) : op->getOperand(0);
  auto type = dyn_cast<RankedTensorType>(other.getType());
  if (!type || !type.getElementType().isF32() || type.getRank() > 1 ||
      !type.hasStaticShape())
    return Value();
  if (type.getRank() == 1 && type.getDimSize(0) != 1 && type.getDimSize(0) != n)
    return Value();
  return other;
}

/// The rescale that follows `op`, a MatMulInteger of result [..., n].
static std::optional<Rescale> matchRescale(onnx::MatMulIntegerOp op,
                                           int64_t n) {
  auto single = [](Value v) -> Operation * {
    return v.hasOneUse() ? *v.user_begin() : nullptr;
  };
  auto cast = dyn_cast_or_null<onnx::CastOp>(single(op.getResult()));
  if (ShapedType::isDynamic(n) || !cast ||
      !getElementTypeOrSelf(cast.getType()).isF32())
    return std::nullopt;
  Rescale r;
  r.ops.push_back(cast);
  auto mul = dyn_cast_or_null<onnx::MulOp>(single(cast.getResult()));
  if (!mul || !(r.scale = getChannelOperand(mul, cast.getResult(), n)))
    return std::nullopt;
  r.ops.push_back(mul);
  Value last = mul.getResult();
  if (auto add = dyn_cast_or_null<onnx::AddOp>(single(last))) {
    if ((r.bias = getChannelOperand(add, last, n))) {
      r.ops.push_back(add);
      last = add.getResult();
    }
  }
  if (auto relu = dyn_cast_or_null<onnx::ReluOp>(single(last))) {
    r.relu = true;
    r.ops.push_back(relu);
  }
  return r;
}

/// True when the only user of `value` is a quantized Relu: an onnx.Max of
/// `value` and the constant `zeroPoint`; returns it.
static Operation *matchQuantizedRelu(Value value, Value zeroPoint) {
  if (!value.hasOneUse())
    return nullptr;
  auto max = dyn_cast<onnx::MaxOp>(*value.user_begin());
  if (!max || max->getNumOperands() != 2 ||
      max.getResult().getType() != value.getType())
    return nullptr;
  Value other =
      max->getOperand(0) == value ? max->getOperand(1) : max->getOperand(0);
  if (other == zeroPoint)
    return max;
  DenseElementsAttr lhs, rhs;
  if (!matchPattern(other, m_Constant(&lhs)) ||
      !matchPattern(zeroPoint, m_Constant(&rhs)) || !lhs.isSplat() ||
      !rhs.isSplat() || lhs.getElementType() != rhs.getElementType())
    return nullptr;
  return lhs.getSplatValue<APInt>() == rhs.getSplatValue<APInt>() ? max
                                                                  : nullptr;
}

/// True when the parameters of a QLinearMatMul or QLinearConv fit the
/// kernels: per-tensor x and y, per-tensor or per-channel w, f32 scales.
static bool fitsQLinearParams(Value xScale, Value xZero, Value wScale,
                              Value wZero, Value yScale, Value yZero) {
  return isOneElement(xScale) && isOneElement(xZero) && isOneElement(yScale) &&
         isOneElement(yZero) && isNoneOrVector(wScale) &&
         isNoneOrVector(wZero) && isF32Param(xScale) && isF32Param(wScale) &&
         isF32Param(yScale);
}

/// Replaces `op` by the kernel's result `y`, or, when the kernel took in the
/// quantized Relu `relu` that follows it, replaces `relu` and erases `op`.
static void replaceWithRelu(ConversionPatternRewriter &rewriter, Operation *op,
                            Operation *relu, Value y) {
  if (!relu) {
    rewriter.replaceOp(op, y);
    return;
  }
  rewriter.replaceOp(relu, y);
  rewriter.eraseOp(op);
}

/// The parameters of a QLinearMatMul or QLinearConv kernel (lowered onnx
/// operands; `bias` i32 or null) with `channels` output channels.
static KernelParams getQLinearParams(OpBuilder &b, Location loc, Value xZero,
                                     Value wZero, Value xScale, Value wScale,
                                     Value yScale, Value yZero, Value bias,
                                     OpFoldResult channels) {
  Type i32 = b.getI32Type();
  KernelParams p;
  p.xZero = toParamTensor(b, loc,
                          getZeroPoint(b, loc, xZero, b.getIndexAttr(1)), i32);
  p.wZero = toParamTensor(b, loc, getZeroPoint(b, loc, wZero, channels), i32);
  p.yZero = toParamTensor(b, loc,
                          getZeroPoint(b, loc, yZero, b.getIndexAttr(1)), i32);
  p.scale = createMultiplier(b, loc, xScale, wScale, yScale, channels);
  QuantParam biasParam;
  if (bias && !onnx::isNoValue(bias))
    biasParam = getQuantParam(b, loc, bias, channels, i32,
                              [](OpBuilder &, Location, Value v) { return v; });
  p.bias = toParamTensor(b, loc, biasParam, i32);
  return p;
}

namespace {
struct MatMulIntegerLowering
    : public ONNXToLinalgPattern<onnx::MatMulIntegerOp> {
  MatMulIntegerLowering(MLIRContext *ctx, bool kernels)
      : ONNXToLinalgPattern(ctx), kernels(kernels) {}

  LogicalResult lower(onnx::MatMulIntegerOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (kernels && fitsQMatMul(adaptor.getA(), adaptor.getB()) &&
        isNoneOrOneElement(op.getAZeroPoint()) &&
        isNoneOrVector(op.getBZeroPoint()))
      return lowerToKernel(op, adaptor, rewriter, resultType);
    rewriter.replaceOp(
        op, createIntegerMatMul(rewriter, loc, adaptor.getA(), adaptor.getB(),
                                adaptor.getAZeroPoint(),
                                adaptor.getBZeroPoint(), resultType));
    return success();
  }

  /// Use fused.qmatmul (with the rescale that follows, if any).
  LogicalResult lowerToKernel(onnx::MatMulIntegerOp op, OpAdaptor adaptor,
                              ConversionPatternRewriter &rewriter,
                              RankedTensorType resultType) const {
    Location loc = op.getLoc();
    Value b = adaptor.getB();
    int64_t n = resultType.getDimSize(resultType.getRank() - 1);
    OpFoldResult channels = getDimSize(rewriter, loc, b, 1);
    std::optional<Rescale> rescale = matchRescale(op, n);
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    if (rescale)
      rewriter.setInsertionPoint(rescale->ops.back());
    KernelParams p;
    p.xZero = toParamTensor(rewriter, loc,
                            getZeroPoint(rewriter, loc, adaptor.getAZeroPoint(),
                                         rewriter.getIndexAttr(1)),
                            i32);
    p.wZero = toParamTensor(
        rewriter, loc,
        getZeroPoint(rewriter, loc, adaptor.getBZeroPoint(), channels), i32);
    p.yZero = toParamTensor(rewriter, loc, {}, i32);
    if (!rescale) {
      p.bias = toParamTensor(rewriter, loc, {}, i32);
      p.scale = toParamTensor(rewriter, loc, {}, f32);
      rewriter.replaceOp(
          op, createQMatMul(rewriter, loc, adaptor.getA(), b, p, resultType));
      return success();
    }
    // The rescale's operands are onnx values, remapped to their lowering.
    auto param = [&](Value v) {
      if (!v)
        return toParamTensor(rewriter, loc, {}, f32);
      return toParamTensor(
          rewriter, loc,
          getScale(rewriter, loc, rewriter.getRemappedValue(v), channels, f32),
          f32);
    };
    p.scale = param(rescale->scale);
    p.bias = param(rescale->bias);
    p.relu = rescale->relu;
    Operation *last = rescale->ops.back();
    auto type = cast<RankedTensorType>(last->getResult(0).getType());
    Value y = createQMatMul(rewriter, loc, adaptor.getA(), b, p, type);
    rewriter.replaceOp(last, y);
    for (Operation *dead : llvm::reverse(ArrayRef(rescale->ops).drop_back()))
      rewriter.eraseOp(dead);
    rewriter.eraseOp(op);
    return success();
  }

  bool kernels;
};

struct QLinearMatMulLowering
    : public ONNXToLinalgPattern<onnx::QLinearMatMulOp> {
  QLinearMatMulLowering(MLIRContext *ctx, bool kernels)
      : ONNXToLinalgPattern(ctx), kernels(kernels) {}

  LogicalResult lower(onnx::QLinearMatMulOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (kernels && fitsQMatMul(adaptor.getA(), adaptor.getB()) &&
        fitsQLinearParams(op.getAScale(), op.getAZeroPoint(), op.getBScale(),
                          op.getBZeroPoint(), op.getYScale(),
                          op.getYZeroPoint())) {
      Operation *relu = matchQuantizedRelu(op.getResult(), op.getYZeroPoint());
      OpFoldResult channels = getDimSize(rewriter, loc, adaptor.getB(), 1);
      KernelParams p = getQLinearParams(
          rewriter, loc, adaptor.getAZeroPoint(), adaptor.getBZeroPoint(),
          adaptor.getAScale(), adaptor.getBScale(), adaptor.getYScale(),
          adaptor.getYZeroPoint(), Value(), channels);
      p.relu = relu != nullptr;
      Value y = createQMatMul(rewriter, loc, adaptor.getA(), adaptor.getB(), p,
                              resultType);
      replaceWithRelu(rewriter, op, relu, y);
      return success();
    }
    auto accType =
        RankedTensorType::get(resultType.getShape(), rewriter.getI32Type());
    Value acc = createIntegerMatMul(rewriter, loc, adaptor.getA(),
                                    adaptor.getB(), adaptor.getAZeroPoint(),
                                    adaptor.getBZeroPoint(), accType);
    int64_t rank = resultType.getRank();
    Type floatType = getElementTypeOrSelf(adaptor.getAScale());
    OpFoldResult rows = getDimSize(rewriter, loc, acc, rank - 2);
    OpFoldResult cols = getDimSize(rewriter, loc, acc, rank - 1);
    QuantParam rowScale =
        getScale(rewriter, loc, adaptor.getAScale(), rows, floatType);
    QuantParam colScale =
        getScale(rewriter, loc, adaptor.getBScale(), cols, floatType);
    QuantParam outScale =
        getScale(rewriter, loc, adaptor.getYScale(), cols, floatType);
    QuantParam outZeroPoint = getFloatZeroPoint(
        rewriter, loc, adaptor.getYZeroPoint(), cols, floatType);
    rewriter.replaceOp(op, createRequantize(rewriter, loc, acc, resultType, {},
                                            rowScale, rank - 2, colScale,
                                            rank - 1, outScale, outZeroPoint));
    return success();
  }

  bool kernels;
};
} // namespace

namespace {
/// The input of an integer convolution padded with its zero point, the
/// output sizes [N, F, OH, OW] and the window.
struct PaddedConv {
  Value padded, padValue;
  SmallVector<OpFoldResult> sizes;
  onnx::WindowGeometry g;
};
} // namespace

/// `x` padded for `op`, a ConvInteger or QLinearConv (the padding holds the
/// x zero point, an onnx operand or `none`), with the sizes of its output of
/// type `accType`.
template <typename OpT>
static FailureOr<PaddedConv> padIntegerConv(OpBuilder &b, OpT op, Value x,
                                            Value w, Value xZeroPoint,
                                            RankedTensorType accType) {
  Location loc = op.getLoc();
  auto xType = cast<RankedTensorType>(x.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  Type xElement = xType.getElementType();
  SmallVector<int64_t> kernel(wType.getShape().drop_front(2));
  if (auto attr = op.getKernelShape())
    kernel.assign(attr->begin(), attr->end());
  ArrayRef<int64_t> spatial = xType.getShape().drop_front(2);
  // Strides, dilations and pads; resolveWindow also applies auto_pad when
  // the kernel is static.
  onnx::WindowGeometry g;
  if (llvm::none_of(kernel, ShapedType::isDynamic)) {
    if (failed(onnx::resolveWindow(loc, op->getName().stripDialect(), spatial,
                                   kernel, op.getStrides(), op.getDilations(),
                                   op.getPads(), op.getAutoPad(),
                                   /*ceilMode=*/false, g)))
      return failure();
    if (op.getAutoPad().starts_with("SAME") &&
        llvm::any_of(spatial, ShapedType::isDynamic))
      return op.emitOpError("with auto_pad ")
             << op.getAutoPad() << " needs static spatial dims";
  } else {
    auto orDefault = [](std::optional<ArrayRef<int64_t>> v, size_t n,
                        int64_t fill) {
      return v ? SmallVector<int64_t>(*v) : SmallVector<int64_t>(n, fill);
    };
    g.strides = orDefault(op.getStrides(), 2, 1);
    g.dilations = orDefault(op.getDilations(), 2, 1);
    SmallVector<int64_t> pads = orDefault(op.getPads(), 4, 0);
    if (op.getAutoPad() == "VALID")
      pads.assign(4, 0);
    g.padsBegin = {pads[0], pads[1]};
    g.padsEnd = {pads[2], pads[3]};
  }

  // Pad x with its zero point, so padding contributes nothing.
  Value padValue;
  if (onnx::isNoValue(xZeroPoint))
    padValue = fromSignless(
        b, loc, createScalar(b, loc, getSignlessType(xElement), 0), xElement);
  else
    padValue = extractScalar(b, loc, xZeroPoint);
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0)), high(low);
  SmallVector<OpFoldResult> sizes{getDimSize(b, loc, x, 0),
                                  getDimSize(b, loc, w, 0)};
  for (int64_t i = 0; i < 2; ++i) {
    low.push_back(b.getIndexAttr(g.padsBegin[i]));
    high.push_back(b.getIndexAttr(g.padsEnd[i]));
    if (!ShapedType::isDynamic(accType.getDimSize(i + 2))) {
      sizes.push_back(b.getIndexAttr(accType.getDimSize(i + 2)));
      continue;
    }
    // (in + pads - ((k - 1) * dilation + 1)) / stride + 1
    Value in = toValue(b, loc, getDimSize(b, loc, x, i + 2));
    Value k = toValue(b, loc, getDimSize(b, loc, w, i + 2));
    Value one = createIndex(b, loc, 1);
    Value extent = b.create<arith::AddIOp>(
        loc,
        b.create<arith::MulIOp>(loc, b.create<arith::SubIOp>(loc, k, one),
                                createIndex(b, loc, g.dilations[i])),
        one);
    Value span = b.create<arith::SubIOp>(
        loc,
        b.create<arith::AddIOp>(
            loc, in, createIndex(b, loc, g.padsBegin[i] + g.padsEnd[i])),
        extent);
    sizes.push_back(b.create<arith::AddIOp>(
                         loc,
                         b.create<arith::DivSIOp>(
                             loc, span, createIndex(b, loc, g.strides[i])),
                         one)
                        .getResult());
  }
  return PaddedConv{createPad(b, loc, x, low, high, padValue), padValue, sizes,
                    g};
}

/// The i32 2-D convolution of `x - xZeroPoint` and `w - wZeroPoint` (onnx
/// operands or `none`; the padding holds the x zero point) for `op`, a
/// ConvInteger or QLinearConv, of type `accType`.
template <typename OpT>
static FailureOr<Value>
createIntegerConv(OpBuilder &b, OpT op, Value x, Value w, Value xZeroPoint,
                  Value wZeroPoint, RankedTensorType accType) {
  FailureOr<PaddedConv> prepared =
      padIntegerConv(b, op, x, w, xZeroPoint, accType);
  if (failed(prepared))
    return failure();
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  Type xElement = cast<RankedTensorType>(x.getType()).getElementType();
  Type wElement = cast<RankedTensorType>(w.getType()).getElementType();
  Value padded = prepared->padded, padValue = prepared->padValue;
  SmallVector<OpFoldResult> &sizes = prepared->sizes;
  onnx::WindowGeometry &g = prepared->g;

  int64_t group = op.getGroup();
  Value init = createFilled(b, loc, accType, sizes,
                            createScalar(b, loc, b.getI32Type(), 0));
  QuantParam wZero = getZeroPoint(b, loc, wZeroPoint, sizes[1]);
  // The x zero point has one element (qlinearconv_c1, convinteger_c1).
  Value xZero;
  if (!onnx::isNoValue(xZeroPoint))
    xZero = extendToI32(b, loc, padValue, xElement);
  // Group 1 loops: n, m, oh, ow, c, kh, kw. Grouped (channel dims split into
  // [group, size / group]): n, g, m, oh, ow, c, kh, kw.
  bool grouped = group != 1;
  Value input = padded, filter = w, output = init, wZeroTensor = wZero.tensor;
  if (grouped) {
    input = splitDim(b, loc, padded, 1, group);
    filter = splitDim(b, loc, w, 0, group);
    output = splitDim(b, loc, init, 1, group);
    if (wZeroTensor)
      wZeroTensor = splitDim(b, loc, wZeroTensor, 0, group);
  }
  int64_t loops = grouped ? 8 : 7;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  int64_t o = grouped ? 1 : 0; // offset of the loops after n (and g)
  AffineExpr n = d(0), m = d(1 + o), oh = d(2 + o), ow = d(3 + o), c = d(4 + o),
             kh = d(5 + o), kw = d(6 + o);
  AffineExpr ih = oh * g.strides[0] + kh * g.dilations[0];
  AffineExpr iw = ow * g.strides[1] + kw * g.dilations[1];
  SmallVector<AffineExpr> inExprs{n, c, ih, iw}, filterExprs{m, c, kh, kw},
      outExprs{n, m, oh, ow}, zeroExprs{m};
  if (grouped) {
    inExprs.insert(inExprs.begin() + 1, d(1));
    filterExprs.insert(filterExprs.begin(), d(1));
    outExprs.insert(outExprs.begin() + 1, d(1));
    zeroExprs.insert(zeroExprs.begin(), d(1));
  }
  SmallVector<Value> inputs{input, filter};
  SmallVector<AffineMap> maps{AffineMap::get(loops, 0, inExprs, ctx),
                              AffineMap::get(loops, 0, filterExprs, ctx)};
  int64_t wPos = -1;
  if (wZeroTensor) {
    inputs.push_back(wZeroTensor);
    maps.push_back(AffineMap::get(loops, 0, zeroExprs, ctx));
    wPos = inputs.size() - 1;
  }
  maps.push_back(AffineMap::get(loops, 0, outExprs, ctx));
  SmallVector<utils::IteratorType> iterators = getParallel(loops);
  for (int64_t i = loops - 3; i < loops; ++i)
    iterators[i] = utils::IteratorType::reduction;
  Value conv = b.create<linalg::GenericOp>(
                    loc, TypeRange{output.getType()}, inputs,
                    ValueRange{output}, maps, iterators,
                    [&](OpBuilder &nested, Location l, ValueRange args) {
                      Value lhs = extendToI32(nested, l, args[0], xElement);
                      Value rhs = extendToI32(nested, l, args[1], wElement);
                      if (xZero)
                        lhs = nested.create<arith::SubIOp>(l, lhs, xZero);
                      if (Value zp = wZero.scalar ? wZero.scalar
                                     : wPos >= 0  ? args[wPos]
                                                  : Value())
                        rhs = nested.create<arith::SubIOp>(l, rhs, zp);
                      Value product = nested.create<arith::MulIOp>(l, lhs, rhs);
                      Value sum =
                          nested.create<arith::AddIOp>(l, args.back(), product);
                      nested.create<linalg::YieldOp>(l, sum);
                    })
                   .getResult(0);
  if (grouped)
    conv = castTo(b, loc, mergeDims(b, loc, conv, 1), accType);
  return conv;
}

/// True when `op`, a ConvInteger or QLinearConv of `w`, fits fused.qconv
/// (the parameters are checked by the callers).
template <typename OpT> static bool fitsQConv(OpT op, Value w) {
  auto wType = cast<RankedTensorType>(w.getType());
  return op.getGroup() == 1 && wType.getRank() == 4 && !wType.isDynamicDim(2) &&
         !wType.isDynamicDim(3);
}

/// fused.qconv for `op`, a ConvInteger or QLinearConv, of type `resultType`.
template <typename OpT>
static FailureOr<Value> createQConv(OpBuilder &b, OpT op, Value x, Value w,
                                    Value xZeroPoint, const KernelParams &p,
                                    RankedTensorType resultType) {
  FailureOr<PaddedConv> prepared =
      padIntegerConv(b, op, x, w, xZeroPoint, resultType);
  if (failed(prepared))
    return failure();
  Location loc = op.getLoc();
  Value init = createEmpty(b, loc, resultType, prepared->sizes);
  SmallVector<NamedAttribute> attrs = kernelAttrs(
      b, getElementTypeOrSelf(x.getType()), getElementTypeOrSelf(w.getType()),
      resultType.getElementType(), p.relu);
  attrs.push_back(
      b.getNamedAttr("strides", b.getDenseI64ArrayAttr(prepared->g.strides)));
  attrs.push_back(b.getNamedAttr(
      "dilations", b.getDenseI64ArrayAttr(prepared->g.dilations)));
  SmallVector<Value> operands{prepared->padded, w,       p.xZero, p.wZero,
                              p.bias,           p.scale, p.yZero, init};
  return b.create<fused::QConvOp>(loc, TypeRange{resultType}, operands, attrs)
      .getResult();
}

namespace {
struct ConvIntegerLowering : public ONNXToLinalgPattern<onnx::ConvIntegerOp> {
  ConvIntegerLowering(MLIRContext *ctx, bool kernels)
      : ONNXToLinalgPattern(ctx), kernels(kernels) {}

  LogicalResult lower(onnx::ConvIntegerOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    FailureOr<Value> conv;
    if (kernels && fitsQConv(op, adaptor.getW()) &&
        isNoneOrOneElement(op.getXZeroPoint()) &&
        isNoneOrVector(op.getWZeroPoint())) {
      Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
      KernelParams p;
      p.xZero =
          toParamTensor(rewriter, loc,
                        getZeroPoint(rewriter, loc, adaptor.getXZeroPoint(),
                                     rewriter.getIndexAttr(1)),
                        i32);
      p.wZero = toParamTensor(
          rewriter, loc,
          getZeroPoint(rewriter, loc, adaptor.getWZeroPoint(),
                       getDimSize(rewriter, loc, adaptor.getW(), 0)),
          i32);
      p.bias = toParamTensor(rewriter, loc, {}, i32);
      p.scale = toParamTensor(rewriter, loc, {}, f32);
      p.yZero = toParamTensor(rewriter, loc, {}, i32);
      conv = createQConv(rewriter, op, adaptor.getX(), adaptor.getW(),
                         adaptor.getXZeroPoint(), p, resultType);
    } else {
      conv = createIntegerConv(rewriter, op, adaptor.getX(), adaptor.getW(),
                               adaptor.getXZeroPoint(), adaptor.getWZeroPoint(),
                               resultType);
    }
    if (failed(conv))
      return failure();
    rewriter.replaceOp(op, *conv);
    return success();
  }

  bool kernels;
};

struct QLinearConvLowering : public ONNXToLinalgPattern<onnx::QLinearConvOp> {
  QLinearConvLowering(MLIRContext *ctx, bool kernels)
      : ONNXToLinalgPattern(ctx), kernels(kernels) {}

  LogicalResult lower(onnx::QLinearConvOp op, OpAdaptor adaptor,
                      RankedTensorType resultType, Location loc,
                      ConversionPatternRewriter &rewriter) const override {
    if (kernels && fitsQConv(op, adaptor.getW()) &&
        fitsQLinearParams(op.getXScale(), op.getXZeroPoint(), op.getWScale(),
                          op.getWZeroPoint(), op.getYScale(),
                          op.getYZeroPoint())) {
      Operation *relu = matchQuantizedRelu(op.getResult(), op.getYZeroPoint());
      KernelParams p = getQLinearParams(
          rewriter, loc, adaptor.getXZeroPoint(), adaptor.getWZeroPoint(),
          adaptor.getXScale(), adaptor.getWScale(), adaptor.getYScale(),
          adaptor.getYZeroPoint(), adaptor.getB(),
          getDimSize(rewriter, loc, adaptor.getW(), 0));
      p.relu = relu != nullptr;
      FailureOr<Value> y =
          createQConv(rewriter, op, adaptor.getX(), adaptor.getW(),
                      adaptor.getXZeroPoint(), p, resultType);
      if (failed(y))
        return failure();
      replaceWithRelu(rewriter, op, relu, *y);
      return success();
    }
    auto accType =
        RankedTensorType::get(resultType.getShape(), rewriter.getI32Type());
    FailureOr<Value> acc = createIntegerConv(
        rewriter, op, adaptor.getX(), adaptor.getW(), adaptor.getXZeroPoint(),
        adaptor.getWZeroPoint(), accType);
    if (failed(acc))
      return failure();
    Type floatType = getElementTypeOrSelf(adaptor.getXScale());
    OpFoldResult filters = getDimSize(rewriter, loc, *acc, 1);
    QuantParam inScale{
        getScalarScale(rewriter, loc, adaptor.getXScale(), floatType), Value()};
    QuantParam wScale =
        getScale(rewriter, loc, adaptor.getWScale(), filters, floatType);
    QuantParam outScale{
        getScalarScale(rewriter, loc, adaptor.getYScale(), floatType), Value()};
    QuantParam outZeroPoint{
        intToFloat(rewriter, loc,
                   extractScalar(rewriter, loc, adaptor.getYZeroPoint()),
                   resultType.getElementType(), floatType),
        Value()};
    QuantParam bias;
    if (!onnx::isNoValue(op.getB()))
      bias = getQuantParam(rewriter, loc, adaptor.getB(), filters,
                           rewriter.getI32Type(),
                           [](OpBuilder &, Location, Value v) { return v; });
    rewriter.replaceOp(op, createRequantize(rewriter, loc, *acc, resultType,
                                            bias, inScale, 0, wScale, 1,
                                            outScale, outZeroPoint));
    return success();
  }

  bool kernels;
};
} // namespace

void onnxc::populateONNXQuantToLinalgPatterns(RewritePatternSet &patterns,
                                              bool int8Kernels) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<QuantizeLinearLowering, DequantizeLinearLowering,
               DynamicQuantizeLinearLowering>(ctx);
  patterns.add<MatMulIntegerLowering, QLinearMatMulLowering,
               ConvIntegerLowering, QLinearConvLowering>(ctx, int8Kernels);
}

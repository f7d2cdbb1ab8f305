//===- ShapeMath.cpp - Result types of the onnx elementwise ops -----------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

LogicalResult onnxc::onnx::detail::inferBroadcastType(
    std::optional<Location> loc, StringRef opName, TypeRange types,
    Type elementType, SmallVectorImpl<Type> &result) {
  SmallVector<int64_t> shape;
  for (auto [i, type] : llvm::enumerate(types)) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked) {
      result.push_back(UnrankedTensorType::get(elementType));
      return success();
    }
    if (i == 0) {
      shape.assign(ranked.getShape().begin(), ranked.getShape().end());
      continue;
    }
    SmallVector<int64_t> next;
    // broadcast_c1
    if (!OpTrait::util::getBroadcastedShape(shape, ranked.getShape(), next))
      return opError(loc, opName, "operands are not broadcast compatible (",
                     types[0], " and ", type, ")");
    shape = std::move(next);
  }
  result.push_back(RankedTensorType::get(shape, elementType));
  return success();
}

/// Result type of a broadcasting op whose result keeps the first operand's
/// element type. Pow's exponent may have another element type.
template <typename OpT>
static LogicalResult inferSameElementBroadcast(std::optional<Location> loc,
                                               ValueRange operands,
                                               SmallVectorImpl<Type> &result) {
  StringRef name = OpT::getOperationName().drop_front(5);
  Type element = getElementTypeOrSelf(operands[0].getType());
  Type other = getElementTypeOrSelf(operands[1].getType());
  // binary_c1
  if (!std::is_same_v<OpT, PowOp> && other != element)
    return opError(loc, name, "expects operands of one element type (got ",
                   element, " and ", other, ")");
  return inferBroadcastType(loc, name, operands.getTypes(), element, result);
}

#define ONNX_SAME_ELEMENT_BROADCAST(OP)                                        \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &result) {                                         \
    return inferSameElementBroadcast<OP>(loc, operands, result);               \
  }
ONNX_SAME_ELEMENT_BROADCAST(AddOp)
ONNX_SAME_ELEMENT_BROADCAST(SubOp)
ONNX_SAME_ELEMENT_BROADCAST(MulOp)
ONNX_SAME_ELEMENT_BROADCAST(DivOp)
ONNX_SAME_ELEMENT_BROADCAST(PowOp)
ONNX_SAME_ELEMENT_BROADCAST(BitwiseAndOp)
ONNX_SAME_ELEMENT_BROADCAST(BitwiseOrOp)
ONNX_SAME_ELEMENT_BROADCAST(BitwiseXorOp)
#undef ONNX_SAME_ELEMENT_BROADCAST

#define ONNX_COMPARE(OP)                                                       \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,      \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &result) {                                         \
    StringRef name = getOperationName().drop_front(5);                         \
    /* compare_c1 */                                                           \
    if (getElementTypeOrSelf(operands[0]) !=                                   \
        getElementTypeOrSelf(operands[1]))                                     \
      return opError(loc, name, "expects operands of one element type (got ",  \
                     getElementTypeOrSelf(operands[0]), " and ",               \
                     getElementTypeOrSelf(operands[1]), ")");                  \
    return inferBroadcastType(loc, name, operands.getTypes(),                  \
                              IntegerType::get(ctx, 1), result);               \
  }
ONNX_COMPARE(EqualOp)
ONNX_COMPARE(LessOp)
ONNX_COMPARE(GreaterOp)
ONNX_COMPARE(GreaterOrEqualOp)
ONNX_COMPARE(LessOrEqualOp)
#undef ONNX_COMPARE

LogicalResult WhereOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &result) {
  Type element = getElementTypeOrSelf(operands[1]);
  // where_c1
  if (getElementTypeOrSelf(operands[2]) != element)
    return opError(loc, "Where", "expects X and Y of one element type (got ",
                   element, " and ", getElementTypeOrSelf(operands[2]), ")");
  return inferBroadcastType(loc, "Where", operands.getTypes(), element, result);
}

// The unary ops get inferReturnTypes from SameOperandsAndResultType.

LogicalResult ClipOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &result) {
  Type element = getElementTypeOrSelf(operands[0]);
  for (Value bound : operands.drop_front()) {
    if (isNoValue(bound))
      continue;
    auto type = cast<TensorType>(bound.getType());
    // clip_c1
    if (type.getElementType() != element)
      return opError(loc, "Clip",
                     "expects min and max of the input's element type (got ",
                     type.getElementType(), " and ", element, ")");
    // clip_c2
    if (type.hasRank() && type.getNumElements() != 1)
      return opError(loc, "Clip", "expects min and max to be scalars (got ",
                     type, ")");
  }
  result.push_back(operands[0].getType());
  return success();
}

//===----------------------------------------------------------------------===//
// Variadic, logical, bitwise and activation ops.
//===----------------------------------------------------------------------===//

/// Result type of Max, Min, Sum and Mean: the broadcast of all inputs.
static LogicalResult inferVariadic(std::optional<Location> loc, StringRef name,
                                   ValueRange operands,
                                   SmallVectorImpl<Type> &result) {
  // variadic_c1
  if (operands.empty())
    return opError(loc, name, "expects at least one input");
  Type element = getElementTypeOrSelf(operands[0]);
  for (Value operand : operands.drop_front()) {
    // variadic_c2
    if (getElementTypeOrSelf(operand) != element)
      return opError(loc, name, "expects inputs of one element type (got ",
                     element, " and ", getElementTypeOrSelf(operand), ")");
  }
  return inferBroadcastType(loc, name, operands.getTypes(), element, result);
}

#define ONNX_VARIADIC(OP)                                                      \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &result) {                                         \
    return inferVariadic(loc, getOperationName().drop_front(5), operands,      \
                         result);                                              \
  }
ONNX_VARIADIC(MaxOp)
ONNX_VARIADIC(MinOp)
ONNX_VARIADIC(SumOp)
ONNX_VARIADIC(MeanOp)
#undef ONNX_VARIADIC

LogicalResult ModOp::inferReturnTypes(MLIRContext *,
                                      std::optional<Location> loc,
                                      ValueRange operands, DictionaryAttr attrs,
                                      OpaqueProperties props,
                                      RegionRange regions,
                                      SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto fmod = static_cast<int64_t>(op.getFmod());
  // mod_c1
  if (fmod != 0 && fmod != 1)
    return opError(loc, "Mod", "expects 'fmod' to be 0 or 1 (got ", fmod, ")");
  Type element = getElementTypeOrSelf(operands[0]);
  // mod_c2
  if (isa<FloatType>(element) && fmod != 1)
    return opError(loc, "Mod",
                   "expects 'fmod' = 1 for floating-point inputs (got ",
                   element, ")");
  return inferSameElementBroadcast<ModOp>(loc, operands, result);
}

LogicalResult
BitShiftOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                             ValueRange operands, DictionaryAttr attrs,
                             OpaqueProperties props, RegionRange regions,
                             SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // bitshift_c1
  if (op.getDirection() != "LEFT" && op.getDirection() != "RIGHT")
    return opError(loc, "BitShift",
                   "expects 'direction' to be \"LEFT\" or \"RIGHT\" (got \"",
                   op.getDirection(), "\")");
  return inferSameElementBroadcast<BitShiftOp>(loc, operands, result);
}

#define ONNX_LOGICAL(OP)                                                       \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,      \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &result) {                                         \
    return inferBroadcastType(loc, getOperationName().drop_front(5),           \
                              operands.getTypes(), IntegerType::get(ctx, 1),   \
                              result);                                         \
  }
ONNX_LOGICAL(AndOp)
ONNX_LOGICAL(OrOp)
ONNX_LOGICAL(XorOp)
#undef ONNX_LOGICAL

#define ONNX_FLOAT_TEST(OP)                                                    \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location>, ValueRange operands,          \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &result) {                                         \
    result.push_back(cast<TensorType>(operands[0].getType())                   \
                         .clone(IntegerType::get(ctx, 1)));                    \
    return success();                                                          \
  }
ONNX_FLOAT_TEST(IsInfOp)
ONNX_FLOAT_TEST(IsNaNOp)
#undef ONNX_FLOAT_TEST

LogicalResult PReluOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        ValueRange operands, DictionaryAttr,
                                        OpaqueProperties, RegionRange,
                                        SmallVectorImpl<Type> &result) {
  Type x = operands[0].getType();
  Type slope = operands[1].getType();
  // prelu_c1
  if (getElementTypeOrSelf(x) != getElementTypeOrSelf(slope))
    return opError(
        loc, "PRelu", "expects X and slope of one element type (got ",
        getElementTypeOrSelf(x), " and ", getElementTypeOrSelf(slope), ")");
  auto xRanked = dyn_cast<RankedTensorType>(x);
  auto slopeRanked = dyn_cast<RankedTensorType>(slope);
  if (xRanked && slopeRanked) {
    int64_t offset = xRanked.getRank() - slopeRanked.getRank();
    bool broadcasts = offset >= 0;
    for (int64_t i = 0; broadcasts && i < slopeRanked.getRank(); ++i) {
      int64_t s = slopeRanked.getDimSize(i);
      broadcasts = s == 1 || !dimsDiffer(s, xRanked.getDimSize(i + offset));
    }
    // prelu_c2
    if (!broadcasts)
      return opError(loc, "PRelu", "expects slope to broadcast to X (got ",
                     slope, " and ", x, ")");
  }
  result.push_back(x);
  return success();
}

LogicalResult GeluOp::verify() {
  // gelu_c1
  if (getApproximate() != "none" && getApproximate() != "tanh")
    return emitOpError(
               "expects 'approximate' to be \"none\" or \"tanh\" (got \"")
           << getApproximate() << "\")";
  return success();
}

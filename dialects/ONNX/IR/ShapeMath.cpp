//===- ShapeMath.cpp - Result types of the onnx elementwise ops -----------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

LogicalResult onnxc::onnx::detail::inferBroadcastType(std::optional<Location> loc,
                                         StringRef opName, TypeRange types,
                                         Type elementType,
                                         SmallVectorImpl<Type> &result) {
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
#undef ONNX_SAME_ELEMENT_BROADCAST

#define ONNX_COMPARE(OP)                                                       \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,      \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &result) {                                         \
    StringRef name = getOperationName().drop_front(5);                         \
    /* compare_c1 */                                                           \
    if (getElementTypeOrSelf(operands[0]) != getElementTypeOrSelf(operands[1]))\
      return opError(loc, name, "expects operands of one element type (got ", \
                     getElementTypeOrSelf(operands[0]), " and ",               \
                     getElementTypeOrSelf(operands[1]), ")");                  \
    return inferBroadcastType(loc, name, operands.getTypes(),                  \
                              IntegerType::get(ctx, 1), result);               \
  }
ONNX_COMPARE(EqualOp)
ONNX_COMPARE(LessOp)
ONNX_COMPARE(GreaterOp)
#undef ONNX_COMPARE

LogicalResult WhereOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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

LogicalResult ClipOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
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
      return opError(loc, "Clip", "expects min and max of the input's element type (got ",
                     type.getElementType(), " and ", element, ")");
    // clip_c2
    if (type.hasRank() && type.getNumElements() != 1)
      return opError(loc, "Clip", "expects min and max to be scalars (got ", type, ")");
  }
  result.push_back(operands[0].getType());
  return success();
}

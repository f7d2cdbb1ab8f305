//===- ONNXFolds.cpp - Folders of the onnx ops ----------------------------===//
//
// Cheap folds only: identities, and constant evaluation of small tensors
// (the shape arithmetic that exporters emit). Large-tensor folding belongs
// to the constant-folding pass, which caps sizes.
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace onnxc::onnx;

/// Folds produce at most this many elements.
static constexpr int64_t kMaxFoldElements = 1024;

static bool isSmallStatic(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.hasStaticShape() && t.getNumElements() <= kMaxFoldElements;
}

/// `value` (dense) with the static type `type`, for pure shape changes.
static OpFoldResult reshapeConstant(Attribute value, Type type) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(value);
  if (!dense || !isSmallStatic(type))
    return {};
  return reshapeDense(dense, cast<ShapedType>(type));
}

/// Folds a shape-only op: identity when types match, else reshape a constant.
static OpFoldResult foldShapeChange(Value input, Attribute inputValue,
                                    Type resultType) {
  if (input.getType() == resultType &&
      cast<ShapedType>(resultType).hasStaticShape())
    return input;
  return reshapeConstant(inputValue, resultType);
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValueAttr(); }

OpFoldResult IdentityOp::fold(FoldAdaptor) { return getInput(); }

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getData(), adaptor.getData(), getType());
}
OpFoldResult FlattenOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getInput(), adaptor.getInput(), getType());
}
OpFoldResult SqueezeOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getData(), adaptor.getData(), getType());
}
OpFoldResult UnsqueezeOp::fold(FoldAdaptor adaptor) {
  return foldShapeChange(getData(), adaptor.getData(), getType());
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  auto perm = getPerm();
  auto type = cast<ShapedType>(getData().getType());
  if (!perm || !type.hasRank())
    return {};
  for (auto [i, p] : llvm::enumerate(*perm))
    if (p != static_cast<int64_t>(i))
      return {};
  return getData();
}

OpFoldResult ShapeOp::fold(FoldAdaptor) {
  auto type = dyn_cast<RankedTensorType>(getData().getType());
  auto resultType = cast<RankedTensorType>(getType());
  if (!type || !resultType.hasStaticShape())
    return {};
  // I64Attr getters return uint64_t: read the start as signed.
  int64_t start = static_cast<int64_t>(getStart());
  if (start < 0)
    start += type.getRank();
  start = std::max<int64_t>(0, std::min(start, type.getRank()));
  ArrayRef<int64_t> dims =
      type.getShape().slice(start, resultType.getDimSize(0));
  if (llvm::any_of(dims, ShapedType::isDynamic))
    return {};
  return DenseElementsAttr::get(resultType, dims);
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput());
  auto type = cast<ShapedType>(getType());
  if (!dense || !isSmallStatic(type))
    return {};
  Type from = dense.getElementType(), to = type.getElementType();
  // Integer to integer (shape arithmetic): extend by the source's
  // signedness; to bool is "not zero".
  if (isa<IntegerType>(from) && isa<IntegerType>(to) && !from.isInteger(1)) {
    unsigned width = to.getIntOrFloatBitWidth();
    if (to.isInteger(1))
      return dense.mapValues(
          to, [](const APInt &v) { return APInt(1, !v.isZero()); });
    bool isUnsigned = from.isUnsignedInteger();
    return dense.mapValues(to, [&](const APInt &v) {
      return isUnsigned ? v.zextOrTrunc(width) : v.sextOrTrunc(width);
    });
  }
  return {};
}

/// Applies `fn` elementwise to two integer constants of one static shape, or
/// a constant and a splat; nullptr if they do not qualify.
template <typename Fn>
static Attribute foldIntBinary(Attribute lhs, Attribute rhs, Type resultType,
                               Fn fn) {
  auto a = dyn_cast_or_null<DenseIntElementsAttr>(lhs);
  auto b = dyn_cast_or_null<DenseIntElementsAttr>(rhs);
  auto type = cast<ShapedType>(resultType);
  if (!a || !b || !isSmallStatic(type) || a.getElementType().isInteger(1))
    return {};
  if (!(a.isSplat() || a.getType() == type) ||
      !(b.isSplat() || b.getType() == type))
    return {};
  SmallVector<APInt> values;
  auto av = a.getValues<APInt>(), bv = b.getValues<APInt>();
  for (int64_t i = 0, e = type.getNumElements(); i < e; ++i) {
    std::optional<APInt> v =
        fn(a.isSplat() ? av[0] : av[i], b.isSplat() ? bv[0] : bv[i]);
    if (!v)
      return {};
    values.push_back(*v);
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  return foldIntBinary(
      adaptor.getA(), adaptor.getB(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a + b;
      });
}
OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  return foldIntBinary(
      adaptor.getA(), adaptor.getB(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a - b;
      });
}
OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  return foldIntBinary(
      adaptor.getA(), adaptor.getB(), getType(),
      [](const APInt &a, const APInt &b) -> std::optional<APInt> {
        return a * b;
      });
}
OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  // ONNX integer Div truncates toward zero, like APInt::sdiv and udiv.
  bool isUnsigned = getElementTypeOrSelf(getType()).isUnsignedInteger();
  return foldIntBinary(
      adaptor.getA(), adaptor.getB(), getType(),
      [&](const APInt &a, const APInt &b) -> std::optional<APInt> {
        if (b.isZero())
          return std::nullopt;
        return isUnsigned ? a.udiv(b) : a.sdiv(b);
      });
}

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getX());
  if (!dense || !isSmallStatic(getType()))
    return {};
  if (isa<IntegerType>(dense.getElementType()))
    return dense.mapValues(dense.getElementType(),
                           [](const APInt &v) { return -v; });
  return dense.mapValues(dense.getElementType(), [](const APFloat &v) {
    return (-v).bitcastToAPInt();
  });
}

OpFoldResult ConcatOp::fold(FoldAdaptor adaptor) {
  auto type = cast<ShapedType>(getType());
  if (getInputs().size() == 1 && getInputs()[0].getType() == type)
    return getInputs()[0];
  if (!isSmallStatic(type) || type.getRank() != 1)
    return {};
  SmallVector<Attribute> values;
  for (Attribute input : adaptor.getInputs()) {
    auto dense = dyn_cast_or_null<DenseElementsAttr>(input);
    if (!dense)
      return {};
    llvm::append_range(values, dense.getValues<Attribute>());
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult GatherOp::fold(FoldAdaptor adaptor) {
  auto data = dyn_cast_or_null<DenseElementsAttr>(adaptor.getData());
  auto indices = dyn_cast_or_null<DenseIntElementsAttr>(adaptor.getIndices());
  auto type = cast<ShapedType>(getType());
  if (!data || !indices || data.getType().getRank() != 1 ||
      !isSmallStatic(type))
    return {};
  int64_t size = data.getNumElements();
  auto all = data.getValues<Attribute>();
  SmallVector<Attribute> values;
  for (const APInt &index : indices.getValues<APInt>()) {
    int64_t i = index.getSExtValue();
    if (i < 0)
      i += size;
    if (i < 0 || i >= size)
      return {};
    values.push_back(all[i]);
  }
  return DenseElementsAttr::get(type, values);
}

OpFoldResult ConstantOfShapeOp::fold(FoldAdaptor) {
  auto type = cast<ShapedType>(getType());
  if (!isSmallStatic(type))
    return {};
  if (auto value = dyn_cast_or_null<DenseElementsAttr>(getValueAttr()))
    return DenseElementsAttr::get(type, value.getValues<Attribute>()[0]);
  if (getValueAttr())
    return {};
  return DenseElementsAttr::get(type,
                                FloatAttr::get(type.getElementType(), 0.0));
}

OpFoldResult SizeOp::fold(FoldAdaptor) {
  auto type = dyn_cast<RankedTensorType>(getData().getType());
  if (!type || !type.hasStaticShape())
    return {};
  return DenseElementsAttr::get(cast<ShapedType>(getType()),
                                ArrayRef<int64_t>(type.getNumElements()));
}

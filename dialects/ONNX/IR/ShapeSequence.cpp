//===- ShapeSequence.cpp - Result types of the ops of ops/Sequence.td -----===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static constexpr int64_t kDyn = ShapedType::kDynamic;

/// The element type of the sequence `type`, or null.
static Type elementOf(Type type) {
  auto seq = dyn_cast<SeqType>(type);
  return seq ? seq.getElementType() : Type();
}

LogicalResult SequenceEmptyOp::verify() {
  auto element = dyn_cast<TensorType>(
      cast<SeqType>(getOutput().getType()).getElementType());
  int64_t dtype = getDtype().value_or(1);
  Type expected = getValueElementType(getContext(), dtype);
  // sequenceempty_c1
  if (!element || !expected || element.getElementType() != expected)
    return emitOpError() << "has 'dtype' " << dtype << " but its result is a "
                         << getOutput().getType();
  return success();
}

LogicalResult SequenceConstructOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr, OpaqueProperties, RegionRange,
    SmallVectorImpl<Type> &result) {
  // sequenceconstruct_c1
  if (operands.empty())
    return opError(loc, "SequenceConstruct", "expects at least one input");
  Type joined = operands.front().getType();
  for (Value operand : operands.drop_front()) {
    joined = joinTypes(joined, operand.getType());
    // sequenceconstruct_c2
    if (!joined)
      return opError(loc, "SequenceConstruct",
                     "expects inputs of one element type");
  }
  result.push_back(SeqType::get(ctx, joined));
  return success();
}

LogicalResult SequenceInsertOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type element = elementOf(op.getInputSequence().getType());
  Type tensor = op.getTensor().getType();
  // An empty sequence just made takes the tensor's type.
  Type joined = op.getInputSequence().getDefiningOp<SequenceEmptyOp>()
                    ? tensor
                    : joinTypes(element, tensor);
  // sequenceinsert_c1
  if (!joined)
    return opError(loc, "SequenceInsert", "expects a tensor of ", element,
                   "'s element type (got ", tensor, ")");
  result.push_back(SeqType::get(ctx, joined));
  return success();
}

LogicalResult
SequenceAtOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                               ValueRange operands, DictionaryAttr attrs,
                               OpaqueProperties props, RegionRange regions,
                               SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto element =
      dyn_cast<TensorType>(elementOf(op.getInputSequence().getType()));
  // sequenceat_c1
  if (!element)
    return opError(loc, "SequenceAt", "expects a sequence of tensors");
  result.push_back(element);
  return success();
}

LogicalResult
SequenceEraseOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                  ValueRange operands, DictionaryAttr attrs,
                                  OpaqueProperties props, RegionRange regions,
                                  SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  result.push_back(op.getInputSequence().getType());
  return success();
}

LogicalResult
SequenceLengthOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location>,
                                   ValueRange, DictionaryAttr, OpaqueProperties,
                                   RegionRange, SmallVectorImpl<Type> &result) {
  result.push_back(RankedTensorType::get({}, IntegerType::get(ctx, 64)));
  return success();
}

LogicalResult SplitToSequenceOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto input = dyn_cast<RankedTensorType>(op.getInput().getType());
  Type elementType = getElementTypeOrSelf(op.getInput().getType());
  if (!input) {
    result.push_back(SeqType::get(ctx, UnrankedTensorType::get(elementType)));
    return success();
  }
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), input.getRank());
  // splittosequence_c1
  if (!axis)
    return opError(loc, "SplitToSequence", "expects an 'axis' in [-",
                   input.getRank(), ", ", input.getRank(), ") (got ",
                   op.getAxis(), ")");
  auto split = dyn_cast<RankedTensorType>(op.getSplit().getType());
  // splittosequence_c2
  if (split && split.getRank() > 1)
    return opError(loc, "SplitToSequence",
                   "expects a scalar or 1-D 'split' (got ", split, ")");
  SmallVector<int64_t> dims(input.getShape());
  if (isNoValue(op.getSplit()) && op.getKeepdims() == 0)
    dims.erase(dims.begin() + *axis);
  else
    dims[*axis] = isNoValue(op.getSplit()) ? 1 : kDyn;
  result.push_back(SeqType::get(ctx, RankedTensorType::get(dims, elementType)));
  return success();
}

LogicalResult ConcatFromSequenceOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  auto element =
      dyn_cast<TensorType>(elementOf(op.getInputSequence().getType()));
  // concatfromsequence_c1
  if (!element)
    return opError(loc, "ConcatFromSequence", "expects a sequence of tensors");
  auto ranked = dyn_cast<RankedTensorType>(element);
  if (!ranked) {
    result.push_back(element);
    return success();
  }
  bool newAxis = op.getNewAxis() != 0;
  int64_t rank = ranked.getRank() + (newAxis ? 1 : 0);
  std::optional<int64_t> axis = normalizeAxis(op.getAxis(), rank);
  // concatfromsequence_c2
  if (!axis)
    return opError(loc, "ConcatFromSequence", "expects an 'axis' in [-", rank,
                   ", ", rank, ") (got ", op.getAxis(), ")");
  SmallVector<int64_t> dims(ranked.getShape());
  if (newAxis)
    dims.insert(dims.begin() + *axis, kDyn);
  else
    dims[*axis] = kDyn;
  result.push_back(RankedTensorType::get(dims, ranked.getElementType()));
  return success();
}

LogicalResult OptionalOp::verify() {
  Type element = cast<OptType>(getOutput().getType()).getElementType();
  // optional_c1
  if (!isNoValue(getInput()) &&
      !areCompatibleTypes(getInput().getType(), element))
    return emitOpError() << "holds a " << getInput().getType() << " in a "
                         << getOutput().getType();
  return success();
}

LogicalResult OptionalHasElementOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location>, ValueRange, DictionaryAttr,
    OpaqueProperties, RegionRange, SmallVectorImpl<Type> &result) {
  result.push_back(RankedTensorType::get({}, IntegerType::get(ctx, 1)));
  return success();
}

LogicalResult OptionalGetElementOp::inferReturnTypes(
    MLIRContext *, std::optional<Location>, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  Type type = op.getInput().getType();
  if (auto opt = dyn_cast<OptType>(type))
    type = opt.getElementType();
  result.push_back(type);
  return success();
}

LogicalResult
ZipMapOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                           ValueRange operands, DictionaryAttr attrs,
                           OpaqueProperties props, RegionRange regions,
                           SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  std::optional<ArrayRef<int64_t>> ints = op.getClasslabelsInt64s();
  std::optional<ArrayAttr> strings = op.getClasslabelsStrings();
  // zipmap_c1
  if (ints.has_value() == strings.has_value())
    return opError(loc, "ZipMap",
                   "expects exactly one of 'classlabels_int64s' and "
                   "'classlabels_strings'");
  int64_t count = ints ? static_cast<int64_t>(ints->size())
                       : static_cast<int64_t>(strings->size());
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  // zipmap_c2
  if (x && (x.getRank() < 1 || x.getRank() > 2 ||
            dimsDiffer(x.getShape().back(), count)))
    return opError(loc, "ZipMap", "expects X of shape [N, ", count, "] or [",
                   count, "] (got ", x, ")");
  Type key =
      ints ? Type(IntegerType::get(ctx, 64)) : Type(StringType::get(ctx));
  result.push_back(
      SeqType::get(ctx, MapType::get(ctx, key, Float32Type::get(ctx))));
  return success();
}

LogicalResult DictVectorizerOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  std::optional<ArrayRef<int64_t>> ints = op.getInt64Vocabulary();
  std::optional<ArrayAttr> strings = op.getStringVocabulary();
  // dictvectorizer_c1
  if (ints.has_value() == strings.has_value())
    return opError(loc, "DictVectorizer",
                   "expects exactly one of 'int64_vocabulary' and "
                   "'string_vocabulary'");
  Type type = op.getX().getType();
  int64_t rows = 1;
  if (auto seq = dyn_cast<SeqType>(type)) {
    type = seq.getElementType();
    rows = kDyn;
  }
  auto map = dyn_cast<MapType>(type);
  // dictvectorizer_c2
  if (!map || isa<StringType>(map.getKeyType()) != strings.has_value() ||
      (ints && !map.getKeyType().isInteger(64)))
    return opError(loc, "DictVectorizer", "expects a map with ",
                   strings ? "string" : "int64",
                   " keys, or a sequence of them (got ", op.getX().getType(),
                   ")");
  int64_t size = ints ? static_cast<int64_t>(ints->size())
                      : static_cast<int64_t>(strings->size());
  result.push_back(RankedTensorType::get({rows, size}, map.getValueType()));
  return success();
}

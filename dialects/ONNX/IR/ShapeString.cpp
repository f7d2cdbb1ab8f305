//===- ShapeString.cpp - Result types of the onnx ops of ops/String.td ----===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include <re2/re2.h>

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

static constexpr int64_t kDyn = ShapedType::kDynamic;

LogicalResult StringConcatOp::inferReturnTypes(MLIRContext *ctx,
                                               std::optional<Location> loc,
                                               ValueRange operands,
                                               DictionaryAttr, OpaqueProperties,
                                               RegionRange,
                                               SmallVectorImpl<Type> &result) {
  return inferBroadcastType(loc, "StringConcat", operands.getTypes(),
                            StringType::get(ctx), result);
}

LogicalResult
StringSplitOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                                ValueRange operands, DictionaryAttr attrs,
                                OpaqueProperties props, RegionRange regions,
                                SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // stringsplit_c1
  if (std::optional<int64_t> maxsplit = op.getMaxsplit();
      maxsplit && *maxsplit < 0)
    return opError(loc, "StringSplit",
                   "expects a 'maxsplit' of 0 or more (got ", *maxsplit, ")");
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  Type string = StringType::get(ctx), i64 = IntegerType::get(ctx, 64);
  if (!x) {
    result.push_back(UnrankedTensorType::get(string));
    result.push_back(UnrankedTensorType::get(i64));
    return success();
  }
  SmallVector<int64_t> shape(x.getShape());
  result.push_back(RankedTensorType::get(shape, i64));
  // No string, no parts: the new dim is 0.
  shape.push_back(x.hasStaticShape() && x.getNumElements() == 0 ? 0 : kDyn);
  result.insert(result.begin(), RankedTensorType::get(shape, string));
  return success();
}

LogicalResult StringNormalizerOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  StringRef action = op.getCaseChangeAction();
  // stringnormalizer_c1
  if (action != "UPPER" && action != "LOWER" && action != "NONE")
    return opError(loc, "StringNormalizer",
                   "expects a 'case_change_action' of UPPER, LOWER or NONE "
                   "(got '",
                   action, "')");
  Type string = StringType::get(ctx);
  auto x = dyn_cast<RankedTensorType>(op.getX().getType());
  if (!x) {
    result.push_back(UnrankedTensorType::get(string));
    return success();
  }
  // stringnormalizer_c2
  if (x.getRank() == 0 || x.getRank() > 2 ||
      (x.getRank() == 2 && !x.isDynamicDim(0) && x.getDimSize(0) != 1))
    return opError(loc, "StringNormalizer",
                   "expects X of shape [C] or [1, C] (got ", x, ")");
  result.push_back(RankedTensorType::get(x.getRank() == 1
                                             ? SmallVector<int64_t>{kDyn}
                                             : SmallVector<int64_t>{1, kDyn},
                                         string));
  return success();
}

LogicalResult RegexFullMatchOp::inferReturnTypes(
    MLIRContext *ctx, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attrs, OpaqueProperties props, RegionRange regions,
    SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // regexfullmatch_c1: RE2 syntax.
  RE2::Options options;
  options.set_log_errors(false);
  RE2 regex(op.getPattern().str(), options);
  if (!regex.ok())
    return opError(loc, "RegexFullMatch",
                   "expects a 'pattern' in RE2 syntax ('", op.getPattern(),
                   "': ", regex.error(), ")");
  Type i1 = IntegerType::get(ctx, 1);
  if (auto x = dyn_cast<RankedTensorType>(op.getX().getType()))
    result.push_back(RankedTensorType::get(x.getShape(), i1));
  else
    result.push_back(UnrankedTensorType::get(i1));
  return success();
}

//===- OpExpansions.cpp - Ops imported as their ONNX function bodies ------===//
//
// Newer ONNX ops that ONNX itself defines as a function of older ones
// (RMSNormalization-23 ...) import as those ops, built here the way ONNX's
// function body builds them (onnx/defs, SetContextDependentFunctionBodyBuilder),
// so that every later stage, and the exporter at an older opset, sees only
// ops it knows. Attributes are read, checked and resolved at import; the
// rank of the input must be known where the body depends on it.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/FrontendInternal.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace onnxc::frontend {

namespace {
/// Builds the ops of an expansion at the node's location; the first failure
/// is kept in `error` and every later step is skipped (`ok()` tells).
class Expansion {
public:
  Expansion(NodeContext &node, std::string &error)
      : node(node), error(error), b(node.builder) {}

  bool ok() const { return !failedOnce; }

  /// onnx.<name>(operands) {attrs}; null after a failure.
  Value op(StringRef name, ValueRange operands,
           ArrayRef<NamedAttribute> attrs = {}) {
    if (failedOnce)
      return {};
    FailureOr<Value> value = node.emit(name, operands, attrs, error);
    if (failed(value)) {
      error = (name + ": " + error).str();
      failedOnce = true;
      return {};
    }
    return *value;
  }

  NamedAttribute attr(StringRef name, int64_t value) {
    return b.getNamedAttr(name, b.getI64IntegerAttr(value));
  }

  /// onnx.Cast of `value` to the ONNX data type `to`, or `value` itself
  /// when it has that type already.
  Value castTo(Value value, int64_t to) {
    if (failedOnce ||
        onnx::getONNXDType(getElementTypeOrSelf(value.getType())) == to)
      return value;
    return op("Cast", value, {attr("to", to)});
  }

  /// A 0-D constant of the float type `element`.
  Value scalar(Type element, double value) {
    auto type = RankedTensorType::get({}, element);
    return b.create<onnx::ConstantOp>(
        node.constantLoc(),
        cast<ElementsAttr>(
            DenseElementsAttr::get(type, FloatAttr::get(element, value))));
  }

private:
  NodeContext &node;
  std::string &error;
  OpBuilder &b;
  bool failedOnce = false;
};

/// The INT attribute `name` of the node, or `fallback`.
std::optional<int64_t> intAttr(NodeContext &node, StringRef name,
                               int64_t fallback, std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr)
    return fallback;
  if (auto i = dyn_cast<IntegerAttr>(*attr))
    return i.getInt();
  error = "expects attribute '" + name.str() + "' to be an int";
  return std::nullopt;
}

/// The FLOAT attribute `name` of the node, or `fallback`.
std::optional<double> floatAttr(NodeContext &node, StringRef name,
                                double fallback, std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr)
    return fallback;
  if (auto f = dyn_cast<FloatAttr>(*attr))
    return f.getValueAsDouble();
  error = "expects attribute '" + name.str() + "' to be a float";
  return std::nullopt;
}

/// Fails with a message naming the attributes the node has that the
/// expansion did not read.
LogicalResult checkNoOtherAttributes(NodeContext &node, std::string &error) {
  if (node.attributes.empty())
    return success();
  error = "has unsupported attribute '" +
          node.attributes.front().getName().str() + "'";
  return failure();
}

/// The element type of the float ONNX data type `dtype` (float, double,
/// float16, bfloat16), or null.
Type floatTypeOf(MLIRContext *ctx, int64_t dtype) {
  Type type = onnx::getElementType(ctx, dtype);
  return isa_and_nonnull<FloatType>(type) ? type : Type();
}
} // namespace

/// RMSNormalization-23: Y = Cast(XU / Sqrt(ReduceMean(XU * XU, axes) + eps),
/// T) * scale, with XU = X cast to `stash_type` (float by default) and the
/// mean over the dims from `axis` on.
FailureOr<SmallVector<Value>> importRMSNormalization(NodeContext &node,
                                                     std::string &error) {
  std::optional<int64_t> axis = intAttr(node, "axis", -1, error);
  std::optional<double> epsilon = floatAttr(node, "epsilon", 1e-5, error);
  std::optional<int64_t> stashType =
      intAttr(node, "stash_type", ::onnx::TensorProto::FLOAT, error);
  if (!axis || !epsilon || !stashType ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0], scale = node.inputs[1];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || isa<NoneType>(scale.getType())) {
    error = xType ? "lacks its scale input"
                  : "needs an input X of known rank";
    return failure();
  }
  std::optional<int64_t> xDType = onnx::getONNXDType(xType.getElementType());
  Type stash = floatTypeOf(node.builder.getContext(), *stashType);
  if (!stash || !xDType) {
    error = "has unsupported stash_type " + std::to_string(*stashType);
    return failure();
  }
  std::optional<int64_t> first = onnx::normalizeAxis(*axis, xType.getRank());
  if (!first) {
    error = "has 'axis' " + std::to_string(*axis) + " out of range for rank " +
            std::to_string(xType.getRank());
    return failure();
  }
  Expansion e(node, error);
  Value xu = e.castTo(x, *stashType);
  Value squared = e.op("Mul", {xu, xu});
  Value axes =
      node.i64Constant(llvm::to_vector(llvm::seq<int64_t>(*first,
                                                          xType.getRank())));
  Value mean = e.op("ReduceMean", {squared, axes}, {e.attr("keepdims", 1)});
  Value rms = e.op("Sqrt", e.op("Add", {mean, e.scalar(stash, *epsilon)}));
  Value normalized = e.castTo(e.op("Div", {xu, rms}), *xDType);
  Value y = e.op("Mul", {normalized, scale});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

} // namespace onnxc::frontend

//===- OpImporters.cpp - Per-(op, opset) importers of ONNX nodes ----------===//
//
// Most ops import generically: the node's attributes map one to one onto the
// op's. An entry here is keyed by (op type, since-opset); an older form whose
// attributes later became inputs (Squeeze's axes, Clip's bounds, Slice's
// starts/ends, the reductions' axes) has its own small converter, so a new
// opset is one added line.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/FrontendInternal.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;

namespace onnxc::frontend {

Value NodeContext::noValue() {
  return builder.create<onnx::NoValueOp>(loc, builder.getNoneType());
}

Location NodeContext::constantLoc() {
  auto name = cast<NameLoc>(loc);
  return NameLoc::get(
      StringAttr::get(builder.getContext(), name.getName().str() + "_const"),
      name.getChildLoc());
}

Value NodeContext::i64Constant(ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder.getI64Type());
  return builder.create<onnx::ConstantOp>(
      constantLoc(), cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
}

std::optional<Attribute> NodeContext::takeAttribute(StringRef name) {
  for (auto *it = attributes.begin(); it != attributes.end(); ++it) {
    if (it->getName() == name) {
      Attribute value = it->getValue();
      attributes.erase(it);
      return value;
    }
  }
  return std::nullopt;
}

/// The number of results every op of `info` has, if fixed.
static std::optional<unsigned> fixedResultCount(RegisteredOperationName info) {
  if (info.hasTrait<OpTrait::ZeroResults>())
    return 0;
  if (info.hasTrait<OpTrait::OneResult>())
    return 1;
  if (info.hasTrait<OpTrait::NResults<2>::Impl>())
    return 2;
  if (info.hasTrait<OpTrait::NResults<3>::Impl>())
    return 3;
  return std::nullopt;
}

LogicalResult NodeContext::checkAgainstDefinition(RegisteredOperationName info,
                                                  std::string &error) {
  // Result type inference takes the operand count, the operands' kinds (a
  // tensor where one is required) and the attributes' kinds for granted, as
  // the op's verifier has checked them on any op that exists. Verify a trial
  // op first whose results are `none`, which no onnx op produces: when
  // verification gets as far as the first result, the rest is as the op's
  // definition says.
  std::optional<unsigned> numResults = fixedResultCount(info);
  if (!numResults) {
    error = "has no fixed number of results";
    return failure();
  }
  MLIRContext *ctx = builder.getContext();
  OperationState state(loc, info);
  state.addOperands(inputs);
  state.addAttributes(attributes);
  state.addTypes(SmallVector<Type>(*numResults, builder.getNoneType()));
  Operation *trial = Operation::create(state);
  std::string message;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (message.empty())
        message = diag.str();
      return success();
    });
    (void)verify(trial, /*verifyRecursively=*/false);
  }
  trial->destroy();
  std::string reachedResults =
      "'" + info.getStringRef().str() + "' op result #0 must be";
  if (*numResults != 0 && StringRef(message).starts_with(reachedResults))
    return success();
  if (*numResults == 0 && message.empty())
    return success();
  error = message.empty() ? "does not match the op's definition" : message;
  return failure();
}

FailureOr<SmallVector<Value>> NodeContext::buildGeneric(StringRef opName,
                                                        std::string &error) {
  MLIRContext *ctx = builder.getContext();
  std::string fullName = ("onnx." + opName).str();
  std::optional<RegisteredOperationName> info =
      RegisteredOperationName::lookup(fullName, ctx);
  if (!info) {
    error = "has no onnx dialect op";
    return failure();
  }
  ArrayRef<StringAttr> known = info->getAttributeNames();
  for (NamedAttribute attr : attributes) {
    if (!llvm::is_contained(known, attr.getName())) {
      error = "has unsupported attribute '" + attr.getName().str() + "'";
      return failure();
    }
  }
  // Inference reads attributes through adaptors, which expect the defaults
  // of default-valued attributes to be present.
  NamedAttrList withDefaults(attributes);
  info->populateDefaultAttrs(withDefaults);
  attributes.assign(withDefaults.begin(), withDefaults.end());
  auto dict = withDefaults.getDictionary(ctx);
  SmallVector<Type> resultTypes;
  auto *inferType = info->getInterface<InferTypeOpInterface>();
  if (!inferType) {
    error = "has no result type inference";
    return failure();
  }
  if (failed(checkAgainstDefinition(*info, error)))
    return failure();
  // Diagnostics of the inference name the op; collect them for our message.
  std::string diagnostic;
  {
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (diagnostic.empty())
        diagnostic = diag.str();
      return success();
    });
    if (failed(inferType->inferReturnTypes(ctx, loc, inputs, dict,
                                           OpaqueProperties(nullptr), {},
                                           resultTypes))) {
      error = diagnostic.empty() ? "has operands the op does not accept"
                                 : diagnostic;
      return failure();
    }
  }
  OperationState state(loc, *info);
  state.addOperands(inputs);
  state.addAttributes(attributes);
  state.addTypes(resultTypes);
  Operation *op = builder.create(state);
  {
    std::string verifyMessage;
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      if (verifyMessage.empty())
        verifyMessage = diag.str();
      return success();
    });
    if (failed(verify(op))) {
      error = verifyMessage;
      op->erase();
      return failure();
    }
  }
  return SmallVector<Value>(op->getResults());
}

/// The generic importer: the node as the op of the same name.
static FailureOr<SmallVector<Value>> importGeneric(NodeContext &node,
                                                   std::string &error) {
  return node.buildGeneric(node.node.op_type(), error);
}

/// Fails unless the node has a data input (an older form's attributes are
/// about to become its further inputs).
static LogicalResult checkDataInput(NodeContext &node, std::string &error) {
  if (node.inputs.empty() || isa<NoneType>(node.inputs[0].getType())) {
    error = "lacks its data input";
    return failure();
  }
  node.inputs.resize(1);
  return success();
}

/// Attribute `name` of kind `AttrT`; fails with `error` on another kind.
template <typename AttrT>
static FailureOr<std::optional<AttrT>>
takeAttributeOf(NodeContext &node, StringRef name, StringRef kind,
                std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr)
    return std::optional<AttrT>();
  if (auto typed = dyn_cast<AttrT>(*attr))
    return std::optional<AttrT>(typed);
  error = "has attribute '" + name.str() + "' that is not " + kind.str();
  return failure();
}

/// Moves the INTS attribute `name` to a new trailing input (or `none`).
static LogicalResult attributeToInput(NodeContext &node, StringRef name,
                                      std::string &error) {
  auto attr = takeAttributeOf<DenseI64ArrayAttr>(node, name, "ints", error);
  if (failed(attr))
    return failure();
  node.inputs.push_back(*attr ? node.i64Constant((**attr).asArrayRef())
                              : node.noValue());
  return success();
}

/// Squeeze/Unsqueeze (opsets 1-12), ReduceX before axes became an input.
static FailureOr<SmallVector<Value>> importAxesAttribute(NodeContext &node,
                                                         std::string &error) {
  if (failed(checkDataInput(node, error)) ||
      failed(attributeToInput(node, "axes", error)))
    return failure();
  return importGeneric(node, error);
}

/// Slice (opsets 1-9): starts, ends, axes attributes.
static FailureOr<SmallVector<Value>> importSliceV1(NodeContext &node,
                                                   std::string &error) {
  if (failed(checkDataInput(node, error)))
    return failure();
  for (StringRef name : {"starts", "ends"}) {
    auto attr = takeAttributeOf<DenseI64ArrayAttr>(node, name, "ints", error);
    if (failed(attr))
      return failure();
    if (!*attr) {
      error = "lacks the required attribute '" + name.str() + "'";
      return failure();
    }
    node.inputs.push_back(node.i64Constant((**attr).asArrayRef()));
  }
  if (failed(attributeToInput(node, "axes", error)))
    return failure();
  node.inputs.push_back(node.noValue());
  return importGeneric(node, error);
}

/// Clip (opset 6-10): float min/max attributes.
static FailureOr<SmallVector<Value>> importClipV6(NodeContext &node,
                                                  std::string &error) {
  if (failed(checkDataInput(node, error)))
    return failure();
  Type element = getElementTypeOrSelf(node.inputs[0]);
  if (!isa<FloatType>(element)) {
    error = "needs a floating-point input at opsets before 11 (got " +
            llvm::formatv("{0}", node.inputs[0].getType()).str() + ")";
    return failure();
  }
  for (StringRef name : {"min", "max"}) {
    auto attr = takeAttributeOf<FloatAttr>(node, name, "a float", error);
    if (failed(attr))
      return failure();
    if (!*attr) {
      node.inputs.push_back(node.noValue());
      continue;
    }
    double v = (**attr).getValueAsDouble();
    auto type = RankedTensorType::get({}, element);
    node.inputs.push_back(node.builder.create<onnx::ConstantOp>(
        node.constantLoc(), cast<ElementsAttr>(DenseElementsAttr::get(
                      type, FloatAttr::get(element, v)))));
  }
  return importGeneric(node, error);
}

/// Attributes of older opsets that carry nothing at inference: dropped.
static OpImportFn dropping(std::initializer_list<StringRef> names) {
  SmallVector<std::string> owned(names.begin(), names.end());
  return [owned](NodeContext &node, std::string &error) {
    for (const std::string &name : owned)
      node.takeAttribute(name);
    return importGeneric(node, error);
  };
}

/// Softmax (opsets 1-12) flattens to 2-D at `axis` (default 1), normalizes
/// each row, and restores the shape.
static FailureOr<SmallVector<Value>> importSoftmaxV1(NodeContext &node,
                                                     std::string &error) {
  auto axisAttr = takeAttributeOf<IntegerAttr>(node, "axis", "an int", error);
  if (failed(axisAttr) || failed(checkDataInput(node, error)))
    return failure();
  int64_t axis = *axisAttr ? (**axisAttr).getInt() : 1;
  Value input = node.inputs[0];
  auto type = dyn_cast<RankedTensorType>(input.getType());
  if (!type) {
    error = "needs a ranked input at opsets before 13";
    return failure();
  }
  std::optional<int64_t> normalized = onnx::normalizeAxis(axis, type.getRank());
  if (!normalized && !(axis == 0 && type.getRank() == 0)) {
    error = "has axis " + std::to_string(axis) + " outside [-" +
            std::to_string(type.getRank()) + ", " +
            std::to_string(type.getRank()) + ")";
    return failure();
  }
  axis = normalized.value_or(0);
  OpBuilder &b = node.builder;
  auto i64 = [&](int64_t v) { return b.getI64IntegerAttr(v); };
  if (axis == type.getRank() - 1) {
    node.attributes.push_back(b.getNamedAttr("axis", i64(-1)));
    return importGeneric(node, error);
  }
  Value flat = b.create<onnx::FlattenOp>(node.loc, input, i64(axis));
  Value soft = b.create<onnx::SoftmaxOp>(node.loc, flat, i64(-1));
  Value shape = b.create<onnx::ShapeOp>(node.loc, input, IntegerAttr(), i64(0));
  Value result =
      b.create<onnx::ReshapeOp>(node.loc, type, soft, shape, i64(0));
  return SmallVector<Value>{result};
}

/// Constant: the value_* forms become `value`.
static FailureOr<SmallVector<Value>> importConstant(NodeContext &node,
                                                    std::string &error) {
  OpBuilder &b = node.builder;
  if (node.attributes.size() != 1) {
    error = "expects exactly one value attribute";
    return failure();
  }
  NamedAttribute attr = node.attributes.front();
  StringRef name = attr.getName();
  ElementsAttr value;
  auto make = [&](Type element, ArrayRef<int64_t> shape, auto values) {
    return cast<ElementsAttr>(
        DenseElementsAttr::get(RankedTensorType::get(shape, element), values));
  };
  Attribute raw = attr.getValue();
  auto wrongKind = [&](StringRef kind) {
    error = "has attribute '" + name.str() + "' that is not " + kind.str();
    return failure();
  };
  if (name == "value") {
    value = dyn_cast<ElementsAttr>(raw);
    if (!value)
      return wrongKind("a tensor");
  } else if (name == "value_float") {
    auto f = dyn_cast<FloatAttr>(raw);
    if (!f)
      return wrongKind("a float");
    value = make(b.getF32Type(), {},
                 ArrayRef<float>(static_cast<float>(f.getValueAsDouble())));
  } else if (name == "value_int") {
    auto i = dyn_cast<IntegerAttr>(raw);
    if (!i)
      return wrongKind("an int");
    value = make(b.getI64Type(), {}, ArrayRef<int64_t>(i.getInt()));
  } else if (name == "value_floats") {
    auto floats = dyn_cast<DenseF32ArrayAttr>(raw);
    if (!floats)
      return wrongKind("floats");
    ArrayRef<float> v = floats.asArrayRef();
    value = make(b.getF32Type(), {static_cast<int64_t>(v.size())}, v);
  } else if (name == "value_ints") {
    auto ints = dyn_cast<DenseI64ArrayAttr>(raw);
    if (!ints)
      return wrongKind("ints");
    ArrayRef<int64_t> v = ints.asArrayRef();
    value = make(b.getI64Type(), {static_cast<int64_t>(v.size())}, v);
  } else {
    error = "has unsupported attribute '" + name.str() + "'";
    return failure();
  }
  return SmallVector<Value>{b.create<onnx::ConstantOp>(node.loc, value)};
}

namespace {
struct Registry {
  llvm::StringMap<SmallVector<OpImporter, 2>> ops;

  void add(StringRef op, int64_t since, unsigned numInputs = 0,
           OpImportFn fn = importGeneric) {
    ops[op].push_back({since, numInputs, std::move(fn)});
  }

  Registry() {
    // Elementwise.
    for (StringRef op : {"Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less",
                         "Greater", "Where", "Sqrt", "Exp", "Log", "Tanh",
                         "Sigmoid", "Relu", "Erf", "Neg", "Abs", "Reciprocal",
                         "LeakyRelu"})
      add(op, 1);
    add("Clip", 6, 3, importClipV6);
    add("Clip", 11, 3);
    // Neural network.
    add("MatMul", 1);
    add("Gemm", 1, 3);
    add("Conv", 1, 3);
    add("MaxPool", 1);
    add("AveragePool", 1);
    add("GlobalAveragePool", 1);
    add("BatchNormalization", 7, 5, dropping({"spatial"}));
    add("BatchNormalization", 9, 5);
    add("Softmax", 1, 1, importSoftmaxV1);
    add("Softmax", 13, 1);
    add("LayerNormalization", 17, 3);
    add("Dropout", 7, 3, dropping({"ratio"}));
    add("Dropout", 12, 3);
    // Tensors and shapes.
    add("Constant", 1, 0, importConstant);
    add("Identity", 1);
    add("Cast", 6);
    add("Shape", 1);
    add("Reshape", 5);
    add("Flatten", 1);
    add("Transpose", 1);
    add("Concat", 4);
    add("Slice", 1, 1, importSliceV1);
    add("Slice", 10, 5);
    add("Gather", 1);
    add("Squeeze", 1, 1, importAxesAttribute);
    add("Squeeze", 13, 2);
    add("Unsqueeze", 1, 1, importAxesAttribute);
    add("Unsqueeze", 13, 2);
    add("Expand", 8);
    add("ConstantOfShape", 9);
    add("ReduceSum", 1, 1, importAxesAttribute);
    add("ReduceSum", 13, 2);
    for (StringRef op : {"ReduceMean", "ReduceMax"}) {
      add(op, 1, 1, importAxesAttribute);
      add(op, 18, 2);
    }
  }
};
} // namespace

const OpImporter *lookupOpImporter(StringRef opType, int64_t opset, bool &known) {
  static const Registry registry;
  auto it = registry.ops.find(opType);
  known = it != registry.ops.end();
  if (!known)
    return nullptr;
  const OpImporter *best = nullptr;
  for (const OpImporter &entry : it->second)
    if (entry.sinceOpset <= opset &&
        (!best || entry.sinceOpset > best->sinceOpset))
      best = &entry;
  return best;
}

} // namespace onnxc::frontend

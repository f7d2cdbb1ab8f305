//===- OpImporters.cpp - Per-(op, opset) importers of ONNX nodes ----------===//
//
// Most ops import generically: the node's attributes map one to one onto the
// op's. An entry here is keyed by (op type, since-opset); an older form whose
// attributes later became inputs (Squeeze's axes, Clip's bounds, Slice's
// starts/ends, the reductions' axes) has its own small converter, so a new
// opset is one added line.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/Expansion.h"
#include "lib/Frontend/Frontend.h"
#include "lib/Frontend/FrontendInternal.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <limits>

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

/// The kind of ONNX attribute that the importer makes `attr` of ("INT",
/// "FLOATS"...).
static StringRef getONNXKind(Attribute attr) {
  return TypeSwitch<Attribute, StringRef>(attr)
      .Case([](IntegerAttr) { return "INT"; })
      .Case([](FloatAttr) { return "FLOAT"; })
      .Case([](StringAttr) { return "STRING"; })
      .Case([](DenseI64ArrayAttr) { return "INTS"; })
      .Case([](DenseF32ArrayAttr) { return "FLOATS"; })
      .Case([](ArrayAttr) { return "STRINGS"; })
      .Case([](ElementsAttr) { return "TENSOR"; })
      .Default([](Attribute) { return "an unknown kind"; });
}

/// The message of attribute `name` holding `attr` where `kind` ("an int")
/// is expected.
static std::string wrongKindMessage(StringRef name, StringRef kind,
                                    Attribute attr) {
  return ("attribute '" + name + "' must be " + kind + ", got " +
          getONNXKind(attr))
      .str();
}

/// The first complaint of the verifier about `op` (and the ops in its
/// regions if `recursive`), or "" when it has none.
static std::string getFirstComplaint(Operation *op, bool recursive) {
  std::string message;
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
    if (message.empty())
      message = diag.str();
    return success();
  });
  (void)verify(op, recursive);
  return message;
}

/// The attribute that `message`, a complaint of the verifier, says fails
/// its constraint in the op's definition (ODS: "attribute 'NAME' failed to
/// satisfy constraint: ..."), or "".
static StringRef getFailingAttribute(StringRef message) {
  auto [before, after] = message.split("attribute '");
  auto [name, rest] = after.split('\'');
  if (after.empty() || !rest.starts_with(" failed to satisfy constraint"))
    return "";
  return name;
}

/// `message`, a complaint of the verifier about `op`, or when it is that an
/// attribute fails its constraint by having another kind than the op's
/// definition declares, "attribute 'mode' must be a string, got INT". The
/// kind declared is the one of which the verifier accepts a sample value in
/// the attribute's place.
static std::string explainAttributeKind(Operation *op,
                                        const std::string &message) {
  std::string name = getFailingAttribute(message).str();
  Attribute given = name.empty() ? Attribute() : op->getAttr(name);
  if (!given)
    return message;
  Builder b(op->getContext());
  std::pair<StringRef, Attribute> samples[] = {
      {"an int", b.getI64IntegerAttr(0)},
      {"a float", b.getF32FloatAttr(0)},
      {"a string", b.getStringAttr("")},
      {"ints", b.getDenseI64ArrayAttr({})},
      {"floats", b.getDenseF32ArrayAttr({})},
      {"strings", b.getStrArrayAttr({})},
      {"a tensor", DenseElementsAttr::get(
                       RankedTensorType::get({}, b.getF32Type()), 0.0f)}};
  std::string explained = message;
  for (auto [kind, sample] : samples) {
    if (getONNXKind(sample) == getONNXKind(given))
      continue;
    op->setAttr(name, sample);
    if (getFailingAttribute(getFirstComplaint(op, false)) != name) {
      explained = wrongKindMessage(name, kind, given);
      break;
    }
  }
  op->setAttr(name, given);
  return explained;
}

/// Verifies `op`, just built for the node; fails with the verifier's first
/// complaint (see explainAttributeKind) in `error`, erasing `op`.
static LogicalResult verifyBuilt(Operation *op, std::string &error) {
  std::string message = getFirstComplaint(op, /*recursive=*/true);
  if (message.empty())
    return success();
  error = explainAttributeKind(op, message);
  op->erase();
  return failure();
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
  if (info.hasTrait<OpTrait::NResults<4>::Impl>())
    return 4;
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
  // Ops with variadic results (Split) have as many as the node has outputs.
  unsigned numResults =
      fixedResultCount(info).value_or(std::max(node.output_size(), 1));
  OperationState state(loc, info);
  state.addOperands(inputs);
  state.addAttributes(attributes);
  state.addTypes(SmallVector<Type>(numResults, builder.getNoneType()));
  Operation *trial = Operation::create(state);
  auto destroy = llvm::make_scope_exit([&] { trial->destroy(); });
  std::string message = getFirstComplaint(trial, /*recursive=*/false);
  std::string reachedResults =
      "'" + info.getStringRef().str() + "' op result #0 must be";
  if (numResults != 0 && StringRef(message).starts_with(reachedResults))
    return success();
  if (numResults == 0 && message.empty())
    return success();
  error = message.empty() ? "does not match the op's definition"
                          : explainAttributeKind(trial, message);
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
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>(op->getResults());
}

FailureOr<Value> NodeContext::emit(StringRef opName, ValueRange operands,
                                   ArrayRef<NamedAttribute> attrs,
                                   std::string &error) {
  NodeContext piece{builder,
                    loc,
                    node,
                    opset,
                    llvm::to_vector(operands),
                    llvm::to_vector(attrs),
                    importSubgraph};
  FailureOr<SmallVector<Value>> results = piece.buildGeneric(opName, error);
  if (failed(results))
    return failure();
  return results->front();
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

/// Attribute `name` of kind `AttrT` (`kind`, as "an int"), if the node has
/// it; fails with `error` when it has another kind.
template <typename AttrT>
static FailureOr<std::optional<AttrT>>
getAttributeOf(NodeContext &node, StringRef name, StringRef kind,
               std::string &error) {
  for (NamedAttribute attr : node.attributes) {
    if (attr.getName() != name)
      continue;
    if (auto typed = dyn_cast<AttrT>(attr.getValue()))
      return std::optional<AttrT>(typed);
    error = wrongKindMessage(name, kind, attr.getValue());
    return failure();
  }
  return std::optional<AttrT>();
}

/// getAttributeOf, removing the attribute from the node's.
template <typename AttrT>
static FailureOr<std::optional<AttrT>>
takeAttributeOf(NodeContext &node, StringRef name, StringRef kind,
                std::string &error) {
  auto attr = getAttributeOf<AttrT>(node, name, kind, error);
  if (succeeded(attr) && *attr)
    node.takeAttribute(name);
  return attr;
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

/// The message of a form an older opset allows but onnxc does not.
static std::string unsupportedAt(const NodeContext &node, const Twine &what) {
  return ("unsupported at opset " + Twine(node.opset) + ": " + what).str();
}

/// The INT attribute `name`, or `fallback` when absent; fails with `error`
/// when it has another kind.
static FailureOr<int64_t> takeInt(NodeContext &node, StringRef name,
                                  int64_t fallback, std::string &error) {
  auto attr = takeAttributeOf<IntegerAttr>(node, name, "an int", error);
  if (failed(attr))
    return failure();
  return *attr ? (**attr).getInt() : fallback;
}

/// `value` (of known rank) with `count` trailing size-1 dims (none when
/// `count` is not positive).
static Value appendUnitDims(NodeContext &node, Value value, int64_t count) {
  if (count <= 0)
    return value;
  int64_t rank = cast<RankedTensorType>(value.getType()).getRank();
  auto axes = llvm::to_vector(llvm::seq<int64_t>(rank, rank + count));
  return node.builder.create<onnx::UnsqueezeOp>(node.constantLoc(), value,
                                                node.i64Constant(axes));
}

/// Binary ops before opset 7 (Add, Sub, Mul, Div, Pow, the comparisons and
/// the logical ops): with `broadcast = 1`, B matched a contiguous run of A's
/// dims starting at `axis` (by default the trailing ones). B gets trailing
/// size-1 dims so that numpy broadcasting lines it up the same way. Opset 1's
/// `consumed_inputs` is dropped.
static FailureOr<SmallVector<Value>> importLegacyBroadcast(NodeContext &node,
                                                           std::string &error) {
  node.takeAttribute("consumed_inputs");
  FailureOr<int64_t> broadcast = takeInt(node, "broadcast", 0, error);
  if (failed(broadcast))
    return failure();
  auto axisAttr = takeAttributeOf<IntegerAttr>(node, "axis", "an int", error);
  if (failed(axisAttr))
    return failure();
  if (!*broadcast || !*axisAttr || node.inputs.size() != 2)
    return importGeneric(node, error);
  auto a = dyn_cast<RankedTensorType>(node.inputs[0].getType());
  auto b = dyn_cast<RankedTensorType>(node.inputs[1].getType());
  if (!a || !b) {
    error = unsupportedAt(node, "'axis' needs inputs of known rank");
    return failure();
  }
  int64_t axis = (**axisAttr).getInt();
  if (axis < 0)
    axis += a.getRank();
  int64_t trailing = a.getRank() - axis - b.getRank();
  if (axis < 0 || trailing < 0) {
    error = ("has 'axis' = " + Twine((**axisAttr).getInt()) +
             ", which does not fit B of rank " + Twine(b.getRank()) +
             " into A of rank " + Twine(a.getRank()))
                .str();
    return failure();
  }
  node.inputs[1] = appendUnitDims(node, node.inputs[1], trailing);
  return importGeneric(node, error);
}

/// PRelu (opsets 1-6): a slope of one dim other than 1 holds a value per
/// channel (dim 1 of X), where numpy broadcasting (opset 7 on) would line
/// it up with X's last dim; it gets trailing size-1 dims. Opset 1's
/// `consumed_inputs` is dropped.
static FailureOr<SmallVector<Value>> importPReluV1(NodeContext &node,
                                                   std::string &error) {
  node.takeAttribute("consumed_inputs");
  if (node.inputs.size() != 2)
    return importGeneric(node, error);
  auto slope = dyn_cast<RankedTensorType>(node.inputs[1].getType());
  if (!slope || slope.getRank() != 1 || slope.getDimSize(0) == 1)
    return importGeneric(node, error);
  auto x = dyn_cast<RankedTensorType>(node.inputs[0].getType());
  if (!x) {
    error = unsupportedAt(node, "a slope per channel needs X of known rank");
    return failure();
  }
  node.inputs[1] = appendUnitDims(node, node.inputs[1], x.getRank() - 2);
  return importGeneric(node, error);
}

/// BatchNormalization (opsets 1-8): `is_test` and opset 1's
/// `consumed_inputs` are dropped (onnxc normalizes in inference mode);
/// `spatial = 0`, statistics per activation, is not supported.
static FailureOr<SmallVector<Value>> importBatchNormV1(NodeContext &node,
                                                       std::string &error) {
  node.takeAttribute("consumed_inputs");
  node.takeAttribute("is_test");
  FailureOr<int64_t> spatial = takeInt(node, "spatial", 1, error);
  if (failed(spatial))
    return failure();
  if (*spatial == 0) {
    error = unsupportedAt(node, "'spatial' = 0 (statistics per activation)");
    return failure();
  }
  return importGeneric(node, error);
}

/// Reshape (opsets 1-4): the `shape` attribute becomes the input.
static FailureOr<SmallVector<Value>> importReshapeV1(NodeContext &node,
                                                     std::string &error) {
  node.takeAttribute("consumed_inputs");
  auto shape = takeAttributeOf<DenseI64ArrayAttr>(node, "shape", "ints", error);
  if (failed(shape) || failed(checkDataInput(node, error)))
    return failure();
  if (!*shape) {
    error = "lacks the required attribute 'shape'";
    return failure();
  }
  node.inputs.push_back(node.i64Constant((**shape).asArrayRef()));
  return importGeneric(node, error);
}

/// Cast (opset 1): `to` is the name of the data type ("FLOAT").
static FailureOr<SmallVector<Value>> importCastV1(NodeContext &node,
                                                  std::string &error) {
  auto to = takeAttributeOf<StringAttr>(node, "to", "a string", error);
  if (failed(to))
    return failure();
  if (!*to) {
    error = "lacks the required attribute 'to'";
    return failure();
  }
  ::onnx::TensorProto::DataType type;
  if (!::onnx::TensorProto::DataType_Parse((**to).str(), &type)) {
    error = "has an unknown data type '" + (**to).str() + "'";
    return failure();
  }
  node.attributes.push_back(
      node.builder.getNamedAttr("to", node.builder.getI64IntegerAttr(type)));
  return importGeneric(node, error);
}

/// Concat (opsets 1-3): `axis` defaults to 1.
static FailureOr<SmallVector<Value>> importConcatV1(NodeContext &node,
                                                    std::string &error) {
  FailureOr<int64_t> axis = takeInt(node, "axis", 1, error);
  if (failed(axis))
    return failure();
  node.attributes.push_back(
      node.builder.getNamedAttr("axis", node.builder.getI64IntegerAttr(*axis)));
  return importGeneric(node, error);
}

/// Softmax, LogSoftmax and Hardmax (opsets 1-12) flatten to 2-D at `axis`
/// (default 1), normalize each row, and restore the shape.
template <typename OpT>
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
  Value soft = b.create<OpT>(node.loc, flat, i64(-1));
  Value shape = b.create<onnx::ShapeOp>(node.loc, input, IntegerAttr(), i64(0));
  Value result = b.create<onnx::ReshapeOp>(node.loc, type, soft, shape, i64(0));
  return SmallVector<Value>{result};
}

/// A 0-D constant of `element` holding `value` (an attribute turned into an
/// input).
static Value scalarConstant(NodeContext &node, Type element, double value) {
  auto type = RankedTensorType::get({}, element);
  Attribute scalar =
      isa<FloatType>(element)
          ? Attribute(FloatAttr::get(element, value))
          : Attribute(IntegerAttr::get(element, static_cast<int64_t>(value)));
  return node.builder.create<onnx::ConstantOp>(
      node.constantLoc(),
      cast<ElementsAttr>(DenseElementsAttr::get(type, scalar)));
}

/// The node as onnx op `opName` (a deprecated alias of it).
static OpImportFn importAs(StringRef opName) {
  std::string owned = opName.str();
  return [owned](NodeContext &node, std::string &error) {
    return node.buildGeneric(owned, error);
  };
}

/// Split (opset 13 on): without `split` the outputs are equal parts, which
/// `num_outputs` (given at opset 18) says how many; a `split` of unknown
/// length is pinned to the output count with a Reshape.
static FailureOr<SmallVector<Value>> importSplitV13(NodeContext &node,
                                                    std::string &error) {
  OpBuilder &b = node.builder;
  int64_t count = node.node.output_size();
  Value split = node.inputs[1];
  if (onnx::isNoValue(split)) {
    bool hasNumOutputs = llvm::any_of(node.attributes, [](NamedAttribute a) {
      return a.getName() == "num_outputs";
    });
    if (!hasNumOutputs)
      node.attributes.push_back(
          b.getNamedAttr("num_outputs", b.getI64IntegerAttr(count)));
    return importGeneric(node, error);
  }
  auto type = dyn_cast<RankedTensorType>(split.getType());
  if (!type || type.getRank() != 1 || type.isDynamicDim(0)) {
    auto pinned = RankedTensorType::get({count}, b.getI64Type());
    node.inputs[1] = b.create<onnx::ReshapeOp>(node.loc, pinned, split,
                                               node.i64Constant({count}),
                                               b.getI64IntegerAttr(0));
  }
  return importGeneric(node, error);
}

/// Split (opsets 2-12): an optional `split` attribute.
static FailureOr<SmallVector<Value>> importSplitV2(NodeContext &node,
                                                   std::string &error) {
  if (failed(checkDataInput(node, error)) ||
      failed(attributeToInput(node, "split", error)))
    return failure();
  return importSplitV13(node, error);
}

/// Pad (opsets 2-10): `pads` and `value` attributes.
static FailureOr<SmallVector<Value>> importPadV2(NodeContext &node,
                                                 std::string &error) {
  if (failed(checkDataInput(node, error)))
    return failure();
  auto pads = takeAttributeOf<DenseI64ArrayAttr>(node, "pads", "ints", error);
  if (failed(pads))
    return failure();
  if (!*pads) {
    error = "lacks the required attribute 'pads'";
    return failure();
  }
  node.inputs.push_back(node.i64Constant((**pads).asArrayRef()));
  auto valueAttr = takeAttributeOf<FloatAttr>(node, "value", "a float", error);
  if (failed(valueAttr))
    return failure();
  double value = *valueAttr ? (**valueAttr).getValueAsDouble() : 0.0;
  node.inputs.push_back(
      scalarConstant(node, getElementTypeOrSelf(node.inputs[0]), value));
  node.inputs.push_back(node.noValue());
  return importGeneric(node, error);
}

/// TopK (opsets 1-9): a `k` attribute.
static FailureOr<SmallVector<Value>> importTopKV1(NodeContext &node,
                                                  std::string &error) {
  if (failed(checkDataInput(node, error)))
    return failure();
  auto k = takeAttributeOf<IntegerAttr>(node, "k", "an int", error);
  if (failed(k))
    return failure();
  if (!*k) {
    error = "lacks the required attribute 'k'";
    return failure();
  }
  node.inputs.push_back(node.i64Constant({(**k).getInt()}));
  return importGeneric(node, error);
}

/// `type` with a dim of `size` inserted at `axis` (unranked stays so).
static Type insertDim(Type type, int64_t axis, int64_t size) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return type;
  SmallVector<int64_t> dims(ranked.getShape());
  if (axis < 0)
    axis += ranked.getRank() + 1;
  axis = std::clamp<int64_t>(axis, 0, ranked.getRank());
  dims.insert(dims.begin() + axis, size);
  return RankedTensorType::get(dims, ranked.getElementType());
}

/// The types that the region's `onnx.Yield` returns.
static SmallVector<Type> yieldedTypes(Region &region) {
  return llvm::to_vector(region.front().getTerminator()->getOperandTypes());
}

/// Makes the region's output `index` an optional (onnx.Optional of it) when
/// `expected` is an optional and the output is not: ONNX lets a tensor or
/// sequence stand for the optional that holds it (a Loop that carries an
/// optional sequence and yields a sequence).
static void yieldAsOptional(OpBuilder &b, Region &region, unsigned index,
                            Type expected) {
  Operation *yield = region.front().getTerminator();
  Value value = yield->getOperand(index);
  if (!isa<onnx::OptType>(expected) || isa<onnx::OptType>(value.getType()) ||
      !isa<TensorType, onnx::SeqType>(value.getType()))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(yield);
  Value optional = b.create<onnx::OptionalOp>(
      yield->getLoc(), onnx::OptType::get(b.getContext(), value.getType()),
      value);
  yield->setOperand(index, optional);
}

namespace {
/// The regions that a node's subgraphs are imported into, held by a
/// placeholder op (of the op's name, without operands or results) at the
/// insertion point until the op that takes them is built. A region being
/// imported must be in the IR, under the function: verifying a nested If or
/// Loop checks that the values of enclosing graphs its subgraphs use
/// dominate them, which walks from region to parent op up to where the
/// values are defined.
class SubgraphRegions {
public:
  SubgraphRegions(NodeContext &node, StringRef opName, unsigned count)
      : builder(node.builder) {
    OperationState state(node.loc, opName);
    for (unsigned i = 0; i < count; ++i)
      (void)state.addRegion();
    placeholder = builder.create(state);
  }
  ~SubgraphRegions() { placeholder->erase(); }

  Region &operator[](unsigned index) { return placeholder->getRegion(index); }

  /// Builds the op of `state` (without regions) at the placeholder, moving
  /// the regions into it.
  Operation *create(OperationState &state) {
    for (Region &region : placeholder->getRegions())
      state.addRegion()->takeBody(region);
    return builder.create(state);
  }

private:
  OpBuilder &builder;
  Operation *placeholder;
};
} // namespace

/// If: both branches become regions; results join the branches' types.
static FailureOr<SmallVector<Value>> importIf(NodeContext &node,
                                              std::string &error) {
  if (node.inputs.size() != 1 || onnx::isNoValue(node.inputs[0])) {
    error = "expects one input (the condition)";
    return failure();
  }
  SubgraphRegions branches(node, onnx::IfOp::getOperationName(), 2);
  if (failed(node.importSubgraph("then_branch", branches[0], {}, error)) ||
      failed(node.importSubgraph("else_branch", branches[1], {}, error)))
    return failure();
  SmallVector<Type> thenTypes = yieldedTypes(branches[0]);
  SmallVector<Type> elseTypes = yieldedTypes(branches[1]);
  if (thenTypes.size() != elseTypes.size()) {
    error = "has branches with " + std::to_string(thenTypes.size()) + " and " +
            std::to_string(elseTypes.size()) + " outputs";
    return failure();
  }
  for (unsigned i = 0; i < thenTypes.size(); ++i) {
    yieldAsOptional(node.builder, branches[0], i, elseTypes[i]);
    yieldAsOptional(node.builder, branches[1], i, thenTypes[i]);
  }
  thenTypes = yieldedTypes(branches[0]);
  elseTypes = yieldedTypes(branches[1]);
  OperationState state(node.loc, onnx::IfOp::getOperationName());
  state.addOperands(node.inputs);
  for (auto [index, types] : llvm::enumerate(llvm::zip(thenTypes, elseTypes))) {
    Type joined = onnx::joinTypes(std::get<0>(types), std::get<1>(types));
    if (!joined) {
      error = "has branches whose output " + std::to_string(index) +
              " differs in element type";
      return failure();
    }
    state.addTypes(joined);
  }
  state.addAttributes(node.attributes);
  Operation *op = branches.create(state);
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>(op->getResults());
}

/// Loop: the body becomes a region taking the iteration number, the
/// condition and the loop-carried values.
static FailureOr<SmallVector<Value>> importLoop(NodeContext &node,
                                                std::string &error) {
  OpBuilder &b = node.builder;
  if (node.inputs.size() < 2) {
    error = "expects at least 2 inputs (the trip count and the condition)";
    return failure();
  }
  ValueRange carried = ValueRange(node.inputs).drop_front(2);
  SmallVector<Type> argTypes{RankedTensorType::get({}, b.getI64Type()),
                             RankedTensorType::get({}, b.getI1Type())};
  llvm::append_range(argTypes, carried.getTypes());
  SubgraphRegions regions(node, onnx::LoopOp::getOperationName(), 1);
  Region &body = regions[0];
  if (failed(node.importSubgraph("body", body, argTypes, error)))
    return failure();
  SmallVector<Type> yielded = yieldedTypes(body);
  if (yielded.size() < 1 + carried.size()) {
    error = "has a body with " + std::to_string(yielded.size()) +
            " outputs but it carries " + std::to_string(carried.size()) +
            " values and a condition";
    return failure();
  }
  for (auto [index, value] : llvm::enumerate(carried))
    yieldAsOptional(b, body, 1 + index, value.getType());
  yielded = yieldedTypes(body);
  OperationState state(node.loc, onnx::LoopOp::getOperationName());
  state.addOperands(node.inputs);
  for (auto [index, value] : llvm::enumerate(carried)) {
    Type joined = onnx::joinTypes(value.getType(), yielded[1 + index]);
    if (!joined) {
      error = "has a body whose output " + std::to_string(index + 1) +
              " differs in element type from its input";
      return failure();
    }
    state.addTypes(joined);
    // Later iterations see the joined type.
    body.getArgument(2 + index).setType(joined);
  }
  for (Type type : ArrayRef(yielded).drop_front(1 + carried.size()))
    state.addTypes(insertDim(type, 0, ShapedType::kDynamic));
  state.addAttributes(node.attributes);
  Operation *op = regions.create(state);
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>(op->getResults());
}

/// SequenceEmpty: a sequence of `dtype` (float by default) tensors of
/// unknown rank, until an insertion says more.
static FailureOr<SmallVector<Value>> importSequenceEmpty(NodeContext &node,
                                                         std::string &error) {
  MLIRContext *ctx = node.builder.getContext();
  int64_t dtype = 1;
  for (NamedAttribute attr : node.attributes) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (attr.getName() != "dtype" || !value) {
      error = "has unsupported attribute '" + attr.getName().str() + "'";
      return failure();
    }
    dtype = value.getInt();
  }
  Type element = onnx::getValueElementType(ctx, dtype);
  if (!element) {
    error = "has unsupported 'dtype' " + dataTypeName(dtype);
    return failure();
  }
  auto op = node.builder.create<onnx::SequenceEmptyOp>(
      node.loc, onnx::SeqType::get(ctx, UnrankedTensorType::get(element)),
      node.builder.getI64IntegerAttr(dtype));
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>{op};
}

/// Optional: its type is the input's, or, without an input, the `type`
/// attribute's.
static FailureOr<SmallVector<Value>> importOptional(NodeContext &node,
                                                    std::string &error) {
  MLIRContext *ctx = node.builder.getContext();
  Type element;
  for (NamedAttribute attr : node.attributes) {
    auto type = dyn_cast<TypeAttr>(attr.getValue());
    if (attr.getName() != "type" || !type) {
      error = "has unsupported attribute '" + attr.getName().str() + "'";
      return failure();
    }
    element = type.getValue();
  }
  Value input = node.inputs.empty() ? node.noValue() : node.inputs[0];
  if (!onnx::isNoValue(input))
    element = input.getType();
  if (!element || !isa<TensorType, onnx::SeqType>(element)) {
    error = "needs an input or a 'type' attribute of a tensor or sequence";
    return failure();
  }
  auto op = node.builder.create<onnx::OptionalOp>(
      node.loc, onnx::OptType::get(ctx, element), input);
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>{op};
}

/// SequenceMap: a Loop over the elements, as ONNX's function body of the op
/// has it: the body graph runs on element i of each sequence input (and on
/// each tensor input as it is), and each of its outputs is appended to an
/// output sequence.
static FailureOr<SmallVector<Value>> importSequenceMap(NodeContext &node,
                                                       std::string &error) {
  OpBuilder &b = node.builder;
  MLIRContext *ctx = b.getContext();
  if (node.inputs.empty() || !isa<onnx::SeqType>(node.inputs[0].getType())) {
    error = "expects a sequence as its first input";
    return failure();
  }
  SmallVector<Type> argTypes;
  for (Value input : node.inputs) {
    if (auto seq = dyn_cast<onnx::SeqType>(input.getType()))
      argTypes.push_back(seq.getElementType());
    else if (isa<TensorType>(input.getType()))
      argTypes.push_back(input.getType());
    else {
      error = "expects sequences and tensors as inputs";
      return failure();
    }
  }
  auto i64 = RankedTensorType::get({}, b.getI64Type());
  auto i1 = RankedTensorType::get({}, b.getI1Type());
  SubgraphRegions regions(node, onnx::LoopOp::getOperationName(), 2);
  if (failed(node.importSubgraph("body", regions[1], argTypes, error)))
    return failure();
  Block &mapped = regions[1].front();
  SmallVector<Type> outputTypes;
  for (Type type : yieldedTypes(regions[1])) {
    if (!isa<TensorType>(type)) {
      error = "has a body whose outputs are not all tensors";
      return failure();
    }
    outputTypes.push_back(onnx::SeqType::get(ctx, type));
  }
  Value count = b.create<onnx::SequenceLengthOp>(node.loc, node.inputs[0]);
  SmallVector<Value> initial;
  for (Type type : outputTypes) {
    Type element = cast<TensorType>(cast<onnx::SeqType>(type).getElementType())
                       .getElementType();
    std::optional<int64_t> dtype = onnx::getONNXDType(element);
    if (!dtype && isa<onnx::StringType>(element))
      dtype = 8;
    initial.push_back(b.create<onnx::SequenceEmptyOp>(
        node.loc, type, b.getI64IntegerAttr(dtype.value_or(1))));
  }
  // The Loop's body: (i, cond, outputs so far) -> (cond, outputs with the
  // body's outputs for element i appended).
  SmallVector<Type> loopArgs{i64, i1};
  llvm::append_range(loopArgs, outputTypes);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body =
        b.createBlock(&regions[0], {}, loopArgs,
                      SmallVector<Location>(loopArgs.size(), node.loc));
    for (auto [input, arg] : llvm::zip(node.inputs, mapped.getArguments())) {
      Value element = input;
      if (isa<onnx::SeqType>(input.getType()))
        element = b.create<onnx::SequenceAtOp>(node.loc, arg.getType(), input,
                                               body->getArgument(0));
      arg.replaceAllUsesWith(element);
    }
    Operation *mappedYield = mapped.getTerminator();
    body->getOperations().splice(body->end(), mapped.getOperations(),
                                 mapped.begin(), Block::iterator(mappedYield));
    b.setInsertionPointToEnd(body);
    SmallVector<Value> next{body->getArgument(1)};
    for (auto [k, y] : llvm::enumerate(mappedYield->getOperands()))
      next.push_back(b.create<onnx::SequenceInsertOp>(node.loc, outputTypes[k],
                                                      body->getArgument(2 + k),
                                                      y, node.noValue()));
    b.create<onnx::YieldOp>(node.loc, next);
    mappedYield->erase();
  }
  // The mapped region is spent; only the Loop's body moves into the op.
  regions[1].getBlocks().clear();
  OperationState state(node.loc, onnx::LoopOp::getOperationName());
  state.addOperands({count, node.noValue()});
  state.addOperands(initial);
  state.addTypes(outputTypes);
  state.addRegion()->takeBody(regions[0]);
  Operation *op = b.create(state);
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>(op->getResults());
}

/// Graph attribute `name` of the node (one input, one output), applied to
/// `input` in place: its nodes are imported into a placeholder region and
/// moved to the builder's position, its input replaced by `input`. Returns
/// its output.
static FailureOr<Value> inlineSubgraph(NodeContext &node, StringRef name,
                                       Value input, std::string &error) {
  SubgraphRegions regions(node, onnx::IfOp::getOperationName(), 1);
  if (failed(node.importSubgraph(name, regions[0], input.getType(), error)))
    return failure();
  Block &body = regions[0].front();
  Operation *yield = body.getTerminator();
  if (body.getNumArguments() != 1 || yield->getNumOperands() != 1) {
    error = "expects a '" + name.str() + "' graph of one input and one output";
    return failure();
  }
  body.getArgument(0).replaceAllUsesWith(input);
  Value result = yield->getOperand(0);
  Block *block = node.builder.getInsertionBlock();
  block->getOperations().splice(node.builder.getInsertionPoint(),
                                body.getOperations(), body.begin(),
                                Block::iterator(yield));
  return result;
}

/// FlexAttention (ai.onnx.preview 1) as ONNX 1.22's function body builds it:
/// K and V heads repeated for grouped-query attention; scores = (Q
/// sqrt(scale)) (K sqrt(scale))^T, scale 1/sqrt(head size) by default,
/// cast to float (double for double inputs); the `score_mod` and then the
/// `mask_mod` graph applied to the scores (each maps the scores tensor to a
/// tensor of its shape); Softmax over the keys; the `prob_mod` graph
/// applied to the probabilities; times V (in float for float16 and
/// bfloat16, cast back).
static FailureOr<SmallVector<Value>> importFlexAttention(NodeContext &node,
                                                         std::string &error) {
  std::optional<double> scaleAttr =
      floatAttr(node, "scale", std::numeric_limits<double>::quiet_NaN(), error);
  if (!scaleAttr)
    return failure();
  Value q = node.inputs[0], k = node.inputs[1], v = node.inputs[2];
  auto rank4 = [](Value x) {
    auto type = dyn_cast<RankedTensorType>(x.getType());
    return type && type.getRank() == 4 ? type : RankedTensorType();
  };
  RankedTensorType qType = rank4(q), kType = rank4(k), vType = rank4(v);
  if (!qType || !kType || !vType) {
    error = "expects Q, K and V of rank 4";
    return failure();
  }
  Type element = qType.getElementType();
  std::optional<int64_t> dtype = floatDType(element);
  std::optional<int64_t> vDType = floatDType(vType.getElementType());
  if (!dtype || !vDType) {
    error = "needs floating-point Q, K and V";
    return failure();
  }
  int64_t qHeads = qType.getDimSize(1), kvHeads = kType.getDimSize(1);
  if (!ShapedType::isDynamic(qHeads) && !ShapedType::isDynamic(kvHeads) &&
      (kvHeads <= 0 || qHeads % kvHeads != 0)) {
    error = "needs head counts, that of Q a multiple of that of K";
    return failure();
  }
  Expansion e(node, error);
  // Grouped-query attention: each K/V head serves qHeads / kvHeads of Q's.
  Value keys = e.repeatHeadsFor(q, k, qHeads, kvHeads);
  Value values = e.repeatHeadsFor(q, v, qHeads, kvHeads);
  Value scores = e.attentionScores(q, keys, *scaleAttr, element, *dtype);
  int64_t computeDType = *dtype == ::onnx::TensorProto::DOUBLE
                             ? ::onnx::TensorProto::DOUBLE
                             : ::onnx::TensorProto::FLOAT;
  scores = e.castTo(scores, computeDType);
  if (!e.ok())
    return failure();
  auto modified = [&](StringRef graph, Value x) -> FailureOr<Value> {
    bool present = llvm::any_of(node.node.attribute(), [&](const auto &a) {
      return a.name() == graph;
    });
    return present ? inlineSubgraph(node, graph, x, error) : x;
  };
  for (StringRef graph : {"score_mod", "mask_mod"}) {
    FailureOr<Value> next = modified(graph, scores);
    if (failed(next))
      return failure();
    scores = *next;
  }
  FailureOr<Value> probs =
      modified("prob_mod", e.op("Softmax", scores, {e.attr("axis", -1)}));
  if (failed(probs))
    return failure();
  Value y = e.castTo(e.op("MatMul", {*probs, e.castTo(values, computeDType)}),
                     *vDType);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// Scan (opset 9 on): the body takes the states and one slice of each scan
/// input.
static FailureOr<SmallVector<Value>> importScan(NodeContext &node,
                                                std::string &error) {
  auto numScanInputsAttr =
      getAttributeOf<IntegerAttr>(node, "num_scan_inputs", "an int", error);
  auto inAxesAttr =
      getAttributeOf<DenseI64ArrayAttr>(node, "scan_input_axes", "ints", error);
  auto outAxesAttr = getAttributeOf<DenseI64ArrayAttr>(node, "scan_output_axes",
                                                       "ints", error);
  if (failed(numScanInputsAttr) || failed(inAxesAttr) || failed(outAxesAttr))
    return failure();
  auto getInts = [](std::optional<DenseI64ArrayAttr> attr) {
    return attr ? std::optional(attr->asArrayRef()) : std::nullopt;
  };
  int64_t numScanInputs =
      *numScanInputsAttr ? (**numScanInputsAttr).getInt() : -1;
  int64_t numOperands = node.inputs.size();
  if (numScanInputs < 1 || numScanInputs > numOperands) {
    error =
        "expects 'num_scan_inputs' in [1, " + std::to_string(numOperands) + "]";
    return failure();
  }
  int64_t numStates = numOperands - numScanInputs;
  std::optional<ArrayRef<int64_t>> inAxes = getInts(*inAxesAttr);
  std::optional<ArrayRef<int64_t>> outAxes = getInts(*outAxesAttr);
  if ((inAxes && static_cast<int64_t>(inAxes->size()) != numScanInputs)) {
    error = "expects one 'scan_input_axes' value per scan input";
    return failure();
  }
  SmallVector<Type> argTypes;
  int64_t length = ShapedType::kDynamic;
  for (auto [index, value] : llvm::enumerate(node.inputs)) {
    if (onnx::isNoValue(value)) {
      error = "has a missing input";
      return failure();
    }
    if (static_cast<int64_t>(index) < numStates) {
      argTypes.push_back(value.getType());
      continue;
    }
    auto ranked = dyn_cast<RankedTensorType>(value.getType());
    if (!ranked) {
      argTypes.push_back(value.getType());
      continue;
    }
    int64_t axis = inAxes ? (*inAxes)[index - numStates] : 0;
    if (axis < 0)
      axis += ranked.getRank();
    if (axis < 0 || axis >= ranked.getRank()) {
      error = "has a scan input without axis " + std::to_string(axis);
      return failure();
    }
    SmallVector<int64_t> dims(ranked.getShape());
    if (ShapedType::isDynamic(length))
      length = dims[axis];
    dims.erase(dims.begin() + axis);
    argTypes.push_back(RankedTensorType::get(dims, ranked.getElementType()));
  }
  SubgraphRegions regions(node, onnx::ScanOp::getOperationName(), 1);
  Region &body = regions[0];
  if (failed(node.importSubgraph("body", body, argTypes, error)))
    return failure();
  SmallVector<Type> yielded = yieldedTypes(body);
  if (static_cast<int64_t>(yielded.size()) < numStates) {
    error = "has a body with fewer outputs than states";
    return failure();
  }
  int64_t numScanOutputs = yielded.size() - numStates;
  if (outAxes && static_cast<int64_t>(outAxes->size()) != numScanOutputs) {
    error = "expects one 'scan_output_axes' value per scan output";
    return failure();
  }
  OperationState state(node.loc, onnx::ScanOp::getOperationName());
  state.addOperands(node.inputs);
  for (auto [index, type] : llvm::enumerate(yielded)) {
    if (static_cast<int64_t>(index) < numStates) {
      Type joined = onnx::joinTypes(argTypes[index], type);
      if (!joined) {
        error = "has a body whose state " + std::to_string(index) +
                " differs in element type from its input";
        return failure();
      }
      state.addTypes(joined);
      body.getArgument(index).setType(joined);
      continue;
    }
    int64_t axis = outAxes ? (*outAxes)[index - numStates] : 0;
    state.addTypes(insertDim(type, axis, length));
  }
  state.addAttributes(node.attributes);
  Operation *op = regions.create(state);
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>(op->getResults());
}

/// Scan at opset 8: every input has a leading batch dim and the body runs
/// per batch element. Imported as an outer opset-9 Scan over the batch with
/// no states, whose body is the per-batch Scan (its scan axis is the
/// original axis 1); the outer scan outputs stack the per-batch results.
static FailureOr<SmallVector<Value>> importScanV8(NodeContext &node,
                                                  std::string &error) {
  if (node.inputs.empty() || !onnx::isNoValue(node.inputs[0])) {
    error = "has 'sequence_lens', which onnxc does not support";
    return failure();
  }
  OpBuilder &b = node.builder;
  SmallVector<Value> operands(llvm::drop_begin(node.inputs));
  SmallVector<NamedAttribute> innerAttrs;
  int64_t batch = ShapedType::kDynamic;
  for (NamedAttribute attr : node.attributes) {
    if (attr.getName() == "directions")
      innerAttrs.push_back(
          b.getNamedAttr("scan_input_directions", attr.getValue()));
    else if (attr.getName() == "num_scan_inputs")
      innerAttrs.push_back(attr);
    else {
      error = "has unsupported attribute '" + attr.getName().str() + "'";
      return failure();
    }
  }
  SmallVector<Type> sliceTypes;
  for (Value operand : operands) {
    auto ranked = dyn_cast<RankedTensorType>(operand.getType());
    if (!ranked || ranked.getRank() < 1) {
      error = "expects ranked inputs with a batch dim";
      return failure();
    }
    if (ShapedType::isDynamic(batch))
      batch = ranked.getDimSize(0);
    sliceTypes.push_back(RankedTensorType::get(ranked.getShape().drop_front(),
                                               ranked.getElementType()));
  }
  SubgraphRegions regions(node, onnx::ScanOp::getOperationName(), 1);
  SmallVector<Location> locs(sliceTypes.size(), node.loc);
  SmallVector<Type> innerTypes;
  {
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&regions[0], {}, sliceTypes, locs);
    NodeContext inner{b,
                      node.loc,
                      node.node,
                      node.opset,
                      SmallVector<Value>(block->getArguments()),
                      innerAttrs,
                      node.importSubgraph};
    FailureOr<SmallVector<Value>> results = importScan(inner, error);
    if (failed(results))
      return failure();
    b.create<onnx::YieldOp>(node.loc, *results);
    innerTypes = llvm::to_vector(ValueRange(*results).getTypes());
  }
  OperationState state(node.loc, onnx::ScanOp::getOperationName());
  state.addOperands(operands);
  state.addAttribute(
      "num_scan_inputs",
      b.getI64IntegerAttr(static_cast<int64_t>(operands.size())));
  for (Type type : innerTypes)
    state.addTypes(insertDim(type, 0, batch));
  Operation *op = regions.create(state);
  if (failed(verifyBuilt(op, error)))
    return failure();
  return SmallVector<Value>(op->getResults());
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
    error = wrongKindMessage(name, kind, raw);
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

/// True for an input that is an empty tensor: opset 11's placeholder for an
/// unused roi or scales.
static bool isEmptyTensor(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.hasStaticShape() && type.getNumElements() == 0;
}

/// Resize (opsets 11 on): X, roi, scales, sizes. Opset 11 passes an empty
/// tensor for an unused roi or scales; both become `none`.
static FailureOr<SmallVector<Value>> importResizeV11(NodeContext &node,
                                                     std::string &error) {
  if (node.inputs.empty() || isa<NoneType>(node.inputs[0].getType())) {
    error = "lacks its data input";
    return failure();
  }
  // `antialias` came in opset 18.
  if (node.opset < 18 && llvm::any_of(
                             node.attributes,
                             [](const NamedAttribute &attr) {
                               return attr.getName() == "antialias";
                             })) {
    error = "has no attribute 'antialias' at opset " +
            std::to_string(node.opset) + " (it came in opset 18)";
    return failure();
  }
  for (unsigned i : {1u, 2u})
    if (isEmptyTensor(node.inputs[i]))
      node.inputs[i] = node.noValue();
  return importGeneric(node, error);
}

/// A 1-D onnx.Constant of `values` with the float element type `element`.
static Value floatConstant(NodeContext &node, Type element,
                           ArrayRef<double> values) {
  auto type =
      RankedTensorType::get({static_cast<int64_t>(values.size())}, element);
  SmallVector<APFloat> converted;
  for (double value : values) {
    APFloat f(value);
    bool lost;
    f.convert(cast<FloatType>(element).getFloatSemantics(),
              APFloat::rmNearestTiesToEven, &lost);
    converted.push_back(f);
  }
  return node.builder.create<onnx::ConstantOp>(
      node.constantLoc(),
      cast<ElementsAttr>(DenseFPElementsAttr::get(type, converted)));
}

/// `value` (1-D, perhaps known only at run time) spread over a full-rank
/// vector: element `d` of the result is `value[index[d]]` where `index[d]`
/// is below the length of `value`, else `fill[index[d] - length]`.
static Value spreadOver(NodeContext &node, Value value, Value fill,
                        ArrayRef<int64_t> index) {
  OpBuilder &b = node.builder;
  Value both = b.create<onnx::ConcatOp>(node.loc, ValueRange{value, fill},
                                        b.getI64IntegerAttr(0));
  return b.create<onnx::GatherOp>(node.loc, both, node.i64Constant(index),
                                  b.getI64IntegerAttr(0));
}

/// Resize-18's `keep_aspect_ratio_policy` on `sizes` (node.inputs[3], one
/// per dim of `axes`): every dim of `axes` is resized by one scale, the
/// least (`notLarger`) or the greatest of sizes / input size, to
/// round-half-up(scale x input size), as the ONNX reference computes it (in
/// f64). The Resize gets both: the sizes (the input's own elsewhere) and
/// the scales (1 elsewhere) that its coordinates map by. Constants where
/// sizes and the input dims of `axes` are, else ops that compute them.
static LogicalResult keepAspectRatio(NodeContext &node, RankedTensorType xType,
                                     ArrayRef<int64_t> axes, bool notLarger,
                                     std::string &error) {
  OpBuilder &b = node.builder;
  int64_t rank = xType.getRank();
  auto count = static_cast<int64_t>(axes.size());
  std::optional<SmallVector<int64_t>> sizes =
      onnx::getConstantIntValues(node.inputs[3]);
  bool staticAxes = llvm::all_of(
      axes, [&](int64_t axis) { return !xType.isDynamicDim(axis); });
  if (sizes && staticAxes) {
    double scale = notLarger ? HUGE_VAL : 0.0;
    for (auto [i, axis] : llvm::enumerate(axes)) {
      double ratio = static_cast<double>((*sizes)[i]) / xType.getDimSize(axis);
      scale = notLarger ? std::min(scale, ratio) : std::max(scale, ratio);
    }
    SmallVector<double> scales(rank, 1.0);
    SmallVector<int64_t> outSizes(xType.getShape());
    bool floorsAlike = true;
    for (int64_t axis : axes) {
      double in = xType.getDimSize(axis);
      outSizes[axis] = static_cast<int64_t>(scale * in + 0.5);
      // A Resize by scales alone computes floor(in x scale) in f32.
      floorsAlike &= outSizes[axis] ==
                     static_cast<int64_t>(std::floor(
                         static_cast<float>(in) * static_cast<float>(scale)));
      scales[axis] = scale;
    }
    node.inputs[2] = floatConstant(node, b.getF32Type(), scales);
    node.inputs[3] = floorsAlike ? node.noValue() : node.i64Constant(outSizes);
    return success();
  }
  // position[d]: where dim d is in `axes`, or -1.
  SmallVector<int64_t> position(rank, -1);
  for (auto [i, axis] : llvm::enumerate(axes))
    position[axis] = static_cast<int64_t>(i);
  Expansion e(node, error);
  auto f64 = *onnx::getONNXDType(b.getF64Type());
  Value shape = e.op("Shape", node.inputs[0]);
  Value inDims =
      e.op("Gather", {shape, node.i64Constant(axes)}, {e.attr("axis", 0)});
  Value inF = e.castTo(inDims, f64);
  Value ratios = e.op("Div", {e.castTo(node.inputs[3], f64), inF});
  // [1]: the one scale.
  Value scale = e.op(notLarger ? "ReduceMin" : "ReduceMax",
                     {ratios, node.noValue()}, {e.attr("keepdims", 1)});
  Value rounded = e.op("Floor", e.op("Add", {e.op("Mul", {scale, inF}),
                                             e.scalar(b.getF64Type(), 0.5)}));
  Value outSizes = e.castTo(rounded, *onnx::getONNXDType(b.getI64Type()));
  if (!e.ok())
    return failure();
  SmallVector<int64_t> sizeIndex, scaleIndex;
  for (int64_t d = 0; d < rank; ++d) {
    sizeIndex.push_back(position[d] >= 0 ? position[d] : count + d);
    scaleIndex.push_back(position[d] >= 0 ? 0 : 1);
  }
  node.inputs[3] = spreadOver(node, outSizes, shape, sizeIndex);
  node.inputs[2] = spreadOver(
      node, scale, floatConstant(node, b.getF64Type(), {1.0}), scaleIndex);
  return success();
}

/// Resize from opset 18: `axes` names the dims that roi, scales and sizes
/// cover (the others keep their size), and `keep_aspect_ratio_policy`
/// (`not_larger`, `not_smaller`) resizes every dim of `axes` by one scale,
/// the least or the greatest of sizes / input size, to round-half-up(scale x
/// input size). The dialect's Resize covers every dim: roi, scales and sizes
/// are spread over the full rank (by a Gather that constant folding folds
/// where they are constants).
static FailureOr<SmallVector<Value>> importResizeV18(NodeContext &node,
                                                     std::string &error) {
  auto axesAttr =
      takeAttributeOf<DenseI64ArrayAttr>(node, "axes", "ints", error);
  auto policyAttr = takeAttributeOf<StringAttr>(
      node, "keep_aspect_ratio_policy", "a string", error);
  if (failed(axesAttr) || failed(policyAttr))
    return failure();
  StringRef policy = *policyAttr ? (**policyAttr).getValue() : "stretch";
  if (policy != "stretch" && policy != "not_larger" &&
      policy != "not_smaller") {
    error = "has unknown keep_aspect_ratio_policy '" + policy.str() + "'";
    return failure();
  }
  if (!*axesAttr && policy == "stretch")
    return importResizeV11(node, error);
  if (node.inputs.size() < 4)
    node.inputs.resize(4, node.noValue());
  for (unsigned i : {1u, 2u, 3u})
    if (isEmptyTensor(node.inputs[i]))
      node.inputs[i] = node.noValue();
  auto xType = dyn_cast<RankedTensorType>(node.inputs[0].getType());
  if (!xType) {
    error = unsupportedAt(node, "'axes' or 'keep_aspect_ratio_policy' on an "
                                "input of unknown rank");
    return failure();
  }
  int64_t rank = xType.getRank();
  SmallVector<int64_t> axes;
  if (*axesAttr) {
    for (int64_t axis : (**axesAttr).asArrayRef()) {
      std::optional<int64_t> normalized = onnx::normalizeAxis(axis, rank);
      if (!normalized || llvm::is_contained(axes, *normalized)) {
        error =
            "has invalid 'axes' for an input of rank " + std::to_string(rank);
        return failure();
      }
      axes.push_back(*normalized);
    }
  } else {
    axes = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  }
  auto count = static_cast<int64_t>(axes.size());
  // roi, scales and sizes are vectors (spreadOver concatenates them).
  static constexpr const char *kInputNames[] = {"", "roi", "scales", "sizes"};
  for (unsigned i : {1u, 2u, 3u}) {
    auto type = dyn_cast<RankedTensorType>(node.inputs[i].getType());
    if (type && type.getRank() != 1) {
      error = std::string("needs a 1-D ") + kInputNames[i] + " (got rank " +
              std::to_string(type.getRank()) + ")";
      return failure();
    }
    // roi and scales get float constants spread in below.
    if (i != 3u && !isa<NoneType>(node.inputs[i].getType()) &&
        !isa<FloatType>(getElementTypeOrSelf(node.inputs[i].getType()))) {
      error = std::string("needs a float ") + kInputNames[i];
      return failure();
    }
  }
  // position[d]: where dim d is in `axes`, or -1.
  SmallVector<int64_t> position(rank, -1);
  for (auto [i, axis] : llvm::enumerate(axes))
    position[axis] = static_cast<int64_t>(i);
  auto isNone = [&](unsigned i) {
    return isa<NoneType>(node.inputs[i].getType());
  };
  if (!isNone(1)) { // roi: starts then ends; 0 and 1 for the other dims
    SmallVector<int64_t> index;
    for (int64_t d = 0; d < rank; ++d)
      index.push_back(position[d] >= 0 ? position[d] : 2 * count);
    for (int64_t d = 0; d < rank; ++d)
      index.push_back(position[d] >= 0 ? count + position[d] : 2 * count + 1);
    Type element = getElementTypeOrSelf(node.inputs[1].getType());
    node.inputs[1] = spreadOver(
        node, node.inputs[1], floatConstant(node, element, {0.0, 1.0}), index);
  }
  if (!isNone(2)) { // scales: 1 for the other dims
    SmallVector<int64_t> index;
    for (int64_t d = 0; d < rank; ++d)
      index.push_back(position[d] >= 0 ? position[d] : count);
    Type element = getElementTypeOrSelf(node.inputs[2].getType());
    node.inputs[2] = spreadOver(node, node.inputs[2],
                                floatConstant(node, element, {1.0}), index);
  }
  if (!isNone(3) && policy == "stretch") { // sizes: the input's elsewhere
    SmallVector<int64_t> index;
    for (int64_t d = 0; d < rank; ++d)
      index.push_back(position[d] >= 0 ? position[d] : count + d);
    Value shape = node.builder.create<onnx::ShapeOp>(
        node.loc, node.inputs[0], IntegerAttr(),
        node.builder.getI64IntegerAttr(0));
    node.inputs[3] = spreadOver(node, node.inputs[3], shape, index);
  } else if (!isNone(3)) {
    auto sizesType = dyn_cast<RankedTensorType>(node.inputs[3].getType());
    if (sizesType && !sizesType.isDynamicDim(0) &&
        sizesType.getDimSize(0) != count) {
      error = "has " + std::to_string(sizesType.getDimSize(0)) + " sizes for " +
              std::to_string(count) + " axes";
      return failure();
    }
    if (failed(
            keepAspectRatio(node, xType, axes, policy == "not_larger", error)))
      return failure();
  }
  return importGeneric(node, error);
}

/// DFT from opset 20: `axis` is an optional third input (-2 by default,
/// negative counting from the back of the input, whose last dim holds the
/// real and imaginary parts), here a constant that becomes the attribute.
/// DFT (opset 20) whose `axis` input is known only at run time: one DFT per
/// axis that the input allows (of [0, rank - 2]), chosen by a chain of Ifs
/// on the axis made non-negative; an axis past them all takes the last.
static FailureOr<SmallVector<Value>> importDFTRuntimeAxis(NodeContext &node,
                                                          std::string &error) {
  auto type = dyn_cast<RankedTensorType>(node.inputs[0].getType());
  if (!type || type.getRank() < 2) {
    error = unsupportedAt(node, "an 'axis' input that is not a constant, on "
                                "an input of unknown rank or of rank below 2");
    return failure();
  }
  OpBuilder &b = node.builder;
  int64_t rank = type.getRank();
  auto scalar = [&](int64_t value) -> Value {
    auto scalarType = RankedTensorType::get({}, b.getI64Type());
    return b.create<onnx::ConstantOp>(
        node.constantLoc(),
        cast<ElementsAttr>(DenseElementsAttr::get(
            scalarType, ArrayRef<Attribute>{b.getI64IntegerAttr(value)})));
  };
  FailureOr<Value> axis = node.emit(
      "Cast", node.inputs[2],
      {b.getNamedAttr(
          "to", b.getI64IntegerAttr(*onnx::getONNXDType(b.getI64Type())))},
      error);
  if (failed(axis))
    return failure();
  FailureOr<Value> negative = node.emit("Less", {*axis, scalar(0)}, {}, error);
  if (failed(negative))
    return failure();
  FailureOr<Value> shifted = node.emit("Add", {*axis, scalar(rank)}, {}, error);
  if (failed(shifted))
    return failure();
  FailureOr<Value> normalized =
      node.emit("Where", {*negative, *shifted, *axis}, {}, error);
  if (failed(normalized))
    return failure();
  // The inverse of a onesided DFT of one frequency has no samples: an axis
  // of size 1 cannot be its axis (unless `dft_length` says otherwise).
  auto isSet = [&](StringRef name) {
    for (NamedAttribute attr : node.attributes)
      if (attr.getName() == name)
        if (auto value = dyn_cast<IntegerAttr>(attr.getValue()))
          return value.getInt() != 0;
    return false;
  };
  bool empty = isSet("inverse") && isSet("onesided") &&
               isa<NoneType>(node.inputs[1].getType());
  SmallVector<int64_t> axes;
  for (int64_t at = 0; at < rank - 1; ++at)
    if (!empty || type.getDimSize(at) != 1)
      axes.push_back(at);
  if (axes.empty()) {
    error = "has no axis that the inverse of a onesided DFT can take";
    return failure();
  }
  auto dftAt = [&](int64_t at) {
    SmallVector<NamedAttribute> attrs(node.attributes);
    attrs.push_back(b.getNamedAttr("axis", b.getI64IntegerAttr(at)));
    return node.emit("DFT", {node.inputs[0], node.inputs[1]}, attrs, error);
  };
  std::function<FailureOr<Value>(ArrayRef<int64_t>)> select =
      [&](ArrayRef<int64_t> candidates) -> FailureOr<Value> {
    int64_t at = candidates.front();
    if (candidates.size() == 1)
      return dftAt(at);
    FailureOr<Value> isAt =
        node.emit("Equal", {*normalized, scalar(at)}, {}, error);
    if (failed(isAt))
      return failure();
    OperationState state(node.loc, onnx::IfOp::getOperationName());
    state.addOperands(*isAt);
    state.addTypes(node.inputs[0].getType());
    state.addRegion();
    state.addRegion();
    Operation *ifOp = b.create(state);
    SmallVector<Type> yielded;
    for (unsigned branch = 0; branch < 2; ++branch) {
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(&ifOp->getRegion(branch));
      FailureOr<Value> value =
          branch == 0 ? dftAt(at) : select(candidates.drop_front());
      if (failed(value))
        return failure();
      b.create<onnx::YieldOp>(node.loc, *value);
      yielded.push_back(value->getType());
    }
    ifOp->getResult(0).setType(onnx::joinTypes(yielded[0], yielded[1]));
    return ifOp->getResult(0);
  };
  FailureOr<Value> result = select(axes);
  if (failed(result))
    return failure();
  return SmallVector<Value>{*result};
}

static FailureOr<SmallVector<Value>> importDFTV20(NodeContext &node,
                                                  std::string &error) {
  int64_t axis = -2;
  if (node.inputs.size() > 2) {
    if (!isa<NoneType>(node.inputs[2].getType())) {
      std::optional<SmallVector<int64_t>> values =
          onnx::getConstantIntValues(node.inputs[2]);
      if (!values || values->size() != 1)
        return importDFTRuntimeAxis(node, error);
      axis = values->front();
    }
    node.inputs.resize(2);
  }
  if (axis < 0) {
    auto type = dyn_cast<RankedTensorType>(node.inputs[0].getType());
    if (!type) {
      error = unsupportedAt(node, "a negative 'axis' on an input of unknown "
                                  "rank");
      return failure();
    }
    axis += type.getRank();
  }
  node.attributes.push_back(
      node.builder.getNamedAttr("axis", node.builder.getI64IntegerAttr(axis)));
  return importGeneric(node, error);
}

/// Resize (opset 10) and Upsample (opsets 7 to 9): the output size is
/// `floor(in * scales)` and coordinates are asymmetric, rounded down (what
/// the ONNX reference and onnxruntime compute for these forms). Upsample
/// before opset 9 carries `scales` as an attribute.
static FailureOr<SmallVector<Value>> importResizeV10(NodeContext &node,
                                                     std::string &error) {
  bool scalesAttribute = node.node.op_type() == "Upsample" && node.opset < 9;
  unsigned expected = scalesAttribute ? 1 : 2;
  if (node.inputs.size() != expected ||
      isa<NoneType>(node.inputs[0].getType()) ||
      isa<NoneType>(node.inputs.back().getType())) {
    error = scalesAttribute ? "expects one input"
                            : "expects two inputs, X and scales";
    return failure();
  }
  if (scalesAttribute) {
    auto scales =
        takeAttributeOf<DenseF32ArrayAttr>(node, "scales", "floats", error);
    if (failed(scales))
      return failure();
    if (!*scales) {
      error = "lacks the required attribute 'scales'";
      return failure();
    }
    ArrayRef<float> values = (**scales).asArrayRef();
    auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                      node.builder.getF32Type());
    node.inputs.push_back(node.builder.create<onnx::ConstantOp>(
        node.constantLoc(),
        cast<ElementsAttr>(DenseElementsAttr::get(type, values))));
  }
  Value scales = node.inputs[1];
  node.inputs = {node.inputs[0], node.noValue(), scales, node.noValue()};
  OpBuilder &b = node.builder;
  node.attributes.push_back(b.getNamedAttr("coordinate_transformation_mode",
                                           b.getStringAttr("asymmetric")));
  node.attributes.push_back(
      b.getNamedAttr("nearest_mode", b.getStringAttr("floor")));
  return node.buildGeneric("Resize", error);
}

/// QuantizeLinear and DequantizeLinear (opset 19 on): QuantizeLinear keeps
/// `saturate` (for float8), DequantizeLinear has none. Opset 21's
/// `output_dtype` without a zero point becomes a zero point of that type
/// (but FLOAT4E2M1, which no constant holds; blocked: zeros of the scale's
/// shape, a ConstantOfShape where it is known only at run time); an
/// `output_dtype` other than the zero point's is not supported. Opset 21's
/// `block_size` is the dialect's attribute.
static FailureOr<SmallVector<Value>> importQuantizeV19(NodeContext &node,
                                                       std::string &error) {
  if (node.node.op_type() == "DequantizeLinear")
    node.takeAttribute("saturate");
  FailureOr<int64_t> blockSize = takeInt(node, "block_size", 0, error);
  FailureOr<int64_t> outputDType = takeInt(node, "output_dtype", 0, error);
  if (failed(blockSize) || failed(outputDType))
    return failure();
  if (*blockSize != 0) {
    // Blocked quantization came in opset 21.
    if (node.opset < 21) {
      error = "has no attribute 'block_size' at opset " +
              std::to_string(node.opset) + " (it came in opset 21)";
      return failure();
    }
    node.attributes.push_back(node.builder.getNamedAttr(
        "block_size", node.builder.getI64IntegerAttr(*blockSize)));
  }
  if (*outputDType != 0) {
    Type zeroPoint = node.inputs.size() > 2
                         ? getElementTypeOrSelf(node.inputs[2])
                         : Type(node.builder.getNoneType());
    std::optional<int64_t> zeroPointDType = onnx::getONNXDType(zeroPoint);
    Type outputType =
        onnx::getElementType(node.builder.getContext(), *outputDType);
    if (!zeroPointDType && outputType && outputType.isIntOrFloat()) {
      // No zero point: a zero of `output_dtype` gives y its type (blocked:
      // zeros of the scale's shape).
      // A scale whose shape is known only at run time: ConstantOfShape.
      OpBuilder &b = node.builder;
      SmallVector<int64_t> shape;
      Value zero;
      if (*blockSize != 0) {
        if (node.inputs.size() < 2) {
          error = "lacks its scale";
          return failure();
        }
        auto scaleType = dyn_cast<RankedTensorType>(node.inputs[1].getType());
        if (!scaleType || !scaleType.hasStaticShape()) {
          auto one = RankedTensorType::get({1}, outputType);
          Expansion e(node, error);
          zero = e.op(
              "ConstantOfShape", e.op("Shape", node.inputs[1]),
              {b.getNamedAttr("value", DenseElementsAttr::get(
                                           one, b.getZeroAttr(outputType)))});
          if (!e.ok())
            return failure();
        } else {
          shape.assign(scaleType.getShape().begin(),
                       scaleType.getShape().end());
        }
      }
      if (!zero)
        zero = b.create<onnx::ConstantOp>(
            node.constantLoc(),
            DenseElementsAttr::get(RankedTensorType::get(shape, outputType),
                                   b.getZeroAttr(outputType)));
      node.inputs.resize(2);
      node.inputs.push_back(zero);
      zeroPointDType = *outputDType;
    }
    if (zeroPointDType != *outputDType) {
      error = unsupportedAt(node, "an 'output_dtype' other than the zero "
                                  "point's type");
      return failure();
    }
  }
  return importGeneric(node, error);
}

/// GridSample from opset 20 names its interpolations `linear` and `cubic`
/// (the 2-D op called them `bilinear` and `bicubic`, the dialect's names).
static FailureOr<SmallVector<Value>> importGridSampleV20(NodeContext &node,
                                                         std::string &error) {
  auto mode = takeAttributeOf<StringAttr>(node, "mode", "a string", error);
  if (failed(mode))
    return failure();
  if (*mode) {
    StringRef name = (**mode).getValue();
    StringRef renamed = name == "linear"  ? "bilinear"
                        : name == "cubic" ? "bicubic"
                                          : name;
    node.attributes.push_back(
        node.builder.getNamedAttr("mode", node.builder.getStringAttr(renamed)));
  }
  return importGeneric(node, error);
}

/// The ONNX data type code of input `index`'s element type, if it has one.
static std::optional<int64_t> inputDType(const NodeContext &node,
                                         unsigned index) {
  if (index >= node.inputs.size())
    return std::nullopt;
  return onnx::getONNXDType(getElementTypeOrSelf(node.inputs[index]));
}

/// QuantizeLinear and DequantizeLinear from opset 23: an attribute names a
/// type that is the scale's by default (QuantizeLinear's `precision`, the
/// type that the division by the scale computes in; DequantizeLinear's
/// `output_dtype`, the result's); another type is refused.
static FailureOr<SmallVector<Value>> importQuantizeV23(NodeContext &node,
                                                       std::string &error) {
  bool quantize = node.node.op_type() == "QuantizeLinear";
  FailureOr<int64_t> dtype =
      takeInt(node, quantize ? "precision" : "output_dtype", 0, error);
  if (failed(dtype))
    return failure();
  if (*dtype != 0 && inputDType(node, 1) != *dtype) {
    error = unsupportedAt(
        node, Twine(quantize ? "a 'precision'" : "an 'output_dtype'") +
                  " other than the scale's type");
    return failure();
  }
  return importQuantizeV19(node, error);
}

/// Range from opset 27: a float16 or bfloat16 range computes in float32
/// (`stash_type` 1, the default: start, limit and delta cast to float, the
/// result cast back) or in its own type (`stash_type` 0).
static FailureOr<SmallVector<Value>> importRangeV27(NodeContext &node,
                                                    std::string &error) {
  FailureOr<int64_t> stashType =
      takeInt(node, "stash_type", ::onnx::TensorProto::FLOAT, error);
  if (failed(stashType))
    return failure();
  if (*stashType != 0 && *stashType != ::onnx::TensorProto::FLOAT) {
    error = unsupportedAt(node, "a 'stash_type' other than 0 or 1 (float)");
    return failure();
  }
  std::optional<int64_t> dtype = inputDType(node, 0);
  bool halfPrecision = dtype == ::onnx::TensorProto::FLOAT16 ||
                       dtype == ::onnx::TensorProto::BFLOAT16;
  // A missing input ("") is importGeneric's to report.
  auto missing = [](Value v) { return !v || isa<NoneType>(v.getType()); };
  if (!halfPrecision || *stashType == 0 || node.inputs.size() != 3 ||
      llvm::any_of(node.inputs, missing))
    return importGeneric(node, error);
  OpBuilder &b = node.builder;
  auto castTo = [&](Value value, int64_t to) {
    return b.create<onnx::CastOp>(node.loc, value, to).getResult();
  };
  for (Value &input : node.inputs)
    input = castTo(input, ::onnx::TensorProto::FLOAT);
  FailureOr<SmallVector<Value>> range = importGeneric(node, error);
  if (failed(range))
    return failure();
  return SmallVector<Value>{castTo((*range)[0], *dtype)};
}

namespace {
struct Registry {
  /// Importers by domain, then by op type.
  llvm::StringMap<llvm::StringMap<SmallVector<OpImporter, 2>>> domains;

  void add(StringRef op, int64_t since, unsigned numInputs = 0,
           OpImportFn fn = importGeneric) {
    addIn("ai.onnx", op, since, numInputs, std::move(fn));
  }
  void addIn(StringRef domain, StringRef op, int64_t since,
             unsigned numInputs = 0, OpImportFn fn = importGeneric) {
    domains[domain][op].push_back({since, numInputs, std::move(fn)});
  }

  Registry() {
    // Elementwise. Before opset 7 binary ops broadcast only on request
    // (`broadcast`, `axis`); opset 1 listed the inputs an op may overwrite
    // (`consumed_inputs`, an optimization hint that is dropped).
    for (StringRef op : {"Add", "Sub", "Mul", "Div", "Pow", "Equal", "Less",
                         "Greater", "And", "Or", "Xor"}) {
      add(op, 1, 0, importLegacyBroadcast);
      add(op, 7);
    }
    for (StringRef op :
         {"Sqrt", "Exp", "Log", "Tanh", "Sigmoid", "Relu", "Neg", "Abs",
          "Reciprocal", "LeakyRelu", "Ceil", "Floor", "Elu", "Selu",
          "HardSigmoid", "Max", "Min", "Sum", "Mean"}) {
      add(op, 1, 0, dropping({"consumed_inputs"}));
      add(op, 6);
    }
    add("PRelu", 1, 0, importPReluV1);
    add("PRelu", 7);
    for (StringRef op : {"Where", "Erf", "Not", "Softplus", "Softsign"})
      add(op, 1);
    add("Clip", 1, 3, [](NodeContext &node, std::string &error) {
      node.takeAttribute("consumed_inputs");
      return importClipV6(node, error);
    });
    add("Clip", 11, 3);
    add("Sin", 7);
    add("Cos", 7);
    add("Tan", 7);
    add("Asin", 7);
    add("Acos", 7);
    add("Atan", 7);
    for (StringRef op :
         {"Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Sign", "IsNaN", "Shrink"})
      add(op, 9);
    add("Mod", 10);
    add("IsInf", 10);
    add("ThresholdedRelu", 10);
    add("BitShift", 11);
    add("Round", 11);
    add("GreaterOrEqual", 12);
    add("LessOrEqual", 12);
    add("Celu", 12);
    add("HardSwish", 14);
    add("CastLike", 15);
    add("Mish", 18);
    for (StringRef op : {"BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot"})
      add(op, 18);
    add("Gelu", 20);
    // Neural network.
    add("MatMul", 1);
    add("Gemm", 1, 3, dropping({"broadcast"}));
    add("Gemm", 7, 3);
    add("Conv", 1, 3);
    add("ConvTranspose", 1, 3);
    add("MaxPool", 1);
    add("AveragePool", 1);
    add("GlobalAveragePool", 1);
    add("GlobalMaxPool", 1);
    add("MaxUnpool", 9, 3);
    add("MelWeightMatrix", 17, 5);
    add("RoiAlign", 16, 3);
    add("InstanceNormalization", 1, 3, dropping({"consumed_inputs"}));
    add("InstanceNormalization", 6, 3);
    add("BatchNormalization", 1, 5, importBatchNormV1);
    add("BatchNormalization", 9, 5);
    add("Softmax", 1, 1, importSoftmaxV1<onnx::SoftmaxOp>);
    add("Softmax", 13, 1);
    add("LayerNormalization", 17, 3);
    add("Dropout", 1, 3, dropping({"consumed_inputs", "is_test", "ratio"}));
    add("Dropout", 7, 3, dropping({"ratio"}));
    add("Dropout", 12, 3);
    // Data-dependent sizes, windows, random generators and misc (ops-misc).
    add("NonZero", 9);
    add("Compress", 9);
    add("Unique", 11);
    add("NonMaxSuppression", 10, 5);
    for (StringRef op : {"HannWindow", "HammingWindow", "BlackmanWindow"})
      add(op, 17);
    add("DFT", 17, 2);
    add("DFT", 20, 3, importDFTV20);
    add("STFT", 17, 4);
    for (StringRef op : {"RandomUniform", "RandomNormal", "RandomUniformLike",
                         "RandomNormalLike"})
      add(op, 1);
    add("Bernoulli", 15);
    add("LRN", 1);
    add("Det", 11);
    add("ReverseSequence", 10);
    add("TfIdfVectorizer", 9);
    // Strings (ops/String.td).
    add("StringNormalizer", 10);
    add("StringConcat", 20);
    add("StringSplit", 20);
    add("RegexFullMatch", 20);
    add("ImageDecoder", 20);
    // Tensors and shapes.
    add("Constant", 1, 0, importConstant);
    add("Identity", 1);
    add("Cast", 1, 1, importCastV1);
    add("Cast", 6);
    add("Shape", 1);
    add("Reshape", 1, 1, importReshapeV1);
    add("Reshape", 5);
    add("Flatten", 1);
    add("Transpose", 1);
    add("Concat", 1, 0, importConcatV1);
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
    // Reductions, normalizations and data movement (ops-tensor).
    for (StringRef op :
         {"ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceLogSum",
          "ReduceLogSumExp", "ReduceSumSquare"}) {
      add(op, 1, 1, importAxesAttribute);
      add(op, 18, 2);
    }
    add("ArgMax", 1);
    add("ArgMin", 1);
    add("LogSoftmax", 1, 1, importSoftmaxV1<onnx::LogSoftmaxOp>);
    add("LogSoftmax", 13, 1);
    add("Hardmax", 1, 1, importSoftmaxV1<onnx::HardmaxOp>);
    add("Hardmax", 13, 1);
    add("LpNormalization", 1);
    add("MeanVarianceNormalization", 9);
    add("NegativeLogLikelihoodLoss", 12, 3);
    add("SoftmaxCrossEntropyLoss", 12, 3);
    add("Einsum", 12);
    add("Size", 1);
    add("GatherElements", 11);
    add("ScatterElements", 11, 3);
    add("Scatter", 9, 3, importAs("ScatterElements"));
    add("GatherND", 11);
    add("ScatterND", 11, 3);
    add("Trilu", 14, 2);
    add("Range", 11);
    add("Range", 27, 3, importRangeV27);
    add("RMSNormalization", 23, 2, importRMSNormalization);
    add("Attention", 23, 6, importAttention);
    add("Attention", 24, 7, importAttention);
    add("RotaryEmbedding", 23, 4, importRotaryEmbedding);
    add("Swish", 24, 1, importSwish);
    add("CausalConvWithState", 27, 4, importCausalConvWithState);
    add("LinearAttention", 27, 6, importLinearAttention);
    add("LpPool", 2, 1, importLpPool);
    add("CenterCropPad", 18, 2, importCenterCropPad);
    add("GroupNormalization", 21, 3, importGroupNormalization);
    // Opset 24's `round_mode` rounds casts to float8e8m0.
    add("Cast", 24, 1);
    add("CastLike", 24, 2);
    add("CumSum", 11);
    add("CumProd", 26);
    add("BitCast", 26);
    add("TensorScatter", 24, 3);
    add("Col2Im", 18, 3);
    add("AffineGrid", 20, 2);
    add("DeformConv", 19, 5);
    add("Split", 2, 1, importSplitV2);
    add("Split", 13, 2, importSplitV13);
    add("Tile", 6);
    add("Pad", 2, 1, importPadV2);
    add("Pad", 11, 4);
    add("OneHot", 9);
    add("EyeLike", 9);
    add("TopK", 1, 1, importTopKV1);
    add("TopK", 10, 2);
    add("DepthToSpace", 1);
    add("Resize", 10, 2, importResizeV10);
    add("Resize", 11, 4, importResizeV11);
    add("Resize", 18, 4, importResizeV18);
    add("Upsample", 7, 1, importResizeV10);
    add("Upsample", 9, 2, importResizeV10);
    add("GridSample", 16, 2);
    add("GridSample", 20, 2, importGridSampleV20);
    add("SpaceToDepth", 1);
    // Recurrent ops; opset 1 (GRU: 1 and 3) had `output_sequence`, a hint.
    add("LSTM", 1, 8, dropping({"output_sequence"}));
    add("LSTM", 7, 8);
    add("GRU", 1, 6, dropping({"output_sequence"}));
    add("GRU", 7, 6);
    add("RNN", 1, 6, dropping({"output_sequence"}));
    add("RNN", 7, 6);
    // Quantization.
    for (StringRef op : {"QuantizeLinear", "DequantizeLinear"}) {
      add(op, 10, 3);
      add(op, 19, 3, importQuantizeV19);
    }
    for (StringRef op : {"QuantizeLinear", "DequantizeLinear"})
      add(op, 23, 3, importQuantizeV23);
    add("DynamicQuantizeLinear", 11, 1);
    add("MatMulInteger", 10, 4);
    add("QLinearMatMul", 10, 8);
    add("ConvInteger", 10, 4);
    add("QLinearConv", 10, 9);
    // Classic ML (MLOps.cpp).
    addIn(kMLDomain, "Binarizer", 1, 1, importBinarizer);
    addIn(kMLDomain, "ArrayFeatureExtractor", 1, 2,
          importArrayFeatureExtractor);
    addIn(kMLDomain, "TreeEnsemble", 5, 1, importTreeEnsemble);
    // Opset 3 added the `_as_tensor` (double) forms of the float lists.
    addIn(kMLDomain, "TreeEnsembleRegressor", 1, 1,
          importTreeEnsembleRegressor);
    addIn(kMLDomain, "TreeEnsembleClassifier", 1, 1,
          importTreeEnsembleClassifier);
    addIn(kMLDomain, "Scaler", 1, 1, importScaler);
    addIn(kMLDomain, "LinearRegressor", 1, 1, importLinearRegressor);
    addIn(kMLDomain, "LinearClassifier", 1, 1, importLinearClassifier);
    addIn(kMLDomain, "Normalizer", 1, 1, importNormalizer);
    addIn(kMLDomain, "Imputer", 1, 1, importImputer);
    addIn(kMLDomain, "OneHotEncoder", 1, 1, importOneHotEncoder);
    addIn(kMLDomain, "LabelEncoder", 1, 1, importLabelEncoder);
    addIn(kMLDomain, "CategoryMapper", 1, 1, importCategoryMapper);
    addIn(kMLDomain, "FeatureVectorizer", 1, 0, importFeatureVectorizer);
    addIn(kMLDomain, "SVMRegressor", 1, 1, importSVMRegressor);
    addIn(kMLDomain, "SVMClassifier", 1, 1, importSVMClassifier);
    // ONNX Runtime's contrib ops (ContribOps.cpp), as its transformer
    // optimizer, Optimum and ORT GenAI write them.
    addIn(kMicrosoftDomain, "Gelu", 1, 1, importContribGelu);
    addIn(kMicrosoftDomain, "BiasGelu", 1, 2, importBiasGelu);
    addIn(kMicrosoftDomain, "FastGelu", 1, 2, importFastGelu);
    addIn(kMicrosoftDomain, "QuickGelu", 1, 1, importQuickGelu);
    addIn(kMicrosoftDomain, "SkipLayerNormalization", 1, 5,
          importSkipLayerNormalization);
    addIn(kMicrosoftDomain, "SkipSimplifiedLayerNormalization", 1, 4,
          importSkipSimplifiedLayerNormalization);
    add("SimplifiedLayerNormalization", 1, 2,
        importSimplifiedLayerNormalization);
    addIn(kMicrosoftDomain, "FusedMatMul", 1, 2, importFusedMatMul);
    addIn(kMicrosoftDomain, "RotaryEmbedding", 1, 4,
          importContribRotaryEmbedding);
    addIn(kMicrosoftDomain, "GroupQueryAttention", 1, 12,
          importGroupQueryAttention);
    addIn(kMicrosoftDomain, "MultiHeadAttention", 1, 10,
          importMultiHeadAttention);
    addIn(kMicrosoftDomain, "MatMulNBits", 1, 6, importMatMulNBits);
    addIn(kMicrosoftDomain, "Attention", 1, 7, importContribAttention);
    addIn(kMicrosoftDomain, "EmbedLayerNormalization", 1, 9,
          importEmbedLayerNormalization);
    // Optimizers of the training domain (its opset 1).
    for (StringRef op : {"Adagrad", "Adam", "Momentum"})
      addIn(kTrainingDomain, op, 1);
    // Control flow: subgraphs become regions.
    add("If", 1, 0, importIf);
    add("Loop", 1, 0, importLoop);
    add("Scan", 8, 0, importScanV8);
    add("Scan", 9, 0, importScan);
    // Sequences and optionals (ops/Sequence.td).
    add("SequenceEmpty", 11, 0, importSequenceEmpty);
    add("SequenceConstruct", 11);
    add("SequenceInsert", 11, 3);
    add("SequenceAt", 11);
    add("SequenceErase", 11, 2);
    add("SequenceLength", 11);
    add("SplitToSequence", 11, 2);
    add("ConcatFromSequence", 11);
    add("SequenceMap", 17, 0, importSequenceMap);
    // The preview domain (onnx/defs/preview).
    addIn("ai.onnx.preview", "FlexAttention", 1, 3, importFlexAttention);
    add("Optional", 15, 1, importOptional);
    add("OptionalHasElement", 15, 1);
    add("OptionalGetElement", 15);
    addIn(kMLDomain, "ZipMap", 1);
    addIn(kMLDomain, "DictVectorizer", 1);
  }
};
} // namespace

static const Registry &getRegistry() {
  static const Registry registry;
  return registry;
}

} // namespace onnxc::frontend

std::vector<onnxc::OperatorSupport> onnxc::listSupportedOperators() {
  std::vector<OperatorSupport> list;
  for (const auto &domain : frontend::getRegistry().domains) {
    for (const auto &op : domain.getValue()) {
      OperatorSupport entry{domain.getKey().str(), op.getKey().str(), {}};
      for (const frontend::OpImporter &form : op.getValue())
        entry.sinceOpsets.push_back(form.sinceOpset);
      llvm::sort(entry.sinceOpsets);
      list.push_back(std::move(entry));
    }
  }
  llvm::sort(list, [](const OperatorSupport &a, const OperatorSupport &b) {
    return std::tie(a.domain, a.opType) < std::tie(b.domain, b.opType);
  });
  return list;
}

int64_t onnxc::newestSupportedOpset() { return frontend::kMaxOpset; }

namespace onnxc::frontend {

bool isSupportedDomain(StringRef domain) {
  return getRegistry().domains.contains(domain);
}

const OpImporter *lookupOpImporter(StringRef domain, StringRef opType,
                                   int64_t opset, bool &known) {
  known = false;
  const Registry &registry = getRegistry();
  auto ops = registry.domains.find(domain);
  if (ops == registry.domains.end())
    return nullptr;
  auto it = ops->second.find(opType);
  known = it != ops->second.end();
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

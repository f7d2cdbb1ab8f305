//===- ONNXExporter.cpp - The onnx dialect to an ONNX ModelProto ----------===//

#include "lib/Frontend/Frontend.h"
#include "lib/Frontend/FrontendInternal.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace onnxc::frontend;

namespace {

/// Constants of at most this many elements stay Constant nodes; larger ones
/// (and all former initializers) are written as initializers.
constexpr int64_t kInlineConstantElements = 16;

class GraphExporter {
public:
  GraphExporter(ModuleOp module) : module(module) {}
  LogicalResult exportTo(::onnx::ModelProto &model);

private:
  LogicalResult fail(Operation *op, const Twine &message) {
    op->emitError() << message;
    return failure();
  }
  std::string nameOf(Value value) {
    auto it = names.find(value);
    return it == names.end() ? std::string() : it->second;
  }
  std::string freshName(StringRef base) {
    std::string name = base.str();
    while (!usedNames.insert(name).second)
      name = (base + "_" + Twine(++counter)).str();
    return name;
  }
  LogicalResult exportValueInfo(Value value, StringRef name,
                                DictionaryAttr attrs,
                                ::onnx::ValueInfoProto &info);
  LogicalResult exportOp(Operation *op, ::onnx::GraphProto &graph);
  /// Writes `region` (of an If, Loop or Scan) as the graph attribute `name`
  /// of `node`: its arguments the graph's inputs, its ops the nodes, each
  /// yielded value an output through an Identity of its own. Values of
  /// enclosing graphs are read by their names.
  LogicalResult exportSubgraph(Region &region, StringRef name,
                               ::onnx::NodeProto &node);
  /// Writes an empty tensor of `dtype` as an initializer of `graph` and
  /// returns its name: the input of an optional operand left out where the
  /// opset still requires it.
  std::string emptyInput(StringRef base, int32_t dtype,
                         ::onnx::GraphProto &graph);
  /// Writes a 0-D int64 tensor holding `value` as an initializer of `graph`
  /// and returns its name: an attribute that a newer opset takes as an
  /// input.
  std::string scalarInput(StringRef base, int64_t value,
                          ::onnx::GraphProto &graph);
  LogicalResult exportOutputs(mlir::func::FuncOp func, mlir::func::ReturnOp ret,
                              llvm::ArrayRef<std::string> outputNames,
                              ::onnx::GraphProto &graph);
  void removeUnreadConstants(::onnx::GraphProto &graph);
  LogicalResult exportAttribute(NamedAttribute attr,
                                ::onnx::AttributeProto &out, Operation *op);
  /// Adds the attributes that opsets before 7 need to keep the op's meaning.
  LogicalResult exportLegacyAttributes(Operation *op, ::onnx::NodeProto &node);
  /// Rewrites an input that older opsets took as an attribute.
  LogicalResult inputToAttribute(Operation *op, unsigned index, StringRef name,
                                 ::onnx::NodeProto &node);

  ModuleOp module;
  int64_t opset = 0;
  llvm::DenseMap<Value, std::string> names;
  llvm::StringSet<> usedNames;
  /// Whether an op of the training domain was written (the domain is then
  /// imported).
  bool usesTrainingDomain = false;
  /// Whether a com.microsoft op was written (the domain is then imported).
  bool usesMicrosoftDomain = false;
  unsigned counter = 0;
};

} // namespace

LogicalResult GraphExporter::exportValueInfo(Value value, StringRef name,
                                             DictionaryAttr attrs,
                                             ::onnx::ValueInfoProto &info) {
  info.set_name(name.str());
  auto type = dyn_cast<TensorType>(value.getType());
  auto dtype =
      type ? onnxc::onnx::getONNXDType(type.getElementType()) : std::nullopt;
  if (!dtype) {
    emitError(value.getLoc())
        << "cannot export value '" << name << "' of type " << value.getType();
    return failure();
  }
  auto *tensor = info.mutable_type()->mutable_tensor_type();
  tensor->set_elem_type(*dtype);
  if (!type.hasRank())
    return success();
  auto *shape = tensor->mutable_shape();
  ArrayAttr params =
      attrs ? attrs.getAs<ArrayAttr>("onnx.dim_params") : nullptr;
  for (auto [i, d] : llvm::enumerate(type.getShape())) {
    auto *dim = shape->add_dim();
    if (!ShapedType::isDynamic(d)) {
      dim->set_dim_value(d);
      continue;
    }
    if (params && i < params.size())
      if (auto p = dyn_cast<StringAttr>(params[i]); p && !p.getValue().empty())
        dim->set_dim_param(p.str());
  }
  return success();
}

LogicalResult GraphExporter::exportAttribute(NamedAttribute attr,
                                             ::onnx::AttributeProto &out,
                                             Operation *op) {
  out.set_name(attr.getName().str());
  Attribute value = attr.getValue();
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    out.set_type(::onnx::AttributeProto::INT);
    out.set_i(i.getInt());
  } else if (auto f = dyn_cast<FloatAttr>(value)) {
    out.set_type(::onnx::AttributeProto::FLOAT);
    out.set_f(f.getValueAsDouble());
  } else if (auto s = dyn_cast<StringAttr>(value)) {
    out.set_type(::onnx::AttributeProto::STRING);
    out.set_s(s.str());
  } else if (auto ints = dyn_cast<DenseI64ArrayAttr>(value)) {
    out.set_type(::onnx::AttributeProto::INTS);
    for (int64_t v : ints.asArrayRef())
      out.add_ints(v);
  } else if (auto floats = dyn_cast<DenseF32ArrayAttr>(value)) {
    out.set_type(::onnx::AttributeProto::FLOATS);
    for (float v : floats.asArrayRef())
      out.add_floats(v);
  } else if (auto elements = dyn_cast<ElementsAttr>(value)) {
    out.set_type(::onnx::AttributeProto::TENSOR);
    std::string error;
    if (failed(fillTensorProto(elements, *out.mutable_t(), error)))
      return fail(op, "attribute '" + attr.getName().str() + "' " + error);
  } else if (auto array = dyn_cast<ArrayAttr>(value)) {
    out.set_type(::onnx::AttributeProto::STRINGS);
    for (Attribute a : array)
      out.add_strings(cast<StringAttr>(a).str());
  } else {
    return fail(op, "cannot export attribute '" + attr.getName().str() + "'");
  }
  return success();
}

LogicalResult GraphExporter::inputToAttribute(Operation *op, unsigned index,
                                              StringRef name,
                                              ::onnx::NodeProto &node) {
  Value input = op->getOperand(index);
  if (onnxc::onnx::isNoValue(input))
    return success();
  auto values = onnxc::onnx::getConstantIntValues(input);
  if (!values)
    return fail(op, "cannot write '" + name + "' as an attribute at opset " +
                        Twine(opset) + ": it is not a constant");
  auto *attr = node.add_attribute();
  attr->set_name(name.str());
  attr->set_type(::onnx::AttributeProto::INTS);
  for (int64_t v : *values)
    attr->add_ints(v);
  return success();
}

LogicalResult GraphExporter::exportOp(Operation *op,
                                      ::onnx::GraphProto &graph) {
  if (isa<onnxc::onnx::NoValueOp>(op))
    return success();
  if (auto constant = dyn_cast<onnxc::onnx::ConstantOp>(op)) {
    auto initName = op->getAttrOfType<StringAttr>("onnx.name");
    ElementsAttr value = constant.getValue();
    if (initName || value.getNumElements() > kInlineConstantElements) {
      std::string name = freshName(initName ? initName.getValue() : "const");
      names[constant.getResult()] = name;
      auto *init = graph.add_initializer();
      init->set_name(name);
      std::string error;
      if (failed(fillTensorProto(value, *init, error)))
        return fail(op, "constant '" + name + "' " + error);
      return success();
    }
  }
  StringRef opType = op->getName().stripDialect();
  // The fused dialect's ops are ONNX Runtime's com.microsoft FusedConv and
  // FusedGemm (onnx-opt --fuse-activations); their activation_params are
  // FusedGemm's activation_alpha and activation_beta.
  bool isFused = op->getName().getDialectNamespace() == "fused";
  StringRef fusedType = opType == "conv"   ? "FusedConv"
                        : opType == "gemm" ? "FusedGemm"
                                           : "";
  if (isFused && fusedType.empty())
    return fail(op,
                "cannot export '" + op->getName().getStringRef() + "' to ONNX");
  if (!isFused &&
      op->getDialect() != module->getContext()->getLoadedDialect("onnx"))
    return fail(op, "cannot export non-onnx op '" +
                        op->getName().getStringRef() + "' to ONNX");
  if (isa<onnxc::onnx::ScanOp>(op) && opset < 9)
    return fail(op, "cannot write Scan at opset " + Twine(opset) +
                        ": its form before opset 9 takes sequence lengths");
  auto *node = graph.add_node();
  node->set_op_type(isFused ? fusedType.str() : opType.str());
  if (isFused) {
    node->set_domain("com.microsoft");
    usesMicrosoftDomain = true;
  }
  if (isa<onnxc::onnx::AdagradOp, onnxc::onnx::AdamOp, onnxc::onnx::MomentumOp>(
          op)) {
    node->set_domain(kTrainingDomain.str());
    usesTrainingDomain = true;
  }
  std::string base = opType.str();
  if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
    base = loc.getName().str();
  node->set_name(freshName(base));

  // Operands: an older opset's attribute form, or inputs.
  unsigned numInputs = op->getNumOperands();
  bool axesAsAttribute =
      (isa<onnxc::onnx::SqueezeOp, onnxc::onnx::UnsqueezeOp,
           onnxc::onnx::ReduceSumOp>(op) &&
       opset < 13) ||
      (isa<onnxc::onnx::ReduceMeanOp, onnxc::onnx::ReduceMaxOp,
           onnxc::onnx::ReduceMinOp, onnxc::onnx::ReduceProdOp,
           onnxc::onnx::ReduceL1Op, onnxc::onnx::ReduceL2Op,
           onnxc::onnx::ReduceLogSumOp, onnxc::onnx::ReduceLogSumExpOp,
           onnxc::onnx::ReduceSumSquareOp>(op) &&
       opset < 18);
  // Attributes that the op's older form takes in place of an input, or
  // leaves implicit, are not written.
  SmallVector<StringRef> implicitAttributes;
  // Inputs in another order than the operands', where the form needs it.
  std::optional<SmallVector<Value>> inputOverride;
  if (isa<onnxc::onnx::ScatterElementsOp>(op) && opset < 11)
    node->set_op_type("Scatter");
  if (isa<onnxc::onnx::SplitOp>(op) && opset < 18)
    implicitAttributes.push_back("num_outputs");
  if (axesAsAttribute) {
    if (failed(inputToAttribute(op, 1, "axes", *node)))
      return failure();
    numInputs = 1;
  } else if (isa<onnxc::onnx::SliceOp>(op) && opset < 10) {
    if (!onnxc::onnx::isNoValue(op->getOperand(4)))
      return fail(op, "cannot write Slice 'steps' at opset " + Twine(opset));
    if (failed(inputToAttribute(op, 1, "starts", *node)) ||
        failed(inputToAttribute(op, 2, "ends", *node)) ||
        failed(inputToAttribute(op, 3, "axes", *node)))
      return failure();
    numInputs = 1;
  } else if (isa<onnxc::onnx::ReshapeOp>(op) && opset < 5) {
    if (failed(inputToAttribute(op, 1, "shape", *node)))
      return failure();
    numInputs = 1;
  } else if (isa<onnxc::onnx::ClipOp>(op) && opset < 11) {
    for (unsigned i = 1; i < 3; ++i) {
      Value bound = op->getOperand(i);
      if (onnxc::onnx::isNoValue(bound))
        continue;
      auto dense = onnxc::onnx::getDenseConstant(bound);
      if (!dense || !isa<FloatType>(dense.getElementType()))
        return fail(op, "cannot write Clip bounds as attributes at opset " +
                            Twine(opset));
      auto *attr = node->add_attribute();
      attr->set_name(i == 1 ? "min" : "max");
      attr->set_type(::onnx::AttributeProto::FLOAT);
      attr->set_f((*dense.getValues<APFloat>().begin()).convertToDouble());
    }
    numInputs = 1;
  } else if (isa<onnxc::onnx::SplitOp>(op) && opset < 13) {
    if (failed(inputToAttribute(op, 1, "split", *node)))
      return failure();
    numInputs = 1;
  } else if (isa<onnxc::onnx::PadOp>(op) && opset < 11) {
    if (!onnxc::onnx::isNoValue(op->getOperand(3)))
      return fail(op, "cannot write Pad 'axes' at opset " + Twine(opset));
    if (failed(inputToAttribute(op, 1, "pads", *node)))
      return failure();
    if (!onnxc::onnx::isNoValue(op->getOperand(2))) {
      auto dense = onnxc::onnx::getDenseConstant(op->getOperand(2));
      if (!dense || dense.getNumElements() != 1)
        return fail(op, "cannot write a Pad value that is not a constant at "
                        "opset " +
                            Twine(opset));
      auto *attr = node->add_attribute();
      attr->set_name("value");
      attr->set_type(::onnx::AttributeProto::FLOAT);
      attr->set_f(isa<FloatType>(dense.getElementType())
                      ? (*dense.getValues<APFloat>().begin()).convertToDouble()
                      : (*dense.getValues<APInt>().begin()).getSExtValue());
    }
    numInputs = 1;
  } else if (isa<onnxc::onnx::QuantizeLinearOp,
                 onnxc::onnx::DequantizeLinearOp>(op) &&
             opset < 21 && op->getAttrOfType<IntegerAttr>("block_size") &&
             op->getAttrOfType<IntegerAttr>("block_size").getInt() != 0) {
    return fail(op, "cannot write blocked quantization ('block_size') at "
                    "opset " +
                        Twine(opset) + " (it came in opset 21)");
  } else if (auto resize = dyn_cast<onnxc::onnx::ResizeOp>(op);
             resize && !onnxc::onnx::isNoValue(resize.getScales()) &&
             !onnxc::onnx::isNoValue(resize.getSizes())) {
    // The importer's form of keep_aspect_ratio_policy: ONNX takes one.
    return fail(op, "cannot write a Resize with both scales and sizes (an "
                    "imported keep_aspect_ratio_policy)");
  } else if (auto resize = dyn_cast<onnxc::onnx::ResizeOp>(op);
             resize && resize.getAntialias() && opset < 18) {
    return fail(op, "cannot write Resize's antialias at opset " + Twine(opset) +
                        " (it came in opset 18)");
  } else if (auto resize = dyn_cast<onnxc::onnx::ResizeOp>(op);
             resize && opset < 11) {
    // Resize (opset 10) and Upsample (opsets 7 to 9) take X and scales,
    // with asymmetric coordinates and floor rounding implied.
    if (onnxc::onnx::isNoValue(resize.getScales()) ||
        resize.getMode() == "cubic" ||
        resize.getCoordinateTransformationMode() != "asymmetric" ||
        (resize.getMode() == "nearest" && resize.getNearestMode() != "floor"))
      return fail(op, "cannot write this Resize at opset " + Twine(opset) +
                          ": only nearest (floor) or linear by scales with "
                          "asymmetric coordinates");
    implicitAttributes.append(
        {"coordinate_transformation_mode", "nearest_mode"});
    if (opset < 10)
      node->set_op_type("Upsample");
    if (opset < 9) {
      auto scales = onnxc::onnx::getConstantFloatValues(resize.getScales());
      if (!scales)
        return fail(op, "cannot write Upsample 'scales' as an attribute at "
                        "opset " +
                            Twine(opset) + ": it is not a constant");
      auto *attr = node->add_attribute();
      attr->set_name("scales");
      attr->set_type(::onnx::AttributeProto::FLOATS);
      for (double v : *scales)
        attr->add_floats(static_cast<float>(v));
      numInputs = 1;
    } else {
      inputOverride = {resize.getX(), resize.getScales()};
    }
  } else if (isa<onnxc::onnx::TopKOp>(op) && opset < 10) {
    auto k = onnxc::onnx::getConstantIntValues(op->getOperand(1));
    if (!k || k->size() != 1)
      return fail(op, "cannot write TopK 'K' as an attribute at opset " +
                          Twine(opset) + ": it is not a constant");
    auto *attr = node->add_attribute();
    attr->set_name("k");
    attr->set_type(::onnx::AttributeProto::INT);
    attr->set_i((*k)[0]);
    numInputs = 1;
  }
  SmallVector<std::string> inputs;
  for (Value operand : inputOverride ? ValueRange(*inputOverride)
                                     : op->getOperands().take_front(numInputs))
    inputs.push_back(onnxc::onnx::isNoValue(operand) ? "" : nameOf(operand));
  // Resize's roi and scales may be left out only from opset 13 on.
  if (isa<onnxc::onnx::ResizeOp>(op) && opset >= 11 && opset < 13 &&
      inputs.size() > 2)
    for (auto [index, base] : {std::pair(1, "roi"), std::pair(2, "scales")})
      if (inputs[index].empty())
        inputs[index] = emptyInput(node->name() + "_" + base,
                                   ::onnx::TensorProto::FLOAT, graph);
  // DFT takes `axis` as its third input from opset 20 on.
  if (auto dft = dyn_cast<onnxc::onnx::DFTOp>(op); dft && opset >= 20) {
    auto axis = static_cast<int64_t>(dft.getAxis());
    inputs.resize(2);
    inputs.push_back(scalarInput(node->name() + "_axis", axis, graph));
    implicitAttributes.push_back("axis");
  }
  while (!inputs.empty() && inputs.back().empty())
    inputs.pop_back();
  for (const std::string &input : inputs)
    node->add_input(input);

  // Unread optional outputs are left out (an empty name before a read one);
  // Split's are all written, their count sets the part sizes.
  SmallVector<std::string> outputs;
  for (OpResult result : op->getResults()) {
    if (result.use_empty() && result.getResultNumber() > 0 &&
        !isa<onnxc::onnx::SplitOp>(op)) {
      outputs.emplace_back();
      continue;
    }
    std::string name = freshName(node->name() + "_out" +
                                 std::to_string(result.getResultNumber()));
    names[result] = name;
    outputs.push_back(name);
  }
  while (outputs.back().empty())
    outputs.pop_back();
  for (const std::string &output : outputs)
    node->add_output(output);
  // Softmax, LogSoftmax and Hardmax before opset 13 flatten to 2-D at `axis`
  // (1 by default): the same only over the last dim, written explicitly.
  if (isa<onnxc::onnx::SoftmaxOp, onnxc::onnx::LogSoftmaxOp,
          onnxc::onnx::HardmaxOp>(op) &&
      opset < 13) {
    if (auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType())) {
      int64_t axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
      if (axis < 0)
        axis += type.getRank();
      if (axis != type.getRank() - 1)
        return fail(op, "cannot write " + opType +
                            " over a dim other than the "
                            "last at opset " +
                            Twine(opset));
      auto *attr = node->add_attribute();
      attr->set_name("axis");
      attr->set_type(::onnx::AttributeProto::INT);
      attr->set_i(axis);
      implicitAttributes.push_back("axis");
    }
  }
  // Attributes at their default value are left out: older opsets may not
  // know them (ReduceMean's noop_with_empty_axes, Reshape's allowzero).
  NamedAttrList defaults;
  op->getName().populateDefaultAttrs(defaults);
  for (NamedAttribute attr : op->getAttrs()) {
    if (attr.getName().getValue().starts_with("onnx.") ||
        defaults.get(attr.getName()) == attr.getValue() ||
        llvm::is_contained(implicitAttributes, attr.getName().getValue()))
      continue;
    if (isa<onnxc::onnx::CastOp>(op) && opset < 6 && attr.getName() == "to") {
      // Cast names the data type before opset 6.
      auto *to = node->add_attribute();
      to->set_name("to");
      to->set_type(::onnx::AttributeProto::STRING);
      to->set_s(::onnx::TensorProto::DataType_Name(
          static_cast<::onnx::TensorProto::DataType>(
              cast<IntegerAttr>(attr.getValue()).getInt())));
      continue;
    }
    if (isa<onnxc::onnx::GridSampleOp>(op) && opset >= 20 &&
        attr.getName() == "mode") {
      // Opset 20 renamed the interpolations: bilinear (the default, left
      // out above) is linear, bicubic cubic.
      StringRef mode = cast<StringAttr>(attr.getValue()).getValue();
      auto *out = node->add_attribute();
      out->set_name("mode");
      out->set_type(::onnx::AttributeProto::STRING);
      out->set_s(mode == "bicubic" ? "cubic" : mode.str());
      continue;
    }
    if (isFused && attr.getName() == "activation_params") {
      auto params = cast<DenseF32ArrayAttr>(attr.getValue()).asArrayRef();
      if (params.empty())
        continue;
      if (fusedType == "FusedConv") {
        if (failed(exportAttribute(attr, *node->add_attribute(), op)))
          return failure();
        continue;
      }
      for (auto [name, value] :
           llvm::zip(ArrayRef<StringRef>{"activation_alpha", "activation_beta"},
                     params)) {
        auto *param = node->add_attribute();
        param->set_name(name.str());
        param->set_type(::onnx::AttributeProto::FLOAT);
        param->set_f(value);
      }
      continue;
    }
    if (failed(exportAttribute(attr, *node->add_attribute(), op)))
      return failure();
  }
  // If's branches, Loop's and Scan's body.
  SmallVector<StringRef, 2> graphNames;
  if (isa<onnxc::onnx::IfOp>(op))
    graphNames = {"then_branch", "else_branch"};
  else
    graphNames = {"body"};
  for (auto [region, name] : llvm::zip(op->getRegions(), graphNames))
    if (failed(exportSubgraph(region, name, *node)))
      return failure();
  return opset < 7 ? exportLegacyAttributes(op, *node) : success();
}

LogicalResult GraphExporter::exportSubgraph(Region &region, StringRef name,
                                            ::onnx::NodeProto &node) {
  auto *attr = node.add_attribute();
  attr->set_name(name.str());
  attr->set_type(::onnx::AttributeProto::GRAPH);
  ::onnx::GraphProto &graph = *attr->mutable_g();
  std::string prefix = node.name() + "_" + name.str();
  graph.set_name(prefix);
  Block &block = region.front();
  for (BlockArgument arg : block.getArguments()) {
    std::string argName =
        freshName(prefix + "_in" + std::to_string(arg.getArgNumber()));
    names[arg] = argName;
    if (failed(exportValueInfo(arg, argName, nullptr, *graph.add_input())))
      return failure();
  }
  for (Operation &inner : block.without_terminator())
    if (failed(exportOp(&inner, graph)))
      return failure();
  for (auto [index, value] :
       llvm::enumerate(block.getTerminator()->getOperands())) {
    std::string output = freshName(prefix + "_out" + std::to_string(index));
    auto *identity = graph.add_node();
    identity->set_op_type("Identity");
    identity->set_name(freshName("Identity_" + output));
    identity->add_input(nameOf(value));
    identity->add_output(output);
    if (failed(exportValueInfo(value, output, nullptr, *graph.add_output())))
      return failure();
  }
  return success();
}

std::string GraphExporter::scalarInput(StringRef base, int64_t value,
                                       ::onnx::GraphProto &graph) {
  auto *init = graph.add_initializer();
  init->set_name(freshName(base));
  init->set_data_type(::onnx::TensorProto::INT64);
  init->add_int64_data(value);
  return init->name();
}

std::string GraphExporter::emptyInput(StringRef base, int32_t dtype,
                                      ::onnx::GraphProto &graph) {
  auto *init = graph.add_initializer();
  init->set_name(freshName(base));
  init->set_data_type(dtype);
  init->add_dims(0);
  return init->name();
}

/// True when `from` broadcasts to `to` in one direction: trailing dims align
/// and each dim of `from` equals its partner or is 1.
static bool broadcastsTo(Type from, Type to) {
  auto f = dyn_cast<RankedTensorType>(from);
  auto t = dyn_cast<RankedTensorType>(to);
  if (!f || !t || f.getRank() > t.getRank())
    return false;
  int64_t offset = t.getRank() - f.getRank();
  for (int64_t i = 0; i < f.getRank(); ++i)
    if (f.getDimSize(i) != 1 && f.getDimSize(i) != t.getDimSize(i + offset))
      return false;
  return true;
}

LogicalResult GraphExporter::exportLegacyAttributes(Operation *op,
                                                    ::onnx::NodeProto &node) {
  auto addInt = [&](StringRef name, int64_t value) {
    auto *attr = node.add_attribute();
    attr->set_name(name.str());
    attr->set_type(::onnx::AttributeProto::INT);
    attr->set_i(value);
  };
  // BatchNormalization normalizes with running statistics only when told.
  if (isa<onnxc::onnx::BatchNormalizationOp>(op)) {
    addInt("is_test", 1);
    return success();
  }
  // Binary ops broadcast only B, and only with `broadcast = 1`.
  if (!isa<onnxc::onnx::AddOp, onnxc::onnx::SubOp, onnxc::onnx::MulOp,
           onnxc::onnx::DivOp, onnxc::onnx::PowOp, onnxc::onnx::EqualOp,
           onnxc::onnx::LessOp, onnxc::onnx::GreaterOp, onnxc::onnx::AndOp,
           onnxc::onnx::OrOp, onnxc::onnx::XorOp>(op))
    return success();
  auto a = dyn_cast<ShapedType>(op->getOperand(0).getType());
  auto b = dyn_cast<ShapedType>(op->getOperand(1).getType());
  if (a.hasRank() && b.hasRank() && a.getShape() == b.getShape())
    return success();
  if (!broadcastsTo(b, a))
    return fail(op, "cannot write the broadcast of " +
                        Twine(op->getName().stripDialect()) + " at opset " +
                        Twine(opset) +
                        ": before opset 7 only B broadcasts to A");
  addInt("broadcast", 1);
  return success();
}

LogicalResult GraphExporter::exportTo(::onnx::ModelProto &model) {
  auto func = module.lookupSymbol<func::FuncOp>(onnxc::kMainGraphName);
  if (!func)
    return module.emitError("has no @main_graph function to export"), failure();
  auto opsets = module->getAttrOfType<DictionaryAttr>("onnx.opset_import");
  if (!opsets || opsets.empty()) {
    opsets = DictionaryAttr::get(
        module.getContext(),
        {NamedAttribute(
            StringAttr::get(module.getContext(), "ai.onnx"),
            IntegerAttr::get(IntegerType::get(module.getContext(), 64),
                             kDefaultExportOpset))});
  }
  for (NamedAttribute entry : opsets) {
    auto *op = model.add_opset_import();
    int64_t version = cast<IntegerAttr>(entry.getValue()).getInt();
    if (entry.getName() == "ai.onnx")
      opset = version;
    else
      op->set_domain(entry.getName().str());
    op->set_version(version);
  }
  // A model of other domains only (ai.onnx.ml...) whose ops the importer
  // expanded into default-domain ones: those are written at the default
  // export opset, which needs IR version 10.
  auto ir = module->getAttrOfType<IntegerAttr>("onnx.ir_version");
  int64_t irVersion = ir && ir.getInt() > 0 ? ir.getInt() : 8;
  bool writesDefaultDomain = false;
  func.walk([&](Operation *op) {
    writesDefaultDomain |=
        op->getDialect() == module->getContext()->getLoadedDialect("onnx") &&
        !isa<onnxc::onnx::AdagradOp, onnxc::onnx::AdamOp,
             onnxc::onnx::MomentumOp, onnxc::onnx::ConstantOp,
             onnxc::onnx::YieldOp>(op);
  });
  if (opset == 0 && writesDefaultDomain) {
    opset = kDefaultExportOpset;
    model.add_opset_import()->set_version(opset);
    irVersion = std::max<int64_t>(irVersion, 10);
  }
  model.set_ir_version(irVersion);
  model.set_producer_name("onnxc");
  ::onnx::GraphProto &graph = *model.mutable_graph();
  auto graphName = module->getAttrOfType<StringAttr>("onnx.graph_name");
  graph.set_name(graphName ? graphName.str() : "main_graph");

  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    DictionaryAttr attrs = func.getArgAttrDict(i);
    auto name = attrs ? attrs.getAs<StringAttr>("onnx.name") : nullptr;
    std::string argName =
        freshName(name ? name.getValue() : "input_" + std::to_string(i));
    names[arg] = argName;
    if (failed(exportValueInfo(arg, argName, attrs, *graph.add_input())))
      return failure();
  }
  // Output names are reserved first so inner values never take them.
  SmallVector<std::string> outputNames;
  for (unsigned i = 0; i < func.getNumResults(); ++i) {
    auto name = func.getResultAttrOfType<StringAttr>(i, "onnx.name");
    outputNames.push_back(
        freshName(name ? name.getValue() : "output_" + std::to_string(i)));
  }
  // An If branch that shape inference found unable to run (see
  // onnx-shape-inference): ONNX has no node that fails on purpose.
  cf::AssertOp trap;
  func.walk([&](cf::AssertOp op) {
    trap = op;
    return WalkResult::interrupt();
  });
  if (trap)
    return fail(trap->getParentOp(),
                "cannot write as ONNX an If branch that fails at run time (" +
                    trap.getMsg() + ")");
  for (Operation &op : func.getBody().front().without_terminator())
    if (failed(exportOp(&op, graph)))
      return failure();
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  if (failed(exportOutputs(func, ret, outputNames, graph)))
    return failure();
  removeUnreadConstants(graph);
  if (usesMicrosoftDomain &&
      llvm::none_of(model.opset_import(),
                    [](const ::onnx::OperatorSetIdProto &entry) {
                      return entry.domain() == "com.microsoft";
                    })) {
    auto *entry = model.add_opset_import();
    entry->set_domain("com.microsoft");
    entry->set_version(1);
  }
  if (usesTrainingDomain &&
      llvm::none_of(model.opset_import(),
                    [](const ::onnx::OperatorSetIdProto &entry) {
                      return entry.domain() == kTrainingDomain;
                    })) {
    auto *entry = model.add_opset_import();
    entry->set_domain(kTrainingDomain.str());
    entry->set_version(1);
  }
  // Before IR version 4 every initializer is also a graph input.
  if (model.ir_version() < 4) {
    for (const ::onnx::TensorProto &init : graph.initializer()) {
      auto *input = graph.add_input();
      input->set_name(init.name());
      auto *tensor = input->mutable_type()->mutable_tensor_type();
      tensor->set_elem_type(init.data_type());
      auto *shape = tensor->mutable_shape();
      for (int64_t d : init.dims())
        shape->add_dim()->set_dim_value(d);
    }
  }
  return success();
}

/// Calls `fn` on every node of `graph` and of the subgraphs in its nodes'
/// attributes, at any depth.
static void forEachNode(::onnx::GraphProto &graph,
                        llvm::function_ref<void(::onnx::NodeProto &)> fn) {
  for (::onnx::NodeProto &node : *graph.mutable_node()) {
    fn(node);
    for (::onnx::AttributeProto &attr : *node.mutable_attribute())
      if (attr.has_g())
        forEachNode(*attr.mutable_g(), fn);
  }
}

/// Removes the Constant nodes and initializers of `graph` and its subgraphs
/// that no name in `read` refers to.
static void removeUnread(::onnx::GraphProto &graph,
                         const llvm::StringSet<> &read) {
  auto *nodes = graph.mutable_node();
  nodes->erase(std::remove_if(nodes->begin(), nodes->end(),
                              [&](const ::onnx::NodeProto &node) {
                                return node.op_type() == "Constant" &&
                                       !read.contains(node.output(0));
                              }),
               nodes->end());
  auto *inits = graph.mutable_initializer();
  inits->erase(std::remove_if(inits->begin(), inits->end(),
                              [&](const ::onnx::TensorProto &init) {
                                return !read.contains(init.name());
                              }),
               inits->end());
  for (::onnx::NodeProto &node : *nodes)
    for (::onnx::AttributeProto &attr : *node.mutable_attribute())
      if (attr.has_g())
        removeUnread(*attr.mutable_g(), read);
}

void GraphExporter::removeUnreadConstants(::onnx::GraphProto &graph) {
  // Constants that became attributes (Squeeze axes at opset 11, ...) have no
  // reader left. Subgraphs read the enclosing graphs' values by name.
  llvm::StringSet<> read;
  forEachNode(graph, [&](::onnx::NodeProto &node) {
    for (const std::string &input : node.input())
      read.insert(input);
  });
  for (const auto &output : graph.output())
    read.insert(output.name());
  removeUnread(graph, read);
}

LogicalResult GraphExporter::exportOutputs(func::FuncOp func,
                                           func::ReturnOp ret,
                                           ArrayRef<std::string> outputNames,
                                           ::onnx::GraphProto &graph) {
  for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
    std::string inner = nameOf(value);
    const std::string &outer = outputNames[i];
    // Rename the producing node's output, or add an Identity when the value
    // is also a graph input, another output, or an initializer.
    bool renamed = false;
    if (Operation *def = value.getDefiningOp();
        def && !isa<onnxc::onnx::ConstantOp>(def)) {
      for (auto &node : *graph.mutable_node())
        for (auto &out : *node.mutable_output())
          if (out == inner && llvm::count(ret.getOperands(), value) == 1) {
            out = outer;
            renamed = true;
          }
      // Readers in subgraphs too.
      if (renamed)
        forEachNode(graph, [&](::onnx::NodeProto &node) {
          for (auto &in : *node.mutable_input())
            if (in == inner)
              in = outer;
        });
    }
    if (!renamed) {
      auto *node = graph.add_node();
      node->set_op_type("Identity");
      node->set_name(freshName("Identity_" + outer));
      node->add_input(inner);
      node->add_output(outer);
    }
    names[value] = outer;
    if (failed(exportValueInfo(value, outer, func.getResultAttrDict(i),
                               *graph.add_output())))
      return failure();
  }
  return success();
}

LogicalResult onnxc::exportONNXModel(ModuleOp module, StringRef path) {
  ::onnx::ModelProto model;
  if (failed(GraphExporter(module).exportTo(model)))
    return failure();
  std::string bytes;
  if (!model.SerializeToString(&bytes))
    return module.emitError("cannot serialize the model (over 2 GB?)"),
           failure();
  std::string temp = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(temp, ec);
    if (ec)
      return module.emitError("cannot write '")
                 << temp << "': " << ec.message(),
             failure();
    os << bytes;
    os.close();
    if (os.has_error()) {
      llvm::sys::fs::remove(temp);
      return module.emitError("cannot write '") << temp << "'", failure();
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    return module.emitError("cannot rename '")
               << temp << "' to '" << path << "': " << ec.message(),
           failure();
  }
  return success();
}

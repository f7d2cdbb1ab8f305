//===- ONNXImporter.cpp - ONNX ModelProto to the onnx dialect -------------===//

#include "lib/Frontend/Frontend.h"
#include "lib/Frontend/FrontendInternal.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/text_format.h>

#include <queue>
#include <set>

using namespace mlir;
using namespace onnxc::frontend;

namespace {

class GraphImporter {
public:
  GraphImporter(MLIRContext *ctx, StringRef path,
                const onnxc::ImportOptions &options)
      : ctx(ctx), path(path), options(options), builder(ctx),
        fileLoc(FileLineColLoc::get(ctx, path, 0, 0)) {}

  OwningOpRef<ModuleOp> import(::onnx::ModelProto &model);

private:
  /// Reports `path: message` and fails.
  LogicalResult fail(const Twine &message) {
    emitError(fileLoc) << message;
    return failure();
  }
  LogicalResult checkOpsets(const ::onnx::ModelProto &model);
  LogicalResult checkOperators(const ::onnx::ModelProto &model);
  FailureOr<Type> convertType(const ::onnx::TypeProto &type, StringRef name,
                              SmallVectorImpl<Attribute> &dimParams);
  FailureOr<Attribute> convertAttribute(::onnx::AttributeProto &attr,
                                        std::string &error);
  LogicalResult importNode(::onnx::NodeProto &node, int64_t index);
  LogicalResult importNodes(::onnx::GraphProto &graph);
  LogicalResult importInitializers(::onnx::GraphProto &graph);
  LogicalResult importSubgraph(::onnx::NodeProto &node, StringRef name,
                               Region &region, TypeRange argTypes,
                               std::string &error);
  static std::string nodeName(const ::onnx::NodeProto &node, int64_t index) {
    return node.name().empty() ? node.op_type() + "_" + std::to_string(index)
                               : node.name();
  }
  /// "node 'NAME' (OP)", how diagnostics name a node.
  static std::string describeNode(const ::onnx::NodeProto &node,
                                  int64_t index) {
    return "node '" + nodeName(node, index) + "' (" + node.op_type() + ")";
  }
  Location nodeLoc(const ::onnx::NodeProto &node, int64_t index) {
    return NameLoc::get(StringAttr::get(ctx, nodeName(node, index)), fileLoc);
  }

  MLIRContext *ctx;
  std::string path;
  const onnxc::ImportOptions &options;
  OpBuilder builder;
  Location fileLoc;
  int64_t opset = 0;
  /// The opset the model imports of each domain ("ai.onnx" for the default).
  llvm::StringMap<int64_t> domainOpsets;
  /// ONNX value names in scope, in definition order.
  llvm::MapVector<StringRef, Value> values;
  /// The ranks that value_info and the graph outputs declare.
  llvm::StringMap<int64_t> declaredRanks;
};

} // namespace

LogicalResult GraphImporter::checkOpsets(const ::onnx::ModelProto &model) {
  for (const auto &entry : model.opset_import()) {
    const std::string &domain = entry.domain();
    domainOpsets[domain.empty() ? "ai.onnx" : domain] = entry.version();
    if (domain.empty() || domain == "ai.onnx") {
      opset = entry.version();
      continue;
    }
  }
  // A model of only training-domain ops need not import the default domain.
  if (opset == 0) {
    if (llvm::any_of(domainOpsets, [](const auto &entry) {
          return entry.getKey() != "ai.onnx" &&
                 isSupportedDomain(entry.getKey());
        }))
      return success();
    return fail("the model imports no opset of the default domain 'ai.onnx'");
  }
  if (opset < kMinOpset || opset > kMaxOpset)
    return fail("unsupported opset " + Twine(opset) +
                " of domain 'ai.onnx' (supported: " + Twine(kMinOpset) +
                " to " + Twine(kMaxOpset) + ")");
  return success();
}

/// Reports every node whose operator onnxc cannot import in one diagnostic,
/// grouped by operator in order of first use, so that a user learns the whole
/// gap at once rather than one operator per attempt. Diagnostics are one line
/// (batch reports keep one line per model), so groups are joined by "; ".
LogicalResult GraphImporter::checkOperators(const ::onnx::ModelProto &model) {
  struct Unsupported {
    std::string op, domain, where;
    SmallVector<std::string> nodes;
  };
  SmallVector<Unsupported> unsupported;
  llvm::StringMap<size_t> groupOf; // "domain::op" -> index in `unsupported`
  int64_t numNodes = 0;
  for (auto [position, node] : llvm::enumerate(model.graph().node())) {
    std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
    std::string where;
    auto it = domainOpsets.find(domain);
    if (it == domainOpsets.end()) {
      where = "a domain the model does not import";
    } else {
      int64_t domainOpset = it->second;
      bool known = false;
      if (lookupOpImporter(domain, node.op_type(), domainOpset, known))
        continue;
      where = "opset " + std::to_string(domainOpset) +
              (known ? "; onnxc has it only at later opsets"
               : isSupportedDomain(domain)
                   ? ""
                   : "; onnxc supports only the domains 'ai.onnx' and '" +
                         kTrainingDomain.str() + "'");
    }
    auto [slot, inserted] =
        groupOf.try_emplace(domain + "::" + node.op_type(), unsupported.size());
    if (inserted)
      unsupported.push_back({node.op_type(), domain, where, {}});
    unsupported[slot->second].nodes.push_back(nodeName(node, position));
    ++numNodes;
  }
  if (unsupported.empty())
    return success();
  std::string message;
  llvm::raw_string_ostream os(message);
  os << numNodes << (numNodes == 1 ? " node uses " : " nodes use ")
     << unsupported.size()
     << (unsupported.size() == 1 ? " operator" : " operators")
     << " that onnxc does not support: ";
  constexpr size_t kMaxNodesListed = 3;
  llvm::interleave(
      unsupported, os,
      [&](const Unsupported &entry) {
        os << "unknown or unsupported operator '" << entry.op << "' in domain '"
           << entry.domain << "' (" << entry.where << ") at "
           << (entry.nodes.size() == 1 ? "node " : "nodes ");
        ArrayRef<std::string> listed(entry.nodes);
        llvm::interleave(
            listed.take_front(kMaxNodesListed), os,
            [&](const std::string &name) { os << "'" << name << "'"; }, ", ");
        if (entry.nodes.size() > kMaxNodesListed)
          os << " and " << entry.nodes.size() - kMaxNodesListed << " more";
      },
      "; ");
  return fail(message);
}

/// The type of a sequence, optional or map element (or of a TYPE_PROTO
/// attribute): tensors with their declared dims (`?` for a dim_param),
/// unranked without a shape. Null, with `error` set, for what onnxc does not
/// model (sparse tensors, nested sequences and optionals...).
static Type convertElementTypeProto(MLIRContext *ctx,
                                    const ::onnx::TypeProto &type,
                                    std::string &error) {
  using onnxc::onnx::MapType, onnxc::onnx::OptType, onnxc::onnx::SeqType;
  if (type.has_tensor_type()) {
    const auto &tensor = type.tensor_type();
    Type element = onnxc::onnx::getValueElementType(ctx, tensor.elem_type());
    if (!element) {
      error = "has unsupported data type " + dataTypeName(tensor.elem_type());
      return nullptr;
    }
    if (!tensor.has_shape())
      return UnrankedTensorType::get(element);
    SmallVector<int64_t> dims;
    for (const auto &dim : tensor.shape().dim())
      dims.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                         ? dim.dim_value()
                         : ShapedType::kDynamic);
    return RankedTensorType::get(dims, element);
  }
  if (type.has_sequence_type()) {
    const auto &elem = type.sequence_type().elem_type();
    if (!elem.has_map_type() && !elem.has_tensor_type()) {
      error = "is a sequence of sequences, optionals or sparse tensors, "
              "which onnxc does not model";
      return nullptr;
    }
    Type element = convertElementTypeProto(ctx, elem, error);
    return element ? SeqType::get(ctx, element) : Type();
  }
  if (type.has_map_type()) {
    const auto &map = type.map_type();
    Type key = onnxc::onnx::getValueElementType(ctx, map.key_type());
    const auto &value = map.value_type();
    Type valueType = value.has_tensor_type()
                         ? onnxc::onnx::getValueElementType(
                               ctx, value.tensor_type().elem_type())
                         : Type();
    if (!key || !valueType || !isa<IntegerType, onnxc::onnx::StringType>(key)) {
      error = "is a map of types onnxc does not model (integer or string "
              "keys to scalars)";
      return nullptr;
    }
    return MapType::get(ctx, key, valueType);
  }
  if (type.has_optional_type()) {
    const auto &elem = type.optional_type().elem_type();
    if (!elem.has_tensor_type() && !elem.has_sequence_type()) {
      error = "is an optional of a map or optional, which onnxc does not "
              "model";
      return nullptr;
    }
    Type element = convertElementTypeProto(ctx, elem, error);
    return element ? OptType::get(ctx, element) : Type();
  }
  error = "has no type, or a kind onnxc does not model (sparse tensor)";
  return nullptr;
}

FailureOr<Type>
GraphImporter::convertType(const ::onnx::TypeProto &type, StringRef name,
                           SmallVectorImpl<Attribute> &dimParams) {
  if (!type.has_tensor_type()) {
    std::string error;
    Type converted = convertElementTypeProto(ctx, type, error);
    if (!converted)
      return fail("value '" + name + "' " + error);
    if (options.inputShapes.count(name))
      return fail("--input-shape names '" + name + "', which is not a tensor");
    return converted;
  }
  const auto &tensor = type.tensor_type();
  Type element = onnxc::onnx::getValueElementType(ctx, tensor.elem_type());
  if (!element)
    return fail("value '" + name + "' has unsupported data type " +
                dataTypeName(tensor.elem_type()));
  auto pinned = options.inputShapes.find(name);
  if (!tensor.has_shape()) {
    if (pinned != options.inputShapes.end())
      return Type(RankedTensorType::get(pinned->second, element));
    return Type(UnrankedTensorType::get(element));
  }
  SmallVector<int64_t> dims;
  for (const auto &dim : tensor.shape().dim()) {
    dims.push_back(dim.has_dim_value() && dim.dim_value() >= 0
                       ? dim.dim_value()
                       : ShapedType::kDynamic);
    dimParams.push_back(StringAttr::get(ctx, dim.dim_param()));
  }
  if (pinned != options.inputShapes.end()) {
    if (pinned->second.size() != dims.size())
      return fail("--input-shape for '" + name + "' has rank " +
                  Twine(pinned->second.size()) + " but the input has rank " +
                  Twine(dims.size()));
    for (auto [d, p] : llvm::zip(dims, pinned->second)) {
      if (!ShapedType::isDynamic(d) && d != p)
        return fail("--input-shape for '" + name + "' changes static dim " +
                    Twine(d) + " to " + Twine(p));
      d = p;
    }
  }
  return Type(RankedTensorType::get(dims, element));
}

FailureOr<Attribute>
GraphImporter::convertAttribute(::onnx::AttributeProto &attr,
                                std::string &error) {
  switch (attr.type()) {
  case ::onnx::AttributeProto::FLOAT:
    return Attribute(builder.getF32FloatAttr(attr.f()));
  case ::onnx::AttributeProto::INT:
    return Attribute(builder.getI64IntegerAttr(attr.i()));
  case ::onnx::AttributeProto::STRING:
    return Attribute(builder.getStringAttr(attr.s()));
  case ::onnx::AttributeProto::FLOATS:
    return Attribute(builder.getDenseF32ArrayAttr(
        SmallVector<float>(attr.floats().begin(), attr.floats().end())));
  case ::onnx::AttributeProto::INTS:
    return Attribute(builder.getDenseI64ArrayAttr(
        SmallVector<int64_t>(attr.ints().begin(), attr.ints().end())));
  case ::onnx::AttributeProto::STRINGS: {
    SmallVector<Attribute> strings;
    for (const std::string &s : attr.strings())
      strings.push_back(builder.getStringAttr(s));
    return Attribute(builder.getArrayAttr(strings));
  }
  case ::onnx::AttributeProto::TENSOR: {
    std::string tensorError;
    auto value =
        convertTensor(*attr.mutable_t(), llvm::sys::path::parent_path(path),
                      ctx, tensorError);
    if (failed(value)) {
      error = "attribute '" + attr.name() + "' " + tensorError;
      return failure();
    }
    return Attribute(*value);
  }
  case ::onnx::AttributeProto::TYPE_PROTO: {
    std::string typeError;
    Type type = convertElementTypeProto(ctx, attr.tp(), typeError);
    if (!type) {
      error = "attribute '" + attr.name() + "' " + typeError;
      return failure();
    }
    return Attribute(TypeAttr::get(type));
  }
  default:
    error = "has attribute '" + attr.name() + "' of unsupported kind " +
            ::onnx::AttributeProto::AttributeType_Name(attr.type());
    return failure();
  }
}

/// Whether `result` may take the rank `rank` that the model declares for
/// it: not when it is an If's and a branch yields another rank (torchvision's
/// NMS squeezes dim 1 only where it is 1; the If stays unranked until
/// folding picks its branch).
static bool branchesAllowRank(OpResult result, int64_t rank) {
  auto ifOp = dyn_cast<onnxc::onnx::IfOp>(result.getOwner());
  if (!ifOp)
    return true;
  return llvm::all_of(ifOp->getRegions(), [&](Region &region) {
    Type yielded = region.front()
                       .getTerminator()
                       ->getOperand(result.getResultNumber())
                       .getType();
    auto ranked = dyn_cast<RankedTensorType>(yielded);
    return !ranked || ranked.getRank() == rank;
  });
}

LogicalResult GraphImporter::importNode(::onnx::NodeProto &node,
                                        int64_t index) {
  Location loc = nodeLoc(node, index);
  if (options.onNode)
    options.onNode(cast<NameLoc>(loc).getName().getValue());
  std::string what = describeNode(node, index);
  auto nodeError = [&](const Twine &message) {
    return fail(what + ": " + message);
  };
  std::string domain = node.domain().empty() ? "ai.onnx" : node.domain();
  int64_t domainOpset = domainOpsets.lookup(domain);
  bool known = false;
  const OpImporter *importer =
      lookupOpImporter(domain, node.op_type(), domainOpset, known);
  if (!importer) {
    if (known)
      return nodeError("unsupported at opset " + Twine(domainOpset));
    return nodeError("unknown or unsupported operator '" + node.op_type() +
                     "' in domain '" + domain + "' at opset " +
                     Twine(domainOpset));
  }
  NodeContext context{builder, loc, node, opset, {}, {}, {}};
  context.cpuKernelOps = options.cpuKernelOps;
  for (const std::string &input : node.input()) {
    if (input.empty()) {
      context.inputs.push_back(context.noValue());
      continue;
    }
    auto it = values.find(input);
    if (it == values.end())
      return nodeError("input '" + input + "' is not defined before the node");
    context.inputs.push_back(it->second);
  }
  if (importer->numInputs) {
    if (context.inputs.size() > importer->numInputs)
      return nodeError("has " + Twine(context.inputs.size()) +
                       " inputs but the operator takes at most " +
                       Twine(importer->numInputs));
    while (context.inputs.size() < importer->numInputs)
      context.inputs.push_back(context.noValue());
  }
  // Graph attributes are imported by the op's importer, as regions.
  llvm::StringSet<> graphAttrs, importedGraphs;
  context.importSubgraph = [&](StringRef name, Region &region,
                               TypeRange argTypes, std::string &error) {
    importedGraphs.insert(name);
    return importSubgraph(node, name, region, argTypes, error);
  };
  for (::onnx::AttributeProto &attr : *node.mutable_attribute()) {
    if (attr.type() == ::onnx::AttributeProto::GRAPH) {
      graphAttrs.insert(attr.name());
      continue;
    }
    std::string error;
    FailureOr<Attribute> value = convertAttribute(attr, error);
    if (failed(value))
      return nodeError(error);
    context.attributes.push_back(builder.getNamedAttr(attr.name(), *value));
  }
  std::string error;
  FailureOr<SmallVector<Value>> results = importer->import(context, error);
  if (failed(results))
    return nodeError(error);
  for (const auto &name : graphAttrs.keys())
    if (!importedGraphs.contains(name))
      return nodeError("has attribute '" + name +
                       "' of unsupported kind GRAPH");
  int64_t numOutputs = 0;
  for (const std::string &output : node.output())
    if (!output.empty())
      ++numOutputs;
  if (node.output_size() > static_cast<int>(results->size()) || numOutputs == 0)
    return nodeError("has " + Twine(node.output_size()) +
                     " outputs but onnxc supports " + Twine(results->size()));
  for (auto [name, value] : llvm::zip(node.output(), *results)) {
    if (name.empty())
      continue;
    values[name] = value;
    // A result whose rank inference cannot tell (a Squeeze of axes known at
    // run time) takes the rank the model declares for it.
    auto unranked = dyn_cast<UnrankedTensorType>(value.getType());
    auto declared = declaredRanks.find(name);
    if (unranked && isa<OpResult>(value) && declared != declaredRanks.end() &&
        branchesAllowRank(cast<OpResult>(value), declared->second))
      value.setType(RankedTensorType::get(
          SmallVector<int64_t>(declared->second, ShapedType::kDynamic),
          unranked.getElementType()));
  }
  return success();
}

static void collectOuterReads(const ::onnx::GraphProto &graph,
                              llvm::SetVector<StringRef> &reads);

/// The values that `node` reads: its inputs, and what its subgraphs read
/// from enclosing graphs.
static llvm::SetVector<StringRef> nodeReads(const ::onnx::NodeProto &node) {
  llvm::SetVector<StringRef> reads;
  for (const std::string &input : node.input())
    if (!input.empty())
      reads.insert(input);
  for (const ::onnx::AttributeProto &attr : node.attribute()) {
    if (attr.has_g())
      collectOuterReads(attr.g(), reads);
    for (const ::onnx::GraphProto &graph : attr.graphs())
      collectOuterReads(graph, reads);
  }
  return reads;
}

/// Adds to `reads` the values that `graph` (or a subgraph in it) reads from
/// enclosing graphs: the names it uses but does not define as an input, an
/// initializer or a node's output.
static void collectOuterReads(const ::onnx::GraphProto &graph,
                              llvm::SetVector<StringRef> &reads) {
  llvm::DenseSet<StringRef> defined;
  for (const ::onnx::ValueInfoProto &input : graph.input())
    defined.insert(input.name());
  for (const ::onnx::TensorProto &init : graph.initializer())
    defined.insert(init.name());
  for (const ::onnx::NodeProto &node : graph.node())
    defined.insert(node.output().begin(), node.output().end());
  auto read = [&](StringRef name) {
    if (!name.empty() && !defined.contains(name))
      reads.insert(name);
  };
  for (const ::onnx::NodeProto &node : graph.node())
    llvm::for_each(nodeReads(node), read);
  for (const ::onnx::ValueInfoProto &output : graph.output())
    read(output.name());
}

namespace {
/// A node and a value: the node that outputs a value another node reads, or
/// a node on a cycle and the value it reads that closes the cycle.
struct NodeValue {
  int node;
  StringRef value;
};
} // namespace

/// The order in which to import the nodes of `graph`: each node after the
/// nodes whose outputs it reads, itself or through its subgraphs, and
/// otherwise in the file's order. (Tools such as float16 converters append
/// nodes that earlier ones read; ONNX Runtime sorts the nodes too.) A value
/// that several nodes output is read from the nearest of them before the
/// reader, else from the first after it. Fails with `cycle` when the nodes
/// read each other's outputs in a cycle.
static FailureOr<SmallVector<int>> sortNodes(const ::onnx::GraphProto &graph,
                                             NodeValue &cycle) {
  int numNodes = graph.node_size();
  llvm::DenseMap<StringRef, SmallVector<int, 1>> producers;
  for (int index = 0; index < numNodes; ++index)
    for (const std::string &output : graph.node(index).output())
      if (!output.empty())
        producers[output].push_back(index);
  // The nodes each node reads from (with the value read), the nodes that
  // read each node, and how many reads of each node are not yet ordered.
  SmallVector<SmallVector<NodeValue>> readsFrom(numNodes);
  SmallVector<SmallVector<int>> readers(numNodes);
  SmallVector<int> numUnordered(numNodes, 0);
  for (int index = 0; index < numNodes; ++index) {
    for (StringRef name : nodeReads(graph.node(index))) {
      // Values defined outside the nodes (or nowhere: importNode says so)
      // order nothing.
      auto it = producers.find(name);
      if (it == producers.end())
        continue;
      ArrayRef<int> candidates = it->second;
      const int *after = llvm::lower_bound(candidates, index);
      int producer = after != candidates.begin() ? after[-1] : *after;
      readsFrom[index].push_back({producer, name});
      readers[producer].push_back(index);
      ++numUnordered[index];
    }
  }
  // Kahn's algorithm, taking the ready node that comes first in the file.
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int index = 0; index < numNodes; ++index)
    if (numUnordered[index] == 0)
      ready.push(index);
  SmallVector<int> order;
  while (!ready.empty()) {
    int index = ready.top();
    ready.pop();
    order.push_back(index);
    for (int reader : readers[index])
      if (--numUnordered[reader] == 0)
        ready.push(reader);
  }
  if (static_cast<int>(order.size()) == numNodes)
    return order;
  // Each node left reads from another node left: walking from one to the
  // next reaches a node a second time, which is on a cycle.
  int index = llvm::find_if(numUnordered, [](int n) { return n > 0; }) -
              numUnordered.begin();
  llvm::DenseMap<int, StringRef> leftVia;
  while (!leftVia.contains(index)) {
    const NodeValue *next =
        llvm::find_if(readsFrom[index], [&](const NodeValue &read) {
          return numUnordered[read.node] > 0;
        });
    assert(next != readsFrom[index].end() && "an unordered node reads one");
    leftVia[index] = next->value;
    index = next->node;
  }
  cycle = {index, leftVia[index]};
  return failure();
}

LogicalResult GraphImporter::importNodes(::onnx::GraphProto &graph) {
  NodeValue cycle{};
  FailureOr<SmallVector<int>> order = sortNodes(graph, cycle);
  if (failed(order))
    return fail(Twine(describeNode(graph.node(cycle.node), cycle.node)) +
                ": is on a cycle: it reads '" + cycle.value +
                "', which is computed from its own outputs");
  for (int index : *order)
    if (failed(importNode(*graph.mutable_node(index), index)))
      return failure();
  return success();
}

LogicalResult GraphImporter::importInitializers(::onnx::GraphProto &graph) {
  StringRef modelDir = llvm::sys::path::parent_path(path);
  for (::onnx::TensorProto &init : *graph.mutable_initializer()) {
    std::string error;
    std::string name = init.name();
    FailureOr<ElementsAttr> value = convertTensor(init, modelDir, ctx, error);
    if (failed(value))
      return fail("initializer '" + name + "' " + error);
    auto constant = builder.create<onnxc::onnx::ConstantOp>(
        NameLoc::get(builder.getStringAttr(name), fileLoc), *value);
    constant->setAttr("onnx.name", builder.getStringAttr(name));
    values[constant->getAttrOfType<StringAttr>("onnx.name").getValue()] =
        constant.getResult();
  }
  return success();
}

LogicalResult GraphImporter::importSubgraph(::onnx::NodeProto &node,
                                            StringRef name, Region &region,
                                            TypeRange argTypes,
                                            std::string &error) {
  ::onnx::GraphProto *graph = nullptr;
  for (::onnx::AttributeProto &attr : *node.mutable_attribute())
    if (attr.name() == name && attr.type() == ::onnx::AttributeProto::GRAPH)
      graph = attr.mutable_g();
  if (!graph) {
    error = "lacks the required graph attribute '" + name.str() + "'";
    return failure();
  }
  if (graph->input_size() != static_cast<int>(argTypes.size())) {
    error = "has subgraph '" + name.str() + "' with " +
            std::to_string(graph->input_size()) + " inputs but the operator " +
            "passes " + std::to_string(argTypes.size());
    return failure();
  }
  // The subgraph's names shadow the enclosing ones only inside it.
  OpBuilder::InsertionGuard guard(builder);
  auto savedValues = values;
  auto savedRanks = declaredRanks;
  auto restore = llvm::make_scope_exit([&] {
    values = std::move(savedValues);
    declaredRanks = std::move(savedRanks);
  });
  SmallVector<Location> argLocs(argTypes.size(), fileLoc);
  Block *block = builder.createBlock(&region, {}, argTypes, argLocs);
  for (auto [input, arg] : llvm::zip(graph->input(), block->getArguments()))
    values[input.name()] = arg;
  if (failed(importInitializers(*graph))) {
    error = "has a subgraph '" + name.str() + "' that cannot be imported";
    return failure();
  }
  auto declare = [&](const ::onnx::ValueInfoProto &info) {
    if (info.type().has_tensor_type() && info.type().tensor_type().has_shape())
      declaredRanks[info.name()] = info.type().tensor_type().shape().dim_size();
  };
  llvm::for_each(graph->value_info(), declare);
  llvm::for_each(graph->output(), declare);
  if (failed(importNodes(*graph))) {
    error = "has a subgraph '" + name.str() + "' that cannot be imported";
    return failure();
  }
  SmallVector<Value> outputs;
  for (const auto &output : graph->output()) {
    auto it = values.find(output.name());
    if (it == values.end()) {
      error = "has a subgraph '" + name.str() + "' whose output '" +
              output.name() + "' is not computed by any node";
      return failure();
    }
    outputs.push_back(it->second);
  }
  builder.create<onnxc::onnx::YieldOp>(fileLoc, outputs);
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::import(::onnx::ModelProto &model) {
  if (failed(checkOpsets(model)) || failed(checkOperators(model)))
    return nullptr;
  ::onnx::GraphProto &graph = *model.mutable_graph();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  // Module attributes that the exporter writes back.
  SmallVector<NamedAttribute> opsets;
  for (const auto &entry : model.opset_import())
    opsets.push_back(builder.getNamedAttr(
        entry.domain().empty() ? "ai.onnx" : entry.domain(),
        builder.getI64IntegerAttr(entry.version())));
  (*module)->setAttr("onnx.opset_import", builder.getDictionaryAttr(opsets));
  (*module)->setAttr("onnx.ir_version",
                     builder.getI64IntegerAttr(model.ir_version()));
  (*module)->setAttr("onnx.graph_name", builder.getStringAttr(graph.name()));
  if (!model.producer_name().empty())
    (*module)->setAttr("onnx.producer_name",
                       builder.getStringAttr(model.producer_name()));

  // Graph inputs that are also initializers are constants (IR version < 4).
  llvm::StringSet<> initializerNames;
  for (const auto &init : graph.initializer())
    initializerNames.insert(init.name());

  SmallVector<Type> argTypes;
  SmallVector<DictionaryAttr> argAttrs;
  SmallVector<std::string> argNames;
  for (const auto &input : graph.input()) {
    if (initializerNames.contains(input.name()))
      continue;
    SmallVector<Attribute> dimParams;
    FailureOr<Type> type = convertType(input.type(), input.name(), dimParams);
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
    argNames.push_back(input.name());
    SmallVector<NamedAttribute> attrs{
        builder.getNamedAttr("onnx.name", builder.getStringAttr(input.name()))};
    if (llvm::any_of(dimParams, [](Attribute a) {
          return !cast<StringAttr>(a).getValue().empty();
        }))
      attrs.push_back(builder.getNamedAttr("onnx.dim_params",
                                           builder.getArrayAttr(dimParams)));
    argAttrs.push_back(builder.getDictionaryAttr(attrs));
  }
  for (const auto &name : options.inputShapes.keys()) {
    if (!llvm::is_contained(argNames, name.str())) {
      (void)fail("--input-shape names '" + name +
                 "', which is not a graph input");
      return nullptr;
    }
  }

  builder.setInsertionPointToEnd(module->getBody());
  auto func = builder.create<func::FuncOp>(
      fileLoc, onnxc::kMainGraphName, builder.getFunctionType(argTypes, {}));
  func.setAllArgAttrs(argAttrs);
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  for (auto [name, arg] : llvm::zip(argNames, body->getArguments()))
    values[name] = arg;

  if (failed(importInitializers(graph)))
    return nullptr;

  auto declare = [&](const ::onnx::ValueInfoProto &info) {
    if (info.type().has_tensor_type() && info.type().tensor_type().has_shape())
      declaredRanks[info.name()] = info.type().tensor_type().shape().dim_size();
  };
  llvm::for_each(graph.value_info(), declare);
  llvm::for_each(graph.output(), declare);
  if (failed(importNodes(graph)))
    return nullptr;

  SmallVector<Value> results;
  SmallVector<DictionaryAttr> resultAttrs;
  for (const auto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end()) {
      (void)fail("graph output '" + output.name() +
                 "' is not computed by any node");
      return nullptr;
    }
    Value result = it->second;
    // An optional where the graph declares what it holds (a Loop carrying an
    // optional sequence that its body always sets): the value it holds.
    if (isa<onnxc::onnx::OptType>(result.getType()) &&
        !output.type().has_optional_type() &&
        (output.type().has_sequence_type() || output.type().has_tensor_type()))
      result =
          builder.create<onnxc::onnx::OptionalGetElementOp>(fileLoc, result);
    results.push_back(result);
    SmallVector<NamedAttribute> attrs{builder.getNamedAttr(
        "onnx.name", builder.getStringAttr(output.name()))};
    if (output.type().has_tensor_type() &&
        output.type().tensor_type().has_shape()) {
      SmallVector<Attribute> dimParams;
      for (const auto &dim : output.type().tensor_type().shape().dim())
        dimParams.push_back(builder.getStringAttr(dim.dim_param()));
      if (llvm::any_of(dimParams, [](Attribute a) {
            return !cast<StringAttr>(a).getValue().empty();
          }))
        attrs.push_back(builder.getNamedAttr("onnx.dim_params",
                                             builder.getArrayAttr(dimParams)));
    }
    resultAttrs.push_back(builder.getDictionaryAttr(attrs));
  }
  builder.create<func::ReturnOp>(fileLoc, results);
  func.setType(
      builder.getFunctionType(argTypes, ValueRange(results).getTypes()));
  func.setAllResultAttrs(resultAttrs);
  return module;
}

/// Parses `bytes`, the binary or text (by `path`'s extension) protobuf of
/// the model at `path`, into `model`; fails with a message in `error`.
static LogicalResult parseModelBytes(StringRef bytes, StringRef path,
                                     ::onnx::ModelProto &model,
                                     std::string &error) {
  if (path.ends_with(".onnxtxt") || path.ends_with(".textproto") ||
      path.ends_with(".pbtxt")) {
    // Collect the parser's first complaint with its position, instead of
    // letting protobuf log it.
    struct FirstError : google::protobuf::io::ErrorCollector {
      std::string message;
      void AddError(int line, int column, const std::string &text) override {
        if (message.empty())
          message = std::to_string(line + 1) + ":" +
                    std::to_string(column + 1) + ": " + text;
      }
    } collector;
    google::protobuf::TextFormat::Parser parser;
    parser.RecordErrorsTo(&collector);
    if (!parser.ParseFromString(bytes.str(), &model)) {
      error = "not a valid ONNX model in protobuf text format: " +
              collector.message;
      return failure();
    }
    return success();
  }
  google::protobuf::io::CodedInputStream stream(
      reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
  stream.SetTotalBytesLimit(INT_MAX);
  if (!model.ParseFromCodedStream(&stream) || !stream.ConsumedEntireMessage()) {
    error = "not a valid ONNX model: the protobuf is truncated or corrupt (" +
            std::to_string(bytes.size()) + " bytes)";
    return failure();
  }
  if (!model.has_graph()) {
    error = "not a valid ONNX model: it has no graph";
    return failure();
  }
  return success();
}

/// Reads and parses the model at `path`; fails with a message in `error`.
static LogicalResult parseModel(StringRef path, ::onnx::ModelProto &model,
                                std::string &error) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    error = "cannot read the model: " + file.getError().message();
    return failure();
  }
  return parseModelBytes((*file)->getBuffer(), path, model, error);
}

OwningOpRef<ModuleOp> onnxc::importONNXModel(StringRef path, MLIRContext *ctx,
                                             const ImportOptions &options,
                                             OpCounts *opCounts) {
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file) {
    emitError(FileLineColLoc::get(ctx, path, 0, 0))
        << "cannot read the model: " << file.getError().message();
    return nullptr;
  }
  // The parsed model owns copies of the bytes it needs.
  return importONNXModelFromBuffer((*file)->getBuffer(), path, ctx, options,
                                   opCounts);
}

OwningOpRef<ModuleOp>
onnxc::importONNXModelFromBuffer(StringRef bytes, StringRef path,
                                 MLIRContext *ctx, const ImportOptions &options,
                                 OpCounts *opCounts) {
  ctx->loadDialect<onnxc::onnx::ONNXDialect, onnxc::fused::FusedDialect,
                   func::FuncDialect>();
  ::onnx::ModelProto model;
  std::string error;
  if (failed(parseModelBytes(bytes, path, model, error))) {
    emitError(FileLineColLoc::get(ctx, path, 0, 0)) << error;
    return nullptr;
  }
  if (opCounts) {
    for (const ::onnx::NodeProto &node : model.graph().node()) {
      const std::string &domain = node.domain();
      ++(*opCounts)[domain.empty() || domain == "ai.onnx"
                        ? node.op_type()
                        : domain + "." + node.op_type()];
    }
  }
  return GraphImporter(ctx, path, options).import(model);
}

/// Adds the external data locations of `tensor` to `locations`.
static void addExternalData(const ::onnx::TensorProto &tensor,
                            std::set<std::string> &locations) {
  if (tensor.data_location() != ::onnx::TensorProto::EXTERNAL)
    return;
  for (const auto &entry : tensor.external_data())
    if (entry.key() == "location" && !entry.value().empty())
      locations.insert(entry.value());
}

/// Adds the external data locations of every tensor in `graph`, its nodes'
/// tensor attributes and their subgraphs to `locations`.
static void addExternalData(const ::onnx::GraphProto &graph,
                            std::set<std::string> &locations) {
  for (const auto &init : graph.initializer())
    addExternalData(init, locations);
  for (const auto &node : graph.node()) {
    for (const auto &attr : node.attribute()) {
      addExternalData(attr.t(), locations);
      for (const auto &t : attr.tensors())
        addExternalData(t, locations);
      addExternalData(attr.g(), locations);
      for (const auto &g : attr.graphs())
        addExternalData(g, locations);
    }
  }
}

LogicalResult onnxc::listExternalDataFiles(StringRef path,
                                           std::vector<std::string> &files,
                                           std::string &error) {
  ::onnx::ModelProto model;
  if (failed(parseModel(path, model, error)))
    return failure();
  std::set<std::string> locations;
  addExternalData(model.graph(), locations);
  StringRef modelDir = llvm::sys::path::parent_path(path);
  std::set<std::string> resolved;
  for (const std::string &location : locations) {
    // A location that the import refuses (outside the model's directory,
    // missing) names no file; the model then fails to compile.
    llvm::SmallString<256> realPath;
    std::string refused;
    if (failed(resolveExternalData(modelDir, location, realPath, refused)))
      continue;
    llvm::SmallString<256> file(modelDir);
    llvm::sys::path::append(file, location);
    resolved.insert(std::string(file));
  }
  files.assign(resolved.begin(), resolved.end());
  return success();
}

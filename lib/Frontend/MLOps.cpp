//===- MLOps.cpp - Classic-ML ops (ai.onnx.ml) imported as onnx ops -------===//
//
// The ops of the ai.onnx.ml domain that onnxc imports, each built from ops of
// the default domain the way OpExpansions.cpp builds function bodies:
// Binarizer, ArrayFeatureExtractor and TreeEnsemble (ai.onnx.ml opset 5).
// A tree ensemble becomes a vectorized traversal over packed node tables:
// every row walks every tree at once, one level per step, for as many steps
// as the deepest tree has levels; the leaves' weights are then summed (or
// averaged, or their minimum or maximum taken) per target.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/Expansion.h"

#include "passes/Transforms/ConstantTensor.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnxc::frontend {

namespace {
/// A constant of `element` (float or integer) with `shape` and `values`.
Value tableConstant(NodeContext &node, Type element, ArrayRef<int64_t> shape,
                    ArrayRef<double> values) {
  auto type = RankedTensorType::get(shape, element);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(isa<FloatType>(element)
                        ? Attribute(FloatAttr::get(element, v))
                        : Attribute(IntegerAttr::get(element, (int64_t)v)));
  return node.builder.create<onnx::ConstantOp>(
      node.constantLoc(), cast<ElementsAttr>(DenseElementsAttr::get(
                              type, ArrayRef<Attribute>(attrs))));
}

/// The values of the tensor attribute `name` as doubles; nullopt (with a
/// message) when it is missing (and `required`) or not a numeric tensor.
std::optional<SmallVector<double>> tensorValues(NodeContext &node,
                                                StringRef name, bool required,
                                                std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr) {
    if (required)
      error = "needs attribute '" + name.str() + "'";
    return required ? std::nullopt
                    : std::optional<SmallVector<double>>(SmallVector<double>{});
  }
  // Dense, or a dense resource (convertTensor's form for larger tensors).
  auto elements = dyn_cast<ElementsAttr>(*attr);
  std::optional<ConstantTensor> tensor =
      elements ? readElements(elements, std::numeric_limits<int64_t>::max())
               : std::nullopt;
  if (!tensor) {
    error = "expects attribute '" + name.str() + "' to be a numeric tensor";
    return std::nullopt;
  }
  SmallVector<double> values;
  for (int64_t i = 0; i < tensor->size(); ++i)
    values.push_back(tensor->getDouble(i));
  return values;
}

/// The ints attribute `name`; empty when missing (and not `required`).
std::optional<SmallVector<int64_t>>
intsAttr(NodeContext &node, StringRef name, bool required, std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr) {
    if (required) {
      error = "needs attribute '" + name.str() + "'";
      return std::nullopt;
    }
    return SmallVector<int64_t>{};
  }
  auto ints = dyn_cast<DenseI64ArrayAttr>(*attr);
  if (!ints) {
    error = "expects attribute '" + name.str() + "' to be ints";
    return std::nullopt;
  }
  return SmallVector<int64_t>(ints.asArrayRef());
}

/// The comparison modes of TreeEnsemble-5's nodes_modes.
enum TreeMode : int64_t {
  kLeq = 0,
  kLt = 1,
  kGte = 2,
  kGt = 3,
  kEq = 4,
  kNeq = 5,
  kMember = 6
};
} // namespace

/// Binarizer (ai.onnx.ml 1): Y = 1 where X > threshold, else 0, in X's type.
FailureOr<SmallVector<Value>> importBinarizer(NodeContext &node,
                                              std::string &error) {
  std::optional<double> threshold = floatAttr(node, "threshold", 0.0, error);
  if (!threshold || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0];
  Type element = getElementTypeOrSelf(x.getType());
  if (!isa<FloatType>(element) && !element.isSignlessInteger(32) &&
      !element.isSignlessInteger(64)) {
    error = "needs a float or integer input";
    return failure();
  }
  Expansion e(node, error);
  Value limit = tableConstant(node, element, {}, {*threshold});
  Value y = e.castTo(e.op("Greater", {x, limit}), *onnx::getONNXDType(element));
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// ArrayFeatureExtractor (ai.onnx.ml 1): the elements of X's last axis at
/// the indices Y (flattened); a 1-D X gives a [1, n] result.
FailureOr<SmallVector<Value>> importArrayFeatureExtractor(NodeContext &node,
                                                          std::string &error) {
  if (failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0], indices = node.inputs[1];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || xType.getRank() == 0) {
    error = "needs an input of known rank 1 or more";
    return failure();
  }
  if (!getElementTypeOrSelf(indices.getType()).isInteger(64)) {
    error = "needs int64 indices";
    return failure();
  }
  Expansion e(node, error);
  Value flat = e.op("Reshape", {indices, node.i64Constant({-1})});
  Value z = e.op("Gather", {x, flat}, {e.attr("axis", xType.getRank() - 1)});
  if (xType.getRank() == 1)
    z = e.op("Unsqueeze", {z, node.i64Constant({0})});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{z};
}

/// TreeEnsemble (ai.onnx.ml 5) on X [N, F]: Y [N, n_targets] in X's type.
///
/// Nodes and leaves share one index space (leaf l is nodes + l), with tables
/// of each index's feature, split, mode, missing-value rule and true and
/// false successors (a leaf is its own successor). The state is the index
/// [N, trees] of each row in each tree, starting at the roots; each step
/// gathers the feature values (GatherElements on X), compares them with
/// the splits by each mode present, and moves to the true or false
/// successor (Where). After as many steps as the deepest tree, every row is
/// at a leaf; a table [leaves, n_targets] holding each leaf's weight at its
/// target (0 elsewhere for a sum or an average, the type's largest or
/// lowest value for a min or a max) is gathered and reduced over the trees.
/// SOFTMAX and LOGISTIC post transforms follow; SOFTMAX_ZERO and PROBIT are
/// refused by name.
FailureOr<SmallVector<Value>> importTreeEnsemble(NodeContext &node,
                                                 std::string &error) {
  std::optional<int64_t> aggregate =
      intAttr(node, "aggregate_function", 1, error);
  std::optional<int64_t> post =
      aggregate ? intAttr(node, "post_transform", 0, error) : std::nullopt;
  std::optional<int64_t> targets =
      post ? intAttr(node, "n_targets", -1, error) : std::nullopt;
  if (!targets)
    return failure();
  auto ints = [&](StringRef name, bool required) {
    return intsAttr(node, name, required, error);
  };
  auto floats = [&](StringRef name, bool required) {
    return tensorValues(node, name, required, error);
  };
  std::optional<SmallVector<int64_t>> featureIds, trueIds, falseIds, trueLeafs,
      falseLeafs, leafTargets, roots, missingTrue;
  std::optional<SmallVector<double>> splits, modes, leafWeights, members,
      hitRates;
  if (!(featureIds = ints("nodes_featureids", true)) ||
      !(trueIds = ints("nodes_truenodeids", true)) ||
      !(falseIds = ints("nodes_falsenodeids", true)) ||
      !(trueLeafs = ints("nodes_trueleafs", true)) ||
      !(falseLeafs = ints("nodes_falseleafs", true)) ||
      !(leafTargets = ints("leaf_targetids", true)) ||
      !(roots = ints("tree_roots", true)) ||
      !(missingTrue = ints("nodes_missing_value_tracks_true", false)) ||
      !(splits = floats("nodes_splits", true)) ||
      !(modes = floats("nodes_modes", true)) ||
      !(leafWeights = floats("leaf_weights", true)) ||
      !(members = floats("membership_values", false)) ||
      !(hitRates = floats("nodes_hitrates", false)) ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();

  // Shapes of the tables, and indices within them.
  int64_t numNodes = featureIds->size(), numLeaves = leafTargets->size();
  for (auto [name, size] :
       {std::pair<StringRef, size_t>{"nodes_truenodeids", trueIds->size()},
        {"nodes_falsenodeids", falseIds->size()},
        {"nodes_trueleafs", trueLeafs->size()},
        {"nodes_falseleafs", falseLeafs->size()},
        {"nodes_splits", splits->size()},
        {"nodes_modes", modes->size()}}) {
    if ((int64_t)size != numNodes) {
      error = "has " + std::to_string(size) + " " + name.str() + " for " +
              std::to_string(numNodes) + " nodes";
      return failure();
    }
  }
  if (!missingTrue->empty() && (int64_t)missingTrue->size() != numNodes) {
    error = "has nodes_missing_value_tracks_true of another size than the "
            "nodes";
    return failure();
  }
  if ((int64_t)leafWeights->size() != numLeaves || numLeaves == 0 ||
      roots->empty()) {
    error = "needs as many leaf_weights as leaf_targetids, and a tree";
    return failure();
  }
  if (*targets <= 0) {
    error = "needs a positive n_targets";
    return failure();
  }
  if (*aggregate < 0 || *aggregate > 3) {
    error = "has unknown aggregate_function " + std::to_string(*aggregate);
    return failure();
  }
  if (*post == 3 || *post == 4 || *post < 0 || *post > 4) {
    error = "has unsupported post_transform " + std::to_string(*post) +
            " (supported: NONE, SOFTMAX, LOGISTIC)";
    return failure();
  }
  for (int64_t t : *leafTargets)
    if (t < 0 || t >= *targets) {
      error = "has a leaf_targetids entry outside [0, n_targets)";
      return failure();
    }

  Value x = node.inputs[0];
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || xType.getRank() != 2 ||
      !isa<FloatType>(xType.getElementType())) {
    error = "needs a float input of rank 2 [N, features]";
    return failure();
  }
  Type element = xType.getElementType();
  int64_t numFeatures = xType.getDimSize(1);

  // The successor of each node, in the shared index space; the sets of
  // membership nodes, each a row padded with NaN (equal to nothing).
  int64_t total = numNodes + numLeaves;
  auto successor = [&](int64_t i, bool branch) -> std::optional<int64_t> {
    int64_t id = branch ? (*trueIds)[i] : (*falseIds)[i];
    bool leaf = branch ? (*trueLeafs)[i] : (*falseLeafs)[i];
    if (id < 0 || id >= (leaf ? numLeaves : numNodes))
      return std::nullopt;
    return leaf ? numNodes + id : id;
  };
  SmallVector<double> feature(total, 0), split(total, 0), mode(total, kLeq),
      missing(total, 0), onTrue(total), onFalse(total);
  SmallVector<SmallVector<double>> sets(total);
  size_t memberAt = 0;
  bool anyMissing = false;
  llvm::SmallSetVector<int64_t, 8> modesUsed;
  for (int64_t i = 0; i < numNodes; ++i) {
    std::optional<int64_t> t = successor(i, true), f = successor(i, false);
    if (!t || !f) {
      error =
          "has node " + std::to_string(i) + " with a successor out of range";
      return failure();
    }
    onTrue[i] = *t;
    onFalse[i] = *f;
    feature[i] = (*featureIds)[i];
    if ((*featureIds)[i] < 0 || (!ShapedType::isDynamic(numFeatures) &&
                                 (*featureIds)[i] >= numFeatures)) {
      error = "has node " + std::to_string(i) + " reading feature " +
              std::to_string((*featureIds)[i]) + " out of range";
      return failure();
    }
    split[i] = (*splits)[i];
    mode[i] = (*modes)[i];
    if (mode[i] < kLeq || mode[i] > kMember) {
      error = "has node " + std::to_string(i) + " with unknown mode " +
              std::to_string((int64_t)mode[i]);
      return failure();
    }
    modesUsed.insert((int64_t)mode[i]);
    if (!missingTrue->empty() && (*missingTrue)[i]) {
      missing[i] = 1;
      anyMissing = true;
    }
    if (mode[i] == kMember) {
      while (memberAt < members->size() && !std::isnan((*members)[memberAt]))
        sets[i].push_back((*members)[memberAt++]);
      if (memberAt++ >= members->size()) {
        error = "has fewer NaN-ended membership_values sets than "
                "membership nodes";
        return failure();
      }
    }
  }
  for (int64_t l = 0; l < numLeaves; ++l)
    onTrue[numNodes + l] = onFalse[numNodes + l] = numNodes + l;

  // Where each tree starts (a root that is a leaf on both sides with one id
  // is a tree of one leaf, that id's leaf), and how many steps the deepest
  // tree needs to reach its leaves.
  SmallVector<double> starts;
  int64_t steps = 0;
  for (int64_t root : *roots) {
    if (root < 0 || root >= numNodes) {
      error = "has a tree root out of range";
      return failure();
    }
    if ((*trueLeafs)[root] && (*falseLeafs)[root] &&
        (*trueIds)[root] == (*falseIds)[root]) {
      starts.push_back(onTrue[root]);
      continue;
    }
    starts.push_back(root);
    SmallVector<std::pair<int64_t, int64_t>> stack{{root, 1}};
    while (!stack.empty()) {
      auto [at, depth] = stack.pop_back_val();
      if (depth > numNodes) {
        error = "has a tree with a cycle";
        return failure();
      }
      steps = std::max(steps, depth);
      for (double next : {onTrue[at], onFalse[at]})
        if (next < numNodes)
          stack.push_back({(int64_t)next, depth + 1});
    }
  }
  size_t setSize = 1;
  for (const auto &set : sets)
    setSize = std::max(setSize, set.size());

  // The leaf table [leaves, n_targets].
  double fill = 0;
  if (*aggregate == 2)
    fill = APFloat::getLargest(cast<FloatType>(element).getFloatSemantics())
               .convertToDouble();
  if (*aggregate == 3)
    fill = APFloat::getLargest(cast<FloatType>(element).getFloatSemantics(),
                               /*Negative=*/true)
               .convertToDouble();
  SmallVector<double> leafTable(numLeaves * *targets, fill);
  int64_t numTrees = roots->size();
  for (int64_t l = 0; l < numLeaves; ++l)
    leafTable[l * *targets + (*leafTargets)[l]] =
        *aggregate == 0 ? (*leafWeights)[l] / numTrees : (*leafWeights)[l];

  Expansion e(node, error);
  OpBuilder &b = node.builder;
  Type i64 = b.getI64Type();
  auto table = [&](ArrayRef<double> values, Type type) {
    return tableConstant(node, type, {(int64_t)values.size()}, values);
  };
  Value features = table(feature, i64), splitValues = table(split, element),
        modeTable = table(mode, i64), trueTable = table(onTrue, i64),
        falseTable = table(onFalse, i64);
  Value missingTable = anyMissing ? table(missing, b.getI1Type()) : Value();
  Value setTable;
  if (modesUsed.contains(kMember)) {
    SmallVector<double> padded(total * setSize, std::nan(""));
    for (int64_t i = 0; i < total; ++i)
      llvm::copy(sets[i], padded.begin() + i * setSize);
    setTable = tableConstant(node, element, {total, (int64_t)setSize}, padded);
  }

  // idx [N, trees]: every row at every root.
  Value rows = e.op("Shape", x, {e.attr("end", 1)});
  Value shape =
      e.op("Concat", {rows, node.i64Constant({numTrees})}, {e.attr("axis", 0)});
  Value idx =
      e.op("Expand", {tableConstant(node, i64, {1, numTrees}, starts), shape});
  for (int64_t step = 0; step < steps && e.ok(); ++step) {
    Value at = e.op("GatherElements", {x, e.op("Gather", {features, idx})},
                    {e.attr("axis", 1)});
    Value threshold = e.op("Gather", {splitValues, idx});
    auto compare = [&](int64_t m) -> Value {
      switch (m) {
      case kLeq:
        return e.op("LessOrEqual", {at, threshold});
      case kLt:
        return e.op("Less", {at, threshold});
      case kGte:
        return e.op("GreaterOrEqual", {at, threshold});
      case kGt:
        return e.op("Greater", {at, threshold});
      case kEq:
        return e.op("Equal", {at, threshold});
      case kNeq:
        return e.op("Not", e.op("Equal", {at, threshold}));
      default: {
        // Any member equal: [N, trees, 1] against [N, trees, set size].
        Value set = e.op("Gather", {setTable, idx});
        Value hits = e.op(
            "Equal", {e.op("Unsqueeze", {at, node.i64Constant({-1})}), set});
        Value count = e.op("ReduceSum",
                           {e.castTo(hits, ::onnx::TensorProto::FLOAT),
                            node.i64Constant({-1})},
                           {e.attr("keepdims", 0)});
        return e.op("Greater",
                    {count, tableConstant(node, b.getF32Type(), {}, {0.0})});
      }
      }
    };
    Value cond;
    if (modesUsed.size() == 1) {
      cond = compare(modesUsed.front());
    } else {
      Value nodeMode = e.op("Gather", {modeTable, idx});
      for (int64_t m : modesUsed) {
        Value isMode = e.op(
            "Equal", {nodeMode, tableConstant(node, i64, {}, {(double)m})});
        Value hit = e.op("And", {isMode, compare(m)});
        cond = cond ? e.op("Or", {cond, hit}) : hit;
      }
    }
    if (missingTable)
      cond = e.op("Or", {cond, e.op("And", {e.op("Gather", {missingTable, idx}),
                                            e.op("IsNaN", at)})});
    idx = e.op("Where", {cond, e.op("Gather", {trueTable, idx}),
                         e.op("Gather", {falseTable, idx})});
  }
  Value leaves =
      e.op("Sub", {idx, tableConstant(node, i64, {}, {(double)numNodes})});
  Value weights = e.op(
      "Gather",
      {tableConstant(node, element, {numLeaves, *targets}, leafTable), leaves});
  StringRef reduce = *aggregate == 2   ? "ReduceMin"
                     : *aggregate == 3 ? "ReduceMax"
                                       : "ReduceSum";
  Value y =
      e.op(reduce, {weights, node.i64Constant({1})}, {e.attr("keepdims", 0)});
  if (*post == 1)
    y = e.op("Softmax", y, {e.attr("axis", -1)});
  else if (*post == 2)
    y = e.op("Sigmoid", y);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

} // namespace onnxc::frontend

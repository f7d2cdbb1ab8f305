//===- MLOps.cpp - Classic-ML ops (ai.onnx.ml) imported as onnx ops -------===//
//
// The ops of the ai.onnx.ml domain that onnxc imports, each built from ops of
// the default domain the way OpExpansions.cpp builds function bodies: tree
// ensembles, linear models, SVMs and the preprocessing ops (Binarizer,
// Scaler, Normalizer, Imputer, OneHotEncoder, ...). A tree ensemble over an
// f32 input compiled for the CPU is one fused.tree_ensemble (the tree
// kernel's form); otherwise it becomes a vectorized traversal over packed
// node tables: every row walks every tree at once, one level per step, for
// as many steps as the deepest tree has levels; the leaves' weights are then
// summed (or averaged, or their minimum or maximum taken) per target.
//
//===----------------------------------------------------------------------===//

#include "lib/Frontend/Expansion.h"

#include "dialects/Fused/IR/FusedOps.h"

#include "passes/Transforms/ConstantTensor.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <limits>

using namespace mlir;

namespace onnxc::frontend {

namespace {
/// A constant of `element` (float or integer) with `shape` and `values`,
/// through createConstant (a dense resource above 1 KiB: a large forest's
/// tables are then neither uniqued nor hashed).
Value tableConstant(NodeContext &node, Type element, ArrayRef<int64_t> shape,
                    ArrayRef<double> values) {
  ConstantTensor table{RankedTensorType::get(shape, element), {}, {}};
  if (table.isFloat())
    table.floats.assign(values.begin(), values.end());
  else
    for (double v : values)
      table.ints.push_back(static_cast<int64_t>(v));
  return createConstant(node.builder, node.constantLoc(), table);
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

namespace {
/// A tree ensemble as the traversal reads it. Nodes and leaves share one
/// index space: `numNodes` internal nodes, then the leaves, each its own
/// successor. Per index: the feature read, the split, the mode (TreeMode),
/// whether a missing value goes the true way, the true and false successors,
/// and (membership nodes) the set. `leafTable` is [leaves, targets].
struct Forest {
  int64_t numNodes = 0, numLeaves = 0, targets = 0, steps = 0;
  SmallVector<double> feature, split, mode, missing, onTrue, onFalse;
  SmallVector<SmallVector<double>> sets;
  SmallVector<double> starts, leafTable;
  bool anyMissing = false;
  llvm::SmallSetVector<int64_t, 8> modesUsed;

  /// Sizes the tables for `nodes` internal nodes and `leaves` leaves, each
  /// leaf its own successor.
  void resize(int64_t nodes, int64_t leaves) {
    numNodes = nodes;
    numLeaves = leaves;
    int64_t total = nodes + leaves;
    feature.assign(total, 0);
    split.assign(total, 0);
    mode.assign(total, kLeq);
    missing.assign(total, 0);
    onTrue.resize(total);
    onFalse.resize(total);
    sets.assign(total, {});
    for (int64_t l = nodes; l < total; ++l)
      onTrue[l] = onFalse[l] = l;
  }

  /// The starts of the trees at `roots` (indices), and the steps the deepest
  /// needs to reach its leaves; fails on a cycle.
  LogicalResult setRoots(ArrayRef<int64_t> roots, std::string &error) {
    for (int64_t root : roots) {
      starts.push_back(root);
      SmallVector<std::pair<int64_t, int64_t>> stack{{root, 0}};
      while (!stack.empty()) {
        auto [at, depth] = stack.pop_back_val();
        if (at >= numNodes)
          continue;
        if (depth >= numNodes) {
          error = "has a tree with a cycle";
          return failure();
        }
        steps = std::max(steps, depth + 1);
        stack.push_back({(int64_t)onTrue[at], depth + 1});
        stack.push_back({(int64_t)onFalse[at], depth + 1});
      }
    }
    return success();
  }

  /// A leaf table of `fill` for aggregate `aggregate` (AVERAGE 0, SUM 1,
  /// MIN 2, MAX 3) in `element`: 0, or its largest or lowest value.
  void fillLeaves(int64_t aggregate, FloatType element) {
    double fill = 0;
    if (aggregate == 2 || aggregate == 3)
      fill = APFloat::getLargest(element.getFloatSemantics(), aggregate == 3)
                 .convertToDouble();
    leafTable.assign(numLeaves * targets, fill);
  }
};

/// Checks the node attributes common to both tree forms: features in range,
/// known modes; records the modes used.
LogicalResult checkNode(Forest &forest, int64_t i, int64_t numFeatures,
                        std::string &error) {
  if (forest.feature[i] < 0 || (!ShapedType::isDynamic(numFeatures) &&
                                forest.feature[i] >= numFeatures)) {
    error = "has node " + std::to_string(i) + " reading feature " +
            std::to_string((int64_t)forest.feature[i]) + " out of range";
    return failure();
  }
  if (forest.mode[i] < kLeq || forest.mode[i] > kMember) {
    error = "has node " + std::to_string(i) + " with unknown mode " +
            std::to_string((int64_t)forest.mode[i]);
    return failure();
  }
  forest.modesUsed.insert((int64_t)forest.mode[i]);
  forest.anyMissing |= forest.missing[i] != 0;
  return success();
}

/// `forest` over an f32 X as one fused.tree_ensemble (an AVERAGE's leaf
/// weights are divided already: a SUM).
Value compiledForest(NodeContext &node, Value x, const Forest &forest,
                     int64_t aggregate) {
  OpBuilder &b = node.builder;
  int64_t numNodes = forest.numNodes;
  auto ints = [&](ArrayRef<double> values) {
    SmallVector<int64_t> out(values.begin(), values.begin() + numNodes);
    return b.getDenseI64ArrayAttr(out);
  };
  auto floats = [&](ArrayRef<double> values) {
    SmallVector<float> out(values.begin(), values.end());
    return b.getDenseF32ArrayAttr(out);
  };
  SmallVector<double> members;
  SmallVector<bool> tracks;
  for (int64_t i = 0; i < numNodes; ++i) {
    if (forest.mode[i] == kMember) {
      llvm::append_range(members, forest.sets[i]);
      members.push_back(std::nan(""));
    }
    if (forest.anyMissing)
      tracks.push_back(forest.missing[i] != 0);
  }
  SmallVector<int64_t> roots(forest.starts.begin(), forest.starts.end());
  return b.create<fused::TreeEnsembleOp>(
      node.loc, x, ints(forest.feature),
      floats(ArrayRef<double>(forest.split).take_front(numNodes)),
      ints(forest.mode), b.getDenseBoolArrayAttr(tracks), ints(forest.onTrue),
      ints(forest.onFalse), floats(members), b.getDenseI64ArrayAttr(roots),
      floats(forest.leafTable), b.getI64IntegerAttr(forest.targets),
      b.getI64IntegerAttr(aggregate == 0 ? 1 : aggregate));
}

/// The traversal of `forest` over X [N, features] (of `element`):
/// [N, targets], the leaves' weights reduced over the trees by `aggregate`.
/// An f32 X, where the import asks for tree kernels, gets one
/// fused.tree_ensemble instead.
Value traverse(NodeContext &node, Expansion &e, Value x, const Forest &forest,
               Type element, int64_t aggregate) {
  if (node.cpuKernelOps && element.isF32())
    return compiledForest(node, x, forest, aggregate);
  OpBuilder &b = node.builder;
  Type i64 = b.getI64Type();
  int64_t total = forest.numNodes + forest.numLeaves;
  int64_t numTrees = forest.starts.size();
  auto table = [&](ArrayRef<double> values, Type type) {
    return tableConstant(node, type, {(int64_t)values.size()}, values);
  };
  Value features = table(forest.feature, i64),
        splitValues = table(forest.split, element),
        modeTable = table(forest.mode, i64),
        trueTable = table(forest.onTrue, i64),
        falseTable = table(forest.onFalse, i64);
  Value missingTable =
      forest.anyMissing ? table(forest.missing, b.getI1Type()) : Value();
  Value setTable;
  if (forest.modesUsed.contains(kMember)) {
    size_t setSize = 1;
    for (const auto &set : forest.sets)
      setSize = std::max(setSize, set.size());
    SmallVector<double> padded(total * setSize, std::nan(""));
    for (int64_t i = 0; i < total; ++i)
      llvm::copy(forest.sets[i], padded.begin() + i * setSize);
    setTable = tableConstant(node, element, {total, (int64_t)setSize}, padded);
  }

  // idx [N, trees]: every row at every root.
  Value rows = e.op("Shape", x, {e.attr("end", 1)});
  Value shape =
      e.op("Concat", {rows, node.i64Constant({numTrees})}, {e.attr("axis", 0)});
  Value idx =
      e.op("Expand",
           {tableConstant(node, i64, {1, numTrees}, forest.starts), shape});
  for (int64_t step = 0; step < forest.steps && e.ok(); ++step) {
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
    if (forest.modesUsed.size() == 1) {
      cond = compare(forest.modesUsed.front());
    } else {
      Value nodeMode = e.op("Gather", {modeTable, idx});
      for (int64_t m : forest.modesUsed) {
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
  Value leaves = e.op(
      "Sub", {idx, tableConstant(node, i64, {}, {(double)forest.numNodes})});
  Value weights =
      e.op("Gather",
           {tableConstant(node, element, {forest.numLeaves, forest.targets},
                          forest.leafTable),
            leaves});
  StringRef reduce = aggregate == 2   ? "ReduceMin"
                     : aggregate == 3 ? "ReduceMax"
                                      : "ReduceSum";
  return e.op(reduce, {weights, node.i64Constant({1})},
              {e.attr("keepdims", 0)});
}

/// The post transform `post` of the scores `y` [..., C], as ONNX's reference
/// and ONNX Runtime compute it: NONE (0) as is, SOFTMAX (1) and LOGISTIC (2)
/// as Softmax and Sigmoid; SOFTMAX_ZERO (3) a softmax over the row in
/// which a score within 1e-7 of 0 is scaled by exp(-max) instead of
/// exponentiated (so it stays about 0), and a row whose terms sum to 0
/// gives 0.5 everywhere; PROBIT (4) sqrt(2) erfinv(2 y - 1), erfinv by
/// Winitzki's approximation (a = 0.147) as both compute it, 0 where
/// 1 - (2 y - 1)^2 is 0.
Value postTransform(NodeContext &node, Expansion &e, Value y, int64_t post) {
  if (post == 1)
    return e.op("Softmax", y, {e.attr("axis", -1)});
  if (post == 2)
    return e.op("Sigmoid", y);
  if (post != 3 && post != 4)
    return y;
  Type element = getElementTypeOrSelf(y.getType());
  auto c = [&](double v) { return e.scalar(element, v); };
  if (post == 3) {
    NamedAttribute keep = e.attr("keepdims", 1);
    Value last = node.i64Constant({-1});
    Value max = e.op("ReduceMax", {y, last}, {keep});
    Value nonZero = e.op("Greater", {e.op("Abs", y), c(1e-7)});
    Value terms =
        e.op("Where", {nonZero, e.op("Exp", e.op("Sub", {y, max})),
                       e.op("Mul", {y, e.op("Exp", e.op("Neg", max))})});
    Value sum = e.op("ReduceSum", {terms, last}, {keep});
    return e.op("Where", {e.op("Equal", {sum, c(0)}), c(0.5),
                          e.op("Div", {terms, sum})});
  }
  const double a = 0.147;
  Value x = e.op("Sub", {e.op("Mul", {y, c(2)}), c(1)});
  Value t = e.op("Mul", {e.op("Sub", {c(1), x}), e.op("Add", {c(1), x})});
  Value log = e.op("Log", t);
  Value u = e.op("Add", {c(2 / (M_PI * a)), e.op("Mul", {c(0.5), log})});
  Value w = e.op("Mul", {c(1 / a), log});
  Value root = e.op(
      "Sqrt",
      e.op("Sub", {e.op("Sqrt", e.op("Sub", {e.op("Mul", {u, u}), w})), u}));
  Value sign = e.op("Where", {e.op("Less", {x, c(0)}), c(-1), c(1)});
  Value probit = e.op("Mul", {c(1.41421356), e.op("Mul", {sign, root})});
  return e.op("Where", {e.op("Equal", {t, c(0)}), c(0), probit});
}

/// Fails unless `post` is a post transform: NONE, SOFTMAX, LOGISTIC,
/// SOFTMAX_ZERO or PROBIT.
LogicalResult checkPostTransform(int64_t post, StringRef name,
                                 std::string &error) {
  if (post >= 0 && post <= 4)
    return success();
  error = "has unsupported post_transform " + name.str() +
          " (supported: NONE, SOFTMAX, LOGISTIC, SOFTMAX_ZERO, PROBIT)";
  return failure();
}

/// X as a rank-2 float input; null after reporting otherwise.
RankedTensorType forestInput(Value x, std::string &error) {
  auto type = dyn_cast<RankedTensorType>(x.getType());
  if (!type || type.getRank() != 2 || !isa<FloatType>(type.getElementType())) {
    error = "needs a float input of rank 2 [N, features]";
    return {};
  }
  return type;
}
} // namespace

/// TreeEnsemble (ai.onnx.ml 5) on X [N, F]: Y [N, n_targets] in X's type.
///
/// A fused.tree_ensemble for an f32 X where the import asks for tree
/// kernels; otherwise a vectorized traversal (Forest, traverse): the state
/// is the index [N, trees] of each row in each tree, starting at the roots;
/// each step gathers the feature values (GatherElements on X), compares
/// them with the splits by each mode present, and moves to the true or
/// false successor (Where). After as many steps as the deepest tree, every
/// row is at a leaf; a table [leaves, n_targets] holding each leaf's weight
/// at its target (0 elsewhere for a sum or an average, the type's largest
/// or lowest value for a min or a max) is gathered and reduced over the
/// trees.
/// The post transform follows (postTransform).
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
  if (failed(checkPostTransform(*post, std::to_string(*post), error)))
    return failure();
  for (int64_t t : *leafTargets)
    if (t < 0 || t >= *targets) {
      error = "has a leaf_targetids entry outside [0, n_targets)";
      return failure();
    }
  Value x = node.inputs[0];
  RankedTensorType xType = forestInput(x, error);
  if (!xType)
    return failure();
  auto element = cast<FloatType>(xType.getElementType());

  Forest forest;
  forest.resize(numNodes, numLeaves);
  forest.targets = *targets;
  auto successor = [&](int64_t i, bool branch) -> std::optional<int64_t> {
    int64_t id = branch ? (*trueIds)[i] : (*falseIds)[i];
    bool leaf = branch ? (*trueLeafs)[i] : (*falseLeafs)[i];
    if (id < 0 || id >= (leaf ? numLeaves : numNodes))
      return std::nullopt;
    return leaf ? numNodes + id : id;
  };
  size_t memberAt = 0;
  for (int64_t i = 0; i < numNodes; ++i) {
    std::optional<int64_t> t = successor(i, true), f = successor(i, false);
    if (!t || !f) {
      error =
          "has node " + std::to_string(i) + " with a successor out of range";
      return failure();
    }
    forest.onTrue[i] = *t;
    forest.onFalse[i] = *f;
    forest.feature[i] = (*featureIds)[i];
    forest.split[i] = (*splits)[i];
    forest.mode[i] = (*modes)[i];
    forest.missing[i] = !missingTrue->empty() && (*missingTrue)[i];
    if (failed(checkNode(forest, i, xType.getDimSize(1), error)))
      return failure();
    if (forest.mode[i] == kMember) {
      while (memberAt < members->size() && !std::isnan((*members)[memberAt]))
        forest.sets[i].push_back((*members)[memberAt++]);
      if (memberAt++ >= members->size()) {
        error = "has fewer NaN-ended membership_values sets than "
                "membership nodes";
        return failure();
      }
    }
  }
  // A root that is a leaf on both sides with one id is a tree of one leaf.
  SmallVector<int64_t> starts;
  for (int64_t root : *roots) {
    if (root < 0 || root >= numNodes) {
      error = "has a tree root out of range";
      return failure();
    }
    bool oneLeaf = (*trueLeafs)[root] && (*falseLeafs)[root] &&
                   (*trueIds)[root] == (*falseIds)[root];
    starts.push_back(oneLeaf ? (int64_t)forest.onTrue[root] : root);
  }
  if (failed(forest.setRoots(starts, error)))
    return failure();
  forest.fillLeaves(*aggregate, element);
  int64_t numTrees = roots->size();
  for (int64_t l = 0; l < numLeaves; ++l)
    forest.leafTable[l * *targets + (*leafTargets)[l]] =
        *aggregate == 0 ? (*leafWeights)[l] / numTrees : (*leafWeights)[l];

  Expansion e(node, error);
  Value y = postTransform(
      node, e, traverse(node, e, x, forest, element, *aggregate), *post);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

namespace {
/// The float list attribute `name`, or its `_as_tensor` (double) form; empty
/// when neither is there (an error if `required`).
std::optional<SmallVector<double>> floatList(NodeContext &node, StringRef name,
                                             bool required,
                                             std::string &error) {
  std::optional<SmallVector<double>> tensor =
      tensorValues(node, (name + "_as_tensor").str(), false, error);
  if (!tensor)
    return std::nullopt;
  std::optional<Attribute> attr = node.takeAttribute(name);
  if (!attr) {
    if (required && tensor->empty()) {
      error = "needs attribute '" + name.str() + "'";
      return std::nullopt;
    }
    return tensor;
  }
  auto list = dyn_cast<DenseF32ArrayAttr>(*attr);
  if (!list) {
    error = "expects attribute '" + name.str() + "' to be floats";
    return std::nullopt;
  }
  return SmallVector<double>(list.asArrayRef().begin(),
                             list.asArrayRef().end());
}

/// The node tables of the classic tree layout (TreeEnsembleRegressor and
/// TreeEnsembleClassifier, ai.onnx.ml 1 and 3): nodes named by (tree id,
/// node id) with string modes ("BRANCH_LEQ" ... "LEAF"), and the leaf
/// weights given as (tree, node, output, weight) entries under `prefix`
/// ("target" or "class": prefix_treeids, _nodeids, _ids, _weights). Fills
/// `forest` (its leaf table summing each leaf's weights per output, divided
/// by the trees for an AVERAGE) for `outputs` outputs; `outputIds` gets the
/// output ids of the weight entries.
LogicalResult parseClassicForest(NodeContext &node, Value x, StringRef prefix,
                                 int64_t outputs, int64_t aggregate,
                                 Forest &forest,
                                 SmallVectorImpl<int64_t> &outputIds,
                                 std::string &error) {
  auto ints = [&](StringRef name, bool required) {
    return intsAttr(node, name, required, error);
  };
  std::optional<SmallVector<int64_t>> treeIds, nodeIds, featureIds, trueIds,
      falseIds, missingTrue, weightTrees, weightNodes, weightIds;
  std::optional<SmallVector<double>> values, weights, hitRates;
  std::optional<Attribute> modesAttr = node.takeAttribute("nodes_modes");
  if (!(treeIds = ints("nodes_treeids", true)) ||
      !(nodeIds = ints("nodes_nodeids", true)) ||
      !(featureIds = ints("nodes_featureids", true)) ||
      !(trueIds = ints("nodes_truenodeids", true)) ||
      !(falseIds = ints("nodes_falsenodeids", true)) ||
      !(missingTrue = ints("nodes_missing_value_tracks_true", false)) ||
      !(weightTrees = ints((prefix + "_treeids").str(), true)) ||
      !(weightNodes = ints((prefix + "_nodeids").str(), true)) ||
      !(weightIds = ints((prefix + "_ids").str(), true)) ||
      !(values = floatList(node, "nodes_values", true, error)) ||
      !(weights = floatList(node, (prefix + "_weights").str(), true, error)) ||
      !(hitRates = floatList(node, "nodes_hitrates", false, error)))
    return failure();
  auto modeList = modesAttr ? dyn_cast<ArrayAttr>(*modesAttr) : nullptr;
  if (!modeList) {
    error = "needs attribute 'nodes_modes' (strings)";
    return failure();
  }
  size_t count = treeIds->size();
  if (nodeIds->size() != count || featureIds->size() != count ||
      trueIds->size() != count || falseIds->size() != count ||
      values->size() != count || modeList.size() != count ||
      (!missingTrue->empty() && missingTrue->size() != count)) {
    error = "needs one entry per node in every nodes_* attribute";
    return failure();
  }
  if (weightNodes->size() != weightTrees->size() ||
      weightIds->size() != weightTrees->size() ||
      weights->size() != weightTrees->size()) {
    error =
        "needs one entry per weight in every " + prefix.str() + "_* attribute";
    return failure();
  }

  // Index space: the branch nodes in order, then the leaves in order.
  llvm::DenseMap<std::pair<int64_t, int64_t>, int64_t> indexOf;
  SmallVector<size_t> branches, leaves;
  SmallVector<int64_t> modeOf(count);
  for (size_t i = 0; i < count; ++i) {
    auto name = dyn_cast<StringAttr>(modeList[i]);
    std::optional<int64_t> mode =
        llvm::StringSwitch<std::optional<int64_t>>(name ? name.getValue() : "")
            .Case("BRANCH_LEQ", kLeq)
            .Case("BRANCH_LT", kLt)
            .Case("BRANCH_GTE", kGte)
            .Case("BRANCH_GT", kGt)
            .Case("BRANCH_EQ", kEq)
            .Case("BRANCH_NEQ", kNeq)
            .Case("LEAF", -1)
            .Default(std::nullopt);
    if (!mode) {
      error = "has node " + std::to_string(i) + " with an unknown mode";
      return failure();
    }
    modeOf[i] = *mode;
    (*mode < 0 ? leaves : branches).push_back(i);
  }
  if (leaves.empty()) {
    error = "needs a leaf";
    return failure();
  }
  forest.resize(branches.size(), leaves.size());
  forest.targets = outputs;
  for (auto [k, i] : llvm::enumerate(branches))
    indexOf[{(*treeIds)[i], (*nodeIds)[i]}] = k;
  for (auto [k, i] : llvm::enumerate(leaves))
    indexOf[{(*treeIds)[i], (*nodeIds)[i]}] = forest.numNodes + k;
  if (indexOf.size() != count) {
    error = "has two nodes with one (tree id, node id)";
    return failure();
  }
  llvm::DenseSet<int64_t> children;
  for (auto [k, i] : llvm::enumerate(branches)) {
    auto t = indexOf.find({(*treeIds)[i], (*trueIds)[i]});
    auto f = indexOf.find({(*treeIds)[i], (*falseIds)[i]});
    if (t == indexOf.end() || f == indexOf.end()) {
      error = "has node " + std::to_string(i) +
              " with a successor outside its tree";
      return failure();
    }
    forest.onTrue[k] = t->second;
    forest.onFalse[k] = f->second;
    children.insert(t->second);
    children.insert(f->second);
    forest.feature[k] = (*featureIds)[i];
    forest.split[k] = (*values)[i];
    forest.mode[k] = modeOf[i];
    forest.missing[k] = !missingTrue->empty() && (*missingTrue)[i];
  }
  auto xType = dyn_cast<RankedTensorType>(x.getType());
  if (!xType || xType.getRank() != 2 ||
      !(isa<FloatType>(xType.getElementType()) ||
        xType.getElementType().isSignlessInteger())) {
    error = "needs a numeric input of rank 2 [N, features]";
    return failure();
  }
  for (int64_t k = 0; k < forest.numNodes; ++k)
    if (failed(checkNode(forest, k, xType.getDimSize(1), error)))
      return failure();
  // The roots: one per tree, the node no other node names as a successor.
  SmallVector<int64_t> roots;
  for (size_t i = 0; i < count; ++i) {
    int64_t at = indexOf[{(*treeIds)[i], (*nodeIds)[i]}];
    if (!children.contains(at))
      roots.push_back(at);
  }
  if (failed(forest.setRoots(roots, error)))
    return failure();
  forest.fillLeaves(aggregate, node.builder.getF32Type());
  // Each leaf's weight per output, summed (AVERAGE: over the trees).
  SmallVector<bool> seen(forest.leafTable.size(), false);
  for (size_t w = 0; w < weights->size(); ++w) {
    auto at = indexOf.find({(*weightTrees)[w], (*weightNodes)[w]});
    int64_t output = (*weightIds)[w];
    if (at == indexOf.end() || at->second < forest.numNodes || output < 0 ||
        output >= outputs) {
      error = "has " + prefix.str() + " weight " + std::to_string(w) +
              " for no leaf or outside its outputs";
      return failure();
    }
    int64_t cell = (at->second - forest.numNodes) * outputs + output;
    double weight =
        aggregate == 0 ? (*weights)[w] / (double)roots.size() : (*weights)[w];
    forest.leafTable[cell] =
        seen[cell] ? forest.leafTable[cell] + weight : weight;
    seen[cell] = true;
  }
  outputIds.assign(weightIds->begin(), weightIds->end());
  return success();
}

/// String class labels (classlabels_strings), where a classifier has them:
/// `labels` become the classes' indices 0..C-1, which the label computation
/// picks as it picks int64 labels, and `strings` the names that
/// labelOfIndex turns them into. Fails when both kinds are given.
LogicalResult takeStringLabels(NodeContext &node, SmallVector<int64_t> &labels,
                               SmallVector<std::string> &strings,
                               std::string &error) {
  std::optional<Attribute> attr = node.takeAttribute("classlabels_strings");
  if (!attr)
    return success();
  auto list = dyn_cast<ArrayAttr>(*attr);
  if (!list || !labels.empty()) {
    error = "needs either int64 or string class labels";
    return failure();
  }
  for (Attribute a : list)
    if (auto name = dyn_cast<StringAttr>(a)) {
      labels.push_back(static_cast<int64_t>(strings.size()));
      strings.push_back(name.str());
    }
  return success();
}

/// `label` (int64), or, with string class labels, the names at those
/// indices.
Value labelOfIndex(NodeContext &node, Expansion &e, Value label,
                   ArrayRef<std::string> strings) {
  if (strings.empty())
    return label;
  SmallVector<StringRef> names(strings.begin(), strings.end());
  auto type =
      RankedTensorType::get({static_cast<int64_t>(names.size())},
                            onnx::StringType::get(node.builder.getContext()));
  Value table = node.builder.create<onnx::ConstantOp>(
      node.constantLoc(),
      cast<ElementsAttr>(DenseStringElementsAttr::get(type, names)));
  return e.op("Gather", {table, label});
}

/// The int64 label of each row: `labels` at the argmax of `scores`.
Value labelAtArgmax(NodeContext &node, Expansion &e, Value scores,
                    ArrayRef<int64_t> labels) {
  SmallVector<double> values(labels.begin(), labels.end());
  Value best =
      e.op("ArgMax", scores, {e.attr("axis", 1), e.attr("keepdims", 0)});
  return e.op("Gather", {tableConstant(node, node.builder.getI64Type(),
                                       {(int64_t)labels.size()}, values),
                         best});
}

/// post_transform by name: NONE 0, SOFTMAX 1, LOGISTIC 2, SOFTMAX_ZERO 3,
/// PROBIT 4 (TreeEnsemble's codes); -1 otherwise.
int64_t postTransformCode(StringRef name) {
  return llvm::StringSwitch<int64_t>(name)
      .Case("NONE", 0)
      .Case("SOFTMAX", 1)
      .Case("LOGISTIC", 2)
      .Case("SOFTMAX_ZERO", 3)
      .Case("PROBIT", 4)
      .Default(-1);
}
} // namespace

/// TreeEnsembleRegressor (ai.onnx.ml 1 and 3), the form skl2onnx and
/// onnxmltools write (parseClassicForest), base_values added after the
/// aggregate. Built as the same traversal as TreeEnsemble, in float (the
/// regressor's output type).
FailureOr<SmallVector<Value>> importTreeEnsembleRegressor(NodeContext &node,
                                                          std::string &error) {
  std::optional<std::string> aggregateName =
      stringAttr(node, "aggregate_function", "SUM", error);
  std::optional<std::string> postName =
      aggregateName ? stringAttr(node, "post_transform", "NONE", error)
                    : std::nullopt;
  std::optional<int64_t> targets =
      postName ? intAttr(node, "n_targets", 1, error) : std::nullopt;
  std::optional<SmallVector<double>> base =
      targets ? floatList(node, "base_values", false, error) : std::nullopt;
  if (!base)
    return failure();
  std::optional<int64_t> aggregate =
      llvm::StringSwitch<std::optional<int64_t>>(*aggregateName)
          .Case("AVERAGE", 0)
          .Case("SUM", 1)
          .Case("MIN", 2)
          .Case("MAX", 3)
          .Default(std::nullopt);
  int64_t post = postTransformCode(*postName);
  if (!aggregate) {
    error = "has unknown aggregate_function '" + *aggregateName + "'";
    return failure();
  }
  if (failed(checkPostTransform(post, *postName, error)))
    return failure();
  if (*targets <= 0 || (!base->empty() && (int64_t)base->size() != *targets)) {
    error = "needs a positive n_targets and one base value per target";
    return failure();
  }
  Value x = node.inputs[0];
  Forest forest;
  SmallVector<int64_t> targetIds;
  if (failed(parseClassicForest(node, x, "target", *targets, *aggregate, forest,
                                targetIds, error)) ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();

  FloatType f32 = node.builder.getF32Type();
  Expansion e(node, error);
  x = e.castTo(x, ::onnx::TensorProto::FLOAT);
  Value y = traverse(node, e, x, forest, f32, *aggregate);
  if (!base->empty())
    y = e.op("Add", {y, tableConstant(node, f32, {*targets}, *base)});
  y = postTransform(node, e, y, post);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// TreeEnsembleClassifier (ai.onnx.ml 1 and 3): the scores Z [N, classes]
/// are base_values plus the sum of the class weights of the leaves reached,
/// then the post transform; the label is classlabels_int64s at Z's argmax.
/// When every weight is for class 0 of two classes (a binary model: one
/// score s), Z is [1 - s, s] (NONE) or [-s, s] (SOFTMAX, LOGISTIC) before
/// the transform, as ONNX's reference has it. String class labels are
/// picked by index (takeStringLabels).
FailureOr<SmallVector<Value>> importTreeEnsembleClassifier(NodeContext &node,
                                                           std::string &error) {
  std::optional<std::string> postName =
      stringAttr(node, "post_transform", "NONE", error);
  std::optional<SmallVector<double>> base =
      postName ? floatList(node, "base_values", false, error) : std::nullopt;
  std::optional<SmallVector<int64_t>> labels =
      base ? intsAttr(node, "classlabels_int64s", false, error) : std::nullopt;
  SmallVector<std::string> names;
  if (!labels || failed(takeStringLabels(node, *labels, names, error)))
    return failure();
  int64_t classes = labels->size();
  int64_t post = postTransformCode(*postName);
  if (failed(checkPostTransform(post, *postName, error)))
    return failure();
  if (classes < 2 || (base->size() > 1 && (int64_t)base->size() != classes)) {
    error = "needs two or more classlabels_int64s and one base value (for "
            "all) or one per class";
    return failure();
  }
  Value x = node.inputs[0];
  Forest forest;
  SmallVector<int64_t> classIds;
  if (failed(parseClassicForest(node, x, "class", classes, /*SUM*/ 1, forest,
                                classIds, error)) ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  bool binary = llvm::all_equal(classIds);
  if (binary && (classes != 2 || classIds.front() != 0)) {
    error = "has every class weight for one class, a binary form onnxc takes "
            "only for class 0 of two";
    return failure();
  }
  if (binary && post > 2) {
    error = "has post_transform " + *postName +
            " on its binary (one score) form, which onnxc does not compute";
    return failure();
  }

  FloatType f32 = node.builder.getF32Type();
  Expansion e(node, error);
  x = e.castTo(x, ::onnx::TensorProto::FLOAT);
  Value z = traverse(node, e, x, forest, f32, /*SUM*/ 1);
  if (!base->empty())
    z = e.op("Add",
             {z, tableConstant(node, f32, {(int64_t)base->size()}, *base)});
  if (binary) {
    Value score =
        e.op("Slice", {z, node.i64Constant({0}), node.i64Constant({1}),
                       node.i64Constant({1}), node.noValue()});
    Value other =
        post == 0 ? e.op("Sub", {tableConstant(node, f32, {}, {1.0}), score})
                  : e.op("Neg", score);
    z = e.op("Concat", {other, score}, {e.attr("axis", 1)});
  }
  z = postTransform(node, e, z, post);
  Value label =
      labelOfIndex(node, e, labelAtArgmax(node, e, z, *labels), names);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{label, z};
}

namespace {
/// X [N, features] in float: f32 and f64 as they are, other numeric types
/// cast to f32; null after reporting otherwise. `features` gets dim 1.
Value linearInput(NodeContext &node, Expansion &e, int64_t &features,
                  std::string &error) {
  Value x = node.inputs[0];
  auto type = dyn_cast<RankedTensorType>(x.getType());
  Type element = type ? type.getElementType() : Type();
  if (!type || type.getRank() != 2 ||
      !(isa<FloatType>(element) || element.isSignlessInteger())) {
    error = "needs a numeric input of rank 2 [N, features]";
    return {};
  }
  features = type.getDimSize(1);
  if (element.isF32() || element.isF64())
    return x;
  return e.castTo(x, ::onnx::TensorProto::FLOAT);
}

/// X [N, F] times the coefficients [outputs, F] (transposed) plus the
/// intercepts: [N, outputs] in X's type; null after reporting.
Value linearScores(NodeContext &node, Expansion &e, Value x, int64_t features,
                   ArrayRef<double> coefficients, ArrayRef<double> intercepts,
                   int64_t &outputs, std::string &error) {
  if (ShapedType::isDynamic(features) || features <= 0 ||
      coefficients.empty() || coefficients.size() % features != 0) {
    error = "needs a static feature count that divides the coefficients";
    return {};
  }
  outputs = coefficients.size() / features;
  if (!intercepts.empty() && (int64_t)intercepts.size() != outputs) {
    error = "needs one intercept per output (" + std::to_string(outputs) + ")";
    return {};
  }
  Type element = getElementTypeOrSelf(x.getType());
  // The weights as [F, outputs].
  SmallVector<double> weights(coefficients.size());
  for (int64_t o = 0; o < outputs; ++o)
    for (int64_t f = 0; f < features; ++f)
      weights[f * outputs + o] = coefficients[o * features + f];
  Value y =
      e.op("MatMul",
           {x, tableConstant(node, element, {features, outputs}, weights)});
  if (!intercepts.empty())
    y = e.op("Add", {y, tableConstant(node, element, {outputs}, intercepts)});
  return y;
}
/// The attributes every linear model has.
struct LinearModel {
  SmallVector<double> coefficients, intercepts;
  std::string post;
};

/// Reads coefficients, intercepts and post_transform; nullopt after
/// reporting.
std::optional<LinearModel> readLinearModel(NodeContext &node,
                                           std::string &error) {
  std::optional<SmallVector<double>> coefficients =
      floatList(node, "coefficients", true, error);
  std::optional<SmallVector<double>> intercepts =
      coefficients ? floatList(node, "intercepts", false, error) : std::nullopt;
  std::optional<std::string> post =
      intercepts ? stringAttr(node, "post_transform", "NONE", error)
                 : std::nullopt;
  if (!post)
    return std::nullopt;
  return LinearModel{std::move(*coefficients), std::move(*intercepts), *post};
}

/// The scores X W^T + intercepts of `model` on the node's input (see
/// linearInput, linearScores); `outputs` gets W's rows; null after
/// reporting.
Value linearModelScores(NodeContext &node, Expansion &e,
                        const LinearModel &model, int64_t &outputs,
                        std::string &error) {
  int64_t features = 0;
  Value x = linearInput(node, e, features, error);
  return x ? linearScores(node, e, x, features, model.coefficients,
                          model.intercepts, outputs, error)
           : Value();
}
} // namespace

/// Scaler (ai.onnx.ml 1): Y = (X - offset) * scale per feature (or one of
/// each for all), in float.
FailureOr<SmallVector<Value>> importScaler(NodeContext &node,
                                           std::string &error) {
  std::optional<SmallVector<double>> offset =
      floatList(node, "offset", false, error);
  std::optional<SmallVector<double>> scale =
      offset ? floatList(node, "scale", false, error) : std::nullopt;
  if (!scale || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Expansion e(node, error);
  int64_t features = 0;
  Value x = linearInput(node, e, features, error);
  if (!x)
    return failure();
  for (const auto &list : {*offset, *scale})
    if (list.size() > 1 && (int64_t)list.size() != features) {
      error = "needs one offset and scale for all features or one per "
              "feature";
      return failure();
    }
  Type element = getElementTypeOrSelf(x.getType());
  if (!offset->empty())
    x = e.op("Sub", {x, tableConstant(node, element, {(int64_t)offset->size()},
                                      *offset)});
  if (!scale->empty())
    x = e.op("Mul", {x, tableConstant(node, element, {(int64_t)scale->size()},
                                      *scale)});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{x};
}

/// LinearRegressor (ai.onnx.ml 1): Y = X W^T + intercepts, W the
/// coefficients as [targets, features]; NONE post transform only.
FailureOr<SmallVector<Value>> importLinearRegressor(NodeContext &node,
                                                    std::string &error) {
  std::optional<LinearModel> model = readLinearModel(node, error);
  std::optional<int64_t> targets =
      model ? intAttr(node, "targets", 1, error) : std::nullopt;
  if (!targets || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (model->post != "NONE") {
    error =
        "has unsupported post_transform " + model->post + " (supported: NONE)";
    return failure();
  }
  Expansion e(node, error);
  int64_t outputs = 0;
  Value y = linearModelScores(node, e, *model, outputs, error);
  if (!y)
    return failure();
  if (outputs != *targets) {
    error = "has coefficients for " + std::to_string(outputs) +
            " targets, not " + std::to_string(*targets);
    return failure();
  }
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// LinearClassifier (ai.onnx.ml 1): scores X W^T + intercepts [N, rows of
/// W]; one row for two labels is a binary model, scores [-s, s]; then the
/// post transform. The label is classlabels_ints at the scores' argmax, or,
/// for one score column, the first label where the score reaches 0 (NONE)
/// or 0.5, else 0 (as ONNX's reference).
FailureOr<SmallVector<Value>> importLinearClassifier(NodeContext &node,
                                                     std::string &error) {
  std::optional<LinearModel> model = readLinearModel(node, error);
  std::optional<int64_t> multiClass =
      model ? intAttr(node, "multi_class", 0, error) : std::nullopt;
  std::optional<SmallVector<int64_t>> labels =
      multiClass ? intsAttr(node, "classlabels_ints", false, error)
                 : std::nullopt;
  SmallVector<std::string> names;
  if (!labels || failed(takeStringLabels(node, *labels, names, error)) ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  int64_t post = postTransformCode(model->post);
  if (failed(checkPostTransform(post, model->post, error)))
    return failure();
  if (post > 2) {
    error = "has post_transform " + model->post +
            ", which onnxc computes for tree ensembles only";
    return failure();
  }
  Expansion e(node, error);
  int64_t outputs = 0;
  Value scores = linearModelScores(node, e, *model, outputs, error);
  if (!scores)
    return failure();
  int64_t classes = labels->size();
  if (classes == 0 || (outputs != classes && !(outputs == 1 && classes <= 2))) {
    error = "has " + std::to_string(outputs) + " coefficient rows for " +
            std::to_string(classes) + " classlabels_ints";
    return failure();
  }
  if (!names.empty() && classes < 2) {
    error = "has one string class label, a form onnxc does not compute";
    return failure();
  }
  Type element = getElementTypeOrSelf(scores.getType());
  if (outputs == 1 && classes == 2) {
    scores = e.op("Concat", {e.op("Neg", scores), scores}, {e.attr("axis", 1)});
    outputs = 2;
  }
  scores = postTransform(node, e, scores, post);
  Type i64 = node.builder.getI64Type();
  Value label;
  if (outputs > 1) {
    label = labelAtArgmax(node, e, scores, *labels);
  } else {
    Value reached = e.op(
        "GreaterOrEqual",
        {scores, tableConstant(node, element, {}, {post == 0 ? 0.0 : 0.5})});
    Value chosen =
        e.op("Where",
             {reached, tableConstant(node, i64, {}, {(double)labels->front()}),
              tableConstant(node, i64, {}, {0.0})});
    label = e.op("Reshape", {chosen, node.i64Constant({-1})});
  }
  label = labelOfIndex(node, e, label, names);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{label, scores};
}

/// Normalizer (ai.onnx.ml 1): each row of X [N, C] (or the one row of a
/// 1-D X) divided by its MAX (largest value), L1 (sum of absolute values)
/// or L2 (Euclidean) norm, in float, as ONNX's reference computes it.
FailureOr<SmallVector<Value>> importNormalizer(NodeContext &node,
                                               std::string &error) {
  std::optional<std::string> norm = stringAttr(node, "norm", "MAX", error);
  if (!norm || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*norm != "MAX" && *norm != "L1" && *norm != "L2") {
    error = "has norm '" + *norm + "' (expected 'MAX', 'L1' or 'L2')";
    return failure();
  }
  Value x = node.inputs[0];
  auto type = dyn_cast<RankedTensorType>(x.getType());
  Type element = type ? type.getElementType() : Type();
  if (!type || type.getRank() < 1 || type.getRank() > 2 ||
      !(isa<FloatType>(element) || element.isSignlessInteger())) {
    error = "needs a numeric input of rank 1 or 2";
    return failure();
  }
  Expansion e(node, error);
  Value wide = e.castTo(x, ::onnx::TensorProto::FLOAT);
  Value lastAxis = node.i64Constant({-1});
  NamedAttribute keep = e.attr("keepdims", 1);
  Value divisor;
  if (*norm == "MAX")
    divisor = e.op("ReduceMax", {wide, lastAxis}, {keep});
  else if (*norm == "L1")
    divisor = e.op("ReduceSum", {e.op("Abs", wide), lastAxis}, {keep});
  else
    divisor = e.op("Sqrt", e.op("ReduceSum",
                                {e.op("Mul", {wide, wide}), lastAxis}, {keep}));
  Value y = e.op("Div", {wide, divisor});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// Imputer (ai.onnx.ml 1): X [N, C] (float or int64) with each element
/// equal to the replaced value (replaced_value_float, NaN matching NaN, or
/// replaced_value_int64) replaced by its feature's imputed value (one per
/// feature, or one for all).
FailureOr<SmallVector<Value>> importImputer(NodeContext &node,
                                            std::string &error) {
  std::optional<SmallVector<double>> floats =
      floatList(node, "imputed_value_floats", false, error);
  std::optional<SmallVector<int64_t>> ints =
      floats ? intsAttr(node, "imputed_value_int64s", false, error)
             : std::nullopt;
  std::optional<double> replacedFloat =
      ints ? floatAttr(node, "replaced_value_float", 0.0, error) : std::nullopt;
  std::optional<int64_t> replacedInt =
      replacedFloat ? intAttr(node, "replaced_value_int64", 0, error)
                    : std::nullopt;
  if (!replacedInt || failed(checkNoOtherAttributes(node, error)))
    return failure();
  Value x = node.inputs[0];
  auto type = dyn_cast<RankedTensorType>(x.getType());
  Type element = type ? type.getElementType() : Type();
  bool isFloat = isa_and_nonnull<FloatType>(element);
  if (!type || (!isFloat && !element.isSignlessInteger(64))) {
    error = "needs a float or int64 input";
    return failure();
  }
  SmallVector<double> imputed(floats->begin(), floats->end());
  if (!isFloat)
    imputed.assign(ints->begin(), ints->end());
  int64_t features = type.getRank() ? type.getDimSize(type.getRank() - 1) : 1;
  if (imputed.empty() ||
      (imputed.size() > 1 && !ShapedType::isDynamic(features) &&
       static_cast<int64_t>(imputed.size()) != features)) {
    error = std::string("needs imputed_value_") +
            (isFloat ? "floats" : "int64s") +
            ", one value for all features or one per feature";
    return failure();
  }
  Expansion e(node, error);
  Value replaced;
  if (isFloat && std::isnan(*replacedFloat))
    replaced = e.op("IsNaN", x);
  else
    replaced =
        e.op("Equal",
             {x, tableConstant(node, element, {},
                               {isFloat ? *replacedFloat
                                        : static_cast<double>(*replacedInt)})});
  Value values = tableConstant(node, element,
                               {static_cast<int64_t>(imputed.size())}, imputed);
  Value y = e.op("Where", {replaced, values, x});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// OneHotEncoder (ai.onnx.ml 1) with integer categories (cats_int64s): Y
/// [..., categories] in float, 1 where X (cast to int64) equals the
/// category. String categories wait for string tensors; zeros = 0 (an error
/// at run time for an unknown category) is refused.
FailureOr<SmallVector<Value>> importOneHotEncoder(NodeContext &node,
                                                  std::string &error) {
  if (node.takeAttribute("cats_strings")) {
    error = "has string categories (cats_strings: string tensors are not "
            "supported)";
    return failure();
  }
  std::optional<SmallVector<int64_t>> cats =
      intsAttr(node, "cats_int64s", true, error);
  std::optional<int64_t> zeros =
      cats ? intAttr(node, "zeros", 1, error) : std::nullopt;
  if (!zeros || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (*zeros == 0) {
    error = "has zeros = 0 (failing on an unknown category is not supported)";
    return failure();
  }
  Value x = node.inputs[0];
  Type element = getElementTypeOrSelf(x.getType());
  if (!isa<FloatType>(element) && !element.isSignlessInteger()) {
    error = "needs a numeric input";
    return failure();
  }
  Expansion e(node, error);
  SmallVector<double> values(cats->begin(), cats->end());
  Value categories =
      tableConstant(node, node.builder.getI64Type(),
                    {static_cast<int64_t>(values.size())}, values);
  Value ids = e.op("Unsqueeze", {e.castTo(x, ::onnx::TensorProto::INT64),
                                 node.i64Constant({-1})});
  Value y =
      e.castTo(e.op("Equal", {ids, categories}), ::onnx::TensorProto::FLOAT);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

namespace {
/// One of LabelEncoder's key, value or default forms as a 1-D constant: the
/// typed list attributes (`ints` / `floats` / `strings` of the ml opset 2
/// names, as int64, f32 and strings) or the tensor attribute (opset 4);
/// null when none is given (an error if two are).
ElementsAttr labelTable(NodeContext &node, StringRef ints, StringRef floats,
                        StringRef strings, StringRef tensor,
                        std::string &error) {
  OpBuilder &b = node.builder;
  ElementsAttr table;
  int given = 0;
  auto list = [&](Type element, int64_t size) {
    return RankedTensorType::get({size}, element);
  };
  if (std::optional<Attribute> attr = node.takeAttribute(ints)) {
    ++given;
    SmallVector<int64_t> values;
    if (auto many = dyn_cast<DenseI64ArrayAttr>(*attr))
      llvm::append_range(values, many.asArrayRef());
    else if (auto one = dyn_cast<IntegerAttr>(*attr))
      values.push_back(one.getInt());
    else
      error = "expects attribute '" + ints.str() + "' to be ints";
    table = DenseElementsAttr::get(list(b.getI64Type(), values.size()),
                                   ArrayRef<int64_t>(values));
  }
  if (std::optional<Attribute> attr = node.takeAttribute(floats)) {
    ++given;
    SmallVector<float> values;
    if (auto many = dyn_cast<DenseF32ArrayAttr>(*attr))
      llvm::append_range(values, many.asArrayRef());
    else if (auto one = dyn_cast<FloatAttr>(*attr))
      values.push_back(one.getValueAsDouble());
    else
      error = "expects attribute '" + floats.str() + "' to be floats";
    table = DenseElementsAttr::get(list(b.getF32Type(), values.size()),
                                   ArrayRef<float>(values));
  }
  if (std::optional<Attribute> attr = node.takeAttribute(strings)) {
    ++given;
    SmallVector<StringRef> values;
    if (auto many = dyn_cast<ArrayAttr>(*attr)) {
      for (Attribute a : many)
        if (auto one = dyn_cast<StringAttr>(a))
          values.push_back(one.getValue());
    } else if (auto one = dyn_cast<StringAttr>(*attr)) {
      values.push_back(one.getValue());
    } else {
      error = "expects attribute '" + strings.str() + "' to be strings";
    }
    table = DenseStringElementsAttr::get(
        list(onnx::StringType::get(b.getContext()), values.size()), values);
  }
  if (std::optional<Attribute> attr = node.takeAttribute(tensor)) {
    ++given;
    auto elements = dyn_cast<ElementsAttr>(*attr);
    auto type = elements ? dyn_cast<RankedTensorType>(elements.getType())
                         : RankedTensorType();
    if (!type || !type.hasStaticShape()) {
      error = "expects attribute '" + tensor.str() + "' to be a tensor";
    } else if (auto dense = dyn_cast<DenseElementsAttr>(elements)) {
      table = onnx::reshapeDense(
          dense, list(type.getElementType(), type.getNumElements()));
    } else if (std::optional<ConstantTensor> values =
                   readElements(elements, 1 << 24)) {
      values->type = list(type.getElementType(), values->size());
      table = toElementsAttr(*values);
    } else {
      error = "expects attribute '" + tensor.str() +
              "' to be a numeric or string tensor";
    }
  }
  if (given > 1)
    error = "has more than one of '" + ints.str() + "', '" + floats.str() +
            "', '" + strings.str() + "' and '" + tensor.str() + "'";
  return error.empty() ? table : ElementsAttr();
}
} // namespace

/// LabelEncoder (ai.onnx.ml 2 and 4): Y = values[k] where X equals keys[k],
/// else the default (default_int64 -1, default_float -0.0, default_string
/// "_Unused", or default_tensor), in the values' type; the keys' type must
/// be X's. Keys and values are int64, float or string (or, in the tensor
/// forms, any numeric type). Built as Equal against the keys, the first
/// match's index (ArgMax) gathered from the values, Where none matched the
/// default. Opset 1's classes_strings form maps strings to their index or
/// indices to their string. A NaN key is refused (ONNX leaves its match
/// open).
FailureOr<SmallVector<Value>> importLabelEncoder(NodeContext &node,
                                                 std::string &error) {
  ElementsAttr keys, values, fallback;
  if (std::optional<Attribute> classes =
          node.takeAttribute("classes_strings")) {
    // ml opset 1: a string becomes its index in classes_strings, an int64
    // index its class, as X is strings or int64; the default is that of
    // the output's type (default_int64, default_string).
    MLIRContext *ctx = node.builder.getContext();
    SmallVector<StringRef> names;
    SmallVector<int64_t> indices;
    if (auto list = dyn_cast<ArrayAttr>(*classes))
      for (Attribute a : list)
        if (auto name = dyn_cast<StringAttr>(a)) {
          indices.push_back(static_cast<int64_t>(names.size()));
          names.push_back(name.getValue());
        }
    auto listOf = [&](Type element) {
      return RankedTensorType::get({static_cast<int64_t>(names.size())},
                                   element);
    };
    ElementsAttr strings =
        DenseStringElementsAttr::get(listOf(onnx::StringType::get(ctx)), names);
    ElementsAttr ints = DenseElementsAttr::get(
        listOf(IntegerType::get(ctx, 64)), ArrayRef<int64_t>(indices));
    bool fromStrings =
        isa<onnx::StringType>(getElementTypeOrSelf(node.inputs[0].getType()));
    keys = fromStrings ? strings : ints;
    values = fromStrings ? ints : strings;
    std::optional<Attribute> defaultInt = node.takeAttribute("default_int64");
    std::optional<Attribute> defaultString =
        node.takeAttribute("default_string");
    auto one = [&](Type element) {
      return RankedTensorType::get({1}, element);
    };
    if (auto v = dyn_cast_or_null<IntegerAttr>(defaultInt.value_or(nullptr));
        v && fromStrings)
      fallback = DenseElementsAttr::get(one(IntegerType::get(ctx, 64)),
                                        ArrayRef<int64_t>{v.getInt()});
    if (auto v = dyn_cast_or_null<StringAttr>(defaultString.value_or(nullptr));
        v && !fromStrings)
      fallback = DenseStringElementsAttr::get(one(onnx::StringType::get(ctx)),
                                              {v.getValue()});
  } else {
    keys = labelTable(node, "keys_int64s", "keys_floats", "keys_strings",
                      "keys_tensor", error);
    values = error.empty()
                 ? labelTable(node, "values_int64s", "values_floats",
                              "values_strings", "values_tensor", error)
                 : ElementsAttr();
    fallback = error.empty()
                   ? labelTable(node, "default_int64", "default_float",
                                "default_string", "default_tensor", error)
                   : ElementsAttr();
  }
  if (!error.empty() || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (!keys || !values || keys.getNumElements() != values.getNumElements() ||
      keys.getNumElements() == 0) {
    error = "needs as many keys as values, one or more";
    return failure();
  }
  Value x = node.inputs[0];
  Type element = getElementTypeOrSelf(x.getType());
  Type keyType = keys.getElementType();
  Type valueType = values.getElementType();
  if (element != keyType) {
    error = "has keys of another type than its input";
    return failure();
  }
  if (isa<FloatType>(keyType)) {
    std::optional<ConstantTensor> read = readElements(keys, 1 << 24);
    if (!read ||
        llvm::any_of(read->floats, [](double v) { return std::isnan(v); })) {
      error = "has a NaN key, or float keys that cannot be read";
      return failure();
    }
  }
  // The default: the one given (of the values' type), else -1, -0.0 or
  // "_Unused".
  OpBuilder &b = node.builder;
  auto scalar = RankedTensorType::get({}, valueType);
  if (fallback) {
    if (fallback.getNumElements() != 1 ||
        fallback.getElementType() != valueType ||
        !isa<DenseElementsAttr>(fallback)) {
      error = "needs one default of the values' type";
      return failure();
    }
    fallback = onnx::reshapeDense(cast<DenseElementsAttr>(fallback), scalar);
  } else if (isa<onnx::StringType>(valueType)) {
    fallback = DenseStringElementsAttr::get(scalar, {StringRef("_Unused")});
  } else if (auto floatType = dyn_cast<FloatType>(valueType)) {
    fallback = DenseElementsAttr::get(
        scalar, FloatAttr::get(floatType, -0.0).getValue());
  } else if (isa<IntegerType>(valueType)) {
    fallback = DenseElementsAttr::get(
        scalar, APInt(valueType.getIntOrFloatBitWidth(), uint64_t(-1), true));
  } else {
    error = "has values of an unsupported type";
    return failure();
  }

  Expansion e(node, error);
  Location loc = node.constantLoc();
  Value keyTable = b.create<onnx::ConstantOp>(loc, keys);
  Value valueTable = b.create<onnx::ConstantOp>(loc, values);
  Value fallbackValue = b.create<onnx::ConstantOp>(loc, fallback);
  Value hits = e.castTo(
      e.op("Equal", {e.op("Unsqueeze", {x, node.i64Constant({-1})}), keyTable}),
      ::onnx::TensorProto::FLOAT);
  Value first =
      e.op("ArgMax", hits, {e.attr("axis", -1), e.attr("keepdims", 0)});
  Value found =
      e.op("Greater", {e.op("ReduceMax", {hits, node.i64Constant({-1})},
                            {e.attr("keepdims", 0)}),
                       tableConstant(node, b.getF32Type(), {}, {0.0})});
  Value y = e.op("Where",
                 {found, e.op("Gather", {valueTable, first}), fallbackValue});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

/// CategoryMapper (ai.onnx.ml 1): strings to int64 through the pairs of
/// cats_strings and cats_int64s, or int64 to strings, as X is; a value with
/// no pair becomes default_int64 (-1) or default_string ("_Unused"). It is
/// LabelEncoder with those keys and values, and is imported as one.
FailureOr<SmallVector<Value>> importCategoryMapper(NodeContext &node,
                                                   std::string &error) {
  std::optional<Attribute> ints = node.takeAttribute("cats_int64s");
  std::optional<Attribute> strings = node.takeAttribute("cats_strings");
  auto intList = dyn_cast_or_null<DenseI64ArrayAttr>(ints.value_or(nullptr));
  auto stringList = dyn_cast_or_null<ArrayAttr>(strings.value_or(nullptr));
  if (!intList || !stringList ||
      intList.size() != static_cast<int64_t>(stringList.size())) {
    error = "needs 'cats_int64s' and 'cats_strings' of the same length";
    return failure();
  }
  OpBuilder &b = node.builder;
  bool fromStrings =
      isa<onnx::StringType>(getElementTypeOrSelf(node.inputs[0].getType()));
  auto named = [&](StringRef name, Attribute value) {
    return b.getNamedAttr(name, value);
  };
  SmallVector<NamedAttribute> encoder{
      named(fromStrings ? "keys_strings" : "values_strings", stringList),
      named(fromStrings ? "values_int64s" : "keys_int64s", intList)};
  // Only the default of the output's type applies.
  std::optional<Attribute> defaultInt = node.takeAttribute("default_int64");
  std::optional<Attribute> defaultString = node.takeAttribute("default_string");
  if (fromStrings && defaultInt)
    encoder.push_back(named("default_int64", *defaultInt));
  if (!fromStrings && defaultString)
    encoder.push_back(named("default_string", *defaultString));
  llvm::append_range(node.attributes, encoder);
  return importLabelEncoder(node, error);
}

/// FeatureVectorizer (ai.onnx.ml 1): the inputs [N, C_i] (numeric) cast to
/// float and concatenated along the features, each C_i its entry of
/// inputdimensions.
FailureOr<SmallVector<Value>> importFeatureVectorizer(NodeContext &node,
                                                      std::string &error) {
  std::optional<SmallVector<int64_t>> dims =
      intsAttr(node, "inputdimensions", true, error);
  if (!dims || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (dims->size() != node.inputs.size() || node.inputs.empty()) {
    error = "needs one inputdimensions entry per input";
    return failure();
  }
  Expansion e(node, error);
  SmallVector<Value> parts;
  for (auto [x, dim] : llvm::zip(node.inputs, *dims)) {
    auto type = dyn_cast<RankedTensorType>(x.getType());
    Type element = type ? type.getElementType() : Type();
    if (!type || type.getRank() != 2 ||
        !(isa<FloatType>(element) || element.isSignlessInteger()) ||
        (!type.isDynamicDim(1) && type.getDimSize(1) != dim)) {
      error = "needs numeric inputs [N, C] with C their inputdimensions "
              "entry";
      return failure();
    }
    parts.push_back(e.castTo(x, ::onnx::TensorProto::FLOAT));
  }
  Value y = parts.size() == 1 ? parts.front()
                              : e.op("Concat", parts, {e.attr("axis", 1)});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

namespace {
/// The attributes SVMRegressor and SVMClassifier share.
struct SVMModel {
  SmallVector<double> coefficients, params, rho, vectors;
  std::string kernel, post;
};

/// Reads coefficients, kernel_params, rho, support_vectors, kernel_type and
/// post_transform; nullopt after reporting (an unknown kernel_type too).
std::optional<SVMModel> readSVMModel(NodeContext &node, std::string &error) {
  std::optional<SmallVector<double>> coefficients =
      floatList(node, "coefficients", true, error);
  std::optional<SmallVector<double>> params =
      coefficients ? floatList(node, "kernel_params", false, error)
                   : std::nullopt;
  std::optional<SmallVector<double>> rho =
      params ? floatList(node, "rho", false, error) : std::nullopt;
  std::optional<SmallVector<double>> vectors =
      rho ? floatList(node, "support_vectors", false, error) : std::nullopt;
  std::optional<std::string> kernel =
      vectors ? stringAttr(node, "kernel_type", "LINEAR", error) : std::nullopt;
  std::optional<std::string> post =
      kernel ? stringAttr(node, "post_transform", "NONE", error) : std::nullopt;
  if (!post)
    return std::nullopt;
  if (*kernel != "LINEAR" && *kernel != "POLY" && *kernel != "RBF" &&
      *kernel != "SIGMOID") {
    error = "has kernel_type '" + *kernel +
            "' (expected 'LINEAR', 'POLY', 'RBF' or 'SIGMOID')";
    return std::nullopt;
  }
  return SVMModel{std::move(*coefficients),
                  std::move(*params),
                  std::move(*rho),
                  std::move(*vectors),
                  *kernel,
                  *post};
}

/// The kernel values [N, supports] of X [N, features] against the model's
/// support vectors ([supports, features]), by kernel_type with
/// kernel_params [gamma, coef0, degree]: LINEAR x.s, POLY (gamma x.s +
/// coef0)^degree, RBF exp(-gamma |x - s|^2), SIGMOID tanh(gamma x.s +
/// coef0).
Value svmKernel(NodeContext &node, Expansion &e, Value x, const SVMModel &model,
                int64_t supports, int64_t features) {
  const SmallVector<double> &vectors = model.vectors;
  double gamma = model.params.size() > 0 ? model.params[0] : 0.0;
  double coef0 = model.params.size() > 1 ? model.params[1] : 0.0;
  double degree = model.params.size() > 2 ? model.params[2] : 0.0;
  Type element = getElementTypeOrSelf(x.getType());
  auto scalar = [&](double v) { return tableConstant(node, element, {}, {v}); };
  Value table = tableConstant(node, element, {supports, features}, vectors);
  Value dot = e.op("MatMul", {x, e.transpose(table, {1, 0})});
  if (model.kernel == "LINEAR")
    return dot;
  if (model.kernel == "RBF") {
    // |x - s|^2 = |x|^2 - 2 x.s + |s|^2.
    SmallVector<double> norms(supports, 0.0);
    for (int64_t i = 0; i < supports; ++i)
      for (int64_t j = 0; j < features; ++j)
        norms[i] += vectors[i * features + j] * vectors[i * features + j];
    Value rows = e.op("ReduceSum", {e.op("Mul", {x, x}), node.i64Constant({1})},
                      {e.attr("keepdims", 1)});
    Value squared =
        e.op("Add", {e.op("Sub", {rows, e.op("Mul", {dot, scalar(2.0)})}),
                     tableConstant(node, element, {supports}, norms)});
    return e.op("Exp", e.op("Mul", {e.op("Relu", squared), scalar(-gamma)}));
  }
  Value affine =
      e.op("Add", {e.op("Mul", {dot, scalar(gamma)}), scalar(coef0)});
  return model.kernel == "POLY" ? e.op("Pow", {affine, scalar(degree)})
                                : e.op("Tanh", affine);
}
} // namespace

/// SVMRegressor (ai.onnx.ml 1), as skl2onnx writes scikit-learn's SVR,
/// NuSVR, LinearSVR and OneClassSVM: Y [N, 1] = sum over the support
/// vectors s of coefficients[s] K(x, s) + rho, K by kernel_type (svmKernel).
/// Without support vectors (n_supports 0, LINEAR) the coefficients
/// are the weights: Y = X w + rho. one_class gives 1 where the score is
/// positive, else -1. NONE post transform only.
FailureOr<SmallVector<Value>> importSVMRegressor(NodeContext &node,
                                                 std::string &error) {
  std::optional<SVMModel> model = readSVMModel(node, error);
  std::optional<int64_t> supports =
      model ? intAttr(node, "n_supports", 0, error) : std::nullopt;
  std::optional<int64_t> oneClass =
      supports ? intAttr(node, "one_class", 0, error) : std::nullopt;
  if (!oneClass || failed(checkNoOtherAttributes(node, error)))
    return failure();
  if (model->post != "NONE") {
    error = "has post_transform '" + model->post + "' (supported: NONE)";
    return failure();
  }
  Expansion e(node, error);
  int64_t features = 0;
  Value x = linearInput(node, e, features, error);
  if (!x)
    return failure();
  int64_t count = static_cast<int64_t>(model->coefficients.size());
  bool direct = *supports == 0;
  if (ShapedType::isDynamic(features) ||
      (direct ? model->kernel != "LINEAR" || count != features
              : count != *supports ||
                    static_cast<int64_t>(model->vectors.size()) !=
                        *supports * features)) {
    error = "needs a static feature count and, with n_supports support "
            "vectors of the features' size, as many coefficients (or, "
            "LINEAR without support vectors, one coefficient per feature)";
    return failure();
  }
  Type element = getElementTypeOrSelf(x.getType());
  auto scalar = [&](double v) { return tableConstant(node, element, {}, {v}); };
  // [N, S], or X itself without support vectors.
  Value kernelValues =
      direct ? x : svmKernel(node, e, x, *model, *supports, features);
  Value weights = tableConstant(node, element, {count, 1}, model->coefficients);
  Value y = e.op("MatMul", {kernelValues, weights});
  if (!model->rho.empty())
    y = e.op("Add", {y, scalar(model->rho.front())});
  if (*oneClass)
    y = e.op("Where",
             {e.op("Greater", {y, scalar(0.0)}), scalar(1.0), scalar(-1.0)});
  if (!e.ok())
    return failure();
  return SmallVector<Value>{y};
}

namespace {
/// Sweeps of libsvm's pairwise coupling (svmCoupling) built per node. ONNX
/// Runtime runs up to 100 and stops once every |(Qp)_t - p'Qp| is under
/// 0.005 / classes; on random pairwise probabilities, that held after at
/// most 2 sweeps for 2 classes and at most 4 for 3 to 6 classes.
constexpr int64_t kCouplingSweeps = 8;

/// The class probabilities [N, classes] from the pairwise ones `pairs` [N,
/// classes (classes - 1) / 2] (r_ij for i < j, in pair order; r_ji = 1 -
/// r_ij), as ONNX Runtime's multiclass_probability computes them (Wu, Lin
/// and Weng's second method, libsvm's): minimize p'Qp over the simplex by
/// coordinate steps, Q_tt = sum_j r_jt^2, Q_ij = -r_ji r_ij, starting at p =
/// 1/classes, each sweep skipped once converged.
Value svmCoupling(NodeContext &node, Expansion &e, Value pairs,
                  int64_t classes) {
  Type element = getElementTypeOrSelf(pairs.getType());
  auto scalar = [&](double v) { return tableConstant(node, element, {}, {v}); };
  int64_t numPairs = classes * (classes - 1) / 2, cells = classes * classes;
  // Q (flattened) = r^2 @ diagonal - r (1 - r) @ offDiagonal + (1 - r)^2 @
  // lowerDiagonal, where r is the pairs' value.
  SmallVector<double> upper(numPairs * cells, 0.0), lower(upper),
      offDiagonal(upper);
  for (int64_t i = 0, pair = 0; i < classes; ++i)
    for (int64_t j = i + 1; j < classes; ++j, ++pair) {
      upper[pair * cells + j * classes + j] = 1.0; // r_ij^2 into Q_jj
      lower[pair * cells + i * classes + i] = 1.0; // r_ji^2 into Q_ii
      offDiagonal[pair * cells + i * classes + j] = 1.0;
      offDiagonal[pair * cells + j * classes + i] = 1.0;
    }
  auto table = [&](ArrayRef<double> values) {
    return tableConstant(node, element, {numPairs, cells}, values);
  };
  Value other = e.op("Sub", {scalar(1.0), pairs});
  Value q =
      e.op("Sub",
           {e.op("Add",
                 {e.op("MatMul", {e.op("Mul", {pairs, pairs}), table(upper)}),
                  e.op("MatMul", {e.op("Mul", {other, other}), table(lower)})}),
            e.op("MatMul", {e.op("Mul", {pairs, other}), table(offDiagonal)})});
  Value matrix = e.op("Reshape", {q, node.i64Constant({-1, classes, classes})});
  auto column = [&](Value v, int64_t begin, int64_t end) {
    return e.op("Slice", {v, node.i64Constant({begin}), node.i64Constant({end}),
                          node.i64Constant({1}), node.noValue()});
  };
  Value axis = node.i64Constant({1});
  NamedAttribute keep = e.attr("keepdims", 1);
  Value p = tableConstant(node, element, {1, classes},
                          SmallVector<double>(classes, 1.0 / classes));
  Value done;
  for (int64_t sweep = 0; sweep < kCouplingSweeps; ++sweep) {
    Value start = p;
    Value qp = e.op("ReduceSum",
                    {e.op("Mul", {matrix, e.op("Unsqueeze", {p, axis})}),
                     node.i64Constant({2})},
                    {e.attr("keepdims", 0)});
    Value pqp = e.op("ReduceSum", {e.op("Mul", {p, qp}), axis}, {keep});
    Value error =
        e.op("ReduceMax", {e.op("Abs", e.op("Sub", {qp, pqp})), axis}, {keep});
    Value converged = e.op("Less", {error, scalar(0.005 / classes)});
    done = done ? e.op("Or", {done, converged}) : converged;
    for (int64_t t = 0; t < classes; ++t) {
      Value qtt = column(q, t * classes + t, t * classes + t + 1);
      Value qpt = column(qp, t, t + 1);
      Value diff = e.op("Div", {e.op("Sub", {pqp, qpt}), qtt});
      SmallVector<double> unit(classes, 0.0);
      unit[t] = 1.0;
      p = e.op("Add", {p, e.op("Mul", {diff, tableConstant(node, element,
                                                           {classes}, unit)})});
      Value grown = e.op("Add", {diff, scalar(1.0)});
      Value step =
          e.op("Mul", {diff, e.op("Add", {e.op("Mul", {diff, qtt}),
                                          e.op("Mul", {qpt, scalar(2.0)})})});
      pqp =
          e.op("Div", {e.op("Div", {e.op("Add", {pqp, step}), grown}), grown});
      Value row = column(q, t * classes, (t + 1) * classes);
      qp = e.op("Div", {e.op("Add", {qp, e.op("Mul", {diff, row})}), grown});
      p = e.op("Div", {p, grown});
    }
    p = e.op("Where", {done, start, p});
  }
  return p;
}
} // namespace

/// SVMClassifier (ai.onnx.ml 1), as skl2onnx writes scikit-learn's SVC and
/// NuSVC, computed as ONNX Runtime does. With support vectors
/// (vectors_per_class), each pair of classes i < j has the decision value
/// s_ij = sum over the vectors v of classes i and j of a coefficient times
/// K(x, v) (svmKernel; the coefficients [classes - 1, vectors] as libsvm
/// stores them) plus its rho; it votes for i where s_ij > 0, else for j, and
/// Y is classlabels_ints at the most votes (the first on a tie). Z holds the
/// decision values [N, pairs] with the post transform; for two classes, Z is
/// [-s, s] (NONE), [1 - sigmoid(s), sigmoid(s)] (LOGISTIC) or [1 - s, s]
/// (SOFTMAX, which ONNX Runtime does not apply to one score). With prob_a and
/// prob_b, Z is instead the class probabilities from Platt's sigmoid of each
/// pair, 1 / (1 + exp(s A + B)) kept within [1e-7, 1 - 1e-7], coupled over the
/// classes (svmCoupling). Without support vectors, the coefficients are the
/// weights [classes, features]: Z = X W^T + rho[0] with the post transform, and
/// Y the label at Z's argmax, except, for two classes, the second label where
/// the largest score is positive (or, with no negative weight, reaches 0.5).
/// String class labels are picked by index (takeStringLabels).
FailureOr<SmallVector<Value>> importSVMClassifier(NodeContext &node,
                                                  std::string &error) {
  std::optional<SVMModel> model = readSVMModel(node, error);
  std::optional<SmallVector<int64_t>> perClass =
      model ? intsAttr(node, "vectors_per_class", false, error) : std::nullopt;
  std::optional<SmallVector<double>> probA =
      perClass ? floatList(node, "prob_a", false, error) : std::nullopt;
  std::optional<SmallVector<double>> probB =
      probA ? floatList(node, "prob_b", false, error) : std::nullopt;
  std::optional<SmallVector<int64_t>> labels =
      probB ? intsAttr(node, "classlabels_ints", false, error) : std::nullopt;
  SmallVector<std::string> names;
  if (!labels || failed(takeStringLabels(node, *labels, names, error)) ||
      failed(checkNoOtherAttributes(node, error)))
    return failure();
  int64_t post = postTransformCode(model->post);
  if (failed(checkPostTransform(post, model->post, error)))
    return failure();
  if (post > 2) {
    error = "has post_transform " + model->post +
            ", which onnxc computes for tree ensembles only";
    return failure();
  }
  int64_t classes = labels->size();
  if (classes < 2) {
    error = "needs two or more classlabels_ints";
    return failure();
  }
  if (probA->size() != probB->size()) {
    error = "needs as many prob_b as prob_a";
    return failure();
  }
  Expansion e(node, error);
  int64_t features = 0;
  Value x = linearInput(node, e, features, error);
  if (!x)
    return failure();
  if (ShapedType::isDynamic(features)) {
    error = "needs a static feature count";
    return failure();
  }
  Type element = getElementTypeOrSelf(x.getType());
  auto scalar = [&](double v) { return tableConstant(node, element, {}, {v}); };
  int64_t vectors = 0;
  for (int64_t count : *perClass)
    vectors += std::max<int64_t>(count, 0);
  int64_t numPairs = classes * (classes - 1) / 2;
  int64_t numCoefficients = model->coefficients.size();
  Value z, label;
  if (vectors == 0) {
    // The weights form (liblinear's): one coefficient row per class.
    if (!probA->empty() || model->rho.empty() ||
        numCoefficients != classes * features) {
      error = "needs, without support vectors, one coefficient per class and "
              "feature, rho and no prob_a";
      return failure();
    }
    int64_t outputs = 0;
    z = linearScores(node, e, x, features, model->coefficients, {}, outputs,
                     error);
    if (!z)
      return failure();
    z = e.op("Add", {z, scalar(model->rho.front())});
    label = labelAtArgmax(node, e, z, *labels);
    if (classes == 2) {
      bool positive =
          llvm::all_of(model->coefficients, [](double c) { return c >= 0.0; });
      Value largest = e.op("ReduceMax", {z, node.i64Constant({1})},
                           {e.attr("keepdims", 0)});
      Value second = e.op(positive ? "GreaterOrEqual" : "Greater",
                          {largest, scalar(positive ? 0.5 : 0.0)});
      label = e.op("Where", {second,
                             tableConstant(node, node.builder.getI64Type(), {},
                                           {(double)(*labels)[1]}),
                             label});
    }
    z = postTransform(node, e, z, post);
  } else {
    if ((int64_t)perClass->size() != classes ||
        llvm::any_of(*perClass, [](int64_t c) { return c < 0; }) ||
        (int64_t)model->vectors.size() != vectors * features ||
        numCoefficients != (classes - 1) * vectors ||
        (int64_t)model->rho.size() < numPairs ||
        (!probA->empty() && (int64_t)probA->size() < numPairs)) {
      error = "needs one vectors_per_class entry per class, support vectors of "
              "the features' size, (classes - 1) coefficients per vector and "
              "a rho (and prob_a, prob_b if any) per pair of classes";
      return failure();
    }
    // The decision values [N, pairs] = K [N, vectors] W + rho, W [vectors,
    // pairs] holding, for pair (i, j), row j - 1 of the coefficients at class
    // i's vectors and row i at class j's; votes [N, classes] = (s > 0) @ (A -
    // B) + the pairs of each class as their second, A and B one-hot in the
    // first and second class of each pair.
    SmallVector<int64_t> first(classes, 0);
    for (int64_t c = 1; c < classes; ++c)
      first[c] = first[c - 1] + (*perClass)[c - 1];
    SmallVector<double> weights(vectors * numPairs, 0.0),
        sides(numPairs * classes, 0.0), seconds(classes, 0.0);
    for (int64_t i = 0, pair = 0; i < classes; ++i)
      for (int64_t j = i + 1; j < classes; ++j, ++pair) {
        for (int64_t v = first[i]; v < first[i] + (*perClass)[i]; ++v)
          weights[v * numPairs + pair] =
              model->coefficients[(j - 1) * vectors + v];
        for (int64_t v = first[j]; v < first[j] + (*perClass)[j]; ++v)
          weights[v * numPairs + pair] = model->coefficients[i * vectors + v];
        sides[pair * classes + i] = 1.0;
        sides[pair * classes + j] = -1.0;
        seconds[j] += 1.0;
      }
    Value kernel = svmKernel(node, e, x, *model, vectors, features);
    Value s = e.op(
        "Add",
        {e.op("MatMul", {kernel, tableConstant(node, element,
                                               {vectors, numPairs}, weights)}),
         tableConstant(node, element, {numPairs},
                       ArrayRef<double>(model->rho).take_front(numPairs))});
    Value wins = e.castTo(e.op("Greater", {s, scalar(0.0)}),
                          *onnx::getONNXDType(element));
    Value votes = e.op(
        "Add",
        {e.op("MatMul",
              {wins, tableConstant(node, element, {numPairs, classes}, sides)}),
         tableConstant(node, element, {classes}, seconds)});
    label = labelAtArgmax(node, e, votes, *labels);
    if (!probA->empty()) {
      Value platt = e.op(
          "Add",
          {e.op("Mul", {s, tableConstant(
                               node, element, {numPairs},
                               ArrayRef<double>(*probA).take_front(numPairs))}),
           tableConstant(node, element, {numPairs},
                         ArrayRef<double>(*probB).take_front(numPairs))});
      Value pairs = e.op(
          "Min",
          {e.op("Max", {e.op("Sigmoid", e.op("Neg", platt)), scalar(1e-7)}),
           scalar(1.0 - 1e-7)});
      z = postTransform(node, e, svmCoupling(node, e, pairs, classes), post);
    } else if (classes == 2) {
      if (post == 2)
        s = e.op("Sigmoid", s);
      Value other = post == 0 ? e.op("Neg", s) : e.op("Sub", {scalar(1.0), s});
      z = e.op("Concat", {other, s}, {e.attr("axis", 1)});
    } else {
      z = postTransform(node, e, s, post);
    }
  }
  if (!element.isF32())
    z = e.castTo(z, ::onnx::TensorProto::FLOAT);
  label = labelOfIndex(node, e, label, names);
  if (!e.ok())
    return failure();
  return SmallVector<Value>{label, z};
}

} // namespace onnxc::frontend

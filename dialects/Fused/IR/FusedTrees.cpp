//===- FusedTrees.cpp - fused.tree_ensemble: types and verifier -----------===//

#include "dialects/Fused/IR/FusedOps.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include <cmath>

using namespace mlir;
using namespace onnxc::fused;

LogicalResult TreeEnsembleOp::verify() {
  int64_t targets = getNTargets();
  size_t weights = getLeafWeights().size();
  // tree_c1
  if (targets <= 0 || weights == 0 || weights % targets != 0)
    return emitOpError("expects a positive n_targets that divides the ")
           << weights << " leaf_weights (got " << targets << ")";
  // tree_c2
  int64_t nodes = getNodesFeatureids().size();
  for (auto [name, size] :
       {std::pair<StringRef, size_t>{"nodes_splits", getNodesSplits().size()},
        {"nodes_modes", getNodesModes().size()},
        {"nodes_truenodeids", getNodesTruenodeids().size()},
        {"nodes_falsenodeids", getNodesFalsenodeids().size()}})
    if ((int64_t)size != nodes)
      return emitOpError("expects ")
             << nodes << " " << name << ", one per node (got " << size << ")";
  size_t tracks = getNodesMissingValueTracksTrue().size();
  if (tracks != 0 && (int64_t)tracks != nodes)
    return emitOpError("expects no nodes_missing_value_tracks_true or ")
           << nodes << " (got " << tracks << ")";
  // tree_c3
  int64_t total = nodes + getNumLeaves();
  auto outside = [&](ArrayRef<int64_t> ids) {
    return llvm::any_of(ids, [&](int64_t id) { return id < 0 || id >= total; });
  };
  if (getTreeRoots().empty())
    return emitOpError("expects a tree");
  if (outside(getNodesTruenodeids()) || outside(getNodesFalsenodeids()) ||
      outside(getTreeRoots()))
    return emitOpError("expects successors and roots in [0, ")
           << total << "), the nodes then the leaves";
  // tree_c4
  auto x = cast<ShapedType>(getX().getType());
  int64_t features =
      x.hasRank() && x.getRank() == 2 ? x.getDimSize(1) : ShapedType::kDynamic;
  if (x.hasRank() && x.getRank() != 2)
    return emitOpError("expects X of rank 2 (got ") << x.getRank() << ")";
  for (auto [i, feature] : llvm::enumerate(getNodesFeatureids()))
    if (feature < 0 || feature > 0x3fffffff ||
        (!ShapedType::isDynamic(features) && feature >= features))
      return emitOpError("has node ")
             << i << " reading feature " << feature << " of " << features;
  // tree_c5
  int64_t members = 0;
  for (auto [i, mode] : llvm::enumerate(getNodesModes())) {
    if (mode < 0 || mode > 6)
      return emitOpError("has node ") << i << " of unknown mode " << mode;
    members += mode == 6;
  }
  int64_t sets = llvm::count_if(getMembershipValues(),
                                [](float v) { return std::isnan(v); });
  if (sets != members || (!getMembershipValues().empty() &&
                          !std::isnan(getMembershipValues().back())))
    return emitOpError("expects ")
           << members << " NaN-ended sets in membership_values, one per "
           << "MEMBER node (got " << sets << ")";
  // tree_c6
  int64_t aggregate = getAggregateFunction();
  if (aggregate < 1 || aggregate > 3)
    return emitOpError("has unknown aggregate_function ")
           << aggregate << " (1 SUM, 2 MIN, 3 MAX)";
  return success();
}

bool TreeEnsembleOp::isCompatibleReturnTypes(TypeRange lhs, TypeRange rhs) {
  return onnxc::onnx::areCompatibleTypes(lhs, rhs);
}

// [N, n_targets] of X's type.
LogicalResult TreeEnsembleOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> loc, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &results) {
  auto x = dyn_cast<ShapedType>(operands[0].getType());
  auto targets =
      attributes ? attributes.getAs<IntegerAttr>("n_targets") : IntegerAttr();
  if (!x || !targets)
    return failure();
  int64_t rows =
      x.hasRank() && x.getRank() >= 1 ? x.getDimSize(0) : ShapedType::kDynamic;
  results.push_back(
      RankedTensorType::get({rows, targets.getInt()}, x.getElementType()));
  return success();
}

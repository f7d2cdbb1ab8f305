//===- Trees.cpp - fused.tree_ensemble to a runtime kernel call -----------===//
//
// A tree ensemble becomes a call of the runtime's tree kernel
// (lib/Kernels/trees/TreeEnsemble.c) on tables packed here, at compile time,
// in the layout of dialects/Kernel/KernelABI.h:
//   - each tree's nodes and leaves renumbered breadth-first from its root,
//     the trees one after the other, so that the levels a walk visits first
//     share cache lines;
//   - each LEQ, LT, GTE or GT test rewritten as (x ^ sign) <= split: GTE and
//     GT compare -x with -split, LT and GT move the split one float down;
//     where a missing value (NaN: every comparison fails) must go the true
//     way, the complementary test is written with the successors swapped.
//     EQ, NEQ, MEMBER and non-finite splits keep their test as a record in
//     the special table;
//   - each leaf its own successor on both sides, and each tree the number of
//     steps that its deepest leaf needs.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/Kernel/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <cstring>
#include <deque>

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The kernel entry point (dialects/Kernel/KernelABI.h).
static constexpr StringLiteral kTreeKernel = "onnxc_kernel_tree_ensemble_f32";

namespace {

/// TreeEnsemble-5's node modes.
enum Mode : int64_t { kLeq, kLt, kGte, kGt, kEq, kNeq, kMember };

/// The kernel's tables for one forest.
struct PackedForest {
  SmallVector<int32_t> nodes, trees, leafOf;
  SmallVector<float> special;
  bool hasSpecial = false;
};

/// The test `x <mode> split` as (x ^ sign) <= canonical split; nullopt for
/// modes and splits that have no such form.
std::optional<std::pair<bool, float>> canonicalTest(int64_t mode, float split) {
  if (!std::isfinite(split))
    return std::nullopt;
  float down = -INFINITY;
  switch (mode) {
  case kLeq:
    return std::make_pair(false, split);
  case kLt:
    return std::make_pair(false, std::nextafter(split, down));
  case kGte:
    return std::make_pair(true, -split);
  case kGt:
    return std::make_pair(true, std::nextafter(-split, down));
  default:
    return std::nullopt;
  }
}

/// The test that holds where `mode` fails, for non-NaN values.
int64_t complement(int64_t mode) {
  switch (mode) {
  case kLeq:
    return kGt;
  case kLt:
    return kGte;
  case kGte:
    return kLt;
  default:
    return kLeq;
  }
}

/// Packs `op`'s forest; fails (with a message on `op`) on a cycle.
FailureOr<PackedForest> packForest(fused::TreeEnsembleOp op) {
  ArrayRef<int64_t> features = op.getNodesFeatureids(),
                    modes = op.getNodesModes(),
                    onTrue = op.getNodesTruenodeids(),
                    onFalse = op.getNodesFalsenodeids();
  ArrayRef<float> splits = op.getNodesSplits(),
                  members = op.getMembershipValues();
  ArrayRef<bool> tracks = op.getNodesMissingValueTracksTrue();
  int64_t numNodes = features.size();
  int64_t total = numNodes + op.getNumLeaves();

  // Each MEMBER node's set: [begin, end) in membership_values.
  SmallVector<std::pair<size_t, size_t>> sets(numNodes);
  for (size_t i = 0, at = 0; i < (size_t)numNodes; ++i) {
    if (modes[i] != kMember)
      continue;
    size_t end = at;
    while (!std::isnan(members[end]))
      ++end;
    sets[i] = {at, end};
    at = end + 1;
  }

  PackedForest packed;
  // The new index of each old one, assigned breadth-first from each root.
  SmallVector<int32_t> newIndex(total, -1);
  SmallVector<int64_t> order;
  for (int64_t root : op.getTreeRoots()) {
    int32_t steps = 0;
    std::deque<std::pair<int64_t, int32_t>> queue;
    if (newIndex[root] < 0) {
      newIndex[root] = order.size();
      order.push_back(root);
    }
    queue.push_back({root, 0});
    while (!queue.empty()) {
      auto [at, depth] = queue.front();
      queue.pop_front();
      if (at >= numNodes)
        continue;
      if (depth >= numNodes)
        return op.emitOpError("has a tree with a cycle");
      steps = std::max(steps, depth + 1);
      for (int64_t next : {onTrue[at], onFalse[at]}) {
        if (newIndex[next] < 0) {
          newIndex[next] = order.size();
          order.push_back(next);
        }
        queue.push_back({next, depth + 1});
      }
    }
    packed.trees.append({newIndex[root], steps});
  }

  packed.leafOf.assign(order.size(), 0);
  for (auto [k, old] : llvm::enumerate(order)) {
    int32_t self = k;
    if (old >= numNodes) {
      packed.nodes.append({0, 0, self, self});
      packed.leafOf[k] = old - numNodes;
      continue;
    }
    int64_t mode = modes[old];
    bool missingTrue = !tracks.empty() && tracks[old];
    int32_t whenTrue = newIndex[onTrue[old]],
            whenFalse = newIndex[onFalse[old]];
    // A missing value fails the comparison: it goes the false way unless it
    // must go the true way, where the complementary test sends it right.
    int64_t tested = missingTrue ? complement(mode) : mode;
    std::optional<std::pair<bool, float>> test =
        canonicalTest(tested, splits[old]);
    if (mode <= kGt && test) {
      int32_t word = features[old];
      if (test->first)
        word |= (int32_t)ONNXC_TREE_WORD_SIGN;
      int32_t bits;
      std::memcpy(&bits, &test->second, sizeof bits);
      if (missingTrue)
        std::swap(whenTrue, whenFalse);
      packed.nodes.append({word, bits, whenTrue, whenFalse});
      continue;
    }
    // A record: mode, missing value goes true, split, set size, set.
    packed.hasSpecial = true;
    int32_t record = packed.special.size();
    auto [begin, end] = sets[old];
    packed.special.append({(float)mode, missingTrue ? 1.0f : 0.0f, splits[old],
                           (float)(end - begin)});
    packed.special.append(members.begin() + begin, members.begin() + end);
    packed.nodes.append({(int32_t)(features[old] | ONNXC_TREE_WORD_SPECIAL),
                         record, whenTrue, whenFalse});
  }
  if (packed.special.empty())
    packed.special.push_back(0.0f);
  return packed;
}

/// A constant tensor of `values` ([size] or `shape`).
template <typename T>
Value tableConstant(OpBuilder &b, Location loc, Type element,
                    ArrayRef<T> values, ArrayRef<int64_t> shape = {}) {
  SmallVector<int64_t> dims(shape);
  if (dims.empty())
    dims.push_back(values.size());
  auto type = RankedTensorType::get(dims, element);
  return b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(type, llvm::ArrayRef<T>(values)));
}

struct TreeEnsembleToKernelCall
    : public OpConversionPattern<fused::TreeEnsembleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(fused::TreeEnsembleOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    auto xType = dyn_cast<RankedTensorType>(adaptor.getX().getType());
    if (!resultType || !xType)
      return op.emitOpError("lowering supports ranked operands only");
    FailureOr<PackedForest> packed = packForest(op);
    if (failed(packed))
      return failure();
    Type i32 = rewriter.getI32Type(), f32 = rewriter.getF32Type();
    int64_t targets = op.getNTargets();
    SmallVector<Value> args = {
        readBuffer(rewriter, loc, adaptor.getX()),
        readBuffer(rewriter, loc,
                   tableConstant<int32_t>(rewriter, loc, i32, packed->nodes)),
        readBuffer(rewriter, loc,
                   tableConstant<int32_t>(rewriter, loc, i32, packed->trees)),
        readBuffer(rewriter, loc,
                   tableConstant<int32_t>(rewriter, loc, i32, packed->leafOf)),
        readBuffer(rewriter, loc,
                   tableConstant<float>(rewriter, loc, f32, op.getLeafWeights(),
                                        {op.getNumLeaves(), targets})),
        readBuffer(rewriter, loc,
                   tableConstant<float>(rewriter, loc, f32, packed->special))};
    SmallVector<Value> dynamicSizes;
    if (resultType.isDynamicDim(0))
      dynamicSizes.push_back(
          rewriter.create<tensor::DimOp>(loc, adaptor.getX(), 0));
    Value result = allocBuffer(rewriter, loc, resultType, dynamicSizes);
    args.push_back(castToDynamic(rewriter, loc, result));
    int64_t flags = op.getAggregateFunction() |
                    (packed->hasSpecial ? ONNXC_TREE_FLAG_SPECIAL : 0);
    args.push_back(rewriter.create<arith::ConstantIntOp>(loc, flags, 64));
    callKernel(rewriter, loc, kTreeKernel, args);
    rewriter.replaceOp(op, filledTensor(rewriter, loc, resultType, result));
    return success();
  }
};

} // namespace

void onnxc::populateFusedTreeEnsembleToKernelCallPatterns(
    RewritePatternSet &patterns) {
  patterns.add<TreeEnsembleToKernelCall>(patterns.getContext());
}

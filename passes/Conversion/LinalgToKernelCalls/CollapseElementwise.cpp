//===- CollapseElementwise.cpp - Elementwise loops over one flat dim ------===//
//
// The innermost dims of a linalg.generic on contiguous memrefs become one
// (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/PatternMatch.h"

namespace onnxc {
#define GEN_PASS_DEF_COLLAPSEELEMENTWISEPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// The innermost dims of `op` to fold into one: the longest run [first,
/// rank) of at least two dims of one iterator type (all parallel, or all
/// reductions as a global pooling's) that every indexing map (a projected
/// permutation) keeps in order and every operand (a memref of the identity
/// layout) stores contiguously; none when there is no such run.
static std::optional<ReassociationIndices> innermostRun(linalg::GenericOp op) {
  int64_t rank = op.getNumLoops();
  if (rank < 2 || !op.hasPureBufferSemantics())
    return std::nullopt;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(operand.getType());
    if (!type || !type.getLayout().isIdentity())
      return std::nullopt;
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!llvm::all_of(maps,
                    [](AffineMap map) { return map.isProjectedPermutation(); }))
    return std::nullopt;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t uniform = rank - 1;
  while (uniform > 0 && iterators[uniform - 1] == iterators[rank - 1])
    --uniform;
  for (int64_t first = uniform; first + 1 < rank; ++first) {
    ReassociationIndices run = llvm::to_vector(llvm::seq<int64_t>(first, rank));
    if (linalg::areDimSequencesPreserved(maps, {run}))
      return run;
  }
  return std::nullopt;
}

/// Drops from the inputs of `op` the unit dims that their indexing maps
/// read at the constant 0 (a broadcast along them, as a squeeze-and-
/// excitation block's per-channel scale of shape 1xCx1x1 against its
/// NxCxHxW image): each such operand (a memref of the identity layout) is
/// collapsed into its other dims, and its map keeps their results only, so
/// that the map is a projected permutation that innermostRun can fold
/// past.
static void dropBroadcastUnitDims(linalg::GenericOp op,
                                  RewriterBase &rewriter) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  bool changed = false;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(operand->get().getType());
    AffineMap map = maps[operand->getOperandNumber()];
    if (!type || !type.getLayout().isIdentity())
      continue;
    auto isDropped = [&](int64_t i) {
      auto constant = dyn_cast<AffineConstantExpr>(map.getResult(i));
      return constant && constant.getValue() == 0 && type.getDimSize(i) == 1;
    };
    if (llvm::none_of(llvm::seq<int64_t>(0, type.getRank()), isDropped))
      continue;
    SmallVector<ReassociationIndices> groups =
        onnxc::reassociationDropping(type.getRank(), isDropped);
    SmallVector<AffineExpr> kept;
    for (int64_t i = 0; i < type.getRank(); ++i)
      if (!isDropped(i))
        kept.push_back(map.getResult(i));
    if (groups.empty())
      continue; // (every dim dropped: a scalar's loads are hoisted anyway)
    rewriter.setInsertionPoint(op);
    Value collapsed = rewriter.create<memref::CollapseShapeOp>(
        op.getLoc(), operand->get(), groups);
    rewriter.modifyOpInPlace(op, [&] { operand->set(collapsed); });
    maps[operand->getOperandNumber()] =
        AffineMap::get(map.getNumDims(), 0, kept, op.getContext());
    changed = true;
  }
  if (changed)
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
}

namespace {
struct CollapseElementwisePass
    : public onnxc::impl::CollapseElementwisePassBase<CollapseElementwisePass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> generics;
    getOperation()->walk([&](linalg::GenericOp op) { generics.push_back(op); });
    for (linalg::GenericOp op : generics) {
      if (op.hasPureBufferSemantics())
        dropBroadcastUnitDims(op, rewriter);
      std::optional<ReassociationIndices> run = innermostRun(op);
      if (!run)
        continue;
      SmallVector<ReassociationIndices> folded = {*run};
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::CollapseResult> collapsed =
          linalg::collapseOpIterationDims(op, folded, rewriter);
      if (failed(collapsed))
        continue;
      rewriter.replaceOp(op, collapsed->results);
    }
  }
};
} // namespace

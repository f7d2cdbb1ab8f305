//===- ReductionsToLoops.cpp - Reductions that sum in a register ----------===//
//
// A linalg.generic reduction over its innermost dims becomes loops whose
// running value is a loop-carried scalar (see the pass description in
// Passes.td).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace onnxc {
#define GEN_PASS_DEF_REDUCTIONSTOLOOPSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// The op of `op`'s body that combines an element with the running value
/// (the output's block argument, which it alone uses) into the value the
/// body yields; null when the body has another shape.
static Operation *combiner(linalg::GenericOp op) {
  Block *body = op.getBlock();
  BlockArgument acc = body->getArguments().back();
  Value yielded = body->getTerminator()->getOperand(0);
  Operation *combine = yielded.getDefiningOp();
  if (!acc.hasOneUse() || !combine || combine->getBlock() != body ||
      *acc.user_begin() != combine || combine->getNumOperands() != 2 ||
      !isa<arith::AddFOp, arith::MulFOp, arith::MaximumFOp, arith::MinimumFOp,
           arith::MaxNumFOp, arith::MinNumFOp, arith::AddIOp, arith::MulIOp,
           arith::MaxSIOp, arith::MinSIOp, arith::MaxUIOp, arith::MinUIOp,
           arith::OrIOp, arith::AndIOp, arith::XOrIOp>(combine))
    return nullptr;
  return combine;
}

/// True when `op` is a reduction that this pass rewrites: on memrefs, one
/// output, its parallel dims before its (one or more) reduction dims, every
/// indexing map a projected permutation, and a body that combines one
/// value with the running one (combiner).
static bool isInnermostReduction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumDpsInputs() < 1 || op.getNumReductionLoops() < 1 ||
      !combiner(op))
    return false;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  int64_t parallel = op.getNumParallelLoops();
  for (auto [i, iterator] : llvm::enumerate(iterators))
    if ((static_cast<int64_t>(i) < parallel) !=
        (iterator == utils::IteratorType::parallel))
      return false;
  return llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
    return map.isProjectedPermutation();
  });
}

/// The indices of `map` (a projected permutation) at the loop indices `ivs`.
static SmallVector<Value> indicesOf(AffineMap map, ArrayRef<Value> ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults())
    indices.push_back(ivs[cast<AffineDimExpr>(expr).getPosition()]);
  return indices;
}

/// Rewrites `op` (isInnermostReduction) as an scf.parallel over its
/// parallel dims whose body loads the output's element, runs one scf.for
/// per reduction dim carrying the running value, and stores it.
static void rewriteReduction(linalg::GenericOp op, RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  int64_t parallel = op.getNumParallelLoops(), rank = op.getNumLoops();
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
  SmallVector<Value> upper;
  for (Range range : cast<linalg::LinalgOp>(op.getOperation())
                         .createLoopRanges(rewriter, loc))
    upper.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, range.size));
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  Value out = op.getDpsInits()[0];
  Operation *combine = combiner(op);

  // The loops over the reduction dims inside the parallel ones (at
  // `ivs`): the running value from the output's element, to it at the end.
  auto buildReduction = [&](OpBuilder &b, Location l, ValueRange outer) {
    SmallVector<Value> ivs(outer.begin(), outer.end());
    SmallVector<Value> outIndices = indicesOf(maps.back(), ivs);
    Value init = b.create<memref::LoadOp>(l, out, outIndices);
    std::function<Value(OpBuilder &, int64_t, Value)> nest =
        [&](OpBuilder &nb, int64_t dim, Value running) -> Value {
      auto loop = nb.create<scf::ForOp>(
          l, zero, upper[dim], one, ValueRange{running},
          [&](OpBuilder &fb, Location fl, Value iv, ValueRange args) {
            ivs.push_back(iv);
            Value next;
            if (dim + 1 < rank) {
              next = nest(fb, dim + 1, args[0]);
            } else {
              IRMapping mapping;
              for (auto [input, arg] :
                   llvm::zip(op.getDpsInputs(), op.getBlock()->getArguments()))
                mapping.map(arg, fb.create<memref::LoadOp>(
                                     fl, input,
                                     indicesOf(maps[arg.getArgNumber()], ivs)));
              mapping.map(op.getBlock()->getArguments().back(), args[0]);
              for (Operation &inner : op.getBlock()->without_terminator()) {
                if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
                  mapping.map(index.getResult(), ivs[index.getDim()]);
                  continue;
                }
                Operation *copy = fb.clone(inner, mapping);
                // The running value may be combined in any order: LLVM then
                // vectorizes the loop with partial sums.
                if (&inner == combine)
                  if (auto fast = dyn_cast<arith::ArithFastMathInterface>(copy))
                    copy->setAttr(fast.getFastMathAttrName(),
                                  arith::FastMathFlagsAttr::get(
                                      copy->getContext(),
                                      fast.getFastMathFlagsAttr().getValue() |
                                          arith::FastMathFlags::reassoc));
              }
              next =
                  mapping.lookup(op.getBlock()->getTerminator()->getOperand(0));
            }
            ivs.pop_back();
            fb.create<scf::YieldOp>(fl, next);
          });
      return loop.getResult(0);
    };
    Value result = nest(b, parallel, init);
    b.create<memref::StoreOp>(l, result, out, outIndices);
  };

  if (parallel == 0) {
    buildReduction(rewriter, loc, {});
  } else {
    SmallVector<Value> lower(parallel, zero), steps(parallel, one);
    rewriter.create<scf::ParallelOp>(
        loc, lower, ArrayRef<Value>(upper).take_front(parallel), steps,
        [&](OpBuilder &b, Location l, ValueRange ivs) {
          buildReduction(b, l, ivs);
        });
  }
  rewriter.eraseOp(op);
}

namespace {
struct ReductionsToLoopsPass
    : public onnxc::impl::ReductionsToLoopsPassBase<ReductionsToLoopsPass> {
  using Base::Base;
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<linalg::GenericOp> reductions;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (isInnermostReduction(op))
        reductions.push_back(op);
    });
    for (linalg::GenericOp op : reductions)
      rewriteReduction(op, rewriter);
  }
};
} // namespace

//===- OrderLoops.cpp - The onnx-gpu-order-loops pass ---------------------===//
//
// Puts each linalg op's parallel loops in the order of its output's dims, so
// that the innermost parallel loop, which onnx-gpu-map-parallel-loops gives
// to neighbouring threads, walks the output's contiguous dim. Named ops
// whose iteration space ends elsewhere are the reason:
// linalg.depthwise_conv_2d_nchw_chw iterates (n, oh, ow, c, kh, kw), so
// neighbouring threads wrote and read channels a whole plane apart
// (mobilenet_v2's depthwise convolutions: 70% of its batch-32 time on an
// H100).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUORDERLOOPSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
/// The loop order that `op` should have (old loop indices, outermost
/// first), or an empty vector if it has it already or no output map to
/// follow: the parallel dims in the order of the first output's results
/// (each a dim or a constant), then any other parallel dims, then the
/// reductions, each group otherwise in its old order.
static SmallVector<unsigned> wantedOrder(linalg::LinalgOp op) {
  if (op.getNumDpsInits() == 0)
    return {};
  unsigned loops = op.getNumLoops();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  AffineMap out = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  SmallVector<unsigned> order;
  SmallVector<bool> placed(loops, false);
  for (AffineExpr e : out.getResults()) {
    if (isa<AffineConstantExpr>(e))
      continue; // a kept dim of a reduction
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim)
      return {};
    unsigned d = dim.getPosition();
    if (!linalg::isParallelIterator(iterators[d]) || placed[d])
      return {};
    order.push_back(d);
    placed[d] = true;
  }
  for (bool reductions : {false, true})
    for (unsigned d = 0; d < loops; ++d)
      if (!placed[d] && linalg::isReductionIterator(iterators[d]) == reductions)
        order.push_back(d);
  if (llvm::equal(order, llvm::seq<unsigned>(0, loops)))
    return {};
  return order;
}

struct GPUOrderLoopsPass
    : public onnxc::impl::GPUOrderLoopsPassBase<GPUOrderLoopsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::LinalgOp, SmallVector<unsigned>>> ops;
    getOperation().walk([&](linalg::LinalgOp op) {
      if (!op.hasPureBufferSemantics() ||
          op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<scf::ParallelOp>())
        return;
      if (SmallVector<unsigned> order = wantedOrder(op); !order.empty())
        ops.push_back({op, std::move(order)});
    });
    IRRewriter rewriter(&getContext());
    for (auto &[op, order] : ops) {
      rewriter.setInsertionPoint(op);
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      if (!generic) {
        FailureOr<linalg::GenericOp> general =
            linalg::generalizeNamedOp(rewriter, op);
        if (failed(general))
          continue; // no region builder: left as it is
        generic = *general;
      }
      if (failed(linalg::interchangeGenericOp(rewriter, generic, order))) {
        generic.emitError("cannot reorder its loops");
        return signalPassFailure();
      }
    }
  }
};
} // namespace

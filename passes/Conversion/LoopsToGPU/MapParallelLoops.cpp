//===- MapParallelLoops.cpp - The onnx-gpu-map-parallel-loops pass --------===//
//
// Collapses each outermost scf.parallel into one dimension, tiles it by the
// block size and maps tiles to blocks and points to threads, ready for
// convert-parallel-loops-to-gpu.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace onnxc {
#define GEN_PASS_DEF_GPUMAPPARALLELLOOPSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// Whether `loop` calls a function: a runtime function of the host (string
/// and sequence operations) that a kernel cannot call.
static bool callsHost(scf::ParallelOp loop) {
  return loop.getBody()
      ->walk([](CallOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// The scf.parallel ops of `func` that no other scf.parallel encloses, but
/// those that call the host, which stay there.
static SmallVector<scf::ParallelOp> outermostParallelLoops(func::FuncOp func) {
  SmallVector<scf::ParallelOp> loops;
  func.walk([&](scf::ParallelOp op) {
    if (!op->getParentOfType<scf::ParallelOp>() &&
        !op->getParentOfType<gpu::LaunchOp>() && !callsHost(op))
      loops.push_back(op);
  });
  return loops;
}

/// The trip count of the one-dimensional `loop` when its bounds are constant.
static std::optional<int64_t> constantTripCount(scf::ParallelOp loop) {
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()[0]);
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound()[0]);
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
  if (!lb || !ub || !step || *step <= 0)
    return std::nullopt;
  return std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step);
}

namespace {
struct GPUMapParallelLoopsPass
    : public onnxc::impl::GPUMapParallelLoopsPassBase<GPUMapParallelLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (blockSize <= 0) {
      func.emitError("block-size must be positive (got ") << blockSize << ")";
      return signalPassFailure();
    }
    IRRewriter rewriter(&getContext());
    // Collapse: one dimension whatever the rank, so that every element gets
    // a thread and the innermost (contiguous) dim varies fastest.
    for (scf::ParallelOp loop : outermostParallelLoops(func)) {
      if (loop.getNumLoops() < 2)
        continue;
      std::vector<unsigned> all(loop.getNumLoops());
      std::iota(all.begin(), all.end(), 0);
      rewriter.setInsertionPoint(loop);
      collapseParallelLoops(rewriter, loop, {all});
    }

    MLIRContext *ctx = &getContext();
    auto dimMap = [&](gpu::Processor processor) {
      return gpu::ParallelLoopDimMappingAttr::get(ctx, processor,
                                                  rewriter.getDimIdentityMap(),
                                                  rewriter.getDimIdentityMap());
    };
    for (scf::ParallelOp loop : outermostParallelLoops(func)) {
      // Small loops get one block of just enough warps.
      int64_t tile = blockSize;
      if (std::optional<int64_t> trips = constantTripCount(loop)) {
        if (*trips == 0)
          continue;
        tile = std::min<int64_t>(tile, (*trips + 31) / 32 * 32);
      }
      auto [outer, inner] =
          scf::tileParallelLoop(loop, {tile}, /*noMinMaxBounds=*/true);
      if (failed(
              gpu::setMappingAttr(outer, {dimMap(gpu::Processor::BlockX)})) ||
          failed(
              gpu::setMappingAttr(inner, {dimMap(gpu::Processor::ThreadX)}))) {
        outer.emitError("cannot map the parallel loop onto the GPU");
        return signalPassFailure();
      }
      inner.getBody()->walk([&](scf::ParallelOp nested) {
        SmallVector<gpu::ParallelLoopDimMappingAttr> sequential(
            nested.getNumLoops(), dimMap(gpu::Processor::Sequential));
        (void)gpu::setMappingAttr(nested, sequential);
      });
    }
  }
};
} // namespace

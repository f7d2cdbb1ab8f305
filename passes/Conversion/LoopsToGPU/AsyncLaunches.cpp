//===- AsyncLaunches.cpp - The onnx-gpu-async-launches pass
//----------------===//
//
// Chains the host's kernel launches on one stream, waiting only where the
// host itself touches memory, instead of synchronizing after every launch.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUASYNCLAUNCHESPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// Whether the host must wait for the launched kernels before `op`: it reads
/// or writes memory, calls out, or holds regions that may. Allocations and
/// deallocations do not wait (the runtime's allocator keeps a freed buffer
/// for reuse on the same stream only, until the stream is idle), nor do ops
/// without memory effects (index arithmetic, views, memref.get_global).
static bool needsWait(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>())
    return true;
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op))
    return false;
  return !isMemoryEffectFree(op);
}

/// The launches of `block` chained on one token, a `gpu.wait` before the
/// first op after them that needs it (see needsWait).
static void chainLaunches(Block &block) {
  Value token;
  auto tokenType = gpu::AsyncTokenType::get(block.getParentOp()->getContext());
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto launch = dyn_cast<gpu::LaunchFuncOp>(&op);
    if (launch && !launch.getAsyncToken() &&
        launch.getAsyncDependencies().empty()) {
      OpBuilder b(launch);
      if (!token)
        token = b.create<gpu::WaitOp>(launch.getLoc(), tokenType, ValueRange())
                    .getAsyncToken();
      launch.addAsyncDependency(token);
      OperationState state(launch.getLoc(), launch->getName(),
                           launch->getOperands(), TypeRange{tokenType},
                           launch->getAttrs());
      Operation *async = b.create(state);
      token = async->getResult(0);
      launch.erase();
      continue;
    }
    if (token && needsWait(&op)) {
      OpBuilder b(&op);
      b.create<gpu::WaitOp>(op.getLoc(), Type(), ValueRange{token});
      token = Value();
    }
  }
}

namespace {
struct GPUAsyncLaunchesPass
    : public onnxc::impl::GPUAsyncLaunchesPassBase<GPUAsyncLaunchesPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      chainLaunches(*block);
  }
};
} // namespace

//===- ReductionKernels.cpp - The onnx-gpu-reduction-kernels pass ---------===//
//
// Reductions along the innermost loop dim (Softmax's max and sum,
// LayerNormalization's mean and variance, ReduceMean over the last axes,
// global pooling) as one warp per output: its 32 lanes stride over the
// reduced elements, so that neighbouring lanes read neighbouring addresses,
// and combine their partial values with shuffles. The default lowering gives
// each output one thread that walks the whole reduction alone: 128 threads
// for bert's LayerNormalization at batch 1, each reading its own row.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUREDUCTIONKERNELSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
constexpr int64_t kWarpSize = 32;
/// Warps per block: 256 threads.
constexpr int64_t kWarpsPerBlock = 8;

/// The one op that combines a reduction's running value with each element
/// (arith.addf in `out + f(x)`), or null: the generic must have one output,
/// one combiner of two operands whose result is yielded, and that output's
/// block argument used only there.
static Operation *getCombiner(linalg::GenericOp op) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  SmallVector<Operation *, 4> combiners;
  SmallVector<BlockArgument> outputs(op.getRegionOutputArgs());
  Value reduced = matchReduction(outputs, 0, combiners);
  if (!reduced || combiners.size() != 1)
    return nullptr;
  Operation *combiner = combiners.front();
  if (combiner->getNumOperands() != 2 || combiner->getNumResults() != 1)
    return nullptr;
  return combiner;
}

/// The combiner of `op` if it is a reduction this pass rewrites, else null:
/// on buffers, outside kernels and parallel loops, its innermost loop dim
/// reduced and the innermost dim of an input, no contraction, its one
/// output a 32-bit scalar per point of the parallel dims (what a shuffle
/// moves) at parallel dims or constants, read by no input, and a combiner
/// with a neutral element.
static Operation *getWarpReductionCombiner(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op->getParentOfType<gpu::LaunchOp>() ||
      op->getParentOfType<scf::ParallelOp>())
    return nullptr;
  unsigned loops = op.getNumLoops();
  if (loops == 0 ||
      !linalg::isReductionIterator(op.getIteratorTypesArray()[loops - 1]))
    return nullptr;
  Operation *combiner = getCombiner(op);
  if (!combiner || !arith::getNeutralElement(combiner))
    return nullptr;
  OpOperand *init = op.getDpsInitOperand(0);
  Type element = getElementTypeOrSelf(init->get().getType());
  if (!element.isF32() && !element.isInteger(32))
    return nullptr;
  // The output at parallel dims or constants (a kept dim of global pooling).
  SmallVector<unsigned> outputDims;
  for (AffineExpr e : op.getMatchingIndexingMap(init).getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim && !isa<AffineConstantExpr>(e))
      return nullptr;
    if (!dim)
      continue;
    if (linalg::isReductionIterator(
            op.getIteratorTypesArray()[dim.getPosition()]))
      return nullptr;
    outputDims.push_back(dim.getPosition());
  }
  // Some input read along the innermost dim of its memory: lanes then read
  // neighbouring addresses (not so a column sum). Every input that is
  // reduced varies with every output dim: a contraction (a 4-D MatMul's
  // generic) reuses each row for many outputs, which one thread per output
  // reads better.
  bool contiguous = false;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (input->get() == init->get())
      return nullptr;
    AffineMap map = op.getMatchingIndexingMap(input);
    bool reduced = false;
    for (unsigned d = 0; d < loops; ++d)
      reduced |= linalg::isReductionIterator(op.getIteratorTypesArray()[d]) &&
                 map.isFunctionOfDim(d);
    for (unsigned d : outputDims)
      if (reduced && !map.isFunctionOfDim(d))
        return nullptr;
    contiguous |=
        isa<MemRefType>(input->get().getType()) && map.getNumResults() > 0 &&
        map.getResults().back() == getAffineDimExpr(loops - 1, op.getContext());
  }
  if (!contiguous)
    return nullptr;
  // Too short a reduction for a warp (static extent under 32): one thread
  // per output does better.
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  int64_t extent = 1;
  for (unsigned d = 0; d < loops; ++d)
    if (linalg::isReductionIterator(op.getIteratorTypesArray()[d]))
      extent = ShapedType::isDynamic(ranges[d]) || ShapedType::isDynamic(extent)
                   ? ShapedType::kDynamic
                   : extent * ranges[d];
  return ShapedType::isDynamic(extent) || extent >= kWarpSize ? combiner
                                                              : nullptr;
}

/// `linear` split into indices of `sizes`, the last fastest.
static SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value linear,
                                      ArrayRef<Value> sizes) {
  SmallVector<Value> indices(sizes.size());
  for (size_t i = sizes.size(); i-- > 0;) {
    if (i == 0) {
      indices[i] = linear;
      break;
    }
    indices[i] = b.create<arith::RemUIOp>(loc, linear, sizes[i]);
    linear = b.create<arith::DivUIOp>(loc, linear, sizes[i]);
  }
  return indices;
}

/// The operand's element at the loop point `ivs` (a scalar operand itself).
static Value readAt(OpBuilder &b, Location loc, linalg::GenericOp op,
                    OpOperand *operand, ValueRange ivs) {
  if (!isa<MemRefType>(operand->get().getType()))
    return operand->get();
  AffineMap map = op.getMatchingIndexingMap(operand);
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults())
    indices.push_back(b.create<affine::AffineApplyOp>(
        loc, AffineMap::get(map.getNumDims(), 0, e), ivs));
  return b.create<memref::LoadOp>(loc, operand->get(), indices);
}

/// `combiner` applied to `lhs` and `rhs`.
static Value combine(OpBuilder &b, Operation *combiner, Value lhs, Value rhs) {
  Operation *clone = b.clone(*combiner);
  clone->setOperands({lhs, rhs});
  return clone->getResult(0);
}

/// Replaces `op` by its warp-per-output kernel; `combiner` is its
/// getWarpReductionCombiner.
static void rewriteAsWarpReduction(linalg::GenericOp op, Operation *combiner) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  OpOperand *init = op.getDpsInitOperand(0);
  auto index = [&](int64_t v) -> Value {
    return b.create<arith::ConstantIndexOp>(loc, v);
  };

  // Parallel and reduced dims, in loop order; their products P and R.
  SmallVector<Value> parallelSizes, reducedSizes;
  SmallVector<unsigned> parallelDims, reducedDims;
  SmallVector<Range, 4> ranges =
      cast<linalg::LinalgOp>(op.getOperation()).createLoopRanges(b, loc);
  for (auto [d, range] : llvm::enumerate(ranges)) {
    Value size = getValueOrCreateConstantIndexOp(b, loc, range.size);
    bool reduced = linalg::isReductionIterator(op.getIteratorTypesArray()[d]);
    (reduced ? reducedSizes : parallelSizes).push_back(size);
    (reduced ? reducedDims : parallelDims).push_back(d);
  }
  Value outputs = index(1), extent = index(1);
  for (Value s : parallelSizes)
    outputs = b.create<arith::MulIOp>(loc, outputs, s);
  for (Value s : reducedSizes)
    extent = b.create<arith::MulIOp>(loc, extent, s);
  Value warps = index(kWarpsPerBlock);
  Value blocks = b.create<arith::DivUIOp>(
      loc, b.create<arith::AddIOp>(loc, outputs, index(kWarpsPerBlock - 1)),
      warps);
  Value one = index(1);
  auto launch = b.create<gpu::LaunchOp>(
      loc, blocks, one, one, index(kWarpSize * kWarpsPerBlock), one, one);
  b.setInsertionPointToStart(&launch.getBody().front());
  Value tid = launch.getThreadIds().x;
  Value lane = b.create<arith::RemUIOp>(loc, tid, index(kWarpSize));
  Value output = b.create<arith::AddIOp>(
      loc, b.create<arith::MulIOp>(loc, launch.getBlockIds().x, warps),
      b.create<arith::DivUIOp>(loc, tid, index(kWarpSize)));
  // A whole warp is in or out: the shuffles below need all 32 lanes.
  auto inRange = b.create<scf::IfOp>(
      loc,
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, output, outputs),
      /*withElseRegion=*/false);
  b.create<gpu::TerminatorOp>(loc);
  b.setInsertionPointToStart(&inRange.getThenRegion().front());
  SmallVector<Value> ivs(op.getNumLoops());
  for (auto [d, v] :
       llvm::zip(parallelDims, delinearize(b, loc, output, parallelSizes)))
    ivs[d] = v;

  // Each lane folds the elements lane, lane + 32, ... into its own value,
  // the generic's body applied with the running value as its output.
  Value neutral =
      b.create<arith::ConstantOp>(loc, *arith::getNeutralElement(combiner));
  auto strided = b.create<scf::ForOp>(loc, lane, extent, index(kWarpSize),
                                      ValueRange{neutral});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(strided.getBody());
    SmallVector<Value> point = ivs;
    for (auto [d, v] :
         llvm::zip(reducedDims, delinearize(b, loc, strided.getInductionVar(),
                                            reducedSizes)))
      point[d] = v;
    IRMapping mapping;
    Block *body = op.getBlock();
    for (OpOperand *input : op.getDpsInputOperands())
      mapping.map(body->getArgument(input->getOperandNumber()),
                  readAt(b, loc, op, input, point));
    mapping.map(op.getRegionOutputArgs()[0], strided.getRegionIterArgs()[0]);
    for (Operation &inner : body->without_terminator()) {
      if (auto idx = dyn_cast<linalg::IndexOp>(inner)) {
        mapping.map(idx.getResult(), point[idx.getDim()]);
        continue;
      }
      b.clone(inner, mapping);
    }
    auto yield = cast<linalg::YieldOp>(body->getTerminator());
    b.create<scf::YieldOp>(loc, mapping.lookup(yield.getOperand(0)));
  }

  // The warp's 32 values into one (every lane ends with the total).
  Value total = strided.getResult(0);
  Value width = b.create<arith::ConstantIntOp>(loc, kWarpSize, 32);
  for (int64_t offset = kWarpSize / 2; offset > 0; offset /= 2) {
    Value other =
        b.create<gpu::ShuffleOp>(
             loc, total, b.create<arith::ConstantIntOp>(loc, offset, 32), width,
             gpu::ShuffleMode::XOR)
            .getShuffleResult();
    total = combine(b, combiner, total, other);
  }

  // Lane 0 adds it to the output's initial value.
  auto first = b.create<scf::IfOp>(
      loc,
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, lane, index(0)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(&first.getThenRegion().front());
  AffineMap outMap = op.getMatchingIndexingMap(init);
  SmallVector<Value> outIndices;
  for (AffineExpr e : outMap.getResults())
    outIndices.push_back(isa<AffineDimExpr>(e)
                             ? ivs[cast<AffineDimExpr>(e).getPosition()]
                             : index(cast<AffineConstantExpr>(e).getValue()));
  Value initial = b.create<memref::LoadOp>(loc, init->get(), outIndices);
  b.create<memref::StoreOp>(loc, combine(b, combiner, total, initial),
                            init->get(), outIndices);
  op.erase();
}

struct GPUReductionKernelsPass
    : public onnxc::impl::GPUReductionKernelsPassBase<GPUReductionKernelsPass> {
  void runOnOperation() override {
    SmallVector<std::pair<linalg::GenericOp, Operation *>> reductions;
    getOperation().walk([&](linalg::GenericOp op) {
      if (Operation *combiner = getWarpReductionCombiner(op))
        reductions.push_back({op, combiner});
    });
    for (auto [op, combiner] : reductions)
      rewriteAsWarpReduction(op, combiner);
  }
};
} // namespace

//===- SpecializeIfRanks.cpp - The onnx-specialize-if-ranks pass ----------===//
//
// PyTorch's exporter writes shape tests as If: "squeeze dim 1 if it is 1",
// then "unsqueeze if the rank is 2" (Silero VAD's LSTM state, torchvision's
// NMS). The first If's branches yield tensors of different ranks, so its
// results have no rank, and neither has anything that reads them: the
// lowering needs ranks. The ops that depend on such an If are moved into
// both of its branches (tail duplication), where each copy sees one rank;
// folding then decides the rank tests that follow, and the If yields what
// the enclosing block returned, whose ranks usually agree again.
//
// A Squeeze without axes is such a test in one op: it drops every dim of size
// 1, so while a dim of its input is `?` its rank is known only at run time
// (ONNX's AffineGrid function body squeezes [N, 1, 3] so, N a value of the
// input `size`). It becomes the Squeeze of its static unit dims followed by,
// for each `?` dim, an If on whether that dim is 1 that squeezes it or not,
// and the Ifs are specialized like the others. Where a copy cannot run (the
// rank that N = 1 gives is one that the readers refuse), shape inference
// turns that branch into a run-time failure, as ONNX Runtime fails there.
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/SetVector.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXSPECIALIZEIFRANKSPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using onnxc::onnx::IfOp;
using onnxc::onnx::YieldOp;

/// The most `?` dims that a Squeeze without axes is versioned on: each
/// doubles the copies of the ops that read it.
static constexpr int64_t kMaxVersionedDims = 3;

/// A 1-D i64 onnx.Constant of `values`.
static Value i64Constant(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    b.getI64Type());
  return b.create<onnxc::onnx::ConstantOp>(
      loc, cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
}

/// Replaces `op`, a Squeeze without axes whose input has from 1 to
/// kMaxVersionedDims `?` dims, by the Squeeze of the input's static unit
/// dims and then, for each `?` dim (the last first, so that the earlier
/// ones keep their positions), `If(dim == 1) {Squeeze(dim)} else {as is}`.
/// The Ifs' results have no rank until the rounds specialize their readers.
static void versionSqueeze(onnxc::onnx::SqueezeOp op) {
  auto x = cast<RankedTensorType>(op.getData().getType());
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<int64_t> unitDims, dynamicDims;
  for (auto [i, dim] : llvm::enumerate(x.getShape())) {
    int64_t index = static_cast<int64_t>(i);
    if (dim == 1)
      unitDims.push_back(index);
    else if (ShapedType::isDynamic(dim))
      // Its position once the unit dims before it are gone.
      dynamicDims.push_back(index - static_cast<int64_t>(unitDims.size()));
  }
  Value value = op.getData();
  if (!unitDims.empty())
    value = b.create<onnxc::onnx::SqueezeOp>(loc, value,
                                             i64Constant(b, loc, unitDims));
  for (int64_t dim : llvm::reverse(dynamicDims)) {
    Value size = b.create<onnxc::onnx::ShapeOp>(
        loc, value, b.getI64IntegerAttr(dim + 1), dim);
    Value isOne =
        b.create<onnxc::onnx::EqualOp>(loc, size, i64Constant(b, loc, {1}));
    auto ifOp = b.create<IfOp>(
        loc, TypeRange{UnrankedTensorType::get(x.getElementType())}, isOne);
    for (Region *region : {&ifOp.getThenBranch(), &ifOp.getElseBranch()}) {
      OpBuilder::InsertionGuard guard(b);
      b.createBlock(region);
      Value yielded = value;
      if (region == &ifOp.getThenBranch())
        yielded = b.create<onnxc::onnx::SqueezeOp>(loc, value,
                                                   i64Constant(b, loc, {dim}));
      b.create<YieldOp>(loc, ValueRange{yielded});
    }
    value = ifOp.getResult(0);
  }
  op.getResult().replaceAllUsesWith(value);
  op->erase();
}

/// The Squeezes without axes of `func` that have no rank only because of
/// `?` dims of their input (not too many), and that an op other than a
/// terminator reads (what only a block returns has no reader to specialize:
/// an If would stay in its place).
static SmallVector<onnxc::onnx::SqueezeOp>
squeezesToVersion(func::FuncOp func) {
  SmallVector<onnxc::onnx::SqueezeOp> squeezes;
  func.walk([&](onnxc::onnx::SqueezeOp op) {
    auto x = dyn_cast<RankedTensorType>(op.getData().getType());
    auto isReader = [](Operation *user) {
      return !user->hasTrait<OpTrait::IsTerminator>();
    };
    if (!onnxc::onnx::isNoValue(op.getAxes()) || !x ||
        !isa<UnrankedTensorType>(op.getResult().getType()) ||
        llvm::none_of(op->getUsers(), isReader))
      return;
    int64_t dynamic = llvm::count_if(x.getShape(), ShapedType::isDynamic);
    if (dynamic >= 1 && dynamic <= kMaxVersionedDims)
      squeezes.push_back(op);
  });
  return squeezes;
}

/// True if a result of `op` has no rank because its branches yield ranked
/// tensors of different ranks.
static bool hasRankDivergentResult(IfOp op) {
  Operation *thenYield = op.getThenBranch().front().getTerminator();
  Operation *elseYield = op.getElseBranch().front().getTerminator();
  for (OpResult result : op->getResults()) {
    auto type = dyn_cast<TensorType>(result.getType());
    unsigned index = result.getResultNumber();
    if (!type || type.hasRank() || index >= thenYield->getNumOperands() ||
        index >= elseYield->getNumOperands())
      continue;
    auto a = dyn_cast<RankedTensorType>(thenYield->getOperand(index).getType());
    auto b = dyn_cast<RankedTensorType>(elseYield->getOperand(index).getType());
    if (a && b && a.getRank() != b.getRank())
      return true;
  }
  return false;
}

/// The ops of `op`'s block that read its results, directly, through each
/// other or inside their regions, in block order (the block's terminator
/// excluded).
static SmallVector<Operation *> dependentOps(IfOp op) {
  Block *block = op->getBlock();
  Operation *terminator = block->getTerminator();
  llvm::SmallPtrSet<Operation *, 32> slice;
  SmallVector<Value> worklist(op->getResults());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*user);
      if (!ancestor || ancestor == terminator || !slice.insert(ancestor).second)
        continue;
      llvm::append_range(worklist, ancestor->getResults());
    }
  }
  SmallVector<Operation *> ordered;
  for (Operation &other : *block)
    if (slice.contains(&other))
      ordered.push_back(&other);
  return ordered;
}

/// The number of ops in `ops`, nested ones included.
static int64_t countOps(ArrayRef<Operation *> ops) {
  int64_t count = 0;
  for (Operation *op : ops)
    op->walk([&](Operation *) { ++count; });
  return count;
}

/// Moves `tail` (the ops that depend on `op`, in order) into both branches
/// of `op`, each copy reading that branch's yielded values, and makes the If
/// yield those of its block's results that depend on it. Ops of the block
/// after `op` that do not depend on it move before it first, so the copies
/// can read them.
static void duplicateTail(IfOp op, ArrayRef<Operation *> tail) {
  Block *block = op->getBlock();
  Operation *terminator = block->getTerminator();
  llvm::SmallPtrSet<Operation *, 32> inTail(tail.begin(), tail.end());
  for (Operation &other : llvm::make_early_inc_range(
           llvm::make_range(std::next(op->getIterator()), block->end())))
    if (&other != terminator && !inTail.contains(&other))
      other.moveBefore(op);

  // The block's results computed from the If.
  SmallVector<unsigned> routed;
  for (OpOperand &operand : terminator->getOpOperands()) {
    Operation *def = operand.get().getDefiningOp();
    if (def == op.getOperation() || inTail.contains(def))
      routed.push_back(operand.getOperandNumber());
  }

  for (Region *region : {&op.getThenBranch(), &op.getElseBranch()}) {
    auto yield = cast<YieldOp>(region->front().getTerminator());
    IRMapping mapping;
    mapping.map(op->getResults(), yield.getOutputs());
    OpBuilder builder(yield);
    for (Operation *ancestor : tail)
      builder.clone(*ancestor, mapping);
    SmallVector<Value> outputs;
    for (unsigned index : routed)
      outputs.push_back(mapping.lookup(terminator->getOperand(index)));
    yield->setOperands(outputs);
  }

  // The If now yields those results: rebuild it with their types.
  SmallVector<Type> types;
  for (unsigned index : routed)
    types.push_back(terminator->getOperand(index).getType());
  OpBuilder builder(op);
  auto merged = builder.create<IfOp>(op.getLoc(), types, op.getCond());
  merged->setAttrs(op->getAttrs());
  merged.getThenBranch().takeBody(op.getThenBranch());
  merged.getElseBranch().takeBody(op.getElseBranch());
  for (auto [index, result] : llvm::zip(routed, merged->getResults()))
    terminator->setOperand(index, result);
  for (Operation *ancestor : llvm::reverse(tail)) {
    ancestor->dropAllUses();
    ancestor->erase();
  }
  op->dropAllUses();
  op->erase();
}

namespace {
struct ONNXSpecializeIfRanksPass
    : public onnxc::impl::ONNXSpecializeIfRanksPassBase<
          ONNXSpecializeIfRanksPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *context) override {
    // What decides the rank tests in each copy: inference and folding
    // (constant Ifs become their branch).
    cleanup = OpPassManager(func::FuncOp::getOperationName());
    cleanup.addPass(onnxc::createONNXConstantFoldingPass());
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    for (onnxc::onnx::SqueezeOp op : squeezesToVersion(func))
      versionSqueeze(op);
    int64_t budget = maxOps;
    for (int64_t round = 0; round < maxRounds; ++round) {
      // Innermost first: a nested If's ranks may settle an outer one's.
      IfOp candidate;
      SmallVector<Operation *> tail;
      func.walk([&](IfOp op) {
        if (!hasRankDivergentResult(op))
          return WalkResult::advance();
        SmallVector<Operation *> ops = dependentOps(op);
        int64_t size = countOps(ops);
        if (ops.empty() || 2 * size > budget)
          return WalkResult::advance();
        candidate = op;
        tail = std::move(ops);
        budget -= 2 * size;
        return WalkResult::interrupt();
      });
      if (!candidate)
        return;
      duplicateTail(candidate, tail);
      if (failed(runPipeline(cleanup, func)))
        return signalPassFailure();
    }
  }

  OpPassManager cleanup;
};
} // namespace

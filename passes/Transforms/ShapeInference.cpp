//===- ShapeInference.cpp - The onnx-shape-inference pass -----------------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXSHAPEINFERENCEPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// The more precise of two compatible tensor types (the first on a tie).
static Type refine(Type current, Type inferred) {
  auto seqCur = dyn_cast<onnxc::onnx::SeqType>(current);
  auto seqInf = dyn_cast<onnxc::onnx::SeqType>(inferred);
  if (seqCur && seqInf)
    return onnxc::onnx::SeqType::get(
        current.getContext(),
        refine(seqCur.getElementType(), seqInf.getElementType()));
  auto optCur = dyn_cast<onnxc::onnx::OptType>(current);
  auto optInf = dyn_cast<onnxc::onnx::OptType>(inferred);
  if (optCur && optInf)
    return onnxc::onnx::OptType::get(
        current.getContext(),
        refine(optCur.getElementType(), optInf.getElementType()));
  auto cur = dyn_cast<TensorType>(current);
  auto inf = dyn_cast<TensorType>(inferred);
  if (!cur || !inf || cur.getElementType() != inf.getElementType())
    return current;
  if (!inf.hasRank())
    return current;
  if (!cur.hasRank())
    return inferred;
  if (cur.getRank() != inf.getRank())
    return current;
  SmallVector<int64_t> dims;
  for (auto [c, i] : llvm::zip(cur.getShape(), inf.getShape()))
    dims.push_back(ShapedType::isDynamic(c) ? i : c);
  return RankedTensorType::get(dims, cur.getElementType());
}

/// The branch of the innermost onnx.If that holds `op`, or null.
static Region *enclosingBranch(Operation *op) {
  for (Region *region = op->getParentRegion(); region;
       region = region->getParentRegion())
    if (isa<onnxc::onnx::IfOp>(region->getParentOp()))
      return region;
  return nullptr;
}

/// "node 'N': message" (the message names the op), as diagnostics read.
static std::string describe(Operation *op, StringRef message) {
  if (auto name = dyn_cast<NameLoc>(op->getLoc()))
    return ("node '" + name.getName().strref() + "': " + message).str();
  return message.str();
}

/// Replaces the body of `branch`, an onnx.If branch that cannot run with the
/// shapes known (an op's inference failed in it), by a run-time failure:
/// the model would fail there when the branch is taken, as ONNX Runtime
/// does, and nowhere else. Its outputs become empty tensors of the If's
/// result types (as refined by the other branch), which nothing reads.
/// Fails, changing nothing, where such a type has no rank.
static LogicalResult replaceByTrap(Region &branch, StringRef message) {
  auto ifOp = cast<onnxc::onnx::IfOp>(branch.getParentOp());
  Region &other = &branch == &ifOp.getThenBranch() ? ifOp.getElseBranch()
                                                   : ifOp.getThenBranch();
  Operation *otherYield = other.front().getTerminator();
  SmallVector<RankedTensorType> types;
  for (OpResult result : ifOp->getResults()) {
    Type type = result.getType();
    if (result.getResultNumber() < otherYield->getNumOperands())
      type = refine(type,
                    otherYield->getOperand(result.getResultNumber()).getType());
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked)
      return failure();
    types.push_back(ranked);
  }
  Block &block = branch.front();
  Operation *yield = block.getTerminator();
  SmallVector<Operation *> body;
  for (Operation &op : llvm::make_range(block.begin(), yield->getIterator()))
    body.push_back(&op);
  for (Operation *op : llvm::reverse(body)) {
    op->dropAllUses();
    op->erase();
  }
  OpBuilder b(yield);
  Location loc = ifOp.getLoc();
  Value never = b.create<arith::ConstantOp>(loc, b.getBoolAttr(false));
  b.create<cf::AssertOp>(
      loc, never,
      b.getStringAttr("onnxc: the model fails here: " + message.str()));
  SmallVector<Value> outputs;
  for (RankedTensorType type : types) {
    SmallVector<Value> sizes;
    for (int64_t dim : type.getShape())
      if (ShapedType::isDynamic(dim))
        sizes.push_back(b.create<arith::ConstantIndexOp>(loc, 0));
    outputs.push_back(b.create<tensor::EmptyOp>(loc, type, sizes));
  }
  yield->setOperands(outputs);
  return success();
}

/// The shape that a reader of `use` gives its operand: an elementwise
/// unary op (same operand and result type), Cast and CastLike's input have
/// their result's shape. Null for other readers.
static Type shapeFromReader(OpOperand &use) {
  Operation *reader = use.getOwner();
  bool sameShape =
      reader->hasTrait<OpTrait::SameOperandsAndResultType>() ||
      isa<onnxc::onnx::CastOp>(reader) ||
      (isa<onnxc::onnx::CastLikeOp>(reader) && use.getOperandNumber() == 0);
  if (!sameShape || reader->getNumResults() != 1 ||
      !isa<onnxc::onnx::ONNXDialect>(reader->getDialect()))
    return Type();
  auto result = dyn_cast<RankedTensorType>(reader->getResult(0).getType());
  auto operand = dyn_cast<TensorType>(use.get().getType());
  if (!result || !operand)
    return Type();
  return RankedTensorType::get(result.getShape(), operand.getElementType());
}

FailureOr<bool> onnxc::refineShapes(func::FuncOp func) {
  bool failedInference = false, changed = false;
  // A result of unknown rank takes the shape that a reader preserves, where
  // that reader's result is known (a rank the model declares for a graph
  // output, after a reduction over axes known only at run time): backwards,
  // so a chain of such readers passes it up at once.
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<onnxc::onnx::ONNXDialect>(op->getDialect()) &&
        op->getNumRegions() == 0)
      ops.push_back(op);
  });
  for (Operation *op : llvm::reverse(ops))
    for (OpResult result : op->getResults()) {
      if (!isa<UnrankedTensorType>(result.getType()))
        continue;
      for (OpOperand &use : result.getUses()) {
        Type candidate = shapeFromReader(use);
        if (!candidate)
          continue;
        result.setType(candidate);
        changed = true;
        break;
      }
    }
  // An If's results follow its branches (refined inside, or one of different
  // rank folded away).
  func.walk([&](onnxc::onnx::IfOp op) {
    for (OpResult result : op->getResults()) {
      auto yielded = [&](Region &region) {
        return region.front()
            .getTerminator()
            ->getOperand(result.getResultNumber())
            .getType();
      };
      Type joined = onnxc::onnx::joinTypes(yielded(op.getThenBranch()),
                                           yielded(op.getElseBranch()));
      Type refined =
          joined ? refine(result.getType(), joined) : result.getType();
      if (refined != result.getType()) {
        result.setType(refined);
        changed = true;
      }
    }
  });
  // A Scan's body arguments follow its operands: a scan input's slice is
  // the input without its scan axis; a state variable's type is what the
  // initial state and the body's yielded state have in common (a state may
  // change shape across iterations).
  func.walk([&](onnxc::onnx::ScanOp op) {
    Block &body = op.getBody().front();
    ValueRange operands = op.getInitialStateAndScanInputs();
    int64_t numScan = op.getNumScanInputs();
    int64_t numState = static_cast<int64_t>(operands.size()) - numScan;
    if (numState < 0 || body.getNumArguments() != operands.size())
      return;
    Operation *yield = body.getTerminator();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      Type candidate;
      auto index = static_cast<int64_t>(i);
      if (index < numState) {
        if (index >= static_cast<int64_t>(yield->getNumOperands()))
          continue;
        candidate = onnxc::onnx::joinTypes(operands[i].getType(),
                                           yield->getOperand(i).getType());
      } else {
        auto input = dyn_cast<RankedTensorType>(operands[i].getType());
        if (!input)
          continue;
        int64_t axis = 0;
        if (auto axes = op.getScanInputAxes()) {
          if (index - numState >= static_cast<int64_t>(axes->size()))
            continue;
          axis = (*axes)[index - numState];
        }
        std::optional<int64_t> normalized =
            onnxc::onnx::normalizeAxis(axis, input.getRank());
        if (!normalized)
          continue;
        SmallVector<int64_t> dims(input.getShape());
        dims.erase(dims.begin() + *normalized);
        candidate = RankedTensorType::get(dims, input.getElementType());
      }
      Type refined = candidate ? refine(arg.getType(), candidate) : Type();
      if (refined && refined != arg.getType()) {
        arg.setType(refined);
        changed = true;
      }
    }
    // Results: the final states as yielded; each scan output stacks the
    // yielded values along its axis, one per step of the scan.
    int64_t steps = ShapedType::kDynamic;
    if (auto first = dyn_cast<RankedTensorType>(operands[numState].getType())) {
      auto axes = op.getScanInputAxes();
      int64_t axis = axes && !axes->empty() ? (*axes)[0] : 0;
      if (std::optional<int64_t> a =
              onnxc::onnx::normalizeAxis(axis, first.getRank()))
        steps = first.getDimSize(*a);
    }
    for (OpResult result : op->getResults()) {
      int64_t index = result.getResultNumber();
      if (index >= static_cast<int64_t>(yield->getNumOperands()))
        break;
      Type candidate = yield->getOperand(index).getType();
      if (index >= numState) {
        auto value = dyn_cast<RankedTensorType>(candidate);
        if (!value)
          continue;
        int64_t axis = 0;
        if (auto axes = op.getScanOutputAxes()) {
          if (index - numState >= static_cast<int64_t>(axes->size()))
            continue;
          axis = (*axes)[index - numState];
        }
        std::optional<int64_t> normalized =
            onnxc::onnx::normalizeAxis(axis, value.getRank() + 1);
        if (!normalized)
          continue;
        SmallVector<int64_t> dims(value.getShape());
        dims.insert(dims.begin() + *normalized, steps);
        candidate = RankedTensorType::get(dims, value.getElementType());
      }
      Type refined = refine(result.getType(), candidate);
      if (refined != result.getType()) {
        result.setType(refined);
        changed = true;
      }
    }
  });
  // Branches whose ops cannot run with the shapes now known, each with the
  // first such op's message.
  llvm::MapVector<Region *, std::string> infeasible;
  func.walk([&](InferTypeOpInterface op) {
    if (!isa<onnxc::onnx::ONNXDialect>(op->getDialect()))
      return;
    Region *branch = enclosingBranch(op);
    if (branch && infeasible.count(branch))
      return;
    SmallVector<Type> inferred;
    std::string message;
    LogicalResult inferredOk = success();
    {
      // Inside an If, a failure is the branch's, not the model's: caught.
      std::optional<ScopedDiagnosticHandler> capture;
      if (branch)
        capture.emplace(op->getContext(), [&](Diagnostic &diag) {
          if (message.empty())
            message = diag.str();
          return success();
        });
      inferredOk = op.inferReturnTypes(
          op->getContext(), op->getLoc(), op->getOperands(),
          op->getAttrDictionary(), op->getPropertiesStorage(), op->getRegions(),
          inferred);
    }
    if (failed(inferredOk)) {
      if (branch)
        infeasible.insert({branch, describe(op, message)});
      else
        failedInference = true;
      return;
    }
    for (auto [result, type] : llvm::zip(op->getResults(), inferred)) {
      Type refined = refine(result.getType(), type);
      if (refined != result.getType()) {
        result.setType(refined);
        changed = true;
      }
    }
  });
  if (failedInference)
    return failure();
  for (auto &[branch, message] : infeasible) {
    // A branch inside one already replaced went with it.
    bool nested = false;
    for (Region *outer = branch->getParentRegion(); outer && !nested;
         outer = outer->getParentRegion())
      nested = infeasible.count(outer) != 0;
    if (!nested && succeeded(replaceByTrap(*branch, message)))
      changed = true;
  }
  // The signature follows the refined return values, also where a cast
  // (of an If that folding replaced by a branch) hides a more precise one.
  func.walk([&](func::ReturnOp ret) {
    for (OpOperand &operand : ret->getOpOperands()) {
      auto cast = operand.get().getDefiningOp<tensor::CastOp>();
      if (!cast || cast.getSource().getType() == cast.getType() ||
          refine(cast.getType(), cast.getSource().getType()) !=
              cast.getSource().getType())
        continue;
      operand.set(cast.getSource());
      if (cast->use_empty())
        cast->erase();
    }
    if (TypeRange(ret.getOperandTypes()) == func.getResultTypes())
      return;
    func.setType(FunctionType::get(func.getContext(), func.getArgumentTypes(),
                                   ret.getOperandTypes()));
    changed = true;
  });
  return changed;
}

namespace {
struct ONNXShapeInferencePass
    : public onnxc::impl::ONNXShapeInferencePassBase<ONNXShapeInferencePass> {
  void runOnOperation() override {
    // Each sweep sees the types the previous one refined: iterate to a
    // fixed point (a sweep in program order usually reaches it at once).
    for (int i = 0; i < 8; ++i) {
      FailureOr<bool> changed = onnxc::refineShapes(getOperation());
      if (failed(changed))
        return signalPassFailure();
      if (!*changed)
        return;
    }
  }
};
} // namespace

//===- ShapeInference.cpp - The onnx-shape-inference pass -----------------===//

#include "dialects/ONNX/IR/ShapeHelpers.h"
#include "passes/Transforms/Passes.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXSHAPEINFERENCEPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

/// The more precise of two compatible tensor types (the first on a tie).
static Type refine(Type current, Type inferred) {
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

FailureOr<bool> onnxc::refineShapes(func::FuncOp func) {
  bool failedInference = false, changed = false;
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
  func.walk([&](InferTypeOpInterface op) {
    if (!isa<onnxc::onnx::ONNXDialect>(op->getDialect()))
      return;
    SmallVector<Type> inferred;
    if (failed(op.inferReturnTypes(op->getContext(), op->getLoc(),
                                   op->getOperands(), op->getAttrDictionary(),
                                   op->getPropertiesStorage(), op->getRegions(),
                                   inferred))) {
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

//===- ShapeControlFlow.cpp - Verifiers of onnx.If, onnx.Loop, onnx.Scan --===//

#include "dialects/ONNX/IR/ONNXOps.h"

using namespace mlir;
using namespace onnxc::onnx;

/// Checks that `region` yields values compatible with `types`.
static LogicalResult verifyYield(Operation *op, Region &region, StringRef what,
                                 TypeRange types) {
  auto yield = cast<YieldOp>(region.front().getTerminator());
  if (yield.getOutputs().size() != types.size())
    return op->emitOpError()
           << what << " yields " << yield.getOutputs().size() << " values but "
           << types.size() << " are expected";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(yield.getOutputs().getTypes(), types))) {
    auto [yielded, expected] = pair;
    if (!areCompatibleTypes(yielded, expected))
      return op->emitOpError() << what << " output " << index << " has type "
                               << yielded << ", incompatible with " << expected;
  }
  return success();
}

/// Checks that the arguments of `region` are compatible with `types`.
static LogicalResult verifyArguments(Operation *op, Region &region,
                                     TypeRange types) {
  Block &block = region.front();
  if (block.getNumArguments() != types.size())
    return op->emitOpError()
           << "body takes " << block.getNumArguments() << " arguments but "
           << types.size() << " are expected";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(block.getArgumentTypes(), types))) {
    auto [actual, expected] = pair;
    if (!areCompatibleTypes(actual, expected))
      return op->emitOpError() << "body argument " << index << " has type "
                               << actual << ", incompatible with " << expected;
  }
  return success();
}

LogicalResult IfOp::verify() {
  // if_c1
  if (failed(
          verifyYield(*this, getThenBranch(), "then_branch", getResultTypes())))
    return failure();
  // if_c2
  return verifyYield(*this, getElseBranch(), "else_branch", getResultTypes());
}

LogicalResult LoopOp::verify() {
  MLIRContext *ctx = getContext();
  size_t numCarried = getVInitial().size();
  // loop_c1
  if (getNumResults() < numCarried)
    return emitOpError() << "has " << getNumResults() << " results but carries "
                         << numCarried << " values";
  SmallVector<Type> argTypes{
      RankedTensorType::get({}, IntegerType::get(ctx, 64)),
      RankedTensorType::get({}, IntegerType::get(ctx, 1))};
  llvm::append_range(argTypes, getVInitial().getTypes());
  // loop_c2
  if (failed(verifyArguments(*this, getBody(), argTypes)))
    return failure();
  SmallVector<Type> yieldTypes{argTypes[1]};
  llvm::append_range(yieldTypes,
                     TypeRange(getResultTypes()).take_front(numCarried));
  for (Type type : TypeRange(getResultTypes()).drop_front(numCarried)) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    // loop_c3
    if (ranked && ranked.getRank() == 0)
      return emitOpError("expects scan output results of rank 1 or more");
    yieldTypes.push_back(
        ranked ? RankedTensorType::get(ranked.getShape().drop_front(),
                                       ranked.getElementType())
               : type);
  }
  // loop_c4
  return verifyYield(*this, getBody(), "body", yieldTypes);
}

LogicalResult ScanOp::verify() {
  int64_t numScanInputs = static_cast<int64_t>(getNumScanInputs());
  int64_t numOperands = getInitialStateAndScanInputs().size();
  // scan_c1
  if (numScanInputs < 1 || numScanInputs > numOperands)
    return emitOpError() << "expects 'num_scan_inputs' in [1, " << numOperands
                         << "] (got " << numScanInputs << ")";
  int64_t numStates = numOperands - numScanInputs;
  // scan_c2
  if (static_cast<int64_t>(getNumResults()) < numStates)
    return emitOpError() << "has " << getNumResults() << " results but carries "
                         << numStates << " states";
  int64_t numScanOutputs = getNumResults() - numStates;
  auto checkAxes = [&](std::optional<ArrayRef<int64_t>> attr, StringRef name,
                       int64_t expected, bool isAxes) -> LogicalResult {
    if (!attr)
      return success();
    if (static_cast<int64_t>(attr->size()) != expected)
      return emitOpError() << "expects " << expected << " values in '" << name
                           << "' (got " << attr->size() << ")";
    for (int64_t v : *attr)
      if (!isAxes && v != 0 && v != 1)
        return emitOpError()
               << "expects 0 or 1 in '" << name << "' (got " << v << ")";
    return success();
  };
  // scan_c3
  if (failed(checkAxes(getScanInputAxes(), "scan_input_axes", numScanInputs,
                       true)) ||
      failed(checkAxes(getScanInputDirections(), "scan_input_directions",
                       numScanInputs, false)) ||
      failed(checkAxes(getScanOutputAxes(), "scan_output_axes", numScanOutputs,
                       true)) ||
      failed(checkAxes(getScanOutputDirections(), "scan_output_directions",
                       numScanOutputs, false)))
    return failure();
  SmallVector<Type> argTypes(
      TypeRange(getInitialStateAndScanInputs().getTypes())
          .take_front(numStates));
  for (auto [index, value] :
       llvm::enumerate(getInitialStateAndScanInputs().drop_front(numStates))) {
    auto ranked = dyn_cast<RankedTensorType>(value.getType());
    if (!ranked) {
      argTypes.push_back(value.getType());
      continue;
    }
    int64_t axis = getScanInputAxes() ? (*getScanInputAxes())[index] : 0;
    if (axis < 0)
      axis += ranked.getRank();
    // scan_c4
    if (axis < 0 || axis >= ranked.getRank())
      return emitOpError() << "scan input " << index << " of rank "
                           << ranked.getRank() << " has no axis " << axis;
    SmallVector<int64_t> dims(ranked.getShape());
    dims.erase(dims.begin() + axis);
    argTypes.push_back(RankedTensorType::get(dims, ranked.getElementType()));
  }
  // scan_c5
  if (failed(verifyArguments(*this, getBody(), argTypes)))
    return failure();
  SmallVector<Type> yieldTypes(
      TypeRange(getResultTypes()).take_front(numStates));
  for (auto [index, type] :
       llvm::enumerate(TypeRange(getResultTypes()).drop_front(numStates))) {
    auto ranked = dyn_cast<RankedTensorType>(type);
    if (!ranked) {
      yieldTypes.push_back(type);
      continue;
    }
    int64_t axis = getScanOutputAxes() ? (*getScanOutputAxes())[index] : 0;
    if (axis < 0)
      axis += ranked.getRank();
    // scan_c6
    if (axis < 0 || axis >= ranked.getRank())
      return emitOpError() << "scan output " << index << " of rank "
                           << ranked.getRank() << " has no axis " << axis;
    SmallVector<int64_t> dims(ranked.getShape());
    dims.erase(dims.begin() + axis);
    yieldTypes.push_back(RankedTensorType::get(dims, ranked.getElementType()));
  }
  // scan_c7
  return verifyYield(*this, getBody(), "body", yieldTypes);
}

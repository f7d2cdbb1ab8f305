//===- ShapeTraining.cpp - Result types of the onnx ops of ops/Training.td ===//

#include "dialects/ONNX/IR/ShapeHelpers.h"

#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace onnxc::onnx;
using namespace onnxc::onnx::detail;

/// The results of an optimizer whose `inputs` are `numGroups` groups of n
/// tensors, each group matching the first (the `X`s) in element type and
/// shape; the results are the groups `resultGroups` of the inputs, updated.
static LogicalResult inferOptimizer(std::optional<Location> loc,
                                    StringRef opName, Value rate, Value count,
                                    ValueRange inputs, int64_t numGroups,
                                    ArrayRef<int64_t> resultGroups,
                                    SmallVectorImpl<Type> &result) {
  // optimizer_c1
  for (auto [name, scalar] : {std::pair<StringRef, Value>{"R", rate},
                              std::pair<StringRef, Value>{"T", count}}) {
    auto ranked = dyn_cast<RankedTensorType>(scalar.getType());
    if (ranked && ranked.getRank() != 0)
      return opError(loc, opName, "expects a scalar '", name, "' (got ", ranked,
                     ")");
  }
  int64_t numInputs = static_cast<int64_t>(inputs.size());
  // optimizer_c2
  if (numInputs == 0 || numInputs % numGroups != 0)
    return opError(loc, opName, "expects a positive multiple of ", numGroups,
                   " tensors after 'R' and 'T' (got ", numInputs, ")");
  int64_t n = numInputs / numGroups;
  for (int64_t i = 0; i < n; ++i) {
    Type x = inputs[i].getType();
    for (int64_t group = 1; group < numGroups; ++group) {
      Type other = inputs[group * n + i].getType();
      // optimizer_c3
      if (getElementTypeOrSelf(other) != getElementTypeOrSelf(x) ||
          failed(verifyCompatibleShape(x, other)))
        return opError(loc, opName, "expects input ", 2 + group * n + i,
                       " to match input ", 2 + i, " (got ", other, " and ", x,
                       ")");
    }
  }
  for (int64_t group : resultGroups)
    for (int64_t i = 0; i < n; ++i)
      result.push_back(inputs[group * n + i].getType());
  return success();
}

LogicalResult
AdagradOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                            ValueRange operands, DictionaryAttr attrs,
                            OpaqueProperties props, RegionRange regions,
                            SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // X, G, H -> X_new, H_new.
  return inferOptimizer(loc, "Adagrad", op.getR(), op.getT(), op.getInputs(), 3,
                        {0, 2}, result);
}

LogicalResult
AdamOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attrs,
                         OpaqueProperties props, RegionRange regions,
                         SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // X, G, V, H -> X_new, V_new, H_new.
  return inferOptimizer(loc, "Adam", op.getR(), op.getT(), op.getInputs(), 4,
                        {0, 2, 3}, result);
}

LogicalResult
MomentumOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                             ValueRange operands, DictionaryAttr attrs,
                             OpaqueProperties props, RegionRange regions,
                             SmallVectorImpl<Type> &result) {
  Adaptor op(operands, attrs, props, regions);
  // momentum_c1
  if (op.getMode() != "standard" && op.getMode() != "nesterov")
    return opError(loc, "Momentum",
                   "expects 'mode' to be standard or nesterov (got '",
                   op.getMode(), "')");
  // X, G, V -> X_new, V_new.
  return inferOptimizer(loc, "Momentum", op.getR(), op.getT(), op.getInputs(),
                        3, {0, 2}, result);
}

//===- ShapeInference.cpp - The onnx-shape-inference pass -----------------===//

#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Transforms/Passes.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXSHAPEINFERENCEPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {

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

struct ONNXShapeInferencePass
    : public onnxc::impl::ONNXShapeInferencePassBase<ONNXShapeInferencePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    bool failedInference = false;
    func.walk([&](InferTypeOpInterface op) {
      if (!isa<onnxc::onnx::ONNXDialect>(op->getDialect()))
        return;
      SmallVector<Type> inferred;
      if (failed(op.inferReturnTypes(
              op->getContext(), op->getLoc(), op->getOperands(),
              op->getAttrDictionary(), op->getPropertiesStorage(),
              op->getRegions(), inferred))) {
        failedInference = true;
        return;
      }
      for (auto [result, type] : llvm::zip(op->getResults(), inferred))
        result.setType(refine(result.getType(), type));
    });
    if (failedInference)
      return signalPassFailure();
    // The signature follows the refined return values.
    func.walk([&](func::ReturnOp ret) {
      func.setType(FunctionType::get(func.getContext(),
                                     func.getArgumentTypes(),
                                     ret.getOperandTypes()));
    });
  }
};

} // namespace

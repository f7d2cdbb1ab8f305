//===- QuantizeDynamic.cpp - The onnx-quantize-dynamic pass ---------------===//
//
// Dynamic quantization in the form of ONNX Runtime's quantize_dynamic:
// MatMul and Gemm with a constant weight get symmetric int8 weights, and
// their activation is quantized at run time,
//   DynamicQuantizeLinear(A) -> MatMulInteger(a, w, a_zp, w_zp) -> Cast
//   -> Mul(a_scale * w_scale) [-> Add(C)].
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"
#include "passes/Transforms/QuantizeCommon.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXQUANTIZEDYNAMICPASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;
using namespace onnxc::onnx;

/// ONNX's TensorProto.FLOAT, Cast's `to`.
static constexpr uint64_t kFloatDType = 1;

/// `t`, a 2-D [N, K] tensor, transposed to [K, N].
static ConstantTensor transpose2D(const ConstantTensor &t) {
  int64_t n = t.shape()[0], k = t.shape()[1];
  ConstantTensor result = ConstantTensor::zeros(
      RankedTensorType::get({k, n}, t.type.getElementType()));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < k; ++j)
      result.floats[j * n + i] = t.floats[i * k + j];
  return result;
}

/// Rewrites `op` (a MatMul or Gemm reading activation `a`, constant weight
/// `b` (transposed when `transB`) and bias `c` (none or a value) into the
/// dynamic form; false (and nothing changed) when it does not apply.
static bool quantizeDynamic(Operation *op, Value a, Value b, Value c,
                            bool transB, bool perChannel) {
  auto aType = dyn_cast<RankedTensorType>(a.getType());
  auto bType = dyn_cast<RankedTensorType>(b.getType());
  if (!aType || !aType.getElementType().isF32() || aType.getRank() < 2 ||
      !bType || bType.getRank() != 2 || !bType.getElementType().isF32())
    return false;
  std::optional<ConstantTensor> w = readConstant(b, INT64_MAX);
  if (!w)
    return false;
  if (transB)
    w = transpose2D(*w);
  std::optional<int64_t> axis;
  if (perChannel)
    axis = 1;
  QuantizedWeight q = quantizeWeight(*w, axis);

  // What is created lies between `before` and `op`.
  Operation *before = op->getPrevNode();
  OpBuilder builder(op);
  Location loc = op->getLoc();
  bool scalar = !perChannel;
  Value weight = createConstant(builder, b.getLoc(), q.values);
  SmallVector<double> zeros(q.scales.size(), 0.0);
  Value wZeroPoint = createQuantConstant(
      builder, b.getLoc(), q.values.type.getElementType(), zeros, scalar);
  Value wScale = createQuantConstant(builder, b.getLoc(), builder.getF32Type(),
                                     q.scales, scalar);
  auto dql = builder.create<DynamicQuantizeLinearOp>(loc, a);
  Value product = builder.create<MatMulIntegerOp>(
      loc, dql.getY(), weight, dql.getYZeroPoint(), wZeroPoint);
  Value asFloat = builder.create<CastOp>(loc, product, kFloatDType);
  Value scale = builder.create<MulOp>(loc, dql.getYScale(), wScale);
  Value result = builder.create<MulOp>(loc, asFloat, scale);
  if (c && !isNoValue(c))
    result = builder.create<AddOp>(loc, result, c);
  if (result.getType() != op->getResult(0).getType()) {
    // Inference disagrees with the op's type (a broadcast the original form
    // did not have): leave the op as it was.
    while (op->getPrevNode() != before)
      op->getPrevNode()->erase();
    return false;
  }
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  if (b.use_empty())
    b.getDefiningOp()->erase();
  return true;
}

void onnxc::quantizeDynamic(ModuleOp module, bool perChannel) {
  // DynamicQuantizeLinear is opset 11.
  requireOpset(module, 11);
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (isa<MatMulOp, GemmOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto matmul = dyn_cast<MatMulOp>(op)) {
      if (matmul.getB().getDefiningOp<ConstantOp>())
        ::quantizeDynamic(op, matmul.getA(), matmul.getB(), Value(),
                          /*transB=*/false, perChannel);
      continue;
    }
    auto gemm = cast<GemmOp>(op);
    if (gemm.getTransA() || gemm.getAlpha().convertToDouble() != 1.0 ||
        gemm.getBeta().convertToDouble() != 1.0 ||
        !gemm.getB().getDefiningOp<ConstantOp>() ||
        cast<ShapedType>(gemm.getA().getType()).getRank() != 2)
      continue;
    ::quantizeDynamic(op, gemm.getA(), gemm.getB(), gemm.getC(),
                      gemm.getTransB() != 0, perChannel);
  }
}

namespace {
struct ONNXQuantizeDynamicPass
    : public onnxc::impl::ONNXQuantizeDynamicPassBase<ONNXQuantizeDynamicPass> {
  using ONNXQuantizeDynamicPassBase::ONNXQuantizeDynamicPassBase;
  void runOnOperation() override {
    quantizeDynamic(getOperation(), perChannel);
  }
};
} // namespace

//===- WidenFloat16.cpp - The onnx-widen-float16 pass ---------------------===//
//
// MatMul, Gemm, Conv and ConvTranspose of float16 or bfloat16 tensors sum
// long products: accumulated in their own type, each addition rounds to 11
// (or 8) bits and the error grows with the reduction. They compute in float
// instead, their inputs cast up and their result cast back once, as ONNX's
// reference (numpy accumulates half products in float) and ONNX Runtime's
// x86 kernels do; the float ops then reach the float kernels.
//
// Softmax and LogSoftmax sum a row of exponentials the same way, and round
// them and the quotient too: in half they were 2 float16 ulps off ONNX's
// Attention reference (test_attention_4d_gqa_with_past_and_present_fp16:
// 52 of 576 values beyond rtol 1e-3), which computes the whole op in float
// and rounds once; numpy's own half Softmax sums in float as well. They
// widen too, so that the row's max, exponentials, sum and quotient are
// float and only the result rounds.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/GreedyPatternPass.h"
#include "passes/Transforms/Passes.h"

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/PatternMatch.h"

namespace onnxc {
#define GEN_PASS_DEF_ONNXWIDENFLOAT16PASS
#include "passes/Transforms/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc::onnx;

namespace {

/// True for the half-width float types that widen.
static bool isHalf(Type type) {
  auto tensor = dyn_cast<TensorType>(type);
  return tensor && isa<Float16Type, BFloat16Type>(tensor.getElementType());
}

/// onnx.Cast of `value` to `type`, the ONNX data type `dtype`.
static Value castTo(PatternRewriter &rewriter, Location loc, Value value,
                    Type type, int64_t dtype) {
  return rewriter.create<CastOp>(loc, type, ValueRange{value},
                                 ArrayRef<NamedAttribute>{rewriter.getNamedAttr(
                                     "to", rewriter.getI64IntegerAttr(dtype))});
}

/// `value` as a tensor of float.
static Value toFloat(PatternRewriter &rewriter, Location loc, Value value) {
  Type f32 = rewriter.getF32Type();
  return castTo(rewriter, loc, value,
                cast<TensorType>(value.getType()).clone(f32),
                *getONNXDType(f32));
}

/// OpT on half floats: the same op on float inputs, its result cast back.
template <typename OpT> struct WidenHalf : public OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    Operation *operation = op.getOperation();
    if (operation->getNumResults() != 1 ||
        !isHalf(operation->getResult(0).getType()))
      return failure();
    Location loc = op.getLoc();
    auto resultType = cast<TensorType>(operation->getResult(0).getType());
    std::optional<int64_t> dtype = getONNXDType(resultType.getElementType());
    if (!dtype)
      return failure();
    SmallVector<Value> operands;
    for (Value operand : operation->getOperands())
      operands.push_back(isHalf(operand.getType())
                             ? toFloat(rewriter, loc, operand)
                             : operand);
    OperationState state(loc, operation->getName(), operands,
                         TypeRange{resultType.clone(rewriter.getF32Type())},
                         operation->getAttrs());
    Operation *wide = rewriter.create(state);
    rewriter.replaceOp(operation, castTo(rewriter, loc, wide->getResult(0),
                                         resultType, *dtype));
    return success();
  }
};

struct ONNXWidenFloat16Pass
    : onnxc::GreedyPatternPass<ONNXWidenFloat16Pass,
                               onnxc::impl::ONNXWidenFloat16PassBase,
                               onnxc::populateONNXWidenFloat16Patterns> {};
} // namespace

void onnxc::populateONNXWidenFloat16Patterns(RewritePatternSet &patterns) {
  patterns.add<WidenHalf<MatMulOp>, WidenHalf<GemmOp>, WidenHalf<ConvOp>,
               WidenHalf<ConvTransposeOp>, WidenHalf<SoftmaxOp>,
               WidenHalf<LogSoftmaxOp>>(patterns.getContext());
}

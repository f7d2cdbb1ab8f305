//===- Attention.cpp - fused.attention to a runtime kernel call -----------===//
//
// f32 fused.attention becomes a call of the runtime's attention kernel
// (lib/Kernels/attention/Attention.c), which runs the two products of each head
// through the packed GEMM and the scale, mask and softmax in one pass over
// each row of scores, writing the heads straight into the [B, S, H * D]
// result. The operands go in as read-only buffers (bufferization.to_memref),
// the result is a new buffer that the call fills (bufferization.to_tensor),
// so that one-shot bufferization and the deallocation pipeline see ordinary
// buffers.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/Fused/IR/FusedOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The kernel entry point (dialects/Kernel/KernelABI.h).
static constexpr StringLiteral kAttentionKernel = "onnxc_kernel_attention_f32";

/// Bit 0 of the kernel's flags: there is a mask.
static constexpr int64_t kHasMask = 1;

namespace {

struct AttentionToKernelCall : public OpConversionPattern<fused::AttentionOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(fused::AttentionOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    SmallVector<Value> tensors = {adaptor.getQuery(), adaptor.getKey(),
                                  adaptor.getValue()};
    Value mask = adaptor.getMask();
    bool hasMask = !isa<NoneType>(mask.getType());
    if (hasMask)
      tensors.push_back(mask);
    auto isF32 = [](Value v) {
      auto type = dyn_cast<RankedTensorType>(v.getType());
      return type && type.getElementType().isF32();
    };
    if (!resultType || !resultType.getElementType().isF32() ||
        !llvm::all_of(tensors, isF32))
      return op.emitOpError("lowering supports ranked f32 operands only");

    // Dims of the mask broadcast to [B, H, S, T]: leading unit dims.
    if (hasMask) {
      auto type = cast<RankedTensorType>(mask.getType());
      int64_t rank = type.getRank();
      SmallVector<int64_t> shape(4 - rank, 1);
      llvm::append_range(shape, type.getShape());
      SmallVector<ReassociationIndices> groups;
      for (int64_t i = 0; i < rank; ++i)
        groups.push_back({i + 4 - rank});
      if (rank > 0)
        for (int64_t i = 0; i < 4 - rank; ++i)
          groups[0].insert(groups[0].begin() + i, i);
      if (rank < 4)
        tensors.back() = rewriter.create<tensor::ExpandShapeOp>(
            loc, RankedTensorType::get(shape, type.getElementType()), mask,
            groups);
    }

    SmallVector<Value> args;
    for (Value tensor : tensors)
      args.push_back(readBuffer(rewriter, loc, tensor));
    if (!hasMask) {
      // Never read: the flags say there is no mask.
      auto unit = MemRefType::get({1, 1, 1, 1}, rewriter.getF32Type());
      args.push_back(castToDynamic(
          rewriter, loc, rewriter.create<memref::AllocaOp>(loc, unit)));
    }

    // The result: [B, S] of the query, the value's width times the ratio
    // of the heads (grouped-query attention).
    SmallVector<Value> dynamicSizes;
    for (auto [i, from] : llvm::enumerate(SmallVector<Value>{
             adaptor.getQuery(), adaptor.getQuery(), adaptor.getValue()})) {
      if (!resultType.isDynamicDim(i))
        continue;
      Value size = rewriter.create<tensor::DimOp>(loc, from, int64_t(i));
      if (i == 2 && op.getKeyValueHeads() != op.getNumHeads())
        size = rewriter.create<arith::MulIOp>(
            loc,
            rewriter.create<arith::DivUIOp>(
                loc, size,
                rewriter.create<arith::ConstantIndexOp>(loc,
                                                        op.getKeyValueHeads())),
            rewriter.create<arith::ConstantIndexOp>(loc, op.getNumHeads()));
      dynamicSizes.push_back(size);
    }
    Value result = allocBuffer(rewriter, loc, resultType, dynamicSizes);
    args.push_back(castToDynamic(rewriter, loc, result));
    args.push_back(
        rewriter.create<arith::ConstantIntOp>(loc, op.getNumHeads(), 64));
    args.push_back(rewriter.create<arith::ConstantFloatOp>(
        loc, op.getScaleAttr().getValue(), rewriter.getF32Type()));
    args.push_back(
        rewriter.create<arith::ConstantIntOp>(loc, hasMask ? kHasMask : 0, 64));

    callKernel(rewriter, loc, kAttentionKernel, args);
    rewriter.replaceOp(op, filledTensor(rewriter, loc, resultType, result));
    return success();
  }
};

} // namespace

void onnxc::populateFusedAttentionToKernelCallPatterns(
    RewritePatternSet &patterns) {
  patterns.add<AttentionToKernelCall>(patterns.getContext());
}

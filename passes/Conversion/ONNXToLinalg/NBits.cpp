//===- NBits.cpp - fused.matmul_nbits to a runtime kernel call ------------===//
//
// A product with packed 4-bit weights becomes a call of the runtime's kernel
// (lib/Kernels/nbits/MatMulNBits.c), which reads the weights as they are
// packed (layout in dialects/Kernel/KernelABI.h): A's leading dims collapsed
// to rows, B, the zero points, the scales and the bias flattened, absent
// zero points and bias replaced by a one-element placeholder that a flag
// bit tells the kernel not to read.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/KernelCall.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/Fused/IR/FusedOps.h"
#include "dialects/Kernel/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace onnxc;
using namespace onnxc::tolinalg;

/// The kernel entry point (dialects/Kernel/KernelABI.h).
static constexpr StringLiteral kNBitsKernel = "onnxc_kernel_matmul_nbits_f32";

namespace {

/// The reassociation that keeps the last of `rank` dims and collapses the
/// others ([[0], [1]] for rank 1, whose result gains a leading unit dim).
SmallVector<ReassociationIndices> rowsThenLast(int64_t rank) {
  if (rank == 1)
    return {{0, 1}};
  ReassociationIndices leading;
  for (int64_t i = 0; i + 1 < rank; ++i)
    leading.push_back(i);
  return {leading, {rank - 1}};
}

/// `value` (a ranked tensor) as a 1-D tensor of its signless element type.
Value flatTensor(OpBuilder &b, Location loc, Value value) {
  value = toSignless(b, loc, value);
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 1)
    return value;
  ReassociationIndices all;
  for (int64_t i = 0; i < type.getRank(); ++i)
    all.push_back(i);
  return b.create<tensor::CollapseShapeOp>(loc, value,
                                           ArrayRef<ReassociationIndices>{all});
}

/// `value` as a 2-D [rows, last dim] tensor.
Value rowsTensor(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 2)
    return value;
  if (type.getRank() == 1)
    return b.create<tensor::ExpandShapeOp>(
        loc,
        RankedTensorType::get({1, type.getDimSize(0)}, type.getElementType()),
        value, rowsThenLast(1));
  return b.create<tensor::CollapseShapeOp>(loc, value,
                                           rowsThenLast(type.getRank()));
}

/// A one-element constant tensor of `element` (an absent operand).
Value placeholder(OpBuilder &b, Location loc, Type element) {
  auto type = RankedTensorType::get({1}, element);
  return b.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(type, b.getZeroAttr(element)));
}

struct MatMulNBitsToKernelCall
    : public OpConversionPattern<fused::MatMulNBitsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(fused::MatMulNBitsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    auto aType = dyn_cast<RankedTensorType>(adaptor.getA().getType());
    Value operands[] = {adaptor.getB(), adaptor.getScales(),
                        adaptor.getZeroPoints(), adaptor.getBias()};
    if (!resultType || !aType || aType.getRank() != resultType.getRank() ||
        llvm::any_of(operands, [](Value v) {
          return v && !isa<RankedTensorType>(v.getType());
        }))
      return op.emitOpError("lowering supports ranked operands only");
    Type i8 = rewriter.getI8Type(), f32 = rewriter.getF32Type();
    Value zeroPoints = adaptor.getZeroPoints() ? adaptor.getZeroPoints()
                                               : placeholder(rewriter, loc, i8);
    Value bias =
        adaptor.getBias() ? adaptor.getBias() : placeholder(rewriter, loc, f32);
    SmallVector<Value> args = {
        readBuffer(rewriter, loc, rowsTensor(rewriter, loc, adaptor.getA())),
        readBuffer(rewriter, loc, flatTensor(rewriter, loc, adaptor.getB())),
        readBuffer(rewriter, loc,
                   flatTensor(rewriter, loc, adaptor.getScales())),
        readBuffer(rewriter, loc, flatTensor(rewriter, loc, zeroPoints)),
        readBuffer(rewriter, loc, flatTensor(rewriter, loc, bias))};
    // Y as allocated, then as the kernel's [rows, N].
    SmallVector<Value> dynamicSizes;
    for (int64_t i = 0; i + 1 < resultType.getRank(); ++i)
      if (resultType.isDynamicDim(i))
        dynamicSizes.push_back(
            rewriter.create<tensor::DimOp>(loc, adaptor.getA(), i));
    Value result = allocBuffer(rewriter, loc, resultType, dynamicSizes);
    Value rows = result;
    int64_t rank = resultType.getRank();
    if (rank == 1)
      rows = rewriter.create<memref::ExpandShapeOp>(
          loc, MemRefType::get({1, (int64_t)op.getN()}, f32), result,
          rowsThenLast(1));
    else if (rank > 2)
      rows = rewriter.create<memref::CollapseShapeOp>(loc, result,
                                                      rowsThenLast(rank));
    args.push_back(castToDynamic(rewriter, loc, rows));
    int64_t flags =
        (adaptor.getZeroPoints() ? ONNXC_NBITS_FLAG_ZERO_POINTS : 0) |
        (adaptor.getBias() ? ONNXC_NBITS_FLAG_BIAS : 0);
    for (int64_t value :
         {(int64_t)op.getK(), (int64_t)op.getBlockSize(), flags})
      args.push_back(rewriter.create<arith::ConstantIntOp>(loc, value, 64));
    callKernel(rewriter, loc, kNBitsKernel, args);
    rewriter.replaceOp(op, filledTensor(rewriter, loc, resultType, result));
    return success();
  }
};

} // namespace

void onnxc::populateFusedMatMulNBitsToKernelCallPatterns(
    RewritePatternSet &patterns) {
  patterns.add<MatMulNBitsToKernelCall>(patterns.getContext());
}

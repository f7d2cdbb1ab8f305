//===- FusedQuantOps.cpp - qmatmul and qconv: verifiers, bufferization ----===//

#include "dialects/Fused/IR/FusedOps.h"

#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/DstBufferizableOpInterfaceImpl.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace onnxc::fused;

/// True for an 8-bit integer element type.
static bool isByte(Type type) { return type.isInteger(8); }

/// The checks qmatmul and qconv share; `rank` is that of x, w and init,
/// `channelDim` the dim of init that holds the output channels.
template <typename OpT>
static LogicalResult verifyQuantKernel(OpT op, int64_t rank,
                                       int64_t channelDim) {
  auto x = cast<ShapedType>(op.getX().getType());
  auto w = cast<ShapedType>(op.getW().getType());
  auto init = cast<ShapedType>(op.getInit().getType());
  // fused_q_c1
  if (!isByte(x.getElementType()) || !isByte(w.getElementType()))
    return op.emitOpError("expects 8-bit integer x and w (got ")
           << x.getElementType() << " and " << w.getElementType() << ")";
  // fused_q_c2
  for (ShapedType type : {x, w, init})
    if (!type.hasRank() || type.getRank() != rank)
      return op.emitOpError("expects x, w and init of rank ") << rank;
  // fused_q_c3
  Type out = init.getElementType();
  if (!out.isInteger(8) && !out.isInteger(32) && !out.isF32())
    return op.emitOpError("expects an i8, i32 or f32 init (got ") << out << ")";
  // fused_q_c4
  int64_t channels = init.getDimSize(channelDim);
  auto checkParam = [&](Value value, StringRef name,
                        function_ref<bool(Type)> elementOk,
                        bool perChannel) -> LogicalResult {
    auto type = cast<ShapedType>(value.getType());
    if (!type.hasRank() || type.getRank() != 1 ||
        !elementOk(type.getElementType()))
      return op.emitOpError("expects a 1-D ") << name << " of the right type";
    int64_t size = type.getDimSize(0);
    if (ShapedType::isDynamic(size) || size <= 1)
      return success();
    if (!perChannel || (!ShapedType::isDynamic(channels) && size != channels))
      return op.emitOpError("expects ")
             << name << " of 1" << (perChannel ? " or output channels" : "")
             << " elements (got " << size << ")";
    return success();
  };
  auto isI32 = [](Type t) { return t.isInteger(32); };
  if (failed(checkParam(op.getXZeroPoint(), "x_zero_point", isI32, false)) ||
      failed(checkParam(op.getWZeroPoint(), "w_zero_point", isI32, true)) ||
      failed(checkParam(
          op.getBias(), "bias",
          [](Type t) { return t.isInteger(32) || t.isF32(); }, true)) ||
      failed(checkParam(
          op.getScale(), "scale", [](Type t) { return t.isF32(); }, true)) ||
      failed(checkParam(op.getYZeroPoint(), "y_zero_point", isI32, false)))
    return failure();
  // fused_q_c5
  auto bias = cast<ShapedType>(op.getBias().getType());
  if (bias.getElementType().isF32() && !out.isF32())
    return op.emitOpError("expects an f32 bias only with an f32 result");
  return success();
}

LogicalResult QMatMulOp::verify() {
  if (failed(verifyQuantKernel(*this, 2, 1)))
    return failure();
  auto x = cast<ShapedType>(getX().getType());
  auto w = cast<ShapedType>(getW().getType());
  auto init = cast<ShapedType>(getInit().getType());
  auto differ = [](int64_t a, int64_t b) {
    return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
  };
  // fused_qmatmul_c1
  if (differ(x.getDimSize(1), w.getDimSize(0)) ||
      differ(x.getDimSize(0), init.getDimSize(0)) ||
      differ(w.getDimSize(1), init.getDimSize(1)))
    return emitOpError("expects x [M, K], w [K, N] and init [M, N]");
  return success();
}

LogicalResult QConvOp::verify() {
  if (failed(verifyQuantKernel(*this, 4, 1)))
    return failure();
  // fused_qconv_c1
  if (getStrides().size() != 2 || getDilations().size() != 2 ||
      llvm::any_of(getStrides(), [](int64_t v) { return v < 1; }) ||
      llvm::any_of(getDilations(), [](int64_t v) { return v < 1; }))
    return emitOpError("expects 2 positive strides and dilations");
  auto x = cast<ShapedType>(getX().getType());
  auto w = cast<ShapedType>(getW().getType());
  // fused_qconv_c2
  if (!x.isDynamicDim(1) && !w.isDynamicDim(1) &&
      x.getDimSize(1) != w.getDimSize(1))
    return emitOpError("expects as many channels in x as in w (got ")
           << x.getDimSize(1) << " and " << w.getDimSize(1) << ")";
  return success();
}

/// Reads every memref operand, writes init.
template <typename OpT>
static void getQuantKernelEffects(
    OpT op, SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    effects.emplace_back(MemoryEffects::Read::get(), &operand,
                         SideEffects::DefaultResource::get());
    if (op.isDpsInit(&operand))
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

void QMatMulOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getQuantKernelEffects(*this, effects);
}

void QConvOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  getQuantKernelEffects(*this, effects);
}

namespace {
/// The op on the buffers of its tensor operands; init is only written.
template <typename OpT>
struct QuantKernelBufferization
    : public bufferization::DstBufferizableOpInterfaceExternalModel<
          QuantKernelBufferization<OpT>, OpT> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const bufferization::AnalysisState &) const {
    return !cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  LogicalResult
  bufferize(Operation *op, RewriterBase &rewriter,
            const bufferization::BufferizationOptions &options) const {
    SmallVector<Value> operands;
    for (Value value : op->getOperands()) {
      if (!isa<TensorType>(value.getType())) {
        operands.push_back(value);
        continue;
      }
      FailureOr<Value> buffer =
          bufferization::getBuffer(rewriter, value, options);
      if (failed(buffer))
        return failure();
      operands.push_back(*buffer);
    }
    rewriter.setInsertionPoint(op);
    rewriter.create<OpT>(op->getLoc(), TypeRange{}, operands, op->getAttrs());
    bufferization::replaceOpWithBufferizedValues(rewriter, op, operands.back());
    return success();
  }
};
} // namespace

void onnxc::fused::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, FusedDialect *) {
    QMatMulOp::attachInterface<QuantKernelBufferization<QMatMulOp>>(*ctx);
    QConvOp::attachInterface<QuantKernelBufferization<QConvOp>>(*ctx);
  });
}

//===- FusedToKernelCalls.cpp - fused.qmatmul/qconv to the int8 GEMM ------===//
//
// After bufferization, the int8 kernel ops of the fused dialect become calls
// of the int8 GEMM's entry points (lib/Kernels/int8/QuantOps.c), named
// after the element types of the result and the bias (onnxc_kernel_qmatmul
// _i8_i32, ...: a symbol has one function type), with the
// memref descriptors expanded as for the f32 kernels, and the op's
// attributes and element types summed up in a flags word whose bits are
// ONNXC_QFLAG_* of dialects/Kernel/KernelABI.h.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/LinalgToKernelCalls/KernelCalls.h"
#include "passes/Conversion/Passes.h"

namespace onnxc {
#define GEN_PASS_DEF_CONVERTFUSEDTOKERNELCALLSPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;
using namespace onnxc;

/// ONNXC_QFLAG_* and ONNXC_QOUT_* of dialects/Kernel/KernelABI.h.
enum QuantFlags : int64_t {
  kRelu = ONNXC_QFLAG_RELU,
  kConstX = ONNXC_QFLAG_CONST_X,
  kConstW = ONNXC_QFLAG_CONST_W,
  kSignedX = ONNXC_QFLAG_X_SIGNED,
  kSignedW = ONNXC_QFLAG_W_SIGNED,
  kOutShift = ONNXC_QFLAG_OUT_SHIFT,
  kBiasF32 = ONNXC_QFLAG_BIAS_F32,
};
enum QuantOut : int64_t {
  kOutI32 = ONNXC_QOUT_I32,
  kOutF32 = ONNXC_QOUT_F32,
  kOutU8 = ONNXC_QOUT_U8,
  kOutS8 = ONNXC_QOUT_S8
};

/// Replaces `op` (on memrefs) by a call of `name` on its operands, `extra`
/// i64 values, and its flags word.
template <typename OpT>
static void replaceByCall(ModuleOp module, SymbolTable &symbols, OpT op,
                          StringRef name, ArrayRef<int64_t> extra) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  SmallVector<Value> args;
  for (Value operand : op->getOperands())
    args.push_back(castToDynamic(b, loc, operand));
  for (int64_t v : extra)
    args.push_back(b.create<arith::ConstantIntOp>(loc, v, 64));
  Type out = cast<MemRefType>(op.getInit().getType()).getElementType();
  int64_t kind = out.isF32()         ? kOutF32
                 : out.isInteger(32) ? kOutI32
                 : op.getYSigned()   ? kOutS8
                                     : kOutU8;
  int64_t flags = kind << kOutShift;
  if (op.getRelu())
    flags |= kRelu;
  if (isConstantBuffer(op.getX()))
    flags |= kConstX;
  if (isConstantBuffer(op.getW()))
    flags |= kConstW;
  if (op.getXSigned())
    flags |= kSignedX;
  if (op.getWSigned())
    flags |= kSignedW;
  if (cast<MemRefType>(op.getBias().getType()).getElementType().isF32())
    flags |= kBiasF32;
  args.push_back(b.create<arith::ConstantIntOp>(loc, flags, 64));
  // One symbol per element types of the result and the bias (the runtime
  // defines them all as aliases of one function).
  auto typeName = [](Type t) {
    return t.isF32() ? "f32" : t.isInteger(32) ? "i32" : "i8";
  };
  std::string symbol =
      (name + "_" + typeName(out) + "_" +
       typeName(cast<MemRefType>(op.getBias().getType()).getElementType()))
          .str();
  auto type = b.getFunctionType(ValueRange(args).getTypes(), {});
  declareKernel(module, symbols, symbol, type);
  b.create<func::CallOp>(loc, symbol, TypeRange{}, args);
  op->erase();
}

namespace {
struct ConvertFusedToKernelCallsPass
    : public onnxc::impl::ConvertFusedToKernelCallsPassBase<
          ConvertFusedToKernelCallsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<fused::QMatMulOp, fused::QConvOp>(op) && op->getNumResults() == 0)
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      if (auto matmul = dyn_cast<fused::QMatMulOp>(op)) {
        replaceByCall(module, symbols, matmul, "onnxc_kernel_qmatmul", {});
        continue;
      }
      auto conv = cast<fused::QConvOp>(op);
      SmallVector<int64_t> window(conv.getStrides());
      llvm::append_range(window, conv.getDilations());
      replaceByCall(module, symbols, conv, "onnxc_kernel_qconv2d", window);
    }
  }
};
} // namespace

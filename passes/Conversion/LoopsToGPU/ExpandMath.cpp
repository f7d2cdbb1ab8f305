//===- ExpandMath.cpp - The onnx-gpu-expand-math pass ---------------------===//
//
// Math in kernels without libdevice: polynomial approximations and
// expansions, then LLVM intrinsics for what PTX does natively.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace onnxc {
#define GEN_PASS_DEF_GPUEXPANDMATHPASS
#include "passes/Conversion/Passes.h.inc"
} // namespace onnxc

using namespace mlir;

namespace {
struct GPUExpandMathPass
    : public onnxc::impl::GPUExpandMathPassBase<GPUExpandMathPass> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();

    RewritePatternSet expand(ctx);
    populateExpandTanPattern(expand);
    populateExpandSinhPattern(expand);
    populateExpandCoshPattern(expand);
    populateExpandAsinhPattern(expand);
    populateExpandAcoshPattern(expand);
    populateExpandAtanhPattern(expand);
    populateExpandPowFPattern(expand);
    populateExpandFPowIPattern(expand);
    populateExpandExp2FPattern(expand);
    populateExpandRsqrtPattern(expand);
    populateExpandRoundFPattern(expand);
    // Ahead of MLIR's asin and acos polynomials, which lose 0.036 near 1.
    onnxc::populateApproximateAsinAcosPatterns(expand, /*benefit=*/2);
    populateMathPolynomialApproximationPatterns(expand);
    if (failed(applyPatternsAndFoldGreedily(module, std::move(expand))))
      return signalPassFailure();

    // Ops that convert-gpu-to-nvvm would send to libdevice but PTX has
    // instructions for: calls to the NVVM intrinsics.
    SmallVector<Operation *> natives;
    module.walk([&](Operation *op) {
      if (isa<math::SqrtOp, math::AbsFOp, math::FloorOp, math::CeilOp,
              math::RoundEvenOp>(op) &&
          op->getResult(0).getType().isIntOrFloat())
        natives.push_back(op);
    });
    OpBuilder b(ctx);
    for (Operation *op : natives) {
      Type type = op->getResult(0).getType();
      if (!type.isF32() && !type.isF64())
        continue;
      StringRef base =
          llvm::TypeSwitch<Operation *, StringRef>(op)
              .Case([](math::SqrtOp) { return "llvm.nvvm.sqrt.rn."; })
              .Case([](math::AbsFOp) { return "llvm.nvvm.fabs."; })
              .Case([](math::FloorOp) { return "llvm.nvvm.floor."; })
              .Case([](math::CeilOp) { return "llvm.nvvm.ceil."; })
              .Default([](Operation *) { return "llvm.nvvm.round."; });
      std::string name = (base + (type.isF32() ? "f" : "d")).str();
      auto callee = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!callee) {
        b.setInsertionPointToStart(module.getBody());
        callee = b.create<LLVM::LLVMFuncOp>(
            module.getLoc(), name, LLVM::LLVMFunctionType::get(type, {type}));
      }
      b.setInsertionPoint(op);
      auto call =
          b.create<LLVM::CallOp>(op->getLoc(), callee, op->getOperands());
      op->replaceAllUsesWith(call);
      op->erase();
    }

    LLVMTypeConverter converter(ctx);
    RewritePatternSet lower(ctx);
    populateMathToLLVMConversionPatterns(converter, lower);
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addIllegalOp<math::FmaOp, math::TruncOp, math::CopySignOp,
                        math::CountLeadingZerosOp, math::CtPopOp>();
    target.addLegalDialect<LLVM::LLVMDialect>();
    if (failed(applyPartialConversion(module, target, std::move(lower))))
      return signalPassFailure();
  }
};
} // namespace
